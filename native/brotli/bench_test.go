//go:build cgo

package brotli

import (
	"testing"

	"github.com/pqcodec/pqcodec/native/brotli/internal/brotlic"
	"github.com/pqcodec/pqcodec/native/internal/nativetest"
)

// BenchmarkCodec compares the binding with direct one-shot
// BrotliEncoderCompress / BrotliDecoderDecompress calls, at quality 5 and
// window 22.
func BenchmarkCodec(b *testing.B) {
	const quality, window = 5, 22
	comp, err := NewCompressor(quality, window)
	if err != nil {
		b.Fatal(err)
	}
	defer comp.Close()
	dec, err := NewDecompressor()
	if err != nil {
		b.Fatal(err)
	}
	defer dec.Close()

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
				n := brotlic.Compress(dst[:cap(dst)], src, quality, window)
				if n == 0 {
					b.Fatal("BrotliEncoderCompress failed")
				}
				return dst[:n]
			},
			Decompress: func(dst, src []byte) []byte {
				n := brotlic.Decompress(dst[:cap(dst)], src)
				if n < 0 {
					b.Fatal("BrotliDecoderDecompress failed")
				}
				return dst[:n]
			},
		})
}
