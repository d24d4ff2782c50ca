//go:build cgo

package deflate_test

import (
	"bytes"
	"errors"
	"fmt"
	"log"

	"github.com/pqcodec/pqcodec/native/deflate"
)

// Example compresses two pages into one gzip stream of two members and
// decompresses it into caller memory; a buffer one byte short is refused.
func Example() {
	comp, err := deflate.NewCompressor(deflate.DefaultLevel)
	if err != nil {
		log.Fatal(err)
	}
	defer comp.Close()
	dec, err := deflate.NewDecompressor()
	if err != nil {
		log.Fatal(err)
	}
	defer dec.Close()

	a, b := bytes.Repeat([]byte("a"), 500), bytes.Repeat([]byte("b"), 700)
	z, err := comp.Compress(nil, a)
	if err != nil {
		log.Fatal(err)
	}
	z, err = comp.Compress(z, b) // appends a second member
	if err != nil {
		log.Fatal(err)
	}
	out, err := dec.Decompress(make([]byte, 0, 1200), z)
	fmt.Println(len(out), err)
	_, err = dec.Decompress(make([]byte, 0, 1199), z)
	fmt.Println(errors.Is(err, deflate.ErrDstTooSmall))
	// Output:
	// 1200 <nil>
	// true
}
