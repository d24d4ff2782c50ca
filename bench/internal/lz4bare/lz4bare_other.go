//go:build !cgo

package lz4bare

// Available reports whether Decompress binds liblz4 (cgo builds).
const Available = false

// Decompress fails without cgo.
func Decompress(dst, src []byte) int { return -1 }
