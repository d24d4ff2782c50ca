package lzo

import (
	"testing"

	"github.com/pqcodec/pqcodec/native/internal/nativetest"
)

func FuzzDecompress(f *testing.F) {
	if !Available {
		f.Skip("built without liblzo2")
	}
	nativetest.FuzzDecompress(f, codec(), []byte{0x11, 0, 0}, []byte{0x15, 'a', 'b', 'c', 'd', 0x11, 0, 0},
		[]byte{0x00, 0x05, 0x20, 0x00, 0x11, 0, 0})
}
