package deflate

import (
	"testing"

	"github.com/pqcodec/pqcodec/native/internal/nativetest"
)

func FuzzDecompress(f *testing.F) {
	if !Available {
		f.Skip("built without cgo")
	}
	two := append(gz([]byte("first member")), gz([]byte("second"))...)
	nativetest.FuzzDecompress(f, codec(), gz(nil), two, two[:len(two)-3])
}
