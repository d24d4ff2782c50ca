package zstd

import (
	"testing"

	"github.com/pqcodec/pqcodec/native/internal/nativetest"
)

func FuzzDecompress(f *testing.F) {
	if !Available {
		f.Skip("built without cgo")
	}
	nativetest.FuzzDecompress(f, codec(),
		[]byte{0x28, 0xb5, 0x2f, 0xfd, 0x20, 0x00, 0x01, 0x00, 0x00},
		[]byte{0x50, 0x2a, 0x4d, 0x18, 0x01, 0x00, 0x00, 0x00, 0x00})
}

// FuzzFrameContentSize checks the pure-Go header parser against libzstd's
// ZSTD_getFrameContentSize (under cgo) on arbitrary bytes.
func FuzzFrameContentSize(f *testing.F) {
	f.Add([]byte{0x28, 0xb5, 0x2f, 0xfd, 0x20, 0x05})
	f.Add([]byte{0x28, 0xb5, 0x2f, 0xfd, 0xc3, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})
	f.Add([]byte{0x28, 0xb5, 0x2f, 0xfd, 0x40, 0xf8, 1, 2})
	f.Add([]byte{0x5a, 0x2a, 0x4d, 0x18, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, src []byte) { checkFrameContentSize(t, src) })
}
