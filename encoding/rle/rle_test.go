package rle

import (
	"encoding/binary"
	"errors"
	"io"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// Hand-computed vectors from the spec text.
func TestSpecVectors(t *testing.T) {
	// Bit-packed run: values 0..7, width 3, one group: header (1<<1)|1.
	src := []byte{0x03, 0x88, 0xC6, 0xFA}
	got, err := Decode(nil, src, 3, 8)
	require.NoError(t, err)
	require.Equal(t, []uint32{0, 1, 2, 3, 4, 5, 6, 7}, got)
	enc, err := Encode(nil, []uint32{0, 1, 2, 3, 4, 5, 6, 7}, 3)
	require.NoError(t, err)
	require.Equal(t, src, enc)

	// RLE run: 100 copies of 5, width 3: header 200 as ULEB128 (0xC8 0x01),
	// then the value in ceil(3/8) = 1 byte.
	src = []byte{0xC8, 0x01, 0x05}
	got, err = Decode(got[:0], src, 3, 100)
	require.NoError(t, err)
	require.Len(t, got, 100)
	for _, v := range got {
		require.Equal(t, uint32(5), v)
	}
	vals := make([]uint32, 100)
	for i := range vals {
		vals[i] = 5
	}
	enc, err = Encode(nil, vals, 3)
	require.NoError(t, err)
	require.Equal(t, src, enc)

	// RLE value of width 12 takes 2 little-endian bytes; width 17 three.
	got, err = Decode(nil, []byte{0x04, 0x34, 0x0A}, 12, 2)
	require.NoError(t, err)
	require.Equal(t, []uint32{0xA34, 0xA34}, got)
	got, err = Decode(nil, []byte{0x02, 0x01, 0x02, 0x01}, 17, 1)
	require.NoError(t, err)
	require.Equal(t, []uint32{0x10201}, got)

	// Width 0: all zeros, from either run kind, without value bytes.
	got, err = Decode(nil, []byte{0x0A, 0x03}, 0, 13)
	require.NoError(t, err)
	require.Equal(t, make([]uint32, 13), got)
}

func TestPaddedLastGroup(t *testing.T) {
	// 5 values 1,0,1,1,1 width 1 in one padded group: 0b00011101.
	got, err := Decode(nil, []byte{0x03, 0x1D}, 1, 5)
	require.NoError(t, err)
	require.Equal(t, []uint32{1, 0, 1, 1, 1}, got)
	enc, err := Encode(nil, got, 1)
	require.NoError(t, err)
	require.Equal(t, []byte{0x03, 0x1D}, enc)

	// A last group truncated to the bytes holding the wanted values is
	// accepted: 9 values of width 4 in 2 groups, only 5 of 8 bytes present.
	got, err = Decode(nil, []byte{0x05, 0x10, 0x32, 0x54, 0x76, 0x08}, 4, 9)
	require.NoError(t, err)
	require.Equal(t, []uint32{0, 1, 2, 3, 4, 5, 6, 7, 8}, got)
}

func TestZeroLengthRuns(t *testing.T) {
	// Empty RLE run (header 0, value byte), empty bit-packed run (header 1),
	// then 3 copies of 2.
	got, err := Decode(nil, []byte{0x00, 0x07, 0x01, 0x06, 0x02}, 3, 3)
	require.NoError(t, err)
	require.Equal(t, []uint32{2, 2, 2}, got)
}

// TestOverlongRuns checks that runs declaring more values than the stream
// still needs are cut to the needed values, as parquet-java, arrow-cpp,
// arrow-rs and DuckDB read them: DuckDB pads bit-packed runs to whole
// blocks of 32 values, and a run may be longer than the rest of the page.
func TestOverlongRuns(t *testing.T) {
	for name, tc := range map[string]struct {
		src   []byte
		width uint
		want  []uint32
	}{
		"rle past count":          {[]byte{0x06, 0x01}, 3, []uint32{1, 1}},
		"huge rle run":            {[]byte{0xfe, 0xff, 0xff, 0xff, 0x0f, 0x01}, 1, []uint32{1, 1, 1, 1, 1, 1, 1, 1, 1, 1}},
		"packed past count":       {[]byte{0x05, 0x88, 0xC6, 0xFA, 0, 0, 0}, 3, []uint32{0, 1, 2, 3, 4, 5, 6, 7}},
		"packed 4 groups for 3":   {[]byte{0x09, 0x88, 0xC6, 0xFA}, 3, []uint32{0, 1, 2}},
		"huge packed run":         {[]byte{0xff, 0xff, 0xff, 0xff, 0x0f, 0x1D}, 1, []uint32{1, 0, 1, 1, 1}},
		"packed then ignored run": {[]byte{0x03, 0x1D, 0x08, 0x01}, 1, []uint32{1, 0, 1}},
	} {
		t.Run(name, func(t *testing.T) {
			got, err := Decode(nil, tc.src, tc.width, len(tc.want))
			require.NoError(t, err)
			require.Equal(t, tc.want, got)
			var d Decoder
			require.NoError(t, d.Reset(tc.src, tc.width, len(tc.want)))
			buf := make([]uint32, len(tc.want)+3)
			n, err := d.Decode(buf)
			require.NoError(t, err)
			require.Equal(t, tc.want, buf[:n])
			if tc.width == 1 {
				lv, err := DecodeLevels([]uint8(nil), tc.src, 1, len(tc.want))
				require.NoError(t, err)
				require.Len(t, lv, len(tc.want))
				for i, v := range tc.want {
					require.Equal(t, uint8(v), lv[i])
				}
				l16, err := DecodeLevels([]int16(nil), tc.src, 1, len(tc.want))
				require.NoError(t, err)
				for i, v := range tc.want {
					require.Equal(t, int16(v), l16[i])
				}
			}
		})
	}
}

func TestCorrupt(t *testing.T) {
	for name, tc := range map[string]struct {
		src   []byte
		width uint
		count int
	}{
		"empty":            {nil, 3, 1},
		"truncated header": {[]byte{0x80}, 3, 1},
		"header overflow":  {[]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}, 3, 1},
		"missing value":    {[]byte{0x04}, 3, 2},
		"short value":      {[]byte{0x04, 0x01}, 9, 2},
		"packed truncated": {[]byte{0x03, 0x88, 0xC6}, 3, 8},
		"value too wide":   {[]byte{0x04, 0x08}, 3, 2},
		"ends early":       {[]byte{0x04, 0x01}, 3, 3},
	} {
		t.Run(name, func(t *testing.T) {
			dst := make([]uint32, 1, 4)
			out, err := Decode(dst, tc.src, tc.width, tc.count)
			require.ErrorIs(t, err, ErrCorrupt)
			require.Len(t, out, 1)
		})
	}
	_, err := Decode(nil, nil, 33, 0)
	require.ErrorIs(t, err, ErrInvalidArgument)
	_, err = Decode(nil, nil, 3, -1)
	require.ErrorIs(t, err, ErrInvalidArgument)
	_, err = Encode(nil, []uint32{8}, 3)
	require.ErrorIs(t, err, ErrInvalidArgument)
	_, err = Encode(nil, []int8{-1}, 8)
	require.ErrorIs(t, err, ErrInvalidArgument)
	_, err = Encode(nil, []uint8{1}, 33)
	require.ErrorIs(t, err, ErrInvalidArgument)
}

