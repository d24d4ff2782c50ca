//go:build !amd64 || purego

package delta

// blockDeltas is blockDeltasGo on targets without an assembly version.
func blockDeltas[T Integer, U word](d *[encBlockSize]U, src *[encBlockSize + 1]T) (T, [encMiniblocks]T) {
	return blockDeltasGo(d, src)
}
