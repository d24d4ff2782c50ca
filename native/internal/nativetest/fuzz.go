package nativetest

import (
	"bytes"
	"errors"
	"sync"
	"testing"
)

// FuzzDstCap bounds the output capacity fuzz targets decompress into, so
// every input finishes quickly whatever size it claims.
const FuzzDstCap = 1 << 20

// FuzzDecompress is the body of every decompressor fuzz target: arbitrary
// bytes are decompressed into a bounded dst followed by canary bytes; the
// call must return (no crash), fail only with ErrCorrupt or ErrDstTooSmall,
// and never write past the capacity. Each input is also compressed and must
// round-trip. seeds are added to the corpus beside compressed samples.
func FuzzDecompress(f *testing.F, c Codec, seeds ...[]byte) {
	comp, err := c.NewCompressor()
	if err != nil {
		f.Skip(err)
	}
	for _, src := range [][]byte{nil, []byte("a"), ParquetPage(3000, 1), make([]byte, 5000), RandomBytes(100, 2)} {
		z, err := comp.Compress(nil, src)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(z)
		f.Add(z[:len(z)/2])
	}
	for _, s := range seeds {
		f.Add(s)
	}
	dec, err := c.NewDecompressor()
	if err != nil {
		f.Fatal(err)
	}
	var mu sync.Mutex
	dst := WithCanary(nil, FuzzDstCap)
	small := WithCanary(nil, 64)
	f.Fuzz(func(t *testing.T, data []byte) {
		mu.Lock()
		defer mu.Unlock()
		for _, d := range [][]byte{dst, small} {
			got, err := dec.Decompress(d, data)
			if err != nil {
				if !errors.Is(err, c.ErrCorrupt) && !errors.Is(err, c.ErrDstTooSmall) {
					t.Fatalf("error wraps no sentinel: %v", err)
				}
				if got != nil {
					t.Fatalf("non-nil output with error %v", err)
				}
			} else if len(got) > cap(d) {
				t.Fatalf("output %d beyond capacity %d", len(got), cap(d))
			}
			if !CanaryIntact(d) {
				t.Fatal("write past the output region")
			}
		}
		if len(data) > 64<<10 {
			return
		}
		z, err := comp.Compress(nil, data)
		if err != nil {
			t.Fatal(err)
		}
		got, err := dec.Decompress(dst, z)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, data) {
			t.Fatal("round trip mismatch")
		}
	})
}
