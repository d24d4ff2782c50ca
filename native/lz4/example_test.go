//go:build cgo

package lz4_test

import (
	"bytes"
	"fmt"
	"log"

	"github.com/pqcodec/pqcodec/native/lz4"
)

// Example compresses a page into one LZ4 block and decompresses it into a
// buffer of the page's known uncompressed size.
func Example() {
	comp, err := lz4.NewCompressor(lz4.LevelFast)
	if err != nil {
		log.Fatal(err)
	}
	defer comp.Close()
	dec, err := lz4.NewDecompressor()
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
