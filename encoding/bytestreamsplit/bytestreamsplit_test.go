package bytestreamsplit

import (
	"bytes"
	"io"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSpecVector checks the layout against values worked out by hand: two
// FLOATs 0x04030201 and 0x08070605 split into streams 01 05 | 02 06 | 03 07
// | 04 08.
func TestSpecVector(t *testing.T) {
	page := []byte{1, 5, 2, 6, 3, 7, 4, 8}
	got, err := DecodeInt32(nil, page)
	require.NoError(t, err)
	require.Equal(t, []int32{0x04030201, 0x08070605}, got)
	require.Equal(t, page, EncodeInt32(nil, got))

	got64, err := DecodeInt64(nil, []byte{1, 2, 3, 4, 5, 6, 7, 8})
	require.NoError(t, err)
	require.Equal(t, []int64{0x0807060504030201}, got64)

	fl, err := DecodeFixedLenByteArray(nil, []byte{'a', 'd', 'b', 'e', 'c', 'f'}, 3)
	require.NoError(t, err)
	require.Equal(t, []byte("abcdef"), fl)
}

func randomBits(r *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// bitsOf returns the little-endian image of v, so NaNs compare equal.
func bitsOf[T Value](v []T) []uint64 {
	out := make([]uint64, len(v))
	for i, x := range v {
		switch x := any(x).(type) {
		case float32:
			out[i] = uint64(math.Float32bits(x))
		case float64:
			out[i] = math.Float64bits(x)
		case int32:
			out[i] = uint64(uint32(x))
		case int64:
			out[i] = uint64(x)
		}
	}
	return out
}

func roundTrip[T Value](t *testing.T, r *rand.Rand) {
	for n := range 100 {
		page := randomBits(r, n*size[T]())
		vals, err := Decode(make([]T, 0), page)
		require.NoError(t, err)
		require.Len(t, vals, n)
		require.Equal(t, page, Encode(make([]byte, 0), vals), "n=%d", n)
		// Generic and fast paths agree on every slice of the page.
		want := make([]T, n)
		decodeGeneric(want, page, n)
		require.Equal(t, bitsOf(want), bitsOf(vals))
		for start := range min(n, 20) {
			got := make([]T, n-start)
			decode(got, page[start:], n)
			require.Equal(t, bitsOf(want[start:]), bitsOf(got), "n=%d start=%d", n, start)
		}
	}
}

func TestRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	roundTrip[float32](t, r)
	roundTrip[float64](t, r)
	roundTrip[int32](t, r)
	roundTrip[int64](t, r)
}

func TestFloatSpecials(t *testing.T) {
	f := []float64{math.Inf(1), math.Inf(-1), math.MaxFloat64, math.SmallestNonzeroFloat64, 0, math.Copysign(0, -1)}
	got, err := DecodeFloat64(nil, EncodeFloat64(nil, f))
	require.NoError(t, err)
	require.Equal(t, f, got)
	nan := math.Float32frombits(0x7fc00001)
	got32, err := DecodeFloat32(nil, EncodeFloat32(nil, []float32{nan}))
	require.NoError(t, err)
	require.Equal(t, uint32(0x7fc00001), math.Float32bits(got32[0]))
}

func TestFixedLenByteArray(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, size := range []int{1, 2, 3, 5, 12, 16, 33} {
		for _, n := range []int{0, 1, 7, 100} {
			src := randomBits(r, n*size)
			enc, err := EncodeFixedLenByteArray(nil, src, size)
			require.NoError(t, err)
			got, err := DecodeFixedLenByteArray([]byte("x"), enc, size)
			require.NoError(t, err)
			require.Equal(t, append([]byte("x"), src...), got)
		}
	}
	_, err := EncodeFixedLenByteArray(nil, []byte{1, 2, 3}, 2)
	require.ErrorIs(t, err, ErrInvalidArgument)
	_, err = EncodeFixedLenByteArray(nil, nil, 0)
	require.ErrorIs(t, err, ErrInvalidArgument)
	_, err = DecodeFixedLenByteArray(nil, nil, 0)
	require.ErrorIs(t, err, ErrInvalidArgument)
}

func TestBadLength(t *testing.T) {
	for _, n := range []int{1, 3, 5, 7, 9, 15} {
		dst := []float64{1}
		got, err := DecodeFloat64(dst, make([]byte, n))
		require.ErrorIs(t, err, ErrCorrupt)
		require.Equal(t, dst, got)
		_, err = DecodeFixedLenByteArray(nil, make([]byte, n), 2)
		if n%2 != 0 {
			require.ErrorIs(t, err, ErrCorrupt)
		}
		var d Decoder[float64]
		require.ErrorIs(t, d.Reset(make([]byte, n)), ErrCorrupt)
		m, err := d.Decode(make([]float64, 4))
		require.ErrorIs(t, err, io.EOF)
		require.Zero(t, m)
	}
	_, err := DecodeInt32(nil, make([]byte, 6))
	require.ErrorIs(t, err, ErrCorrupt)
}

// TestDecoderPieces decodes in random pieces; its loop is the twin of
// delta's checkPieces, both per package for their own page generators (the
// shared read loop is encoding/streaming_test.go's).
func TestDecoderPieces(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	want := make([]float32, 1000)
	for i := range want {
		want[i] = r.Float32()
	}
	page := EncodeFloat32(nil, want)
	var d Decoder[float32]
	require.NoError(t, d.Reset(page))
	var got []float32
	buf := make([]float32, 37)
	for d.Remaining() > 0 {
		n, err := d.Decode(buf[:1+r.IntN(len(buf))])
		require.NoError(t, err)
		got = append(got, buf[:n]...)
	}
	n, err := d.Decode(buf[:0])
	require.NoError(t, err)
	require.Zero(t, n)
	n, err = d.Decode(buf)
	require.ErrorIs(t, err, io.EOF)
	require.Zero(t, n)
	require.Equal(t, want, got)
}

func TestDecodeAllocs(t *testing.T) {
	page := EncodeFloat64(nil, make([]float64, 4096))
	dst := make([]float64, 0, 4096)
	allocs := testing.AllocsPerRun(50, func() {
		var err error
		dst, err = DecodeFloat64(dst[:0], page)
		if err != nil {
			t.Fatal(err)
		}
	})
	require.Zero(t, allocs)
	var d Decoder[float64]
	allocs = testing.AllocsPerRun(50, func() {
		_ = d.Reset(page)
		_, _ = d.Decode(dst[:cap(dst)])
	})
	require.Zero(t, allocs)
}

// splitRef is the definition of the encoding: byte j of value i of the
// k-byte values in src goes to position j*n+i.
func splitRef(src []byte, k int) []byte {
	n := len(src) / k
	out := make([]byte, len(src))
	for i := range n {
		for j := range k {
			out[j*n+i] = src[i*k+j]
		}
	}
	return out
}

// valuesOf reads the k-byte little-endian values of b as T, k = size[T]().
func valuesOf[T Value](b []byte) []T {
	k := size[T]()
	v := make([]T, len(b)/k)
	for i := range v {
		var u uint64
		for j := range k {
			u |= uint64(b[i*k+j]) << (8 * j)
		}
		switch p := any(&v[i]).(type) {
		case *float32:
			*p = math.Float32frombits(uint32(u))
		case *int32:
			*p = int32(uint32(u))
		case *float64:
			*p = math.Float64frombits(u)
		case *int64:
			*p = int64(u)
		}
	}
	return v
}

// checkTyped compares the encoders and decoders of T with splitRef on the
// page of the values whose bytes are raw, behind a prefix so the output is
// not aligned.
func checkTyped[T Value](t *testing.T, raw []byte) {
	t.Helper()
	want := splitRef(raw, size[T]())
	vals := valuesOf[T](raw)
	prefix := []byte("abc")
	got := Encode(append([]byte{}, prefix...), vals)
	require.Equal(t, append(append([]byte{}, prefix...), want...), got, "Encode n=%d", len(vals))
	gen := make([]byte, len(want))
	encodeGeneric(gen, vals)
	require.Equal(t, want, gen, "encodeGeneric n=%d", len(vals))
	dec, err := Decode([]T{}, want)
	require.NoError(t, err)
	require.Equal(t, bitsOf(vals), bitsOf(dec), "Decode n=%d", len(vals))
}

// TestAgainstReference checks every path against splitRef for value sizes
// 1 to 17 and lengths that exercise all block tails.
func TestAgainstReference(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	lengths := []int{0, 1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 129, 255, 1000, 4099}
	for k := 1; k <= 17; k++ {
		for _, n := range lengths {
			raw := randomBits(r, n*k)
			want := splitRef(raw, k)
			got, err := EncodeFixedLenByteArray([]byte("x"), raw, k)
			require.NoError(t, err)
			require.Equal(t, append([]byte("x"), want...), got, "k=%d n=%d", k, n)
			back, err := DecodeFixedLenByteArray([]byte("y"), want, k)
			require.NoError(t, err)
			require.Equal(t, append([]byte("y"), raw...), back, "k=%d n=%d", k, n)
			// Neither coder writes past the values into spare capacity.
			buf := make([]byte, len(raw)+32)
			for i := range buf {
				buf[i] = 0xa5
			}
			_, err = DecodeFixedLenByteArray(buf[:0:len(raw)], want, k)
			require.NoError(t, err)
			_, err = EncodeFixedLenByteArray(buf[:0:len(raw)], raw, k)
			require.NoError(t, err)
			require.Equal(t, bytes.Repeat([]byte{0xa5}, 32), buf[len(raw):], "k=%d n=%d", k, n)
			switch k {
			case 4:
				// Both the SSE2 and, where the CPU has it, the AVX2 decoder.
				for _, avx := range []bool{false, hasAVX2()} {
					useAVX2 = avx
					checkTyped[float32](t, raw)
					checkTyped[int32](t, raw)
				}
				useAVX2 = hasAVX2()
			case 8:
				// Both the SSE2 and, where the CPU has it, the AVX2 coders.
				for _, avx := range []bool{false, hasAVX2()} {
					useAVX2 = avx
					checkTyped[float64](t, raw)
					checkTyped[int64](t, raw)
				}
				useAVX2 = hasAVX2()
			}
		}
	}
}
