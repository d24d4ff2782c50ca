package bitpack

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestUnpack64MatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for width := uint(0); width <= 64; width++ {
		for range 30 {
			src := make([]byte, 4*width)
			for i := range src {
				src[i] = byte(r.Uint32())
			}
			var want, got [32]uint64
			for i := range got {
				got[i] = 0xdeadbeefdeadbeef
			}
			unpack64Ref(&want, src, width)
			Unpack64(&got, src, width)
			require.Equal(t, want, got, "width %d", width)
			for _, v := range got {
				if width < 64 {
					require.Zero(t, v>>width, "width %d", width)
				}
			}
		}
	}
}

// TestUnpack64AgreesWithUnpack32 checks both unpackers read the same layout.
func TestUnpack64AgreesWithUnpack32(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for width := uint(0); width <= 32; width++ {
		src := make([]byte, 4*width)
		for i := range src {
			src[i] = byte(r.Uint32())
		}
		var a [32]uint32
		var b [32]uint64
		Unpack32(&a, src, width)
		Unpack64(&b, src, width)
		for i := range a {
			require.Equal(t, uint64(a[i]), b[i], "width %d value %d", width, i)
		}
	}
}

func TestUnpack64Extremes(t *testing.T) {
	// Width 64 of all-ones words and of alternating patterns is a plain copy.
	src := make([]byte, 256)
	for i := range src {
		src[i] = byte(i * 37)
	}
	var got [32]uint64
	Unpack64(&got, src, 64)
	for i := range got {
		var want uint64
		for j := 7; j >= 0; j-- {
			want = want<<8 | uint64(src[8*i+j])
		}
		require.Equal(t, want, got[i])
	}
}

func TestUnpack64Panics(t *testing.T) {
	var dst [32]uint64
	require.Panics(t, func() { Unpack64(&dst, make([]byte, 300), 65) })
	require.Panics(t, func() { Unpack64(&dst, make([]byte, 4*9-1), 9) })
	require.NotPanics(t, func() { Unpack64(&dst, nil, 0) })
}

func BenchmarkUnpack64(b *testing.B) {
	for _, width := range []uint{1, 8, 17, 33, 52, 64} {
		src := make([]byte, 4*width)
		for i := range src {
			src[i] = byte(i*31 + 7)
		}
		var dst [32]uint64
		b.Run(widthName(width), func(b *testing.B) {
			b.SetBytes(32 * 8)
			b.ReportAllocs()
			for b.Loop() {
				Unpack64(&dst, src, width)
			}
		})
	}
}

func widthName(w uint) string {
	return "width=" + string(rune('0'+w/10)) + string(rune('0'+w%10))
}
