//go:build amd64 && !purego

package delta

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/pqcodec/pqcodec/internal/benchdata"
)

// TestCopyChunkKernels runs TestCopyChunkPaths with each assembly copying
// loop the CPU can run, whichever one the start-up selection picked.
func TestCopyChunkKernels(t *testing.T) {
	saved := useCopyAVX
	t.Cleanup(func() { useCopyAVX = saved })
	for _, avx := range []bool{false, true} {
		if avx && !hasAVX {
			continue
		}
		useCopyAVX = avx
		name := "sse2"
		if avx {
			name = "avx"
		}
		t.Run(name, checkCopyChunkPaths)
	}
}

// BenchmarkCopyKernels decodes DELTA_BYTE_ARRAY pages with each assembly
// copying loop the CPU can run, in one binary: "lowcard" values share a
// 9-byte prefix ("category-N"), so every value reads back the previous one
// in copyValuesSSE2; "words" (4-24 random letters) rarely do.
func BenchmarkCopyKernels(b *testing.B) {
	saved := useCopyAVX
	b.Cleanup(func() { useCopyAVX = saved })
	for _, size := range pageSizes {
		for _, kind := range benchdata.ByteArrayKinds {
			values, offsets := benchdata.ByteArrays(rand.New(rand.NewPCG(1, 2)), kind, size)
			page, err := EncodeByteArray(nil, values, offsets)
			if err != nil {
				b.Fatal(err)
			}
			for _, avx := range []bool{false, true} {
				if avx && !hasAVX {
					continue
				}
				name := "sse2"
				if avx {
					name = "avx"
				}
				b.Run(fmt.Sprintf("%s/%dKiB/kernel=%s", kind, size>>10, name), func(b *testing.B) {
					useCopyAVX = avx
					v, o, err := DecodeByteArray(nil, nil, page)
					if err != nil || string(v) != string(values) {
						b.Fatal("bad decode", err)
					}
					b.SetBytes(int64(len(values)))
					cpu0 := benchdata.CPUTime()
					for b.Loop() {
						v, o, _ = DecodeByteArray(v[:0], o[:0], page)
					}
					b.ReportMetric(float64(benchdata.CPUTime()-cpu0)/float64(b.N), "cpu-ns/op")
				})
			}
		}
	}
}
