package dictionary

import (
	"encoding/binary"
	"math/rand/v2"
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
		// Wider values: the indices are decoded into the tail of the
		// values' memory and overwritten front to back.
		fuzzWide(t, page, idx, count, 8, int64(-77))
		fuzzWide(t, page, idx, count, 12, [12]byte{0x5A, 0x5A, 0x5A, 0x5A, 0x5A, 0x5A, 0x5A, 0x5A, 0x5A, 0x5A, 0x5A, 0x5A})
		// Byte arrays of every length around slack, in a dictionary
		// whose values page does not have to hold.
		fuzzBytes(t, page, idx, count)

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

// fuzzBytes decodes idx against a BytesDict of one value per byte of lens
// (of the byte's length modulo 3*slack+2, random bytes), with Decode into
// buffers of random spare capacity and with DecodeFlat, and checks both
// against DecodeIndices and Value: the same values and end offsets, the
// same failures, the lengths kept on error, nothing written past the
// capacities.
func fuzzBytes(t *testing.T, lens, idx []byte, count int) {
	r := rand.New(rand.NewPCG(uint64(len(lens)), uint64(count)))
	var vals []byte
	offs := []int32{0}
	for _, b := range lens {
		for range int(b) % (3*slack + 2) {
			vals = append(vals, byte(r.Uint32()))
		}
		offs = append(offs, int32(len(vals)))
	}
	var d BytesDict
	require.NoError(t, d.Reset(plain.EncodeByteArray(nil, vals, offs), len(lens)))
	ix, ierr := DecodeIndices(nil, idx, count, d.Len())
	var want []byte
	wantEnds := []int32{2}
	for _, k := range ix {
		want = append(want, d.Value(int(k))...)
		wantEnds = append(wantEnds, int32(2+len(want)))
	}

	const canary = 0xA5
	// values holds "xy" and room for none, some or all of the values.
	room := 2 + r.IntN(len(want)+slack+1)
	if r.IntN(4) == 0 {
		room = 2 + len(want) + 2*slack
	}
	vbuf := make([]byte, room+64)
	for i := range vbuf {
		vbuf[i] = canary
	}
	values := append(vbuf[:0:room], 'x', 'y')
	offsets := []int32{0, 2}
	obuf := make([]int32, 2+count+8)
	for i := range obuf {
		obuf[i] = -9
	}
	if r.IntN(2) == 0 {
		offsets = append(obuf[:0:2+count], offsets...)
	}
	gotV, gotO, err := d.Decode(values, offsets, idx, count)
	require.Equal(t, ierr == nil, err == nil, "%v / %v", ierr, err)
	for _, c := range vbuf[room:] {
		require.Equal(t, byte(canary), c, "values written past their capacity")
	}
	for _, o := range obuf[2+count:] {
		require.Equal(t, int32(-9), o, "offsets written past their capacity")
	}
	if err != nil {
		require.ErrorIs(t, err, ErrCorrupt)
		require.Equal(t, "xy", string(gotV))
		require.Equal(t, []int32{0, 2}, gotO)
	} else {
		require.Equal(t, "xy"+string(want), string(gotV))
		require.Equal(t, append([]int32{0}, wantEnds...), gotO)
	}
	// Without offsets: the start offset is added.
	if err == nil {
		gotV, gotO, err = d.Decode(nil, nil, idx, count)
		require.NoError(t, err)
		require.Equal(t, string(want), string(gotV))
		for i, e := range gotO {
			require.Equal(t, wantEnds[i]-2, e)
		}
	}
	flat, ferr := d.DecodeFlat([]byte("z"), idx, count)
	require.Equal(t, ierr == nil, ferr == nil, "%v / %v", ierr, ferr)
	if ferr != nil {
		require.ErrorIs(t, ferr, ErrCorrupt)
		require.Equal(t, "z", string(flat))
	} else {
		require.Equal(t, "z"+string(want), string(flat))
	}
}

// FuzzBytesRoundTrip encodes byte arrays (data cut at every 0xff byte, so
// values of any length and many repeats) through BytesEncoder under a limit
// and decodes them back, checking each value and that every distinct value
// is in the dictionary once.
func FuzzBytesRoundTrip(f *testing.F) {
	f.Add([]byte("abc\xffde\xffabc\xff\xff0123456789abcdefg\xffde"), uint16(0))
	f.Fuzz(func(t *testing.T, data []byte, limit uint16) {
		offsets := []int32{0}
		var values []byte
		for _, c := range data {
			if c == 0xff {
				offsets = append(offsets, int32(len(values)))
				continue
			}
			values = append(values, c)
		}
		offsets = append(offsets, int32(len(values)))
		e := NewBytesEncoder(int(limit))
		n, err := e.Put(values, offsets)
		if err != nil {
			require.ErrorIs(t, err, ErrFull)
			require.LessOrEqual(t, e.DictSize(), int(limit))
		}
		seen := map[string]bool{}
		for i := range e.Len() {
			require.False(t, seen[string(e.Value(i))], "value %q twice in the dictionary", e.Value(i))
			seen[string(e.Value(i))] = true
		}
		var d BytesDict
		require.NoError(t, d.Reset(e.AppendDictionaryPage(nil), e.Len()))
		got, offs, err := d.Decode(nil, nil, e.AppendIndexPage(nil), n)
		require.NoError(t, err)
		for i := range n {
			require.Equal(t, string(values[offsets[i]:offsets[i+1]]), string(got[offs[i]:offs[i+1]]), "value %d", i)
		}
	})
}
