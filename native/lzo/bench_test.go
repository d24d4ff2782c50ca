//go:build cgo && !nolzo

package lzo

import (
	"testing"

	"github.com/pqcodec/pqcodec/native/internal/nativetest"
	"github.com/pqcodec/pqcodec/native/lzo/internal/lzoc"
)

// BenchmarkCodec compares the binding with direct lzo1x_1_compress /
// lzo1x_decompress_safe calls with reused working memory, at LZO1X-1.
func BenchmarkCodec(b *testing.B) {
	comp, err := NewCompressor(Level1)
	if err != nil {
		b.Fatal(err)
	}
	defer comp.Close()
	dec, err := NewDecompressor()
	if err != nil {
		b.Fatal(err)
	}
	defer dec.Close()
	ctx := lzoc.New()
	defer ctx.Free()

	nativetest.Bench(b, CompressBound,
		nativetest.Impl{
			Name: "binding",
			Compress: func(dst, src []byte) []byte {
				out, err := comp.Compress(dst, src)
				if err != nil {
					b.Fatal(err)
				}
				return out
			},
			Decompress: func(dst, src []byte) []byte {
				out, err := dec.Decompress(dst, src)
				if err != nil {
					b.Fatal(err)
				}
				return out
			},
		},
		nativetest.Impl{
			Name: "direct",
			Compress: func(dst, src []byte) []byte {
				n := ctx.Compress(dst[:cap(dst)], src)
				if n < 0 {
					b.Fatal("lzo1x_1_compress failed")
				}
				return dst[:n]
			},
			Decompress: func(dst, src []byte) []byte {
				n := lzoc.Decompress(dst[:cap(dst)], src)
				if n < 0 {
					b.Fatal("lzo1x_decompress_safe failed")
				}
				return dst[:n]
			},
		})
}
