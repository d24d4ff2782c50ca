package bitpack

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestPack64MatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for width := uint(0); width <= 64; width++ {
		for range 30 {
			var v [32]uint64
			for i := range v {
				v[i] = r.Uint64() // high bits must be ignored
			}
			want := make([]byte, 4*width+8)
			got := make([]byte, 4*width+8)
			for i := range got {
				got[i] = 0xA5
				want[i] = 0xA5
			}
			pack64Ref(want, &v, width)
			Pack64(got, &v, width)
			require.Equal(t, want, got, "width %d", width)

			var back [32]uint64
			Unpack64(&back, got, width)
			for i := range v {
				if width < 64 {
					v[i] &= 1<<width - 1
				}
			}
			require.Equal(t, v, back, "width %d", width)
		}
	}
}

// TestPack64SpecVector checks the hybrid example of the spec (values 0..7,
// width 3 pack to 0x88 0xC6 0xFA) through the 64-bit path.
func TestPack64SpecVector(t *testing.T) {
	var v [32]uint64
	for i := range 8 {
		v[i] = uint64(i)
	}
	dst := make([]byte, 12)
	Pack64(dst, &v, 3)
	require.Equal(t, []byte{0x88, 0xC6, 0xFA}, dst[:3])
}

func TestPack64Panics(t *testing.T) {
	var src [32]uint64
	require.Panics(t, func() { Pack64(make([]byte, 300), &src, 65) })
	require.Panics(t, func() { Pack64(make([]byte, 4*9-1), &src, 9) })
}

func BenchmarkPack64(b *testing.B) {
	for _, width := range []uint{1, 8, 17, 33, 52, 64} {
		var src [32]uint64
		for i := range src {
			src[i] = uint64(i) * 0x9E3779B97F4A7C15
		}
		dst := make([]byte, 4*width)
		b.Run(widthName(width), func(b *testing.B) {
			b.SetBytes(32 * 8)
			b.ReportAllocs()
			for b.Loop() {
				Pack64(dst, &src, width)
			}
		})
	}
}
