package pqcodec_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"log"
	"os"

	"github.com/pqcodec/pqcodec"
	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/rows"
)

// Example reads a file end to end: its schema, its rows with logical
// values, and then a damaged copy of it, whose error matches
// pqcodec.ErrCorrupt whichever layer found the damage.
func Example() {
	data, err := os.ReadFile("testdata/foreign/duckdb/default.parquet")
	if err != nil {
		log.Fatal(err)
	}
	f, err := column.Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(f.MetaData().NumRows, "rows,", f.NumColumns(), "columns")
	r, err := rows.NewReader(f, rows.WithColumns("id", "d9", "dt", "tstz", "uu"), rows.WithRange(1, 2))
	if err != nil {
		log.Fatal(err)
	}
	for {
		line, err := r.AppendRow(nil)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(string(line))
	}

	// Flip bytes inside the first page of column "id": the page no longer
	// decompresses (the file is SNAPPY).
	damaged := bytes.Clone(data)
	chunk := f.MetaData().RowGroups[0].Columns[0].MetaData
	for i := chunk.DataPageOffset + 20; i < chunk.DataPageOffset+40; i++ {
		damaged[i] ^= 0xff
	}
	f, err = column.Open(bytes.NewReader(damaged), int64(len(damaged)))
	if err != nil {
		log.Fatal(err)
	}
	r, err = rows.NewReader(f, rows.WithColumns("id"))
	if err != nil {
		log.Fatal(err)
	}
	_, err = r.AppendRow(nil)
	fmt.Println("corrupt:", errors.Is(err, pqcodec.ErrCorrupt))
	// Output:
	// 1200 rows, 45 columns
	// {"id":1,"d9":-9999999.99,"dt":"1833-03-17","tstz":"2020-06-01T00:00:00.077777Z","uu":"e4774cdd-a079-3f86-414e-8b9140bb6db4"}
	// {"id":2,"d9":2.02,"dt":"1833-04-23","tstz":"2020-06-01T00:00:00.155554Z","uu":"270c1b08-4f3f-146e-b578-7075158d9c53"}
	// corrupt: true
}
