package rle

import (
	"encoding/binary"
	"errors"
	"io"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

const canary = 0xC0FFEE

func FuzzDecode(f *testing.F) {
	f.Add([]byte{0x03, 0x88, 0xC6, 0xFA}, uint8(3), uint16(8), uint8(5))
	f.Add([]byte{0xC8, 0x01, 0x05}, uint8(3), uint16(100), uint8(7))
	f.Add([]byte{0x00, 0x07, 0x01, 0x06, 0x02}, uint8(3), uint16(3), uint8(1))
	f.Add([]byte{0x05, 0x10, 0x32, 0x54, 0x76, 0x08}, uint8(4), uint16(9), uint8(32))
	f.Add([]byte{0x0B, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20}, uint8(17), uint16(40), uint8(33))
	f.Fuzz(func(t *testing.T, src []byte, w uint8, cnt uint16, chunk uint8) {
		width := uint(w % 34) // 33 checks the argument error
		count := int(cnt)
		dst := make([]uint32, 2, 2+count+8)
		full := dst[:cap(dst)]
		for i := range full {
			full[i] = canary
		}
		out, err := Decode(dst, src, width, count)
		if width > 32 {
			require.ErrorIs(t, err, ErrInvalidArgument)
			return
		}
		if err != nil {
			require.ErrorIs(t, err, ErrCorrupt)
			require.Len(t, out, 2)
		} else {
			require.Len(t, out, 2+count)
			for _, v := range out[2:] {
				require.Zero(t, uint64(v)>>width)
			}
		}
		for _, v := range full[2+count:] {
			require.Equal(t, uint32(canary), v)
		}
		// The index decoder fails exactly when a value is above its limit,
		// and writes nothing past count.
		limit := uint32(chunk) * 3
		ibuf := make([]uint32, count+8)
		for i := range ibuf {
			ibuf[i] = canary
		}
		ix, ierr := DecodeIndices(ibuf[:0:count], src, width, count, limit)
		if err != nil {
			require.ErrorIs(t, ierr, ErrCorrupt)
		} else {
			above := slices.ContainsFunc(out[2:], func(v uint32) bool { return v > limit })
			require.Equal(t, above, ierr != nil, "%v", ierr)
			if ierr != nil {
				require.ErrorIs(t, ierr, ErrCorrupt)
			} else {
				require.Equal(t, out[2:], ix)
			}
		}
		for _, v := range ibuf[count:] {
			require.Equal(t, uint32(canary), v)
		}
		// The narrow decoders agree, and write nothing past count.
		if width <= 8 {
			buf := make([]uint8, 1+count+40)
			for i := range buf {
				buf[i] = 0xAB
			}
			lv, lerr := DecodeLevels(buf[:1:1+count], src, width, count)
			require.Equal(t, err == nil, lerr == nil)
			if err == nil {
				require.Len(t, lv, 1+count)
				for i, v := range lv[1:] {
					require.Equal(t, out[2+i], uint32(v))
				}
			}
			require.Equal(t, uint8(0xAB), buf[0])
			for _, v := range buf[1+count:] {
				require.Equal(t, uint8(0xAB), v)
			}
		}
		if width <= 15 {
			buf := make([]int16, count+40)
			for i := range buf {
				buf[i] = -3
			}
			lv, lerr := DecodeLevels(buf[:0:count], src, width, count)
			require.Equal(t, err == nil, lerr == nil)
			if err == nil {
				for i, v := range lv {
					require.Equal(t, out[2+i], uint32(v))
				}
			}
			for _, v := range buf[count:] {
				require.Equal(t, int16(-3), v)
			}
		}
		// The boolean decoder agrees on width 1 (it also accepts RLE values
		// other than 0 and 1, which Decode rejects).
		if width == 1 {
			framed := binary.LittleEndian.AppendUint32(nil, uint32(len(src)))
			bools, _, berr := DecodeBoolean(make([]bool, 0, count), append(framed, src...), count)
			if err == nil {
				require.NoError(t, berr)
				for i, b := range bools {
					require.Equal(t, out[2+i] == 1, b)
				}
			} else if berr != nil {
				require.ErrorIs(t, berr, ErrCorrupt)
			}
		}
		// The batch decoder agrees with the page decoder, value by value.
		var d Decoder
		require.NoError(t, d.Reset(src, width, count))
		buf := make([]uint32, 1+int(chunk)%40)
		var got []uint32
		var berr error
		for {
			n, err := d.Decode(buf)
			got = append(got, buf[:n]...)
			if err != nil {
				berr = err
				break
			}
		}
		if err == nil {
			require.True(t, errors.Is(berr, io.EOF), "%v", berr)
			require.Equal(t, out[2:], append([]uint32{}, got...)[:count])
			// Re-encoding and decoding gives the same values back.
			enc, err := Encode(nil, got, width)
			require.NoError(t, err)
			back, err := Decode(nil, enc, width, count)
			require.NoError(t, err)
			require.Equal(t, got, back[:len(got)])
		} else {
			require.ErrorIs(t, berr, ErrCorrupt)
		}
	})
}

func FuzzRoundTrip(f *testing.F) {
	f.Add([]byte{1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 3, 4}, uint8(2))
	f.Fuzz(func(t *testing.T, data []byte, w uint8) {
		width := uint(w % 33)
		mask := uint32(uint64(1)<<width - 1)
		// Two bytes per value, with runs where the data repeats.
		vals := make([]uint32, len(data)/2)
		for i := range vals {
			vals[i] = uint32(binary.LittleEndian.Uint16(data[2*i:])) * 0x9E3779B1 >> 3 & mask
		}
		enc, err := Encode(nil, vals, width)
		require.NoError(t, err)
		got, err := Decode(nil, enc, width, len(vals))
		require.NoError(t, err)
		require.Equal(t, len(vals), len(got))
		for i := range vals {
			if vals[i] != got[i] {
				t.Fatalf("value %d: got %d, want %d", i, got[i], vals[i])
			}
		}
		// Levels of width 1 take the bitmap path of the encoder.
		bits := make([]uint8, len(data))
		for i, b := range data {
			bits[i] = b >> 3 & 1
		}
		enc1, err := Encode(nil, bits, 1)
		require.NoError(t, err)
		got1, err := DecodeLevels([]uint8(nil), enc1, 1, len(bits))
		require.NoError(t, err)
		require.Equal(t, len(bits), len(got1))
		for i := range bits {
			if bits[i] != got1[i] {
				t.Fatalf("bit %d: got %d, want %d", i, got1[i], bits[i])
			}
		}
		// Levels of every width up to 8 take the loops of []uint8 and
		// []int16 (assembly on amd64): the same runs as the generic loop,
		// byte for byte, decoding to the input.
		lw := uint(w % 9)
		lv := make([]int32, len(data))
		l8 := make([]uint8, len(data))
		l16 := make([]int16, len(data))
		for i, b := range data {
			// Runs where the data repeats, any value below 1<<lw.
			x := int32(b) & (1<<lw - 1)
			lv[i], l8[i], l16[i] = x, uint8(x), int16(x)
		}
		want, err := Encode(nil, lv, lw)
		require.NoError(t, err)
		got8, err := Encode(nil, l8, lw)
		require.NoError(t, err)
		require.Equal(t, want, got8, "uint8 width %d", lw)
		got16, err := Encode(nil, l16, lw)
		require.NoError(t, err)
		require.Equal(t, want, got16, "int16 width %d", lw)
		back, err := DecodeLevels([]int16(nil), got16, lw, len(l16))
		require.NoError(t, err)
		require.True(t, slices.Equal(back, l16), "int16 width %d round trip", lw)
		// The prefixed framing round-trips too.
		enc, err = EncodeWithPrefix(enc[:0], vals, width)
		require.NoError(t, err)
		stream, rest, err := SplitPrefix(enc)
		require.NoError(t, err)
		require.Empty(t, rest)
		got, err = Decode(got[:0], stream, width, len(vals))
		require.NoError(t, err)
		require.Equal(t, len(vals), len(got))
	})
}
