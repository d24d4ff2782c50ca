//go:build !amd64 || purego

package bytestreamsplit

// decode is decodeGeneric on targets without an assembly version.
func decode[T Value](dst []T, src []byte, stride int) { decodeGeneric(dst, src, stride) }