func TestStickyError(t *testing.T) {
	var d Decoder
	require.NoError(t, d.Reset([]byte{0x04, 0x01, 0x80}, 3, 5))
	buf := make([]uint32, 10)
	n, err := d.Decode(buf)
	require.Equal(t, 2, n)
	require.ErrorIs(t, err, ErrCorrupt)
	_, err = d.Decode(buf)
	require.ErrorIs(t, err, ErrCorrupt)
}

// genRuns returns n values of the given width made of a random mix of
// repetitions and noise.
func genRuns(r *rand.Rand, n int, width uint) []uint32 {
	mask := uint32(uint64(1)<<width - 1)
	out := make([]uint32, 0, n)
	for len(out) < n {
		l := min(n-len(out), 1+r.IntN(40))
		if r.IntN(2) == 0 {
			v := r.Uint32() & mask
			for range l {
				out = append(out, v)
			}
		} else {
			for range l {
				out = append(out, r.Uint32()&mask)
			}
		}
	}
	return out
}

func TestRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for width := uint(0); width <= 32; width++ {
		for _, n := range []int{0, 1, 7, 8, 9, 31, 32, 33, 100, 1000, 5000} {
			vals := genRuns(r, n, width)
			enc, err := Encode([]byte{0xEE}, vals, width)
			require.NoError(t, err)
			got, err := Decode([]uint32{42}, enc[1:], width, n)
			require.NoError(t, err, "width %d n %d", width, n)
			require.Equal(t, append([]uint32{42}, vals...), got, "width %d n %d", width, n)

			// The batch decoder gives the same values whatever the chunking.
			var d Decoder
			require.NoError(t, d.Reset(enc[1:], width, n))
			var all []uint32
			buf := make([]uint32, 1+r.IntN(70))
			for {
				k, err := d.Decode(buf)
				all = append(all, buf[:k]...)
				if errors.Is(err, io.EOF) {
					break
				}
				require.NoError(t, err)
			}
			require.Equal(t, len(vals), len(all))
			if n > 0 {
				require.Equal(t, vals, all)
			}
		}
	}
}

