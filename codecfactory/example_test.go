package codecfactory_test

import (
	"bytes"
	"errors"
	"fmt"
	"log"

	"github.com/pqcodec/pqcodec/codecfactory"
)

// Compress a page with ZSTD and decompress it as a reader would, with the
// uncompressed size from the page header.
func Example() {
	f, err := codecfactory.New()
	if err != nil {
		log.Fatal(err)
	}
	page := bytes.Repeat([]byte("parquet page "), 1000)

	compressed, err := f.Compress(codecfactory.Zstd, nil, page)
	if err != nil {
		log.Fatal(err)
	}

	// A reader reuses one buffer for every page: dst[:0] keeps its capacity.
	buf := make([]byte, 0, 64<<10)
	buf, err = f.Decompress(codecfactory.Zstd, buf[:0], compressed, len(page))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(bytes.Equal(buf, page), len(compressed) < len(page)/10)
	// Output: true true
}

// Parse a codec name from configuration and choose levels with options.
func ExampleNew_levels() {
	codec, err := codecfactory.Parse("gzip")
	if err != nil {
		log.Fatal(err)
	}
	f, err := codecfactory.New(
		codecfactory.WithGzipLevel(9),
		codecfactory.WithZstdLevel(19),
		codecfactory.WithBrotli(11, 24),
		codecfactory.WithMaxPageSize(64<<20),
	)
	if err != nil {
		log.Fatal(err)
	}
	page := bytes.Repeat([]byte{1, 2, 3, 4}, 4096)
	compressed, err := f.Compress(codec, nil, page)
	if err != nil {
		log.Fatal(err)
	}
	// A header claiming 1 GiB is refused before anything is allocated.
	_, err = f.Decompress(codec, nil, compressed, 1<<30)
	fmt.Println(codec, errors.Is(err, codecfactory.ErrPageTooLarge))
	// Output: GZIP true
}

// A pure-Go factory uses no cgo library, as a build with CGO_ENABLED=0 does.
// It reads every codec; LZO compression is unavailable.
func ExampleWithPureGo() {
	f, err := codecfactory.New(codecfactory.WithPureGo(true))
	if err != nil {
		log.Fatal(err)
	}
	_, decompress := f.Implementation(codecfactory.Zstd)
	fmt.Println(decompress)

	_, err = f.Compress(codecfactory.Lzo, nil, []byte("page"))
	fmt.Println(err != nil)
	// Output:
	// github.com/klauspost/compress/zstd
	// true
}

// DecompressShared returns an uncompressed page without copying it.
func ExampleFactory_DecompressShared() {
	f, err := codecfactory.New()
	if err != nil {
		log.Fatal(err)
	}
	body := []byte("plain values")
	page, err := f.DecompressShared(codecfactory.Uncompressed, nil, body, len(body))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(&page[0] == &body[0])
	// Output: true
}
