package writer_test

import (
	"bytes"
	"fmt"
	"io"

	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/writer"
)

// Example writes a file of three rows, a required id and an optional list
// of strings, and reads the list column back.
func Example() {
	schema, err := format.ParseSchema(`message m {
		required int64 id;
		optional group tags (LIST) { repeated group list { optional binary element (STRING); } }
	}`)
	if err != nil {
		panic(err)
	}
	var buf bytes.Buffer
	w, err := writer.New(&buf, schema, writer.WithKeyValue("origin", "example"))
	if err != nil {
		panic(err)
	}
	// Rows: {1, [a, b]}, {2, null}, {3, [null]}.
	ids := &column.Values{Type: format.Int64, Int64s: []int64{1, 2, 3}}
	tags := &column.Values{Type: format.ByteArray, Bytes: []byte("ab"), Offsets: []int32{0, 1, 2}}
	if err := w.Write(0, ids, nil, nil); err != nil {
		panic(err)
	}
	// Definition levels: 3 a value, 2 a null element, 0 a null list;
	// repetition level 1 continues the row's list.
	if err := w.Write(1, tags, []int16{3, 3, 0, 2}, []int16{0, 1, 0, 0}); err != nil {
		panic(err)
	}
	if err := w.Close(); err != nil {
		panic(err)
	}

	f, err := column.Open(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		panic(err)
	}
	r, err := f.Column(0, 1)
	if err != nil {
		panic(err)
	}
	var p column.Page
	for r.ReadPage(&p) != io.EOF {
		fmt.Println("def", p.DefLevels, "rep", p.RepLevels, "values", string(p.Values.ByteArray(0)), string(p.Values.ByteArray(1)))
	}
	fmt.Println(*f.MetaData().CreatedBy)
	// Output:
	// def [3 3 0 2] rep [0 1 0 0] values a b
	// pqcodec version 0.1.0-dev
}
