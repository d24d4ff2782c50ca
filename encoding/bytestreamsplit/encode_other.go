//go:build !amd64 || purego

package bytestreamsplit

// encode is encodeGeneric on targets without an assembly version.
func encode[T Value](out []byte, src []T) { encodeGeneric(out, src) }

// useAVX2 and hasAVX2 mirror encode_amd64.go so that the tests, which
// switch between code paths, build everywhere: there is no AVX2 code here.
var useAVX2 = false

func hasAVX2() bool { return false }
