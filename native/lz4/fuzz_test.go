package lz4

import (
	"bytes"
	"errors"
	"testing"

	pierrec "github.com/pierrec/lz4/v4"

	"github.com/pqcodec/pqcodec/native/internal/nativetest"
)

func FuzzDecompress(f *testing.F) {
	if !Available {
		f.Skip("built without cgo")
	}
	nativetest.FuzzDecompress(f, codec(), []byte{0x00}, []byte{0x10, 'a'},
		[]byte{0x1f, 'x', 0x01, 0x00, 0xff, 0x00, 0x50, 'a', 'b', 'c', 'd', 'e'})
}

// FuzzOracle decodes arbitrary bytes with liblz4 and with pierrec/lz4 (the
// pure-Go decoder of CGO_ENABLED=0 builds) into the same room: what liblz4
// accepts, DecodedLen accepts and measures the same (the binding's scan
// rejects a match offset of 0 before liblz4 sees it), and pierrec decodes to
// the same content unless it rejects the block. The two disagree on blocks at the edge of the
// format both ways: pierrec rejects a last token whose match-length nibble is
// not 0 (liblz4 ignores it), liblz4 rejects blocks that break the
// end-of-block rules when decoding into exactly their size.
func FuzzOracle(f *testing.F) {
	if !Available {
		f.Skip("built without cgo")
	}
	f.Add([]byte{0x00}, uint16(0))
	f.Add([]byte{0x10, 'a'}, uint16(1))
	f.Add([]byte{0x1f, 'x', 0x01, 0x00, 0xff, 0x00, 0x50, 'a', 'b', 'c', 'd', 'e'}, uint16(300))
	f.Add(nativetest.ParquetPage(500, 1), uint16(500))
	dec, err := NewDecompressor()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, src []byte, room uint16) {
		got, err := dec.Decompress(make([]byte, 0, int(room)), src)
		want := make([]byte, int(room))
		k, perr := pierrec.UncompressBlock(src, want)
		m, ok := DecodedLen(src)
		switch {
		case err == nil:
			if perr == nil && !bytes.Equal(got, want[:k]) {
				t.Fatal("liblz4 and pierrec decode different bytes")
			}
			if !ok || m != len(got) {
				t.Fatalf("DecodedLen %d %v, liblz4 decoded %d", m, ok, len(got))
			}
		case errors.Is(err, ErrDstTooSmall):
			if !ok || m <= int(room) {
				t.Fatalf("ErrDstTooSmall for a block DecodedLen says is %d %v, room %d", m, ok, room)
			}
		case !errors.Is(err, ErrCorrupt):
			t.Fatalf("error wraps no sentinel: %v", err)
		}
	})
}
