package stats_test

import (
	"fmt"
	"log"
	"time"

	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/logical"
	"github.com/pqcodec/pqcodec/stats"
)

// Example reads the statistics of a DATE column chunk of a real file and
// asks whether the chunk may hold dates of a given range: a reader skips
// the row group when it cannot.
func Example() {
	f, err := column.OpenFile("../testdata/foreign/duckdb/default.parquet")
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	md := f.MetaData()
	for i, leaf := range f.Schema().Leaves() {
		if leaf.Name() != "dt" {
			continue
		}
		col := stats.NewColumn(md, leaf)
		st := col.Chunk(md.RowGroups[0].Columns[i].MetaData.Statistics)
		if !st.HasMinMax {
			log.Fatal("no usable min and max: ", st.BadMinMax)
		}
		fmt.Printf("%s, order %v: %s .. %s, %d nulls\n", leaf.Name(), col.Order,
			logical.AppendDate(nil, st.Min.Int32()), logical.AppendDate(nil, st.Max.Int32()), st.NullCount)

		days := func(y int, m time.Month, d int) stats.Value {
			return stats.Int32Value(int32(time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Unix() / 86400))
		}
		fmt.Println("may hold 1900:", col.MayContain(st, days(1900, 1, 1), days(1900, 12, 31)))
		fmt.Println("may hold 2000:", col.MayContain(st, days(2000, 1, 1), days(2000, 12, 31)))
	}
	// Output:
	// dt, order SIGNED: 1833-02-08 .. 1954-07-27, 0 nulls
	// may hold 1900: true
	// may hold 2000: false
}
