package brotli

import (
	"testing"

	"github.com/pqcodec/pqcodec/native/internal/nativetest"
)

func FuzzDecompress(f *testing.F) {
	if !Available {
		f.Skip("built without cgo")
	}
	nativetest.FuzzDecompress(f, codec(), []byte{0x06}, []byte{0x1d, 0x00}, []byte{0x8b, 0x02, 0x80, 'h', 'i', 0x03})
}
