package rows_test

import (
	"fmt"
	"path/filepath"

	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/rows"
)

// Reading rows into a struct: fields by their parquet tags, an optional
// column into a pointer, a list into a slice; only these columns are read.
func ExampleGenericReader() {
	f, err := column.OpenFile(filepath.Join("..", "testdata", "foreign", "duckdb", "row_groups.parquet"))
	if err != nil {
		panic(err)
	}
	defer f.Close()
	type Row struct {
		V  int64    `parquet:"v"`
		N  *int64   `parquet:"n,optional"`
		Li []*int64 `parquet:"li"`
	}
	r, err := rows.NewGenericReader[Row](f, rows.WithRange(4, 3))
	if err != nil {
		panic(err)
	}
	batch := make([]Row, 10)
	n, err := r.Read(batch)
	fmt.Println(n, err)
	for _, row := range batch[:n] {
		fmt.Print(row.V, " ")
		if row.N == nil {
			fmt.Print("null ")
		} else {
			fmt.Print(*row.N, " ")
		}
		fmt.Println(len(row.Li))
	}
	// Output:
	// 3 EOF
	// 4 4 2
	// 5 null 2
	// 6 6 2
}
