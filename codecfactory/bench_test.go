package codecfactory

import (
	"bytes"
	"fmt"
	"testing"
)

// benchSizes are the page sizes of the benchmarks.
var benchSizes = []struct {
	name string
	n    int
}{{"64KiB", 64 << 10}, {"1MiB", 1 << 20}}

// benchPages calls fn for every page the codec benchmarks time: each codec
// this build compresses, dataset and size, with the default Factory and the
// sub-benchmark name.
func benchPages(b *testing.B, fn func(f *Factory, c Codec, name string, src []byte)) {
	f, err := New()
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range allCodecs {
		if !f.CanCompress(c) {
			continue
		}
		for i, d := range datasets {
			for _, sz := range benchSizes {
				fn(f, c, fmt.Sprintf("%v/%s/%s", c, d.name, sz.name), genData(d, sz.n, uint64(i)))
			}
		}
	}
}

// timePage fails b unless the round trip out, err gave src back, then
// times op, reporting bytes, allocations and the compression ratio
// len(src)/len(comp).
func timePage(b *testing.B, src, comp, out []byte, err error, op func() error) {
	if err != nil || !bytes.Equal(out, src) {
		b.Fatalf("bad round trip: %v", err)
	}
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if err := op(); err != nil {
			b.Fatal(err)
		}
	}
	// After the loop: b.Loop's first call resets the timer, which drops
	// metrics reported before it.
	b.ReportMetric(float64(len(src))/float64(len(comp)), "ratio")
}

// BenchmarkDecompress decompresses pages of each dataset and size with each
// codec, with the default Factory (native codecs where available), into a
// reused dst. It reports the compression ratio (uncompressed/compressed).
func BenchmarkDecompress(b *testing.B) {
	benchPages(b, func(f *Factory, c Codec, name string, src []byte) {
		comp, err := f.Compress(c, nil, src)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			dst := make([]byte, 0, len(src))
			out, err := f.Decompress(c, dst, comp, len(src))
			timePage(b, src, comp, out, err, func() error {
				_, err := f.Decompress(c, dst, comp, len(src))
				return err
			})
		})
	})
}

// BenchmarkCompress compresses pages of each dataset and size with each
// codec into a reused dst of CompressBound capacity.
func BenchmarkCompress(b *testing.B) {
	benchPages(b, func(f *Factory, c Codec, name string, src []byte) {
		b.Run(name, func(b *testing.B) {
			dst := make([]byte, 0, f.CompressBound(c, len(src)))
			comp, err := f.Compress(c, dst, src)
			if err != nil {
				b.Fatal(err)
			}
			out, err := f.Decompress(c, nil, comp, len(src))
			timePage(b, src, comp, out, err, func() error {
				_, err := f.Compress(c, dst, src)
				return err
			})
		})
	})
}
