//go:build amd64 && !purego

package delta

import "golang.org/x/sys/cpu"

// useAVX2 reports whether the CPU and OS support AVX2.
var useAVX2 = cpu.X86.HasAVX2

// hasAVX reports whether the CPU has AVX, and so VZEROUPPER (zeroUpper).
var hasAVX = cpu.X86.HasAVX

// blockDeltas is blockDeltasGo (same semantics), in AVX2 assembly where the
// CPU has it.
func blockDeltas[T Integer, U word](d *[encBlockSize]U, src *[encBlockSize + 1]T) (lo T, hi [encMiniblocks]T) {
	if useAVX2 {
		switch s := any(src).(type) {
		case *[encBlockSize + 1]int32:
			var h [encMiniblocks]int32
			lo := deltas32AVX2(any(d).(*[encBlockSize]uint32), s, &h)
			return T(lo), [encMiniblocks]T{T(h[0]), T(h[1]), T(h[2]), T(h[3])}
		case *[encBlockSize + 1]int64:
			var h [encMiniblocks]int64
			lo := deltas64AVX2(any(d).(*[encBlockSize]uint64), s, &h)
			return T(lo), [encMiniblocks]T{T(h[0]), T(h[1]), T(h[2]), T(h[3])}
		}
	}
	return blockDeltasGo(d, src)
}

// deltas32AVX2 stores the 128 deltas of src less their minimum in d, stores
// the maximum delta of each miniblock in hi and returns the minimum.
//
//go:noescape
func deltas32AVX2(d *[encBlockSize]uint32, src *[encBlockSize + 1]int32, hi *[encMiniblocks]int32) int32

// deltas64AVX2 is deltas32AVX2 for int64 values.
//
//go:noescape
func deltas64AVX2(d *[encBlockSize]uint64, src *[encBlockSize + 1]int64, hi *[encMiniblocks]int64) int64

// lengthDeltas is lengthDeltasGo (same semantics), in AVX2 assembly where
// the CPU has it.
func lengthDeltas(d *[encBlockSize]uint32, o *[encBlockSize + 2]int32) (lo int32, hi [encMiniblocks]int32, bad int32) {
	if useAVX2 {
		lo, bad = lengthDeltasAVX2(d, o, &hi)
		return lo, hi, bad
	}
	return lengthDeltasGo(d, o)
}

// lengthDeltasAVX2 implements lengthDeltas, storing the maxima in hi.
//
//go:noescape
func lengthDeltasAVX2(d *[encBlockSize]uint32, o *[encBlockSize + 2]int32, hi *[encMiniblocks]int32) (lo, bad int32)