func TestPrefixAndBitWidth(t *testing.T) {
	enc, err := EncodeWithPrefix([]byte{9}, []uint8{1, 1, 1, 1, 1, 1, 1, 1, 1, 0}, 1)
	require.NoError(t, err)
	stream, rest, err := SplitPrefix(append(enc[1:], 0xAB))
	require.NoError(t, err)
	require.Equal(t, []byte{0xAB}, rest)
	got, err := Decode(nil, stream, 1, 10)
	require.NoError(t, err)
	require.Equal(t, []uint32{1, 1, 1, 1, 1, 1, 1, 1, 1, 0}, got)
	_, _, err = SplitPrefix([]byte{5, 0, 0, 0, 1})
	require.ErrorIs(t, err, ErrCorrupt)
	_, _, err = SplitPrefix([]byte{5, 0})
	require.ErrorIs(t, err, ErrCorrupt)

	w, s, err := SplitBitWidth([]byte{20, 1, 2})
	require.NoError(t, err)
	require.Equal(t, uint(20), w)
	require.Equal(t, []byte{1, 2}, s)
	_, _, err = SplitBitWidth([]byte{33})
	require.ErrorIs(t, err, ErrCorrupt)
	_, _, err = SplitBitWidth(nil)
	require.ErrorIs(t, err, ErrCorrupt)
	require.Equal(t, uint(0), BitWidth(0))
	require.Equal(t, uint(3), BitWidth(7))
	require.Equal(t, uint(32), BitWidth(1<<31))
}

func TestBoolean(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, n := range []int{0, 1, 9, 100, 1000} {
		vals := make([]bool, n)
		for i := range vals {
			vals[i] = r.IntN(10) != 0
		}
		enc := EncodeBoolean(nil, vals)
		got, rest, err := DecodeBoolean([]bool{}, append(enc, 1, 2), n)
		require.NoError(t, err)
		require.Equal(t, []byte{1, 2}, rest)
		require.Equal(t, vals, got)
	}
	_, _, err := DecodeBoolean(nil, []byte{2, 0, 0, 0, 0x04, 0x01}, 3)
	require.ErrorIs(t, err, ErrCorrupt)
}

func TestZeroAllocs(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	vals := genRuns(r, 4096, 12)
	enc, err := Encode(nil, vals, 12)
	require.NoError(t, err)
	dst := make([]uint32, 0, 4096)
	bools := make([]bool, 0, 4096)
	benc := EncodeBoolean(nil, make([]bool, 4096))
	out := make([]byte, 0, 2*len(enc))
	var d Decoder
	buf := make([]uint32, 100)
	allocs := testing.AllocsPerRun(50, func() {
		var err error
		if dst, err = Decode(dst[:0], enc, 12, 4096); err != nil {
			t.Fatal(err)
		}
		if bools, _, err = DecodeBoolean(bools[:0], benc, 4096); err != nil {
			t.Fatal(err)
		}
		if err := d.Reset(enc, 12, 4096); err != nil {
			t.Fatal(err)
		}
		if _, err := d.Decode(buf); err != nil {
			t.Fatal(err)
		}
		if out, err = Encode(out[:0], vals, 12); err != nil {
			t.Fatal(err)
		}
	})
	require.Zero(t, allocs)
}

