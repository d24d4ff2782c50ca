package nativetest

import (
	"bytes"
	"fmt"
	"testing"
)

// BenchSizes are the page sizes every binding is benchmarked at.
var BenchSizes = []int{64 << 10, 1 << 20}

// SizeName names a benchmark size the way benchstat groups it.
func SizeName(n int) string {
	if n >= 1<<20 {
		return fmt.Sprintf("size=%dMiB", n>>20)
	}
	return fmt.Sprintf("size=%dKiB", n>>10)
}

// Impl is one side of a binding-versus-direct-C benchmark. Each function
// does one whole operation into dst's spare capacity and returns the
// extended dst.
type Impl struct {
	Name       string
	Compress   func(dst, src []byte) []byte
	Decompress func(dst, src []byte) []byte
}

// Binding is the "binding" Impl of every package's BenchmarkCodec and
// TestOverhead: comp and dec called through the binding's API, failing tb
// on any error. It closes both when tb ends.
func Binding(tb testing.TB, comp Compressor, dec Decompressor) Impl {
	tb.Cleanup(func() { _ = comp.Close(); _ = dec.Close() })
	return Impl{
		Name: "binding",
		Compress: func(dst, src []byte) []byte {
			out, err := comp.Compress(dst, src)
			if err != nil {
				tb.Fatal(err)
			}
			return out
		},
		Decompress: func(dst, src []byte) []byte {
			out, err := dec.Decompress(dst, src)
			if err != nil {
				tb.Fatal(err)
			}
			return out
		},
	}
}

// Bench runs compress and decompress benchmarks on Parquet-shaped pages for
// every impl, checking each impl's output once before timing. Sub-benchmark
// names carry op=, size= and impl= keys, so `benchstat -col /impl` shows the
// binding's overhead over the direct C call.
func Bench(b *testing.B, bound func(int) int, impls ...Impl) {
	for _, n := range BenchSizes {
		src := ParquetPage(n, 42)
		for _, im := range impls {
			b.Run(fmt.Sprintf("op=compress/%s/impl=%s", SizeName(n), im.Name), func(b *testing.B) {
				dst := make([]byte, 0, bound(n))
				z := im.Compress(dst, src)
				if got := impls[0].Decompress(make([]byte, 0, n), z); !bytes.Equal(got, src) {
					b.Fatal("compressed output does not round-trip")
				}
				b.SetBytes(int64(n))
				b.ReportAllocs()
				b.ResetTimer()
				for b.Loop() {
					im.Compress(dst, src)
				}
			})
		}
		z := impls[0].Compress(nil, src)
		for _, im := range impls {
			b.Run(fmt.Sprintf("op=decompress/%s/impl=%s", SizeName(n), im.Name), func(b *testing.B) {
				dst := make([]byte, 0, n)
				if got := im.Decompress(dst, z); !bytes.Equal(got, src) {
					b.Fatal("wrong decompressed output")
				}
				b.SetBytes(int64(n))
				b.ReportAllocs()
				b.ResetTimer()
				for b.Loop() {
					im.Decompress(dst, z)
				}
			})
		}
	}
}
