//go:build cgo && !nolzo

package lzo_test

import (
	"bytes"
	"fmt"
	"log"

	"github.com/pqcodec/pqcodec/native/lzo"
)

// Example compresses a page with LZO1X-1 and decompresses it into a buffer
// of the page's known uncompressed size.
func Example() {
	comp, err := lzo.NewCompressor(lzo.Level1)
	if err != nil {
		log.Fatal(err)
	}
	defer comp.Close()
	dec, err := lzo.NewDecompressor()
	if err != nil {
		log.Fatal(err)
	}
	defer dec.Close()

	page := bytes.Repeat([]byte("row group "), 200)
	z, err := comp.Compress(nil, page)
	if err != nil {
		log.Fatal(err)
	}
	out, err := dec.Decompress(make([]byte, 0, len(page)), z)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(z) < len(page), bytes.Equal(out, page))
	// Output: true true
}
