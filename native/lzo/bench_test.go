//go:build cgo && !nolzo

package lzo

import (
	"testing"

	"github.com/pqcodec/pqcodec/native/internal/nativetest"
	"github.com/pqcodec/pqcodec/native/lzo/internal/lzoc"
)

// BenchmarkCodec compares the binding with direct lzo1x_1_compress /
// lzo1x_decompress_safe calls with reused working memory, at LZO1X-1.
func BenchmarkCodec(b *testing.B) { nativetest.Bench(b, CompressBound, impls(b)...) }

// TestOverhead reports the binding's CPU-time overhead over the direct C
// call (PQCODEC_OVERHEAD=1 go test -run Overhead -v).
func TestOverhead(t *testing.T) { nativetest.Overhead(t, impls(t)...) }

// impls returns the binding and the direct C call, in that order.
func impls(tb testing.TB) []nativetest.Impl {
	comp, err := NewCompressor(Level1)
	if err != nil {
		tb.Fatal(err)
	}
	dec, err := NewDecompressor()
	if err != nil {
		tb.Fatal(err)
	}
	ctx := lzoc.New()
	tb.Cleanup(ctx.Free)

	return []nativetest.Impl{
		nativetest.Binding(tb, comp, dec),
		{
			Name: "direct",
			Compress: func(dst, src []byte) []byte {
				n := ctx.Compress(dst[:cap(dst)], src)
				if n < 0 {
					tb.Fatal("lzo1x_1_compress failed")
				}
				return dst[:n]
			},
			Decompress: func(dst, src []byte) []byte {
				n := lzoc.Decompress(dst[:cap(dst)], src)
				if n < 0 {
					tb.Fatal("lzo1x_decompress_safe failed")
				}
				return dst[:n]
			},
		},
	}
}
