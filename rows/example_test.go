package rows_test

import (
	"errors"
	"fmt"
	"io"
	"log"

	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/logical"
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

// Example_logicalValues reads rows as Go values: logical types come
// converted (time.Time, logical.Decimal, logical.UUID, unsigned integers),
// nested ones too, with no schema lookup; WithRaw gives the stored values.
func Example_logicalValues() {
	f, err := column.OpenFile("../testdata/foreign/duckdb/default.parquet")
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	cols := []string{"tstz", "dt", "d38", "u32", "uu", "lst.list.element.x"}
	r, err := rows.NewReader(f, rows.WithColumns(cols...), rows.WithRange(1, 1))
	if err != nil {
		log.Fatal(err)
	}
	row, err := r.ReadRow(nil)
	if err != nil {
		log.Fatal(err)
	}
	for _, field := range row {
		fmt.Printf("%-4s %-16T %v\n", field.Name, field.Value, field.Value)
	}
	x := row[5].Value.([]any)[0].(rows.Group)[0].Value.(logical.Decimal)
	fmt.Println("lst[0].x as a fraction:", x.Rat())

	raw, err := rows.NewReader(f, rows.WithColumns(cols...), rows.WithRange(1, 1), rows.WithRaw())
	if err != nil {
		log.Fatal(err)
	}
	line, err := raw.AppendRow(nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(string(line))
	// Output:
	// tstz time.Time        2020-06-01 00:00:00.077777 +0000 UTC
	// dt   time.Time        1833-03-17 00:00:00 +0000 UTC
	// d38  logical.Decimal  -9999999999999999999999999999.9999999999
	// u32  uint32           0
	// uu   logical.UUID     e4774cdd-a079-3f86-414e-8b9140bb6db4
	// lst  []interface {}   [[{x 1.5}] <nil>]
	// lst[0].x as a fraction: 3/2
	// {"tstz":1590969600077777,"dt":-49963,"d38":"b4c4b357a5793b85f675ddc000000001","u32":0,"uu":"e4774cdda0793f86414e8b9140bb6db4","lst":[{"x":"0000000000000000000000000000000f"},null]}
}
