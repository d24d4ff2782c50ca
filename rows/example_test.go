package rows_test

import (
	"errors"
	"fmt"
	"io"
	"log"

	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/rows"
)

// Example prints rows as JSON, keeping two fields, one of them nested, and
// skipping the first row.
func Example() {
	f, err := column.OpenFile("testdata/nullable.impala.parquet")
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	r, err := rows.NewReader(f, rows.Columns("id", "nested_struct.C.d.list.element.list.element.F"), rows.Range(1, 3))
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
	// {"id":2,"nested_struct":{"C":{"d":[[{"F":null},{"F":"aaa"},{"F":null},{"F":"bbb"},{"F":null}],[{"F":"c"},null],[],null]}}}
	// {"id":3,"nested_struct":{"C":{"d":[]}}}
	// {"id":4,"nested_struct":{"C":{"d":null}}}
}

// ExampleReader_ReadRow reads rows as Go values: lists are []any, maps
// []rows.KeyValue, groups rows.Group.
func ExampleReader_ReadRow() {
	f, err := column.OpenFile("testdata/nullable.impala.parquet")
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	r, err := rows.NewReader(f, rows.Columns("id", "int_map"), rows.Range(0, 2))
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
		id := row[0].Value.(int64)
		for _, kv := range row[1].Value.([]rows.KeyValue) {
			fmt.Printf("row %d: %s = %v\n", id, kv.Key.(string), kv.Value)
		}
	}
	// Output:
	// row 1: k1 = 1
	// row 1: k2 = 100
	// row 2: k1 = 2
	// row 2: k2 = <nil>
}
