//go:build !amd64 || purego

package bytestreamsplit

// decode is decodeGeneric on targets without an assembly version.
func decode[T Value](dst []T, src []byte, stride int) { decodeGeneric(dst, src, stride) }

// encode is encodeGeneric on targets without an assembly version.
func encode[T Value](out []byte, src []T) { encodeGeneric(out, src) }
