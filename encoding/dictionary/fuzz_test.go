package dictionary

import (
	"encoding/binary"
	"io"
	"testing"

	"github.com/pqcodec/pqcodec/encoding/plain"
	"github.com/stretchr/testify/require"
)

func FuzzDecode(f *testing.F) {
	f.Add([]byte{1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0}, []byte{2, 0x08, 0x02}, uint16(4))
	f.Add([]byte{1, 0, 0, 0, 'a', 0, 0, 0, 0}, []byte{1, 0x03, 0x02}, uint16(3))
	f.Fuzz(func(t *testing.T, page, idx []byte, cnt uint16) {
		count := int(cnt)
		var d Dict[int32]
		if err := d.Reset(page, len(page)/4); err != nil {
			require.ErrorIs(t, err, ErrCorrupt)
			return
		}
		dst := make([]int32, 1, 1+count+4)
		full := dst[:cap(dst)]
		for i := range full {
			full[i] = -77
		}
		out, err := d.Decode(dst, idx, count)
		if err != nil {
			require.ErrorIs(t, err, ErrCorrupt)
			require.Len(t, out, 1)
		} else {
			require.Len(t, out, 1+count)
		}
		for _, v := range full[1+count:] {
			require.Equal(t, int32(-77), v)
		}
		ix, ierr := DecodeIndices(nil, idx, count, d.Len())
		require.Equal(t, err == nil, ierr == nil)
		if err == nil {
			for i, k := range ix {
				require.Equal(t, d.Values()[k], out[1+i])
			}
		}
		// The streaming Decoder (chunks of the rle.Decoder, not the page
		// routines Decode uses) agrees wherever Decode succeeds.
		if err == nil {
			var sd Decoder[int32]
			require.NoError(t, sd.Reset(&d, idx, count))
			got := make([]int32, 0, count)
			buf := make([]int32, 7)
			for {
				n, serr := sd.Decode(buf)
				got = append(got, buf[:n]...)
				if serr == io.EOF {
					break
				}
				require.NoError(t, serr)
			}
			require.Equal(t, out[1:], got)
		}
		// Wider values: the indices are decoded into the tail of the
		// values' memory and overwritten front to back.
		fuzzWide(t, page, idx, count, 8, int64(-77))
		fuzzWide(t, page, idx, count, 12, [12]byte{0x5A, 0x5A, 0x5A, 0x5A, 0x5A, 0x5A, 0x5A, 0x5A, 0x5A, 0x5A, 0x5A, 0x5A})

		var b BytesDict
		if err := b.Reset(page, 0); err == nil {
			return // an empty page only
		}
		n, _, perr := plain.ByteArrayCount(page)
		if perr != nil {
			return
		}
		require.NoError(t, b.Reset(page, n))
		values, offsets, err := b.Decode(nil, nil, idx, count)
		// With room for the longest values, the gather checks the
		// indices itself instead of a first pass: same result.
		roomy, roomyOffsets, roomyErr := b.Decode(make([]byte, 0, 64<<10), nil, idx, count)
		require.Equal(t, err == nil, roomyErr == nil, "%v / %v", err, roomyErr)
		if err == nil {
			require.Equal(t, string(values), string(roomy))
			require.Equal(t, offsets, roomyOffsets)
		}
		if err != nil {
			require.ErrorIs(t, err, ErrCorrupt)
			require.Empty(t, values)
			require.Empty(t, offsets)
			return
		}
		require.Len(t, offsets, count+1)
	})
}

func FuzzRoundTrip(f *testing.F) {
	f.Add([]byte{1, 2, 3, 1, 2, 3, 9}, uint16(0))
	f.Fuzz(func(t *testing.T, data []byte, limit uint16) {
		vals := make([]int64, len(data)/2)
		for i := range vals {
			vals[i] = int64(binary.LittleEndian.Uint16(data[2*i:]) % 300)
		}
		e := NewEncoder[int64](int(limit))
		n, err := e.Put(vals)
		if err != nil {
			require.ErrorIs(t, err, ErrFull)
			require.Positive(t, limit)
			require.LessOrEqual(t, e.DictSize(), int(limit))
			require.Greater(t, e.DictSize()+8, int(limit))
		}
		var d Dict[int64]
		require.NoError(t, d.Reset(e.AppendDictionaryPage(nil), e.Len()))
		got, err := d.Decode(nil, e.AppendIndexPage(nil), n)
		require.NoError(t, err)
		require.Len(t, got, n)
		for i := range n {
			if got[i] != vals[i] {
				t.Fatalf("value %d: got %d, want %d", i, got[i], vals[i])
			}
		}
	})
}

// fuzzWide decodes idx against a dictionary of T read from page and checks
// the values against DecodeIndices and the dictionary, and that nothing past
// the values is written.
func fuzzWide[T int64 | [12]byte](t *testing.T, page, idx []byte, count, size int, canary T) {
	var d Dict[T]
	if d.Reset(page, len(page)/size) != nil {
		return
	}
	dst := make([]T, 2, 2+count+3)
	full := dst[:cap(dst)]
	for i := range full {
		full[i] = canary
	}
	out, err := d.Decode(dst, idx, count)
	ix, ierr := DecodeIndices(nil, idx, count, d.Len())
	require.Equal(t, err == nil, ierr == nil, "%v / %v", err, ierr)
	if err != nil {
		require.ErrorIs(t, err, ErrCorrupt)
		require.Len(t, out, 2)
		return
	}
	require.Len(t, out, 2+count)
	require.Equal(t, canary, out[0])
	for i, k := range ix {
		require.Equal(t, d.Values()[k], out[2+i])
	}
	for _, v := range full[2+count:] {
		require.Equal(t, canary, v)
	}
}
