package column_test

import (
	"fmt"
	"path/filepath"

	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/stats"
)

// Finding the rows of a file whose column v lies between two bounds: row
// groups are pruned by their statistics (and, for an equality, by bloom
// filters), and a bound of the wrong type is an error, not an empty answer.
func ExampleFile_MatchingFileRows() {
	f, err := column.OpenFile(filepath.Join("..", "testdata", "foreign", "duckdb", "row_groups.parquet"))
	if err != nil {
		panic(err)
	}
	defer f.Close()
	col, err := f.LeafIndex("v") // INT64, 0 to 8999 over row groups of 2048 rows
	if err != nil {
		panic(err)
	}
	ranges, err := f.MatchingFileRows(col, stats.Int64Value(4000), stats.Int64Value(4199))
	if err != nil {
		panic(err)
	}
	for _, r := range ranges {
		rg, first, _ := f.RowGroupOf(r.First)
		fmt.Printf("file rows [%d, %d): row group %d from its row %d\n", r.First, r.End, rg, first)
	}
	_, err = f.MatchingFileRows(col, stats.DoubleValue(4000.5), stats.Value{})
	fmt.Println(err)
	// Output:
	// file rows [2048, 6144): row group 1 from its row 0
	// column v: lower bound: stats: invalid argument: DOUBLE bound 4000.5 is not an integer
}
