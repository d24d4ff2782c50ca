package dictionary

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/pqcodec/pqcodec/encoding/plain"
	"github.com/stretchr/testify/require"
)

func roundTrip[T plain.Fixed](t *testing.T, vals []T) {
	t.Helper()
	e := NewEncoder[T](0)
	n, err := e.Put(vals)
	require.NoError(t, err)
	require.Equal(t, len(vals), n)
	page := e.AppendDictionaryPage(nil)
	require.Equal(t, e.DictSize(), len(page))
	idx := e.AppendIndexPage([]byte{0xEE})[1:]
	require.Zero(t, e.NumIndices())

	var d Dict[T]
	require.NoError(t, d.Reset(page, e.Len()))
	got, err := d.Decode([]T{}, idx, len(vals))
	require.NoError(t, err)
	require.Equal(t, fmt.Sprint(vals), fmt.Sprint(got)) // NaN-safe comparison
}

func TestRoundTripFixed(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, card := range []int{1, 2, 7, 300, 5000} {
		n := 3000
		i32 := make([]int32, n)
		i64 := make([]int64, n)
		f32 := make([]float32, n)
		f64 := make([]float64, n)
		i96 := make([][12]byte, n)
		for i := range n {
			k := r.IntN(card)
			i32[i] = int32(k) * -7
			i64[i] = int64(k) << 40
			f32[i] = float32(k) / 3
			f64[i] = float64(k) * math.Pi
			i96[i][11] = byte(k)
			i96[i][0] = byte(k >> 8)
		}
		roundTrip(t, i32)
		roundTrip(t, i64)
		roundTrip(t, f32)
		roundTrip(t, f64)
		roundTrip(t, i96)
	}
	roundTrip(t, []float64{0, math.Copysign(0, -1), math.NaN(), math.NaN(), 1})
	roundTrip(t, []int32{})
}

func TestSignedZeroAndNaNAreDistinct(t *testing.T) {
	e := NewEncoder[float64](0)
	_, err := e.Put([]float64{0, math.Copysign(0, -1), 0, math.NaN(), math.NaN()})
	require.NoError(t, err)
	require.Equal(t, 3, e.Len())
	var d Dict[float64]
	require.NoError(t, d.Reset(e.AppendDictionaryPage(nil), 3))
	require.True(t, math.Signbit(d.Values()[1]))
}

func TestBoolDict(t *testing.T) {
	var d Dict[bool]
	require.NoError(t, d.Reset([]byte{0x02}, 2)) // false, true
	// Width 1, bit-packed 0,1,1,0,1,0,0,0.
	got, err := d.Decode(nil, []byte{1, 0x03, 0x16}, 5)
	require.NoError(t, err)
	require.Equal(t, []bool{false, true, true, false, true}, got)
	require.ErrorIs(t, d.Reset(nil, 2), ErrCorrupt)
	// Bytes after the last value are ignored, as other readers do.
	require.NoError(t, d.Reset([]byte{0x02, 0xff}, 2))
	require.Equal(t, []bool{false, true}, d.Values())
}

func TestIndexOutOfRange(t *testing.T) {
	var d Dict[int32]
	require.NoError(t, d.Reset(plain.Encode(nil, []int32{10, 20, 30}), 3))
	// Width 2, RLE run of 4 copies of 3: index 3 is past the dictionary.
	dst := []int32{1}
	out, err := d.Decode(dst, []byte{2, 0x08, 0x03}, 4)
	require.ErrorIs(t, err, ErrCorrupt)
	require.Equal(t, dst, out)
	got, err := d.Decode(nil, []byte{2, 0x08, 0x02}, 4)
	require.NoError(t, err)
	require.Equal(t, []int32{30, 30, 30, 30}, got)
	_, err = DecodeIndices(nil, []byte{2, 0x08, 0x03}, 4, 3)
	require.ErrorIs(t, err, ErrCorrupt)
	ix, err := DecodeIndices(nil, []byte{2, 0x08, 0x02}, 4, 3)
	require.NoError(t, err)
	require.Equal(t, []uint32{2, 2, 2, 2}, ix)
}