func TestBooleanRunValueFF(t *testing.T) {
	// parquet-go writes 16 trues as an RLE run whose value byte is 0xFF.
	got, _, err := DecodeBoolean(nil, []byte{2, 0, 0, 0, 0x20, 0xFF}, 16)
	require.NoError(t, err)
	for _, v := range got {
		require.True(t, v)
	}
	require.Len(t, got, 16)
	// For levels and indices the same run is corrupt.
	_, err = Decode(nil, []byte{0x20, 0xFF}, 1, 16)
	require.ErrorIs(t, err, ErrCorrupt)
}

func TestDecodeLevels(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for _, width := range []uint{0, 1, 3, 8} {
		vals := genRuns(r, 3000, width)
		enc, err := Encode(nil, vals, width)
		require.NoError(t, err)
		got8, err := DecodeLevels([]uint8{9}, enc, width, len(vals))
		require.NoError(t, err)
		got16, err := DecodeLevels([]int16(nil), enc, width, len(vals))
		require.NoError(t, err)
		got32, err := DecodeLevels([]int32(nil), enc, width, len(vals))
		require.NoError(t, err)
		require.Equal(t, uint8(9), got8[0])
		for i, v := range vals {
			require.Equal(t, uint8(v), got8[1+i])
			require.Equal(t, int16(v), got16[i])
			require.Equal(t, int32(v), got32[i])
		}
		// The streaming decoder agrees, chunk by chunk.
		var d Decoder
		require.NoError(t, d.Reset(enc, width, len(vals)))
		var all []uint8
		buf := make([]uint32, 45)
		for {
			n, err := d.Decode(buf)
			for _, v := range buf[:n] {
				all = append(all, uint8(v))
			}
			if err != nil {
				require.ErrorIs(t, err, io.EOF)
				break
			}
		}
		require.Equal(t, got8[1:], all)
	}
	_, err := DecodeLevels([]uint8(nil), nil, 9, 0)
	require.ErrorIs(t, err, ErrInvalidArgument)
	_, err = DecodeLevels([]int16(nil), nil, 16, 0)
	require.ErrorIs(t, err, ErrInvalidArgument)
	_, err = DecodeLevels([]int16(nil), []byte{0x04, 0x08}, 3, 2)
	require.ErrorIs(t, err, ErrCorrupt)
	dst := make([]uint8, 0, 4096)
	enc, _ := Encode(nil, genRuns(r, 4096, 2), 2)
	require.Zero(t, testing.AllocsPerRun(20, func() { dst, _ = DecodeLevels(dst[:0], enc, 2, 4096) }))
}

// TestBooleanOverlongRuns decodes RLE booleans whose runs declare more
// values than the page holds (a DuckDB 32-group bit-packed block with only
// the needed byte, an RLE run longer than the rest).
func TestBooleanOverlongRuns(t *testing.T) {
	got, rest, err := DecodeBoolean(nil, []byte{2, 0, 0, 0, 32<<1 | 1, 0b1101, 9}, 4)
	require.NoError(t, err)
	require.Equal(t, []bool{true, false, true, true}, got)
	require.Equal(t, []byte{9}, rest)
	got, _, err = DecodeBoolean(nil, []byte{2, 0, 0, 0, 50 << 1, 1}, 3)
	require.NoError(t, err)
	require.Equal(t, []bool{true, true, true}, got)
	_, _, err = DecodeBoolean(nil, []byte{2, 0, 0, 0, 32<<1 | 1, 0b1101}, 9)
	require.ErrorIs(t, err, ErrCorrupt)
}

