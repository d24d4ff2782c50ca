package codecfactory

import (
	"errors"
	"testing"
)

// fuzzMaxSize caps the declared size in FuzzDecompress so a run never
// allocates more than 1 MiB per input.
const fuzzMaxSize = 1 << 20

// FuzzDecompress decompresses arbitrary bytes with every codec and an
// arbitrary declared size, in both modes: the result must be an error
// wrapping a package sentinel, or exactly the declared size, and the bytes
// past the declared size in dst's backing array must be untouched.
func FuzzDecompress(f *testing.F) {
	def, err := New(WithMaxPageSize(fuzzMaxSize))
	if err != nil {
		f.Fatal(err)
	}
	pure, err := New(WithMaxPageSize(fuzzMaxSize), WithPureGo(true))
	if err != nil {
		f.Fatal(err)
	}
	src := genData(datasets[5], 3000, 1)
	for _, c := range allCodecs {
		if canCompress(def, c) {
			comp, err := def.Compress(c, nil, src)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(uint8(c), uint32(len(src)), comp)
		}
	}
	page, size, _ := lzopPage(f, "tiny-9.lzo")
	f.Add(uint8(Lzo), uint32(size), page)
	f.Add(uint8(Lz4), uint32(4), []byte{0x40, 'a', 'b', 'c', 'd'})
	f.Add(uint8(Zstd), uint32(0), []byte{0x28, 0xb5, 0x2f, 0xfd, 0x20, 0x00, 0x01, 0x00, 0x00})
	f.Fuzz(func(t *testing.T, codec uint8, size uint32, src []byte) {
		c := Codec(codec % numCodecs)
		n := int(size % (fuzzMaxSize + 2))
		for _, fac := range []*Factory{def, pure} {
			// Small declared sizes get spare capacity ending canary bytes
			// past the declared size; large ones (and sizes above the
			// maximum) get none, exercising the exact-size grow without
			// zeroing a megabyte per run.
			const canary = 32
			spareCap := 0
			if n <= 64<<10 {
				spareCap = n + canary
			}
			buf := make([]byte, 3, 3+spareCap)
			full := buf[:cap(buf)]
			for i := len(full) - min(canary, spareCap); i < len(full); i++ {
				full[i] = 0xA5
			}
			out, err := fac.Decompress(c, buf, src, n)
			for i := len(full) - min(canary, spareCap); i < len(full); i++ {
				if full[i] != 0xA5 {
					t.Fatalf("%v wrote past the declared size", c)
				}
			}
			if err != nil {
				if !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrSizeMismatch) && !errors.Is(err, ErrPageTooLarge) {
					t.Fatalf("%v: error without sentinel: %v", c, err)
				}
				if len(out) != 3 {
					t.Fatalf("%v: error result has length %d", c, len(out))
				}
				continue
			}
			if len(out) != 3+n {
				t.Fatalf("%v: got %d bytes, declared %d", c, len(out)-3, n)
			}
		}
	})
}
