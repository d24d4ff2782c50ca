package arrowgo_test

import (
	"context"
	"fmt"
	"log"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/pqcodec/pqcodec/adapters/arrowgo"
	"github.com/pqcodec/pqcodec/column"
)

// Example reads a file of another writer into arrow-go records, 500 rows at
// a time, through pqcodec's decoders.
func Example() {
	f, err := column.OpenFile("../../testdata/foreign/duckdb/nested.parquet")
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	r, err := arrowgo.NewFileReader(f, arrowgo.WithAllocator(mem), arrowgo.WithBatchSize(500))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(r.Schema().Field(1).Type)
	rr, err := r.GetRecordReader(context.Background(), nil, nil)
	if err != nil {
		log.Fatal(err)
	}
	for rr.Next() {
		fmt.Println(rr.RecordBatch().NumRows(), "rows")
	}
	if err := rr.Err(); err != nil {
		log.Fatal(err)
	}
	rr.Release()
	fmt.Println("bytes still allocated:", mem.CurrentAlloc())
	// Output:
	// list<element: int64, nullable>
	// 500 rows
	// 500 rows
	// 200 rows
	// bytes still allocated: 0
}
