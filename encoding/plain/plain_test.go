package plain

import (
	"encoding/binary"
	"errors"
	"io"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestFixedVectors(t *testing.T) {
	src := []byte{0x01, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x80, 0x3f}
	i32, err := Decode[int32](nil, src)
	require.NoError(t, err)
	require.Equal(t, []int32{1, -1, 0x3f800000}, i32)
	f32, err := Decode[float32](nil, src)
	require.NoError(t, err)
	require.Equal(t, float32(1), f32[2])
	require.Equal(t, src, Encode(nil, i32))

	i64, err := Decode[int64](nil, []byte{0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 1, 0, 0, 0, 0, 0, 0, 0x80})
	require.NoError(t, err)
	require.Equal(t, []int64{-2, math.MinInt64 + 1}, i64)
	f64, err := Decode[float64](nil, []byte{0, 0, 0, 0, 0, 0, 0xf8, 0x7f})
	require.NoError(t, err)
	require.True(t, math.IsNaN(f64[0]))

	i96, err := Decode[[12]byte](nil, src)
	require.NoError(t, err)
	require.Equal(t, [12]byte(src), i96[0])

	_, err = Decode[int32](nil, src[:11])
	require.ErrorIs(t, err, ErrCorrupt)
	_, err = Decode[int64](nil, src)
	require.ErrorIs(t, err, ErrCorrupt)
	_, err = Decode[[12]byte](nil, append(src, 0))
	require.ErrorIs(t, err, ErrCorrupt)
}

func TestDecodeAppendsByCapacity(t *testing.T) {
	dst := make([]int32, 1, 10)
	dst[0] = 7
	out, err := Decode(dst, []byte{2, 0, 0, 0, 3, 0, 0, 0})
	require.NoError(t, err)
	require.Equal(t, []int32{7, 2, 3}, out)
	require.Same(t, &dst[0], &out[0])
}

func TestFixedRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for n := range 70 {
		v := make([]float64, n)
		for i := range v {
			v[i] = r.NormFloat64()
		}
		enc := Encode([]byte{9}, v)
		require.Len(t, enc, 1+8*n)
		got, err := Decode[float64](nil, enc[1:])
		require.NoError(t, err)
		if n == 0 {
			require.Empty(t, got)
		} else {
			require.Equal(t, v, got)
		}
	}
}

func TestBoolean(t *testing.T) {
	// 10 values: 1,0,1,1,0,0,0,1 | 1,0 -> 0b10001101, 0b00000001.
	want := []bool{true, false, true, true, false, false, false, true, true, false}
	enc := EncodeBoolean(nil, want)
	require.Equal(t, []byte{0x8d, 0x01}, enc)
	got, err := DecodeBoolean(nil, enc, 10)
	require.NoError(t, err)
	require.Equal(t, want, got)
	_, err = DecodeBoolean(nil, enc, 17)
	require.ErrorIs(t, err, ErrCorrupt)
	_, err = DecodeBoolean(nil, enc, -1)
	require.ErrorIs(t, err, ErrInvalidArgument)
	got, err = DecodeBoolean(got[:0], []byte{0xff}, 3)
	require.NoError(t, err)
	require.Equal(t, []bool{true, true, true}, got)
}

func TestByteArray(t *testing.T) {
	src := []byte{3, 0, 0, 0, 'a', 'b', 'c', 0, 0, 0, 0, 2, 0, 0, 0, 'd', 'e'}
	values, offsets, err := DecodeByteArray(nil, nil, src)
	require.NoError(t, err)
	require.Equal(t, []byte("abcde"), values)
	require.Equal(t, []int32{0, 3, 3, 5}, offsets)
	require.Equal(t, src, EncodeByteArray(nil, values, offsets))

	// Appending keeps the previous offsets.
	values, offsets, err = DecodeByteArray(values, offsets, src[:7])
	require.NoError(t, err)
	require.Equal(t, []byte("abcdeabc"), values)
	require.Equal(t, []int32{0, 3, 3, 5, 8}, offsets)

	// A truncated second value must be an error, not a panic (parquet-go's bug).
	for cut := 1; cut < len(src); cut++ {
		if cut == 7 || cut == 11 {
			continue
		}
		v, o, err := DecodeByteArray(nil, nil, src[:cut])
		require.ErrorIs(t, err, ErrCorrupt, "cut %d", cut)
		require.Nil(t, v)
		require.Nil(t, o)
	}
	_, _, err = DecodeByteArray(nil, nil, []byte{0xff, 0xff, 0xff, 0xff, 1})
	require.ErrorIs(t, err, ErrCorrupt)
	n, total, err := ByteArrayCount(src)
	require.NoError(t, err)
	require.Equal(t, 3, n)
	require.Equal(t, 5, total)
}

