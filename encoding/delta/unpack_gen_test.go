package delta

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/internal/bitpack"
)

// TestDeltasEveryWidth checks the generated kernels against bitpack's
// unpacking followed by a running sum, for every width.
func TestDeltasEveryWidth(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	for w := uint(0); w <= 64; w++ {
		for range 20 {
			src := make([]byte, 4*w)
			for i := range src {
				src[i] = byte(r.Uint32())
			}
			m, last := r.Uint64(), r.Uint64()
			var d64 [32]uint64
			bitpack.Unpack64(&d64, src, w)
			var got64 [32]int64
			l := deltas64(&got64, src, w, m, last)
			want := last
			for i := range d64 {
				want += m + d64[i]
				require.Equal(t, int64(want), got64[i], "width %d", w)
			}
			require.Equal(t, want, l)
			if w > 32 {
				continue
			}
			var d32 [32]uint32
			bitpack.Unpack32(&d32, src, w)
			var got32 [32]int32
			l32 := deltas32(&got32, src, w, uint32(m), uint32(last))
			want32 := uint32(last)
			for i := range d32 {
				want32 += uint32(m) + d32[i]
				require.Equal(t, int32(want32), got32[i], "width %d", w)
			}
			require.Equal(t, want32, l32)
		}
	}
}
