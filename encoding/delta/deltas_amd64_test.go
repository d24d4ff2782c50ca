//go:build amd64 && !purego

package delta

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestBlockDeltasAVX2 checks the assembly kernels against blockDeltasGo on
// random blocks, including deltas that overflow the type and blocks whose
// minimum or maximum is in any lane of any miniblock.
func TestBlockDeltasAVX2(t *testing.T) {
	if !useAVX2 {
		t.Skip("no AVX2")
	}
	r := rand.New(rand.NewPCG(31, 32))
	for range 2000 {
		var s64 [encBlockSize + 1]int64
		var s32 [encBlockSize + 1]int32
		scale := []int64{0, 1, 100, math.MaxInt64}[r.IntN(4)]
		for i := range s64 {
			if scale != 0 {
				s64[i] = r.Int64N(scale) - scale/2
			}
			switch r.IntN(50) {
			case 0:
				s64[i] = math.MinInt64
			case 1:
				s64[i] = math.MaxInt64
			}
			s32[i] = int32(s64[i] ^ s64[i]>>32)
		}
		checkBlockDeltas(t, &s64, deltas64AVX2)
		checkBlockDeltas(t, &s32, deltas32AVX2)
	}
}

func checkBlockDeltas[T Integer, U word](t *testing.T, src *[encBlockSize + 1]T,
	kernel func(*[encBlockSize]U, *[encBlockSize + 1]T, *[encMiniblocks]T) T) {
	t.Helper()
	var want, got [encBlockSize]U
	wantLo, wantHi := blockDeltasGo(&want, src)
	var gotHi [encMiniblocks]T
	gotLo := kernel(&got, src, &gotHi)
	require.Equal(t, wantLo, gotLo)
	require.Equal(t, wantHi, gotHi)
	for mb := range encMiniblocks {
		if wantHi[mb] != wantLo { // else unspecified
			require.Equal(t, want[mb*encMiniSize:(mb+1)*encMiniSize], got[mb*encMiniSize:(mb+1)*encMiniSize])
		}
	}
}

// TestLengthDeltasAVX2 checks the assembly kernel against lengthDeltasGo on
// random offsets, increasing or not, including negative ones.
func TestLengthDeltasAVX2(t *testing.T) {
	if !useAVX2 {
		t.Skip("no AVX2")
	}
	r := rand.New(rand.NewPCG(33, 34))
	for range 2000 {
		var o [encBlockSize + 2]int32
		acc := r.Int32N(1000)
		step := []int32{1, 50, 1 << 20}[r.IntN(3)]
		for i := range o {
			o[i] = acc
			acc += r.Int32N(step)
			if r.IntN(200) == 0 {
				o[i] = []int32{-1, math.MinInt32, math.MaxInt32, 0}[r.IntN(4)]
			}
		}
		var want, got [encBlockSize]uint32
		wantLo, wantHi, wantBad := lengthDeltasGo(&want, &o)
		var gotHi [encMiniblocks]int32
		gotLo, gotBad := lengthDeltasAVX2(&got, &o, &gotHi)
		require.Equal(t, wantLo, gotLo)
		require.Equal(t, wantHi, gotHi)
		require.Equal(t, wantBad < 0, gotBad < 0)
		for mb := range encMiniblocks {
			if wantHi[mb] != wantLo {
				require.Equal(t, want[mb*encMiniSize:(mb+1)*encMiniSize], got[mb*encMiniSize:(mb+1)*encMiniSize])
			}
		}
	}
}
