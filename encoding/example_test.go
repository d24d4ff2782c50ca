package encoding_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"log"
	"os"

	"github.com/pqcodec/pqcodec/codecfactory"
	"github.com/pqcodec/pqcodec/encoding/plain"
	"github.com/pqcodec/pqcodec/encoding/rle"
	"github.com/pqcodec/pqcodec/format"
)

// Example decodes the first data page of a real file by hand, with the
// packages under encoding: the definition levels of a DATA_PAGE (v1) with
// rle, then the values with plain's streaming decoder, in the read loop that
// every streaming decoder shares. Package column does all of this (and
// dictionaries, v2 pages, every type) for a whole column chunk.
func Example() {
	data, err := os.ReadFile("../testdata/foreign/duckdb/default.parquet")
	if err != nil {
		log.Fatal(err)
	}
	size := int64(len(data))
	md, err := format.ReadFooter(bytes.NewReader(data), size)
	if err != nil {
		log.Fatal(err)
	}
	cc := &md.RowGroups[0].Columns[5] // oi32: an optional INT32 with nulls
	rng, err := md.ColumnChunkRange(cc, size)
	if err != nil {
		log.Fatal(err)
	}
	chunk, err := format.ReadColumnChunk(nil, bytes.NewReader(data), rng)
	if err != nil {
		log.Fatal(err)
	}
	var w format.PageWalker
	w.Reset(chunk, rng)
	if !w.Next() {
		log.Fatal(w.Err())
	}
	h := w.Header()
	codecs, err := codecfactory.New()
	if err != nil {
		log.Fatal(err)
	}
	defer codecs.Close()
	page, err := codecs.Decompress(codecfactory.Codec(cc.MetaData.Codec), nil, w.Body(), int(h.UncompressedPageSize))
	if err != nil {
		log.Fatal(err)
	}

	// A v1 page starts with its definition levels, RLE with a 4-byte
	// length; the column's maximum definition level is 1: bit width 1.
	n := int(h.DataPageHeader.NumValues)
	levels, values, err := rle.SplitPrefix(page)
	if err != nil {
		log.Fatal(err)
	}
	defs, err := rle.DecodeLevels[uint8](nil, levels, 1, n)
	if err != nil {
		log.Fatal(err)
	}
	present := 0
	for _, d := range defs {
		present += int(d)
	}

	var d plain.Decoder[int32]
	if err := d.Reset(values); err != nil {
		log.Fatal(err)
	}
	buf := make([]int32, 256)
	var got []int32
	for {
		k, err := d.Decode(buf)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			log.Fatal(err)
		}
		got = append(got, buf[:k]...)
	}
	fmt.Printf("%s %s page: %d levels, %d nulls, %d values\n", h.Type, h.DataPageHeader.Encoding, n, n-present, len(got))
	fmt.Println("first values:", got[:4])
	// Output:
	// DATA_PAGE PLAIN page: 1200 levels, 110 nulls, 1090 values
	// first values: [-9993 -9986 -9979 -9972]
}
