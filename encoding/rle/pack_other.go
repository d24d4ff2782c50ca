//go:build !amd64 || purego

package rle

// The generic loops of encoder.go do all the work here.

func encodeBytesFast(out []byte, pos int, src []uint8, width uint) ([]byte, int, uint64, bool) {
	return out, pos, 0, false
}

func encodeInt16Fast(out []byte, pos int, src []int16, width uint) ([]byte, int, int16, bool) {
	return out, pos, 0, false
}
