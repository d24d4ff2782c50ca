package column_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"

	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/stats"
)

// Example reads every value of one column of a file, page by page, with one
// reused Page: here it sums an optional INT64 column of five row groups.
func Example() {
	f, err := column.OpenFile("../testdata/foreign/duckdb/row_groups.parquet")
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	col, err := f.LeafIndex("n")
	if err != nil {
		log.Fatal(err)
	}
	var page column.Page
	for rg := range f.NumRowGroups() {
		r, err := f.Column(rg, col)
		if err != nil {
			log.Fatal(err)
		}
		for {
			err := r.ReadPage(&page)
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				log.Fatal(err)
			}
			var sum int64
			for _, v := range page.Values.Int64s { // the non-null values
				sum += v
			}
			fmt.Printf("page of %d rows, %d nulls, sum %d\n", page.NumRows(), page.NumNulls(), sum)
		}
	}
	// Output:
	// page of 2048 rows, 410 nulls, sum 800903
	// page of 2048 rows, 410 nulls, sum 802707
	// page of 2048 rows, 409 nulls, sum 804656
	// page of 2048 rows, 410 nulls, sum 806365
	// page of 808 rows, 161 nulls, sum 385369
}

// Example_nested reads a repeated column, a list of lists of strings: its
// levels say where rows and lists start and which entries are present.
// SliceRows keeps the first four rows of the page: null, [[]],
// [null, ["a", null]] and [["x3", "y"], [], ["z"]].
func Example_nested() {
	f, err := column.OpenFile("../testdata/foreign/duckdb/nested.parquet")
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	r, err := f.ColumnByPath(0, "lls.list.element.list.element")
	if err != nil {
		log.Fatal(err)
	}
	leaf := r.Leaf()
	var page column.Page
	if err := r.ReadPage(&page); err != nil {
		log.Fatal(err)
	}
	r.SliceRows(&page, 0, 4)
	fmt.Printf("max levels: definition %d, repetition %d\n", leaf.MaxDefinitionLevel, leaf.MaxRepetitionLevel)
	fmt.Printf("%d levels, %d values, %d rows\n", page.NumLevels, page.Values.Len(), page.NumRows())
	fmt.Println("repetition:", page.RepLevels)
	fmt.Println("definition:", page.DefLevels)
	var values []string
	for i := range page.Values.Len() {
		values = append(values, string(page.Values.ByteArray(i)))
	}
	fmt.Printf("values: %q\n", values)
	// Output:
	// max levels: definition 5, repetition 2
	// 9 levels, 4 values, 4 rows
	// repetition: [0 0 0 1 2 0 2 1 1]
	// definition: [0 3 2 5 4 5 5 3 5]
	// values: ["a" "x3" "y" "z"]
}

// ExampleFile_PageIndex reads the page index of a column chunk: where each
// data page starts and which rows it holds, without reading the pages. The
// bounds of strings compare as bytes: "b100" sorts before "b98".
func ExampleFile_PageIndex() {
	f, err := column.OpenFile("../testdata/foreign/parquet-go/small_pages.parquet")
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	col, err := f.LeafIndex("st.b")
	if err != nil {
		log.Fatal(err)
	}
	ci, oi, err := f.PageIndex(0, col)
	if err != nil {
		log.Fatal(err)
	}
	for i, loc := range oi.PageLocations {
		fmt.Printf("page %d: first row %d, %d bytes; min %q, max %q, %d nulls\n",
			i, loc.FirstRowIndex, loc.CompressedPageSize, ci.MinValues[i], ci.MaxValues[i], ci.NullCounts[i])
	}
	// Output:
	// page 0: first row 0, 211 bytes; min "b1", max "b8", 22 nulls
	// page 1: first row 64, 249 bytes; min "b100", max "b98", 21 nulls
	// page 2: first row 128, 275 bytes; min "b128", max "b191", 21 nulls
	// page 3: first row 192, 271 bytes; min "b193", max "b254", 22 nulls
	// page 4: first row 256, 275 bytes; min "b256", max "b319", 21 nulls
	// page 5: first row 320, 275 bytes; min "b320", max "b383", 21 nulls
	// page 6: first row 384, 123 bytes; min "b385", max "b398", 6 nulls
}

// ExampleFile_MatchingRows reads only the rows whose pages may hold ids
// between 130 and 133: the column index rules out the other pages,
// SeekRow jumps to each range and SliceRows trims the last page.
func ExampleFile_MatchingRows() {
	f, err := column.OpenFile("../testdata/foreign/parquet-go/small_pages.parquet")
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	col, err := f.LeafIndex("id")
	if err != nil {
		log.Fatal(err)
	}
	sc := stats.NewColumn(f.MetaData(), f.Schema().Leaves()[col])
	lo, hi := stats.Int32Value(130), stats.Int32Value(133)
	ranges, err := f.MatchingRows(0, col, func(s stats.Stats) bool { return sc.MayContain(s, lo, hi) })
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("rows to read:", ranges)
	r, err := f.Column(0, col)
	if err != nil {
		log.Fatal(err)
	}
	var page column.Page
	for _, rr := range ranges {
		if err := r.SeekRow(rr.First); err != nil {
			log.Fatal(err)
		}
		for row := rr.First; row < rr.End; row += int64(page.NumRows()) {
			if err := r.ReadPage(&page); err != nil {
				log.Fatal(err)
			}
			r.SliceRows(&page, 0, int(rr.End-row))
			// The column is required: value i is row i of the page.
			for i, id := range page.Values.Int32s {
				if id >= 130 && id <= 133 {
					fmt.Printf("row %d: id %d\n", row+int64(i), id)
				}
			}
		}
	}
	// Output:
	// rows to read: [{128 256}]
	// row 130: id 130
	// row 131: id 131
	// row 132: id 132
	// row 133: id 133
}

// ExampleFile_ReadRowGroup decodes every column chunk of each row group on
// two goroutines. fn runs on the goroutine that read the page, concurrently
// for different columns, so it writes only to its column's slot.
func ExampleFile_ReadRowGroup() {
	f, err := column.OpenFile("../testdata/foreign/duckdb/row_groups.parquet")
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	nulls := make([]int, f.NumColumns())
	for rg := range f.NumRowGroups() {
		err := f.ReadRowGroup(context.Background(), rg, nil, 2, func(col int, p *column.Page) error {
			nulls[col] += p.NumNulls()
			return nil
		})
		if err != nil {
			log.Fatal(err)
		}
	}
	for col, n := range nulls {
		fmt.Printf("%s: %d nulls\n", f.Schema().Leaves()[col].Path()[0], n)
	}
	// Output:
	// v: 0 nulls
	// s: 0 nulls
	// n: 1800 nulls
	// li: 9000 nulls
}
