//go:build cgo

package zstd

import (
	"testing"

	"github.com/pqcodec/pqcodec/native/internal/nativetest"
	"github.com/pqcodec/pqcodec/native/zstd/internal/zstdc"
)

// BenchmarkCodec compares the binding with direct ZSTD_compressCCtx /
// ZSTD_decompressDCtx calls on a reused context, at level 3.
func BenchmarkCodec(b *testing.B) {
	const level = 3
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
	ctx := zstdc.New()
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
				r := ctx.Compress(dst[:cap(dst)], src, level)
				if zstdc.IsError(r) {
					b.Fatal("ZSTD_compressCCtx failed")
				}
				return dst[:r]
			},
			Decompress: func(dst, src []byte) []byte {
				r := ctx.Decompress(dst[:cap(dst)], src)
				if zstdc.IsError(r) {
					b.Fatal("ZSTD_decompressDCtx failed")
				}
				return dst[:r]
			},
		})
}
