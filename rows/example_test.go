package rows_test

import (
	"errors"
	"fmt"
	"io"
	"log"

	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/rows"
)

// Example prints rows as JSON, keeping two fields, one of them a list of
// lists of strings, and skipping the first row.
func Example() {
	f, err := column.OpenFile("../testdata/foreign/duckdb/nested.parquet")
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	r, err := rows.NewReader(f, rows.WithColumns("id", "lls.list.element.list.element"), rows.WithRange(1, 3))
	if err != nil {
		log.Fatal(err)
	}
	var line []byte
	for {
		line, err = r.AppendRow(line[:0])
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(string(line))
	}
	// Output:
	// {"id":1,"lls":[[]]}
	// {"id":2,"lls":[null,["a",null]]}
	// {"id":3,"lls":[["x3","y"],[],["z"]]}
}

// ExampleReader_ReadRow reads rows as Go values: lists are []any, maps
// []rows.KeyValue, groups rows.Group.
func ExampleReader_ReadRow() {
	f, err := column.OpenFile("../testdata/foreign/duckdb/nested.parquet")
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	r, err := rows.NewReader(f, rows.WithColumns("id", "mp"), rows.WithRange(0, 4))
	if err != nil {
		log.Fatal(err)
	}
	var row rows.Group
	for {
		row, err = r.ReadRow(row)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			log.Fatal(err)
		}
		id := row[0].Value.(int32)
		kvs, _ := row[1].Value.([]rows.KeyValue) // nil when the map is null
		for _, kv := range kvs {
			fmt.Printf("row %d: %s = %v\n", id, kv.Key.(string), kv.Value)
		}
	}
	// Output:
	// row 2: k2 = 2
	// row 2: zz = <nil>
	// row 3: k3 = 3
	// row 3: zz = <nil>
}
