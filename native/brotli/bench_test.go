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
func BenchmarkCodec(b *testing.B) { nativetest.Bench(b, CompressBound, impls(b)...) }

// TestOverhead reports the binding's CPU-time overhead over the direct C
// call (PQCODEC_OVERHEAD=1 go test -run Overhead -v).
func TestOverhead(t *testing.T) { nativetest.Overhead(t, impls(t)...) }

// impls returns the binding and the direct C call, in that order.
func impls(tb testing.TB) []nativetest.Impl {
	const quality, window = 5, 22
	comp, err := NewCompressor(quality, window)
	if err != nil {
		tb.Fatal(err)
	}
	dec, err := NewDecompressor()
	if err != nil {
		tb.Fatal(err)
	}

	return []nativetest.Impl{
		nativetest.Binding(tb, comp, dec),
		{
			Name: "direct",
			Compress: func(dst, src []byte) []byte {
				n := brotlic.Compress(dst[:cap(dst)], src, quality, window)
				if n == 0 {
					tb.Fatal("BrotliEncoderCompress failed")
				}
				return dst[:n]
			},
			Decompress: func(dst, src []byte) []byte {
				n := brotlic.Decompress(dst[:cap(dst)], src)
				if n < 0 {
					tb.Fatal("BrotliDecoderDecompress failed")
				}
				return dst[:n]
			},
		},
	}
}
