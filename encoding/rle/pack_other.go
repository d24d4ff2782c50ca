//go:build !amd64 || purego

package rle

// The generic loops of encoder.go do all the work here.

func packBytesFast(out []byte, src []uint8, w uint) bool { return false }

func packInt16Fast(out []byte, src []int16, w uint) bool { return false }
