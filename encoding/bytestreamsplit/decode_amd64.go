//go:build amd64 && !purego

package bytestreamsplit

// decode sets dst[i] to the value whose byte j is src[j*stride+i]; src must
// hold size[T]()-1 strides plus len(dst) bytes. Same semantics as
// decodeGeneric: SSE2 (part of every amd64 CPU) handles blocks of 16 values
// and decodeGeneric the rest.
func decode[T Value](dst []T, src []byte, stride int) {
	m := len(dst) &^ 15
	if m > 0 {
		k := size[T]()
		_ = src[(k-1)*stride+m-1] // the assembly reads up to here
		switch d := any(dst).(type) {
		case []float32:
			decodeFloat32SSE2(d[:m], src, stride)
		case []int32:
			decodeInt32SSE2(d[:m], src, stride)
		case []float64:
			decodeFloat64SSE2(d[:m], src, stride)
		case []int64:
			decodeInt64SSE2(d[:m], src, stride)
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