func TestFixedLenByteArray(t *testing.T) {
	got, err := DecodeFixedLenByteArray(nil, []byte("abcdef"), 3)
	require.NoError(t, err)
	require.Equal(t, []byte("abcdef"), got)
	_, err = DecodeFixedLenByteArray(nil, []byte("abcdefg"), 3)
	require.ErrorIs(t, err, ErrCorrupt)
	_, err = DecodeFixedLenByteArray(nil, nil, 0)
	require.ErrorIs(t, err, ErrInvalidArgument)
	enc, err := EncodeFixedLenByteArray(nil, got, 2)
	require.NoError(t, err)
	require.Equal(t, got, enc)
	_, err = EncodeFixedLenByteArray(nil, got, 4)
	require.ErrorIs(t, err, ErrInvalidArgument)
}

func TestDecoder(t *testing.T) {
	v := make([]int64, 100)
	for i := range v {
		v[i] = int64(i) * -3
	}
	var d Decoder[int64]
	require.NoError(t, d.Reset(Encode(nil, v)))
	require.Equal(t, 100, d.Remaining())
	var got []int64
	buf := make([]int64, 7)
	for {
		n, err := d.Decode(buf)
		got = append(got, buf[:n]...)
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err)
	}
	require.Equal(t, v, got)
	require.ErrorIs(t, d.Reset(make([]byte, 12)), ErrCorrupt)
	assert.Equal(t, 0, d.Remaining())
	n, err := d.Decode(buf)
	assert.Equal(t, 0, n)
	require.ErrorIs(t, err, io.EOF)
}

func TestZeroAllocs(t *testing.T) {
	src := Encode(nil, make([]int32, 1000))
	dst := make([]int32, 0, 1000)
	ba := EncodeByteArray(nil, []byte("hello world"), []int32{0, 5, 11})
	values := make([]byte, 0, 64)
	offsets := make([]int32, 0, 64)
	bools := make([]bool, 0, 64)
	allocs := testing.AllocsPerRun(100, func() {
		var err error
		if dst, err = Decode(dst[:0], src); err != nil {
			t.Fatal(err)
		}
		if values, offsets, err = DecodeByteArray(values[:0], offsets[:0], ba); err != nil {
			t.Fatal(err)
		}
		if bools, err = DecodeBoolean(bools[:0], src, 64); err != nil {
			t.Fatal(err)
		}
	})
	require.Zero(t, allocs)
}

// TestByteArrayLengths checks every value length around the block sizes of
// copyShort, at every distance from the end of the page, against a
// value-by-value reference encoding.
func TestByteArrayLengths(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for trial := range 200 {
		values := []byte{}
		offsets := []int32{0}
		var want []byte
		for range trial % 40 {
			l := r.IntN(2*shortValue + 8)
			if trial%3 == 0 {
				l = r.IntN(20)
			}
			v := make([]byte, l)
			for i := range v {
				v[i] = byte(r.Uint32())
			}
			values = append(values, v...)
			offsets = append(offsets, int32(len(values)))
			want = binary.LittleEndian.AppendUint32(want, uint32(l))
			want = append(want, v...)
		}
		got := EncodeByteArray([]byte{7}, values, offsets)
		require.Equal(t, append([]byte{7}, want...), got)

		dv, do, err := DecodeByteArray([]byte{9}, nil, want)
		require.NoError(t, err)
		require.Equal(t, append([]byte{9}, values...), dv)
		for i := range do {
			require.Equal(t, offsets[i]+1, do[i])
		}
	}
}

func TestEncodeByteArrayPanics(t *testing.T) {
	values := make([]byte, 4, 100)
	require.Panics(t, func() { EncodeByteArray(nil, values, []int32{0, 3, 2, 4}) })
	require.Panics(t, func() { EncodeByteArray(nil, values, []int32{0, 5}) })
	require.Panics(t, func() { EncodeByteArray(nil, values, []int32{-1, 2}) })
	require.Panics(t, func() { EncodeByteArray(nil, values, []int32{0, 2, 1, 2}) })
}
