//go:build amd64 && !purego

package bytestreamsplit

import "golang.org/x/sys/cpu"

// useAVX2 reports whether encode and decode may use AVX2; tests turn it off to
// exercise the SSE2 code on CPUs that have AVX2.
var useAVX2 = hasAVX2()

// hasAVX reports whether the CPU has AVX, and so VZEROUPPER (zeroUpper).
var hasAVX = cpu.X86.HasAVX

// encode writes the streams of src into out, which holds len(src) values.
// Same semantics as encodeGeneric: with AVX2, 8-byte values go in blocks of
// 32; SSE2 (part of every amd64 CPU) handles blocks of 16 values, and
// encodeTail the rest.
func encode[T Value](out []byte, src []T) {
	n := len(src)
	m := n &^ 15
	if m > 0 {
		_ = out[(size[T]()-1)*n+m-1] // the assembly writes up to here
		if hasAVX {
			zeroUpper() // the SSE2 code, after a peer's AVX code
		}
		switch s := any(src).(type) {
		case []float32:
			encodeFloat32SSE2(out, s[:m], n)
		case []int32:
			encodeInt32SSE2(out, s[:m], n)
		case []float64:
			a := 0
			if useAVX2 {
				a = n &^ 31
				encodeFloat64AVX2(out, s[:a], n)
			}
			encodeFloat64SSE2(out[a:], s[a:m], n)
		case []int64: // twin of the []float64 case: the assembly is typed per element
			a := 0
			if useAVX2 {
				a = n &^ 31
				encodeInt64AVX2(out, s[:a], n)
			}
			encodeInt64SSE2(out[a:], s[a:m], n)
		}
	}
	encodeTail(out, src, m)
}

// hasAVX2 reports whether the CPU and the operating system support AVX2.
func hasAVX2() bool { return cpu.X86.HasAVX2 }

// The functions below write the len(src) values of src, a multiple of 16,
// into streams stride bytes apart in dst. Each type has its own entry point
// so that no slice needs converting; they share encode4SSE2 and encode8SSE2.

//go:noescape
func encodeFloat32SSE2(dst []byte, src []float32, stride int)

//go:noescape
func encodeInt32SSE2(dst []byte, src []int32, stride int)

//go:noescape
func encodeFloat64SSE2(dst []byte, src []float64, stride int)

//go:noescape
func encodeInt64SSE2(dst []byte, src []int64, stride int)

//go:noescape
func encode4SSE2(dst []byte, src []uint32, stride int)

//go:noescape
func encode8SSE2(dst []byte, src []uint64, stride int)

// The AVX2 functions are the SSE2 ones for 8-byte values, with len(src) a
// multiple of 32.

//go:noescape
func encodeFloat64AVX2(dst []byte, src []float64, stride int)

//go:noescape
func encodeInt64AVX2(dst []byte, src []int64, stride int)

//go:noescape
func encode8AVX2(dst []byte, src []uint64, stride int)

// zeroUpper executes VZEROUPPER; only where the CPU has AVX (hasAVX).
//
//go:noescape
func zeroUpper()
