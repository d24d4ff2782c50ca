//go:build amd64 && !purego

package bytestreamsplit

// decode sets dst[i] to the value whose byte j is src[j*stride+i]; src must
// hold size[T]()-1 strides plus len(dst) bytes. Same semantics as
// decodeGeneric: with AVX2, blocks of 32 values; SSE2 (part of every amd64
// CPU) handles blocks of 16 values and decodeGeneric the rest.
func decode[T Value](dst []T, src []byte, stride int) {
	m := len(dst) &^ 15
	if m > 0 {
		k := size[T]()
		_ = src[(k-1)*stride+m-1] // the assembly reads up to here
		a := 0
		if useAVX2 {
			a = m &^ 31
		}
		if hasAVX && a < m {
			zeroUpper() // the SSE2 code, after a peer's AVX code
		}
		// Twin cases, one per type: each calls its type's own assembly
		// entry points (see below).
		switch d := any(dst).(type) {
		case []float32:
			decodeFloat32AVX2(d[:a], src, stride)
			decodeFloat32SSE2(d[a:m], src[a:], stride)
		case []int32:
			decodeInt32AVX2(d[:a], src, stride)
			decodeInt32SSE2(d[a:m], src[a:], stride)
		case []float64:
			decodeFloat64AVX2(d[:a], src, stride)
			decodeFloat64SSE2(d[a:m], src[a:], stride)
		case []int64:
			decodeInt64AVX2(d[:a], src, stride)
			decodeInt64SSE2(d[a:m], src[a:], stride)
		}
	}
	decodeGeneric(dst[m:], src[m:], stride)
}

// The functions below decode len(dst) values, a multiple of 16, from streams
// stride bytes apart in src. Each type has its own entry point so that no
// slice needs converting; they share decode4SSE2 and decode8SSE2.

//go:noescape
func decodeFloat32SSE2(dst []float32, src []byte, stride int)

//go:noescape
func decodeInt32SSE2(dst []int32, src []byte, stride int)

//go:noescape
func decodeFloat64SSE2(dst []float64, src []byte, stride int)

//go:noescape
func decodeInt64SSE2(dst []int64, src []byte, stride int)

//go:noescape
func decode4SSE2(dst []uint32, src []byte, stride int)

//go:noescape
func decode8SSE2(dst []uint64, src []byte, stride int)

// The AVX2 functions are the SSE2 ones with len(dst) a multiple of 32 (zero
// does nothing).

//go:noescape
func decodeFloat32AVX2(dst []float32, src []byte, stride int)

//go:noescape
func decodeInt32AVX2(dst []int32, src []byte, stride int)

//go:noescape
func decodeFloat64AVX2(dst []float64, src []byte, stride int)

//go:noescape
func decodeInt64AVX2(dst []int64, src []byte, stride int)

//go:noescape
func decode4AVX2(dst []uint32, src []byte, stride int)

//go:noescape
func decode8AVX2(dst []uint64, src []byte, stride int)
