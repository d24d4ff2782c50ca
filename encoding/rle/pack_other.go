//go:build !amd64 || purego

package rle

// The generic loops of encoder.go do all the work here.

func packBytesFast(out []byte, src []uint8, w uint) bool { return false }

func packInt16Fast(out []byte, src []int16, w uint) bool { return false }

func encodeBytesFast(out []byte, pos int, src []uint8, width uint) ([]byte, int, int, int, uint64) {
	return out, pos, 0, 0, 0
}

func encodeInt16Fast(out []byte, pos int, src []int16, width uint) ([]byte, int, int, int, int16) {
	return out, pos, 0, 0, 0
}