// TestBytesIndexOutOfRange checks both ways BytesDict checks indices: in a
// first pass when values must grow, in the gather when it has room.
func TestBytesIndexOutOfRange(t *testing.T) {
	var d BytesDict
	require.NoError(t, d.Reset(plain.EncodeByteArray(nil, []byte("abbccc"), []int32{0, 1, 3, 6}), 3))
	for _, values := range [][]byte{nil, make([]byte, 2, 4096)} {
		// Width 2: a bit-packed group of 0, 0, 1, 3, 2, ... (index 3 is
		// past the dictionary), then of 0, 0, 1, 2, 2, ...
		_, _, err := d.Decode(values, nil, []byte{2, 0x03, 0b11_01_00_00, 0b00_00_00_10}, 4)
		require.ErrorIs(t, err, ErrCorrupt)
		got, offsets, err := d.Decode(values, nil, []byte{2, 0x03, 0b10_01_00_00, 0b00_00_00_10}, 4)
		require.NoError(t, err)
		require.Equal(t, string(values)+"aabbccc", string(got))
		require.Equal(t, []int32{int32(len(values)), int32(len(values)) + 1, int32(len(values)) + 2, int32(len(values)) + 4, int32(len(values)) + 7}, offsets)
	}
}

func TestCorruptPages(t *testing.T) {
	var d Dict[int64]
	require.ErrorIs(t, d.Reset(make([]byte, 15), 2), ErrCorrupt)
	require.ErrorIs(t, d.Reset(make([]byte, 16), 3), ErrCorrupt)
	require.ErrorIs(t, d.Reset(nil, -1), ErrInvalidArgument)
	require.NoError(t, d.Reset(make([]byte, 16), 2))
	require.NoError(t, d.Reset(plain.Encode(nil, []int64{7, 8, 9}), 2)) // trailing bytes
	require.Equal(t, []int64{7, 8}, d.Values())
	for name, src := range map[string][]byte{
		"empty":         nil,
		"width 33":      {33, 0x02, 0},
		"truncated run": {1, 0x03},
	} {
		_, err := d.Decode(nil, src, 2)
		require.ErrorIs(t, err, ErrCorrupt, name)
	}
	// A run longer than the page's values is cut to them, as every major
	// reader does.
	got, err := d.Decode(nil, []byte{1, 0x0A, 0x01}, 2)
	require.NoError(t, err)
	require.Len(t, got, 2)
	got, err = d.Decode(nil, nil, 0)
	require.NoError(t, err)
	require.Empty(t, got)
	var empty Dict[int64]
	_, err = empty.Decode(nil, []byte{0, 0x02}, 1)
	require.ErrorIs(t, err, ErrCorrupt)

	var b BytesDict
	require.ErrorIs(t, b.Reset([]byte{1, 0, 0, 0}, 1), ErrCorrupt)
	require.ErrorIs(t, b.Reset([]byte{1, 0, 0, 0, 'a'}, 2), ErrCorrupt)
	require.ErrorIs(t, b.ResetFixedLen([]byte("abc"), 2, 2), ErrCorrupt)
	require.ErrorIs(t, b.Reset([]byte{5, 0, 0, 0, 'a'}, 1), ErrCorrupt)
	// Bytes after the last value are ignored.
	require.NoError(t, b.Reset([]byte{1, 0, 0, 0, 'a', 0xff, 0xff}, 1))
	require.Equal(t, 1, b.Len())
	require.Equal(t, []byte("a"), b.Value(0))
	require.NoError(t, b.ResetFixedLen([]byte("abcde"), 2, 2))
	require.Equal(t, []byte("cd"), b.Value(1))
	require.ErrorIs(t, b.ResetFixedLen([]byte("abc"), 1, 0), ErrInvalidArgument)
}

func TestLimit(t *testing.T) {
	e := NewEncoder[int64](24) // three values
	n, err := e.Put([]int64{1, 2, 1, 3, 3, 4, 5})
	require.ErrorIs(t, err, ErrFull)
	require.Equal(t, 5, n)
	require.Equal(t, 3, e.Len())
	require.Equal(t, 5, e.NumIndices())
	n, err = e.Put([]int64{2, 1})
	require.NoError(t, err)
	require.Equal(t, 2, n)
	e.Reset()
	require.Zero(t, e.Len())

	be := NewBytesEncoder(4 + 3 + 4 + 2) // "abc" and "de"
	values := []byte("abcdeabcfg")
	n, err = be.Put(values, []int32{0, 3, 5, 8, 10})
	require.ErrorIs(t, err, ErrFull)
	require.Equal(t, 3, n)
	require.Equal(t, 13, be.DictSize())
}

func TestBytesRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var values []byte
	offsets := []int32{0}
	for range 2000 {
		k := r.IntN(50)
		values = append(values, fmt.Sprintf("value-%d-%s", k, string(make([]byte, k%5)))...)
		offsets = append(offsets, int32(len(values)))
	}
	e := NewBytesEncoder(0)
	n, err := e.Put(values, offsets)
	require.NoError(t, err)
	require.Equal(t, 2000, n)
	page := e.AppendDictionaryPage(nil)
	require.Equal(t, e.DictSize(), len(page))
	idx := e.AppendIndexPage(nil)

	var d BytesDict
	require.NoError(t, d.Reset(page, e.Len()))
	gotV, gotO, err := d.Decode(nil, nil, idx, 2000)
	require.NoError(t, err)
	require.Equal(t, values, gotV)
	require.Equal(t, offsets, gotO)

	// An out-of-range index leaves the slices as they were.
	v0, o0 := []byte("x"), []int32{0, 1}
	v1, o1, err := d.Decode(v0, o0, []byte{1, 0x02, 0x01}, 1)
	if d.Len() > 1 {
		require.NoError(t, err)
		require.Len(t, o1, 3)
		require.Equal(t, []byte("x"), v1[:1])
	}
	_, _, err = d.Decode(v0, o0, []byte{20, 0x02, 0xff, 0xff, 0x0f}, 1)
	require.ErrorIs(t, err, ErrCorrupt)
}

func TestFixedLenRoundTrip(t *testing.T) {
	vals := []byte("aaaabbbbaaaaccccbbbb")
	offs := []int32{0, 4, 8, 12, 16, 20}
	e := NewFixedLenEncoder(0, 4)
	_, err := e.Put(vals, offs)
	require.NoError(t, err)
	require.Equal(t, 3, e.Len())
	page := e.AppendDictionaryPage(nil)
	require.Equal(t, []byte("aaaabbbbcccc"), page)
	var d BytesDict
	require.NoError(t, d.ResetFixedLen(page, 3, 4))
	require.Equal(t, []byte("cccc"), d.Value(2))
	got, err := d.DecodeFlat(nil, e.AppendIndexPage(nil), 5)
	require.NoError(t, err)
	require.Equal(t, vals, got)
	_, err = e.Put([]byte("abc"), []int32{0, 3})
	require.ErrorIs(t, err, ErrInvalidArgument)
}

func TestZeroAllocs(t *testing.T) {
	e := NewEncoder[int32](0)
	vals := make([]int32, 4096)
	for i := range vals {
		vals[i] = int32(i % 100)
	}
	_, err := e.Put(vals)
	require.NoError(t, err)
	var d Dict[int32]
	require.NoError(t, d.Reset(e.AppendDictionaryPage(nil), e.Len()))
	idx := e.AppendIndexPage(nil)
	dst := make([]int32, 0, 4096)

	be := NewBytesEncoder(0)
	_, err = be.Put([]byte("abcdefgh"), []int32{0, 3, 8, 8})
	require.NoError(t, err)
	var bd BytesDict
	require.NoError(t, bd.Reset(be.AppendDictionaryPage(nil), 3))
	bidx := be.AppendIndexPage(nil)
	values := make([]byte, 0, 64)
	offsets := make([]int32, 0, 64)
	page := e.AppendDictionaryPage(nil)
	require.Zero(t, testing.AllocsPerRun(50, func() {
		if err := d.Reset(page, 100); err != nil {
			t.Fatal(err)
		}
		if dst, err = d.Decode(dst[:0], idx, 4096); err != nil {
			t.Fatal(err)
		}
		if values, offsets, err = bd.Decode(values[:0], offsets[:0], bidx, 3); err != nil {
			t.Fatal(err)
		}
	}))
}

// TestBytesDictLengths decodes values of every length around inline, the
// longest value a slot holds, at every distance from the end
// of the buffers.
func TestBytesDictLengths(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for trial := range 100 {
		pool := make([][]byte, 1+trial%50)
		for i := range pool {
			pool[i] = make([]byte, r.IntN(3*slack+8))
			for j := range pool[i] {
				pool[i][j] = byte(r.Uint32())
			}
		}
		var values []byte
		offsets := []int32{0}
		for range r.IntN(600) {
			values = append(values, pool[r.IntN(len(pool))]...)
			offsets = append(offsets, int32(len(values)))
		}
		e := NewBytesEncoder(0)
		_, err := e.Put(values, offsets)
		require.NoError(t, err)
		var d BytesDict
		require.NoError(t, d.Reset(e.AppendDictionaryPage(nil), e.Len()))
		idx := e.AppendIndexPage(nil)
		n := len(offsets) - 1
		gotV, gotO, err := d.Decode([]byte{1}, nil, idx, n)
		require.NoError(t, err)
		require.Equal(t, append([]byte{1}, values...), gotV)
		for i := range offsets {
			require.Equal(t, offsets[i]+1, gotO[i])
		}
		flat, err := d.DecodeFlat(nil, idx, n)
		require.NoError(t, err)
		require.Equal(t, values, flat[:len(values):len(values)])
	}
}

