package lzo

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// FuzzDecompress feeds arbitrary blocks and output capacities to Decompress:
// it must return an error wrapping ErrCorrupt or ErrDstTooSmall, or output
// within the capacity, and never write past cap(dst) (checked with canary
// bytes in the same backing array).
func FuzzDecompress(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.lzo")
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		for _, blk := range parseLzop(f, b) {
			if blk.compressed != nil && len(blk.compressed) < 4096 {
				f.Add(blk.compressed, uint16(blk.size))
			}
		}
	}
	f.Add([]byte{17 + 2, 'x', 'y', 0x40 | 1, 0, 'z', 0x11, 0, 0}, uint16(6))
	f.Add([]byte{0x03, 'a', 'b', 'c', 'a', 'b', 'c', 0x2a, 0x14, 0x00, 0x11, 0, 0}, uint16(18))
	f.Add([]byte{0, 0, 0, 0xff, 0x11, 0, 0}, uint16(1000))
	f.Fuzz(func(t *testing.T, src []byte, size uint16) {
		const canary = 64
		buf := make([]byte, 2+int(size)+canary)
		for i := range buf {
			buf[i] = 0xA5
		}
		dst := buf[: 2 : 2+int(size)]
		out, err := Decompress(dst, src)
		if !bytes.Equal(buf[2+int(size):], bytes.Repeat([]byte{0xA5}, canary)) {
			t.Fatal("write past cap(dst)")
		}
		if err != nil {
			if !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrDstTooSmall) {
				t.Fatalf("unexpected error %v", err)
			}
			return
		}
		if len(out) < 2 || len(out) > 2+int(size) || &out[0] != &buf[0] {
			t.Fatalf("bad output length %d", len(out))
		}
	})
}
