//go:build !amd64 || purego

package bytestreamsplit

// encode is encodeGeneric on targets without an assembly version.
func encode[T Value](out []byte, src []T) { encodeGeneric(out, src) }
