//go:build !amd64 || purego

package rle

// The generic loops of unpack.go do all the work here.

func unpackBytesFast(dst []uint8, src []byte, w uint) int { return 0 }

func unpackInt16Fast(dst []int16, src []byte, w uint) int { return 0 }

func unpackUint32Fast(dst []uint32, src []byte, w uint) (int, uint32) { return 0, 0 }

func fillFast[T Level](dst []T, n, c int, v uint32) bool { return false }

func fillBytesFast(dst []uint8, n, c int, x uint64) bool { return false }

func fillInt16Fast(dst []int16, n, c int, t int16) bool { return false }
