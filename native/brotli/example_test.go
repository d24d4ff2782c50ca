//go:build cgo

package brotli_test

import (
	"bytes"
	"fmt"
	"log"

	"github.com/pqcodec/pqcodec/native/brotli"
)

// Example compresses into a buffer of MaxCompressedSize, which Compress
// fills in place, and decompresses into an exactly sized buffer.
func Example() {
	comp, err := brotli.NewCompressor(9, brotli.DefaultWindow)
	if err != nil {
		log.Fatal(err)
	}
	defer comp.Close()
	dec, err := brotli.NewDecompressor()
	if err != nil {
		log.Fatal(err)
	}
	defer dec.Close()

	page := bytes.Repeat([]byte("column chunk "), 100)
	buf := make([]byte, 0, brotli.MaxCompressedSize(len(page)))
	z, err := comp.Compress(buf, page)
	if err != nil {
		log.Fatal(err)
	}
	out, err := dec.Decompress(make([]byte, 0, len(page)), z)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(&z[0] == &buf[:1][0], bytes.Equal(out, page))
	// Output: true true
}
