//go:build cgo

package deflate

import (
	"testing"

	"github.com/pqcodec/pqcodec/native/deflate/internal/deflatec"
	"github.com/pqcodec/pqcodec/native/internal/nativetest"
)

// BenchmarkCodec compares the binding with direct libdeflate_gzip_compress /
// libdeflate_gzip_decompress calls on reused contexts, at level 6.
func BenchmarkCodec(b *testing.B) { nativetest.Bench(b, CompressBound, impls(b)...) }

// TestOverhead reports the binding's CPU-time overhead over the direct C
// call (PQCODEC_OVERHEAD=1 go test -run Overhead -v).
func TestOverhead(t *testing.T) { nativetest.Overhead(t, impls(t)...) }

// impls returns the binding and the direct C call, in that order.
func impls(tb testing.TB) []nativetest.Impl {
	const level = 6
	comp, err := NewCompressor(level)
	if err != nil {
		tb.Fatal(err)
	}
	dec, err := NewDecompressor()
	if err != nil {
		tb.Fatal(err)
	}
	ctx := deflatec.New(level)
	tb.Cleanup(ctx.Free)

	return []nativetest.Impl{
		nativetest.Binding(tb, comp, dec),
		{
			Name: "direct",
			Compress: func(dst, src []byte) []byte {
				n := ctx.Compress(dst[:cap(dst)], src)
				if n == 0 {
					tb.Fatal("libdeflate_gzip_compress failed")
				}
				return dst[:n]
			},
			Decompress: func(dst, src []byte) []byte {
				r, n := ctx.Decompress(dst[:cap(dst)], src)
				if r != 0 {
					tb.Fatal("libdeflate_gzip_decompress failed")
				}
				return dst[:n]
			},
		},
	}
}
