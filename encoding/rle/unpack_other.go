//go:build !amd64 || purego

package rle

// The generic loops of unpack.go do all the work here.

func unpackBytesFast(dst []uint8, src []byte, w uint) int { return 0 }

func unpackInt16Fast(dst []int16, src []byte, w uint) int { return 0 }

func unpackUint32Fast(dst []uint32, src []byte, w uint) (int, uint32) { return 0, 0 }

func fillFast[T Level](dst []T, n, c int, v uint32) bool { return false }

func fillBytesFast(dst []uint8, n, c int, x uint64) bool { return false }

func fillInt16Fast(dst []int16, n, c int, t int16) bool { return false }

// The kernels of the level loops, never called here: levelKernels has
// them use the Go loops.

func levelKernels() (pdep, wide bool) { return false, false }

func unpackBytesGroups(dst []uint8, src []byte, g, w int, mask uint64) {
	unpackBytes(dst[:8*g], src, uint(w))
}

func unpackInt16Groups(dst []int16, src []byte, g, w int, mask uint64) {
	unpackInt16(dst[:8*g], src, uint(w))
}

func fillBytes32(dst []uint8, c int, x uint64) { fillBytes(dst[:c], x) }

func fillInt16x16(dst []int16, c int, x uint64) { fillInt16(dst[:c], int16(x)) }

// The page routines: indexKernel and levelKernels keep decodePage and the
// level loops from calling them, and they do no run if called.

func indexKernel() bool { return false }

func indexRuns(dst []uint32, src []byte, w uint) (n, used int, top uint32) { return 0, 0, 0 }

func levelRunsBytes(dst []uint8, src []byte, w uint) (n, used int) { return 0, 0 }

func levelRunsInt16(dst []int16, src []byte, w uint) (n, used int) { return 0, 0 }