// TestOverlongIndexRuns decodes index pages whose runs declare more indices
// than the page holds, as DuckDB writes them (a bit-packed run of 32 groups
// with only the needed bytes, or padded with every byte) and as an RLE run
// longer than the rest, through every decoder of the package: the needed
// indices are read, the rest ignored; padding indices past the dictionary
// are not checked.
func TestOverlongIndexRuns(t *testing.T) {
	var d Dict[int32]
	require.NoError(t, d.Reset(plain.Encode(nil, []int32{10, 20, 30}), 3))
	var b BytesDict
	require.NoError(t, b.Reset(plain.EncodeByteArray(nil, []byte("abbccc"), []int32{0, 1, 3, 6}), 3))
	// Indices 2 0 1 1 at width 2 are the byte 0b01_01_00_10.
	padded := append([]byte{2, 32<<1 | 1, 0b01010010}, make([]byte, 63)...)
	for i := 3; i < len(padded); i++ {
		padded[i] = 0xff // index 3, past the dictionary, in the padding
	}
	for name, page := range map[string][]byte{
		"packed, needed bytes only": {2, 32<<1 | 1, 0b01010010},
		"packed, every byte":        padded,
	} {
		got, err := d.Decode(nil, page, 4)
		require.NoError(t, err, name)
		require.Equal(t, []int32{30, 10, 20, 20}, got, name)

		idx, err := DecodeIndices(nil, page, 4, 3)
		require.NoError(t, err, name)
		require.Equal(t, []uint32{2, 0, 1, 1}, idx, name)

		vals, offs, err := b.Decode(nil, nil, page, 4)
		require.NoError(t, err, name)
		require.Equal(t, "cccabbbb", string(vals), name)
		require.Equal(t, []int32{0, 3, 4, 6, 8}, offs, name)
	}
	// An RLE run of 50 for 4 indices.
	got, err := d.Decode(nil, []byte{2, 50 << 1, 1}, 4)
	require.NoError(t, err)
	require.Equal(t, []int32{20, 20, 20, 20}, got)
	// The bytes of a needed index missing: 5 indices, the byte holds 4.
	_, err = d.Decode(nil, []byte{2, 32<<1 | 1, 0b01010010}, 5)
	require.ErrorIs(t, err, ErrCorrupt)
}

// TestLargeDictionaryOffsets checks the gather of a dictionary over
// maxSlots values, which keeps no slots (gatherOffsets), against Value, in
// both Decode and DecodeFlat, and its index check.
func TestLargeDictionaryOffsets(t *testing.T) {
	n := maxSlots + 3
	page := make([]byte, 2*n)
	for i := range n {
		page[2*i], page[2*i+1] = byte(i), byte(i>>8)
	}
	var d BytesDict
	require.NoError(t, d.ResetFixedLen(page, n, 2))
	require.Empty(t, d.slots)
	r := rand.New(rand.NewPCG(3, 4))
	idx := make([]uint32, 1000)
	var want []byte
	for k := range idx {
		idx[k] = uint32(r.IntN(n))
		if k == 0 {
			idx[k] = uint32(n - 1)
		}
		want = append(want, d.Value(int(idx[k]))...)
	}
	enc := appendIndexPage(nil, idx, n)
	got, offs, err := d.Decode(nil, nil, enc, len(idx))
	require.NoError(t, err)
	require.Equal(t, want, got)
	require.Len(t, offs, len(idx)+1)
	require.Equal(t, int32(len(want)), offs[len(idx)])
	flat, err := d.DecodeFlat([]byte{9}, enc, len(idx))
	require.NoError(t, err)
	require.Equal(t, append([]byte{9}, want...), flat)
	bad := appendIndexPage(nil, []uint32{1, uint32(n)}, n+1)
	_, offs, err = d.Decode(nil, []int32{0}, bad, 2)
	require.ErrorIs(t, err, ErrCorrupt)
	require.Equal(t, []int32{0}, offs)
}