// mixedStream returns count values of width w below limit and a stream of
// them shaped like writers' pages: RLE runs of 1-200 values, bit-packed
// runs of 1-70 groups, the last group of the page padded.
func mixedStream(r *rand.Rand, w uint, limit uint64, count int) ([]uint32, []byte) {
	var vals []uint32
	var out []byte
	for len(vals) < count {
		if r.IntN(2) == 0 {
			k := min(1+r.IntN(200), count-len(vals))
			v := uint32(r.Uint64N(limit))
			out = binary.AppendUvarint(out, uint64(k)<<1)
			for i := uint(0); i < w; i += 8 {
				out = append(out, byte(v>>i))
			}
			for range k {
				vals = append(vals, v)
			}
			continue
		}
		groups := min(1+r.IntN(70), (count-len(vals)+7)/8)
		out = binary.AppendUvarint(out, uint64(groups)<<1|1)
		var acc uint64
		var nacc uint
		for range 8 * groups {
			v := uint32(0)
			if len(vals) < count {
				v = uint32(r.Uint64N(limit))
				vals = append(vals, v)
			}
			acc |= uint64(v) << nacc
			for nacc += w; nacc >= 8; nacc -= 8 {
				out = append(out, byte(acc))
				acc >>= 8
			}
		}
		if nacc > 0 {
			out = append(out, byte(acc))
		}
	}
	return vals, out
}

// TestEveryWidth decodes pages of mixed runs at every width into every
// level type and as checked indices, against the values they were written
// from, with canaries past the page.
func TestEveryWidth(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for w := uint(0); w <= 32; w++ {
		for _, count := range []int{1, 7, 8, 9, 31, 33, 100, 1000, 4099} {
			limit := uint64(1) << w
			vals, src := mixedStream(r, w, limit, count)
			// Every decoder reads only the bytes of the values it needs.
			src = src[:len(src):len(src)]
			got, err := Decode(make([]uint32, 0, count), src, w, count)
			require.NoError(t, err, "width %d count %d", w, count)
			require.Equal(t, vals, got)
			checkLevels[uint8](t, vals, src, w, 8)
			checkLevels[int16](t, vals, src, w, 15)
			checkLevels[uint16](t, vals, src, w, 16)
			checkLevels[int32](t, vals, src, w, 31)
			// Indices: the largest value is allowed, one less as the
			// limit is an error.
			m := slices.Max(vals)
			ix, err := DecodeIndices(nil, src, w, count, m)
			require.NoError(t, err)
			require.Equal(t, vals, ix)
			if m > 0 {
				_, err = DecodeIndices(nil, src, w, count, m-1)
				require.ErrorIs(t, err, ErrCorrupt)
			}
		}
	}
}

func checkLevels[T Level](t *testing.T, vals []uint32, src []byte, w uint, bits uint) {
	t.Helper()
	if w > bits {
		return
	}
	buf := make([]T, len(vals)+40)
	for i := range buf {
		buf[i] = 0x55
	}
	got, err := DecodeLevels(buf[:0:len(vals)], src, w, len(vals))
	require.NoError(t, err, "%T width %d", buf, w)
	for i, v := range vals {
		require.Equal(t, v, uint32(got[i]), "%T width %d value %d", buf, w, i)
	}
	for _, v := range buf[len(vals):] {
		require.Equal(t, T(0x55), v)
	}
}

// TestEncodePathsAgree checks that the encoder's loops of their own type
// ([]uint8 and []int16 levels, []uint32 indices, packed by PEXT or by
// shifts) write the same runs as the generic loop ([]int32), byte for byte,
// at every width and length, and that the result decodes to the input.
func TestEncodePathsAgree(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 18))
	for w := uint(0); w <= 15; w++ {
		for _, count := range []int{0, 1, 7, 8, 9, 15, 16, 17, 31, 33, 100, 1000, 4099, 1<<16 + 1000} {
			vals, _ := mixedStream(r, w, uint64(1)<<w, count)
			v32 := make([]int32, len(vals))
			v16 := make([]int16, len(vals))
			v8 := make([]uint8, len(vals))
			for i, x := range vals {
				v32[i], v16[i], v8[i] = int32(x), int16(x), uint8(x)
			}
			// A prefix in dst and tight capacities catch writes past the run.
			want, err := Encode([]byte{0xaa}, v32, w)
			require.NoError(t, err)
			got16, err := Encode([]byte{0xaa}, v16, w)
			require.NoError(t, err)
			require.Equal(t, want, got16, "int16 width %d count %d", w, count)
			got32, err := Encode([]byte{0xaa}, vals, w)
			require.NoError(t, err)
			require.Equal(t, want, got32, "uint32 width %d count %d", w, count)
			dec, err := DecodeLevels([]int32(nil), want[1:], w, count)
			require.NoError(t, err)
			require.True(t, slices.Equal(v32, dec), "decode width %d count %d", w, count)
			if w > 8 {
				continue
			}
			got8, err := Encode([]byte{0xaa}, v8, w)
			require.NoError(t, err)
			require.Equal(t, want, got8, "uint8 width %d count %d", w, count)
		}
	}
}

