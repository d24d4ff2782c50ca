package bitpack

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

func randBlock(r *rand.Rand, width uint) *[32]uint32 {
	var v [32]uint32
	for i := range v {
		v[i] = uint32(r.Uint64() & (uint64(1)<<width - 1))
	}
	return &v
}

func TestByteCount(t *testing.T) {
	require.Equal(t, 0, ByteCount(0, 7))
	require.Equal(t, 1, ByteCount(1, 1))
	require.Equal(t, 1, ByteCount(8, 1))
	require.Equal(t, 2, ByteCount(9, 1))
	require.Equal(t, 12, ByteCount(32, 3))
	require.Equal(t, 5, ByteCount(13, 3))
	require.Equal(t, 128, ByteCount(32, 32))
}

// TestReferenceSpecVector checks the reference against the hybrid example of
// the spec: values 0..7 with bit width 3 pack to 0x88 0xC6 0xFA.
func TestReferenceSpecVector(t *testing.T) {
	var v [32]uint32
	for i := range 8 {
		v[i] = uint32(i)
	}
	dst := make([]byte, 12)
	pack32Ref(dst, &v, 3)
	require.Equal(t, []byte{0x88, 0xC6, 0xFA}, dst[:3])
	var got [32]uint32
	unpack32Ref(&got, dst, 3)
	require.Equal(t, v, got)
}

func TestUnpack32MatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for width := uint(0); width <= 32; width++ {
		for range 50 {
			src := make([]byte, 4*width)
			for i := range src {
				src[i] = byte(r.Uint32())
			}
			var want, got [32]uint32
			for i := range got {
				got[i] = 0xdeadbeef
			}
			unpack32Ref(&want, src, width)
			Unpack32(&got, src, width)
			require.Equal(t, want, got, "width %d", width)
		}
	}
}

func TestPack32MatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for width := uint(0); width <= 32; width++ {
		for range 50 {
			var v [32]uint32
			for i := range v {
				v[i] = r.Uint32() // high bits must be ignored
			}
			want := make([]byte, 4*width+8)
			got := make([]byte, 4*width+8)
			for i := range got {
				got[i] = 0xA5
				want[i] = 0xA5
			}
			pack32Ref(want, &v, width)
			Pack32(got, &v, width)
			require.Equal(t, want, got, "width %d", width)

			var back [32]uint32
			Unpack32(&back, got, width)
			exp := randBlock(r, 0)
			for i := range exp {
				exp[i] = uint32(uint64(v[i]) & (uint64(1)<<width - 1))
			}
			require.Equal(t, *exp, back, "width %d", width)
		}
	}
}

func TestPanics(t *testing.T) {
	var v [32]uint32
	require.Panics(t, func() { Unpack32(&v, make([]byte, 11), 3) })
	require.Panics(t, func() { Unpack32(&v, make([]byte, 200), 33) })
	require.Panics(t, func() { Pack32(make([]byte, 11), &v, 3) })
	require.NotPanics(t, func() { Unpack32(&v, nil, 0) })
}

func FuzzUnpack32(f *testing.F) {
	f.Add([]byte{0x88, 0xC6, 0xFA, 1, 2, 3, 4, 5, 6, 7, 8, 9}, uint8(3))
	f.Fuzz(func(t *testing.T, src []byte, w uint8) {
		width := uint(w % 33)
		if len(src) < int(4*width) {
			return
		}
		var want, got [32]uint32
		unpack32Ref(&want, src, width)
		Unpack32(&got, src, width)
		require.Equal(t, want, got)
		buf := make([]byte, 4*width)
		Pack32(buf, &got, width)
		require.Equal(t, src[:4*width], buf)
	})
}

func BenchmarkUnpack32(b *testing.B) {
	for _, width := range []uint{1, 2, 3, 4, 5, 7, 8, 12, 16, 20, 32} {
		b.Run(itoa(width), func(b *testing.B) {
			const blocks = 1024
			src := make([]byte, blocks*4*width)
			for i := range src {
				src[i] = byte(i * 7)
			}
			var dst [32]uint32
			b.SetBytes(blocks * 32 * 4)
			b.ReportAllocs()
			for b.Loop() {
				for k := 0; k < blocks; k++ {
					Unpack32(&dst, src[k*int(4*width):], width)
				}
			}
			b.ReportMetric(float64(b.N)*blocks*32/b.Elapsed().Seconds()/1e9, "Gvalues/s")
		})
	}
}

func BenchmarkPack32(b *testing.B) {
	for _, width := range []uint{1, 3, 8, 12, 20, 32} {
		b.Run(itoa(width), func(b *testing.B) {
			const blocks = 1024
			dst := make([]byte, blocks*4*width)
			src := randBlock(rand.New(rand.NewPCG(1, 1)), width)
			b.SetBytes(blocks * 32 * 4)
			b.ReportAllocs()
			for b.Loop() {
				for k := 0; k < blocks; k++ {
					Pack32(dst[k*int(4*width):], src, width)
				}
			}
			b.ReportMetric(float64(b.N)*blocks*32/b.Elapsed().Seconds()/1e9, "Gvalues/s")
		})
	}
}

func itoa(w uint) string {
	if w < 10 {
		return string(rune('0' + w))
	}
	return string(rune('0'+w/10)) + string(rune('0'+w%10))
}
