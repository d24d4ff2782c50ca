package merge_test

import (
	"bytes"
	"context"
	"fmt"
	"log"

	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/merge"
	"github.com/pqcodec/pqcodec/rows"
)

// Three small files of one schema become one file, their rows in order.
// Row groups below WithMinRowGroupSize are decoded and written again as
// one; with 0, every row group would be copied page by page.
func Example() {
	s, err := format.ParseSchema(`message m { required int64 id; optional binary name (STRING); }`)
	if err != nil {
		log.Fatal(err)
	}
	var inputs []merge.Input
	for i := range 3 {
		var buf bytes.Buffer
		w, err := rows.NewWriter(&buf, s)
		if err != nil {
			log.Fatal(err)
		}
		for j := range 2 {
			if err := w.WriteJSON(fmt.Appendf(nil, `{"id": %d, "name": "file %d"}`, 2*i+j, i)); err != nil {
				log.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			log.Fatal(err)
		}
		inputs = append(inputs, merge.Reader(fmt.Sprintf("part-%d.parquet", i), bytes.NewReader(buf.Bytes()), int64(buf.Len())))
	}

	var out bytes.Buffer
	res, err := merge.Merge(&out, inputs)
	if err != nil {
		log.Fatal(err)
	}
	if err := merge.Verify(context.Background(), bytes.NewReader(out.Bytes()), int64(out.Len()), inputs, res); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d rows: %d row groups in, %d combined, %d out\n", res.Rows, res.RowGroupsIn, res.RowGroupsCombined, res.RowGroupsOut)

	f, err := column.Open(bytes.NewReader(out.Bytes()), int64(out.Len()))
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
	// 6 rows: 3 row groups in, 3 combined, 1 out
	// {"id":0,"name":"file 0"}
	// {"id":1,"name":"file 0"}
	// {"id":2,"name":"file 1"}
	// {"id":3,"name":"file 1"}
	// {"id":4,"name":"file 2"}
	// {"id":5,"name":"file 2"}
}