// TestEncodeTooWide checks that every loop rejects a value wider than the
// bit width (or negative) wherever it is, and leaves dst unchanged.
func TestEncodeTooWide(t *testing.T) {
	for w := uint(0); w <= 8; w++ {
		for _, count := range []int{1, 8, 9, 64, 100} {
			for _, at := range []int{0, count / 2, count - 1} {
				v8 := make([]uint8, count)
				v16 := make([]int16, count)
				if w < 8 {
					v8[at] = 1 << w
					_, err := Encode([]byte{1}, v8, w)
					require.ErrorIs(t, err, ErrInvalidArgument, "uint8 width %d at %d/%d", w, at, count)
				}
				v16[at] = 1 << w
				out, err := Encode([]byte{1}, v16, w)
				require.ErrorIs(t, err, ErrInvalidArgument, "int16 width %d at %d/%d", w, at, count)
				require.Equal(t, []byte{1}, out)
				v16[at] = -1
				_, err = Encode(nil, v16, w)
				require.ErrorIs(t, err, ErrInvalidArgument, "int16 -1 width %d", w)
			}
		}
	}
	// Inside a bit-packed stretch too (where the int16 assembly tests the
	// groups narrowed to bytes), and where the values out of range narrow
	// to a group of 8 equal bytes.
	r := rand.New(rand.NewPCG(21, 22))
	for w := uint(1); w <= 8; w++ {
		for _, bad := range [][]int16{{1 << w}, {-1}, {255, 256, 255, 256, 255, 256, 255, 256}, {-1, -2, -3, -4, -5, -6, -7, -8}} {
			v16 := make([]int16, 200)
			for i := range v16 {
				v16[i] = int16(r.IntN(1 << w))
			}
			copy(v16[96:], bad)
			out, err := Encode([]byte{1}, v16, w)
			require.ErrorIs(t, err, ErrInvalidArgument, "int16 width %d %v", w, bad)
			require.Equal(t, []byte{1}, out)
		}
	}
}

// TestEncodeLongRuns checks the paths against the generic loop on pages
// whose bit-packed runs need headers of 2 and 3 bytes and span the chunks
// of the assembly, and whose RLE runs do too.
func TestEncodeLongRuns(t *testing.T) {
	r := rand.New(rand.NewPCG(19, 20))
	for _, w := range []uint{1, 3, 8} {
		for _, n := range []int{64*8 - 1, 64 * 8, 64*8 + 5, 8192*8 + 3, 200000} {
			v32 := make([]int32, n)
			for i := range v32 {
				// Random values, then one long repeat in the middle.
				v32[i] = int32(r.Uint32N(1 << w))
				if i > n/3 && i < n/2 {
					v32[i] = 1
				}
			}
			v16 := make([]int16, n)
			v8 := make([]uint8, n)
			for i, x := range v32 {
				v16[i], v8[i] = int16(x), uint8(x)
			}
			want, err := Encode(nil, v32, w)
			require.NoError(t, err)
			got8, err := Encode(nil, v8, w)
			require.NoError(t, err)
			require.Equal(t, want, got8, "uint8 width %d n %d", w, n)
			got16, err := Encode(nil, v16, w)
			require.NoError(t, err)
			require.Equal(t, want, got16, "int16 width %d n %d", w, n)
		}
	}
}
