//go:build cgo

package deflate

import (
	"testing"

	"github.com/pqcodec/pqcodec/native/deflate/internal/deflatec"
	"github.com/pqcodec/pqcodec/native/internal/nativetest"
)

// BenchmarkCodec compares the binding with direct libdeflate_gzip_compress /
// libdeflate_gzip_decompress calls on reused contexts, at level 6.
func BenchmarkCodec(b *testing.B) {
	const level = 6
	comp, err := NewCompressor(level)
	if err != nil {
		b.Fatal(err)
	}
	defer comp.Close()
	dec, err := NewDecompressor()
	if err != nil {
		b.Fatal(err)
	}
	defer dec.Close()
	ctx := deflatec.New(level)
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
				if n == 0 {
					b.Fatal("libdeflate_gzip_compress failed")
				}
				return dst[:n]
			},
			Decompress: func(dst, src []byte) []byte {
				r, n := ctx.Decompress(dst[:cap(dst)], src)
				if r != 0 {
					b.Fatal("libdeflate_gzip_decompress failed")
				}
				return dst[:n]
			},
		})
}
