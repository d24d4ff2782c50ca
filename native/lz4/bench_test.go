//go:build cgo

package lz4

import (
	"testing"

	"github.com/pqcodec/pqcodec/native/internal/nativetest"
	"github.com/pqcodec/pqcodec/native/lz4/internal/lz4c"
)

// BenchmarkCodec compares the binding with direct LZ4_compress_fast_extState
// / LZ4_decompress_safe calls with a reused state, at the fast level.
func BenchmarkCodec(b *testing.B) { nativetest.Bench(b, CompressBound, impls(b)...) }

// TestOverhead reports the binding's CPU-time overhead over the direct C
// call (PQCODEC_OVERHEAD=1 go test -run Overhead -v).
func TestOverhead(t *testing.T) { nativetest.Overhead(t, impls(t)...) }

// impls returns the binding and the direct C call, in that order.
func impls(tb testing.TB) []nativetest.Impl {
	comp, err := NewCompressor(LevelFast)
	if err != nil {
		tb.Fatal(err)
	}
	dec, err := NewDecompressor()
	if err != nil {
		tb.Fatal(err)
	}
	ctx := lz4c.New()
	tb.Cleanup(ctx.Free)

	return []nativetest.Impl{
		nativetest.Binding(tb, comp, dec),
		{
			Name: "direct",
			Compress: func(dst, src []byte) []byte {
				n := ctx.Compress(dst[:cap(dst)], src)
				if n <= 0 {
					tb.Fatal("LZ4_compress_fast_extState failed")
				}
				return dst[:n]
			},
			Decompress: func(dst, src []byte) []byte {
				n := lz4c.Decompress(dst[:cap(dst)], src)
				if n < 0 {
					tb.Fatal("LZ4_decompress_safe failed")
				}
				return dst[:n]
			},
		},
	}
}
