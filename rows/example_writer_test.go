package rows_test

import (
	"bytes"
	"fmt"
	"log"
	"time"

	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/rows"
)

// Rows go in as Go values or as JSON and come out as the Reader gives them.
func ExampleWriter() {
	s, err := format.ParseSchema(`message m {
		required int64 id;
		optional int64 at (TIMESTAMP(MILLIS,true));
		optional group tags (LIST) { repeated group list { optional binary element (STRING); } }
	}`)
	if err != nil {
		log.Fatal(err)
	}
	var buf bytes.Buffer
	w, err := rows.NewWriter(&buf, s)
	if err != nil {
		log.Fatal(err)
	}
	at := time.Date(2024, 1, 31, 12, 0, 0, 0, time.UTC)
	if err := w.WriteRow(rows.Group{{Name: "id", Value: int64(1)}, {Name: "at", Value: at}, {Name: "tags", Value: []any{"a", nil}}}); err != nil {
		log.Fatal(err)
	}
	if err := w.WriteJSON([]byte(`{"id": 2, "at": null, "tags": []}`)); err != nil {
		log.Fatal(err)
	}
	// A row that does not fit: an error naming it and its field, and
	// nothing of it written.
	fmt.Println(w.WriteJSON([]byte(`{"id": 3, "tags": [1]}`)))
	if err := w.Close(); err != nil {
		log.Fatal(err)
	}

	f, err := column.Open(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		log.Fatal(err)
	}
	r, err := rows.NewReader(f)
	if err != nil {
		log.Fatal(err)
	}
	for {
		line, err := r.AppendRow(nil)
		if err != nil {
			break
		}
		fmt.Println(string(line))
	}
	// Output:
	// row 2: field tags.element: rows: row does not fit the schema: a number for a STRING (BYTE_ARRAY) column
	// {"id":1,"at":"2024-01-31T12:00:00.000Z","tags":["a",null]}
	// {"id":2,"at":null,"tags":[]}
}
