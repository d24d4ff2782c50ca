//go:build !amd64 || purego

package delta

// blockDeltas is blockDeltasGo on targets without an assembly version.
func blockDeltas[T Integer, U word](d *[encBlockSize]U, src *[encBlockSize + 1]T) (T, [encMiniblocks]T) {
	return blockDeltasGo(d, src)
}

// lengthDeltas is lengthDeltasGo on targets without an assembly version.
func lengthDeltas(d *[encBlockSize]uint32, o *[encBlockSize + 2]int32) (int32, [encMiniblocks]int32, int32) {
	return lengthDeltasGo(d, o)
}
