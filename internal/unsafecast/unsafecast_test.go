package unsafecast

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestRoundTrip(t *testing.T) {
	src := []byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24}
	i32 := make([]int32, 6)
	Decode(i32, src)
	require.Equal(t, int32(0x04030201), i32[0])
	require.Equal(t, int32(0x18171615), i32[5])
	u64 := make([]uint64, 3)
	Decode(u64, src)
	require.Equal(t, uint64(0x0807060504030201), u64[0])
	f := make([]float64, 1)
	Decode(f, []byte{0, 0, 0, 0, 0, 0, 0xf0, 0x3f})
	require.Equal(t, 1.0, f[0])
	f32 := []float32{float32(math.Inf(-1))}
	b := make([]byte, 4)
	Encode(b, f32)
	require.Equal(t, []byte{0, 0, 0x80, 0xff}, b)
	i96 := make([][12]byte, 2)
	Decode(i96, src)
	require.Equal(t, byte(13), i96[1][0])
	out := make([]byte, 24)
	Encode(out, i96)
	require.Equal(t, src, out)
	Encode(out, u64)
	require.Equal(t, src, out)
	require.Panics(t, func() { Decode(i32, src[:23]) })
	require.Equal(t, 12, Size[[12]byte]())
	require.Equal(t, 8, Size[float64]())
	require.Equal(t, 4, Size[uint32]())
}

func TestBoolBytes(t *testing.T) {
	require.Equal(t, []byte{1, 0, 1}, BoolBytes([]bool{true, false, true}))
	require.Nil(t, BoolBytes(nil))
}

func TestBits(t *testing.T) {
	for n := range 70 {
		src := make([]byte, (n+7)/8)
		for i := range src {
			src[i] = byte(i*37 + 11)
		}
		got := make([]bool, n+3)
		got[n], got[n+1] = true, true
		ExpandBits(got[:n], src)
		for i := range n {
			require.Equal(t, src[i/8]>>(i%8)&1 == 1, got[i], "n %d i %d", n, i)
		}
		require.True(t, got[n] && got[n+1] && !got[n+2])
		back := make([]byte, len(src)+1)
		back[len(src)] = 0xAA
		PackBits(back, got[:n])
		for i := range src {
			mask := byte(0xff)
			if i == len(src)-1 && n%8 != 0 {
				mask = 1<<(n%8) - 1
			}
			require.Equal(t, src[i]&mask, back[i], "n %d byte %d", n, i)
		}
		require.Equal(t, byte(0xAA), back[len(src)])
	}
	require.Panics(t, func() { ExpandBits(make([]bool, 9), []byte{1}) })
	require.Panics(t, func() { PackBits(make([]byte, 1), make([]bool, 9)) })
}

func TestExpandBitsToBytes(t *testing.T) {
	src := []byte{0b10110001, 0b1}
	dst := make([]byte, 10)
	ExpandBitsToBytes(dst[:9], src)
	require.Equal(t, []byte{1, 0, 0, 0, 1, 1, 0, 1, 1, 0}, dst)
}

// TestExpandBitsToBytesLengths checks every length up to 300 (the vector
// blocks of 32 and the tail) against bit-by-bit expansion, and that nothing
// past dst is written.
func TestExpandBitsToBytesLengths(t *testing.T) {
	for n := range 300 {
		src := make([]byte, (n+7)/8)
		for i := range src {
			src[i] = byte(i*73 + 29)
		}
		dst := make([]byte, n+1)
		dst[n] = 0xAA
		ExpandBitsToBytes(dst[:n], src)
		for i := range n {
			require.Equal(t, src[i/8]>>(i%8)&1, dst[i], "n %d i %d", n, i)
		}
		require.Equal(t, byte(0xAA), dst[n], "n %d", n)
	}
}

// TestPackBytesToBitsLengths checks every length up to 300 against
// bit-by-bit packing, the padding bits and the byte past the packed bits.
func TestPackBytesToBitsLengths(t *testing.T) {
	for n := range 300 {
		src := make([]byte, n)
		for i := range src {
			src[i] = byte(i*7/3+i/5) & 1
		}
		nb := (n + 7) / 8
		dst := make([]byte, nb+1)
		for i := range dst {
			dst[i] = 0xAA
		}
		PackBytesToBits(dst[:nb], src)
		for i := range n {
			require.Equal(t, src[i], dst[i/8]>>(i%8)&1, "n %d i %d", n, i)
		}
		if n%8 != 0 {
			require.Zero(t, dst[nb-1]>>(n%8), "n %d padding", n)
		}
		require.Equal(t, byte(0xAA), dst[nb], "n %d", n)
	}
}
