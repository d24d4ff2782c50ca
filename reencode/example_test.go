package reencode_test

import (
	"bytes"
	"context"
	"fmt"
	"log"

	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/reencode"
	"github.com/pqcodec/pqcodec/rows"
	"github.com/pqcodec/pqcodec/writer"
)

// A file written with PLAIN pages gets its id column re-encoded as
// DELTA_BINARY_PACKED (without a dictionary: with one, WithEncoding only
// names the fallback); the name column's pages are copied as they are.
func Example() {
	s, err := format.ParseSchema(`message m { required int64 id; optional binary name (STRING); }`)
	if err != nil {
		log.Fatal(err)
	}
	var src bytes.Buffer
	w, err := rows.NewWriter(&src, s, rows.WithWriterOptions(writer.WithDictionary(false)))
	if err != nil {
		log.Fatal(err)
	}
	for i := range 1000 {
		if err := w.WriteJSON(fmt.Appendf(nil, `{"id": %d, "name": "row %d"}`, 1_000_000+i, i%7)); err != nil {
			log.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		log.Fatal(err)
	}

	var out bytes.Buffer
	ctx := context.Background()
	res, err := reencode.Rewrite(ctx, &out, bytes.NewReader(src.Bytes()), int64(src.Len()),
		reencode.WithColumn("id", writer.WithDictionary(false), writer.WithEncoding(format.DeltaBinaryPacked)))
	if err != nil {
		log.Fatal(err)
	}
	if err := reencode.Verify(ctx, bytes.NewReader(src.Bytes()), int64(src.Len()), bytes.NewReader(out.Bytes()), int64(out.Len())); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d rows: %d chunk copied, %d encoded again\n", res.Rows, res.ChunksCopied, res.ChunksEncoded)

	f, err := column.Open(bytes.NewReader(out.Bytes()), int64(out.Len()))
	if err != nil {
		log.Fatal(err)
	}
	for _, c := range f.MetaData().RowGroups[0].Columns {
		fmt.Println(c.MetaData.PathInSchema, c.MetaData.Encodings)
	}
	// Output:
	// 1000 rows: 1 chunk copied, 1 encoded again
	// [id] [DELTA_BINARY_PACKED]
	// [name] [PLAIN RLE]
}
