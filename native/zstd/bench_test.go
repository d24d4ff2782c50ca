//go:build cgo

package zstd

import (
	"testing"

	"github.com/pqcodec/pqcodec/native/internal/nativetest"
	"github.com/pqcodec/pqcodec/native/zstd/internal/zstdc"
)

// BenchmarkCodec compares the binding with direct ZSTD_compressCCtx /
// ZSTD_decompressDCtx calls on a reused context, at level 3.
func BenchmarkCodec(b *testing.B) { nativetest.Bench(b, CompressBound, impls(b)...) }

// TestOverhead reports the binding's CPU-time overhead over the direct C
// call (PQCODEC_OVERHEAD=1 go test -run Overhead -v).
func TestOverhead(t *testing.T) { nativetest.Overhead(t, impls(t)...) }

// impls returns the binding and the direct C call, in that order.
func impls(tb testing.TB) []nativetest.Impl {
	const level = 3
	comp, err := NewCompressor(level)
	if err != nil {
		tb.Fatal(err)
	}
	dec, err := NewDecompressor()
	if err != nil {
		tb.Fatal(err)
	}
	ctx := zstdc.New()
	tb.Cleanup(ctx.Free)

	return []nativetest.Impl{
		nativetest.Binding(tb, comp, dec),
		{
			Name: "direct",
			Compress: func(dst, src []byte) []byte {
				r := ctx.Compress(dst[:cap(dst)], src, level)
				if zstdc.IsError(r) {
					tb.Fatal("ZSTD_compressCCtx failed")
				}
				return dst[:r]
			},
			Decompress: func(dst, src []byte) []byte {
				r := ctx.Decompress(dst[:cap(dst)], src)
				if zstdc.IsError(r) {
					tb.Fatal("ZSTD_decompressDCtx failed")
				}
				return dst[:r]
			},
		},
	}
}
