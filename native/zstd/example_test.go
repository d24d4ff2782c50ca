//go:build cgo

package zstd_test

import (
	"bytes"
	"fmt"
	"log"

	"github.com/pqcodec/pqcodec/native/zstd"
)

// Example compresses a page and decompresses it into a buffer sized from
// the frame header, the way a Parquet reader checks a page's declared size
// before allocating.
func Example() {
	comp, err := zstd.NewCompressor(zstd.DefaultLevel)
	if err != nil {
		log.Fatal(err)
	}
	defer comp.Close()
	dec, err := zstd.NewDecompressor()
	if err != nil {
		log.Fatal(err)
	}
	defer dec.Close()

	page := bytes.Repeat([]byte("parquet "), 1000)
	z, err := comp.Compress(nil, page)
	if err != nil {
		log.Fatal(err)
	}
	size, known, err := zstd.FrameContentSize(z)
	if err != nil || !known || size > 1<<20 {
		log.Fatal("refusing page")
	}
	out, err := dec.Decompress(make([]byte, 0, size), z)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(page), len(z) < len(page)/10, bytes.Equal(out, page))
	// Output: 8000 true true
}
