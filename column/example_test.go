package column_test

import (
	"errors"
	"fmt"
	"io"
	"log"

	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/stats"
)

// Example reads every value of one column of a file, page by page, with one
// reused Page.
func Example() {
	f, err := column.OpenFile("testdata/data_index_bloom_encoding_stats.parquet")
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	col, err := f.LeafIndex("String")
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
			fmt.Printf("page of %d rows, %d nulls:", page.NumRows(), page.NumNulls())
			for i := range page.Values.Len() {
				fmt.Printf(" %q", page.Values.ByteArray(i))
			}
			fmt.Println()
		}
	}
	// Output:
	// page of 14 rows, 0 nulls: "Hello" "This is" "a" "test" "How" "are you" "doing " "today" "the quick" "brown fox" "jumps" "over" "the lazy" "dog"
}

// Example_nested reads a repeated column: its levels say where rows and
// lists start and which entries are present.
func Example_nested() {
	f, err := column.OpenFile("testdata/nested_lists.snappy.parquet")
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	r, err := f.ColumnByPath(0, "a.list.element.list.element.list.element")
	if err != nil {
		log.Fatal(err)
	}
	leaf := r.Leaf()
	var page column.Page
	if err := r.ReadPage(&page); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("max levels: definition %d, repetition %d\n", leaf.MaxDefinitionLevel, leaf.MaxRepetitionLevel)
	fmt.Printf("%d levels, %d values, %d rows\n", page.NumLevels, page.Values.Len(), page.NumRows())
	fmt.Println("repetition:", page.RepLevels)
	fmt.Println("definition:", page.DefLevels)
	// Output:
	// max levels: definition 7, repetition 3
	// 18 levels, 15 values, 3 rows
	// repetition: [0 3 2 1 2 0 3 2 3 1 2 0 3 2 3 2 1 2]
	// definition: [7 7 7 4 7 7 7 7 7 4 7 7 7 7 7 7 4 7]
}

// ExampleFile_PageIndex reads the page index of a column chunk: where each
// data page starts and which rows it holds, without reading the pages.
func ExampleFile_PageIndex() {
	f, err := column.OpenFile("testdata/data_index_bloom_encoding_stats.parquet")
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	ci, oi, err := f.PageIndex(0, 0)
	if err != nil {
		log.Fatal(err)
	}
	for i, loc := range oi.PageLocations {
		fmt.Printf("page %d: first row %d, %d bytes; min %q, max %q, null page %v\n",
			i, loc.FirstRowIndex, loc.CompressedPageSize, ci.MinValues[i], ci.MaxValues[i], ci.NullPages[i])
	}
	// Output:
	// page 0: first row 0, 152 bytes; min "Hello", max "today", null page false
}

// ExampleFile_MatchingRows reads only the rows whose pages may hold
// strings between "a" and "b": the column index rules out the others,
// SeekRow jumps to each range and SliceRows trims the last page.
func ExampleFile_MatchingRows() {
	f, err := column.OpenFile("testdata/data_index_bloom_encoding_stats.parquet")
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	col, err := f.LeafIndex("String")
	if err != nil {
		log.Fatal(err)
	}
	sc := stats.NewColumn(f.MetaData(), f.Schema().Leaves()[col])
	lo, hi := stats.BytesValue(format.ByteArray, []byte("a")), stats.BytesValue(format.ByteArray, []byte("b"))
	ranges, err := f.MatchingRows(0, col, func(s stats.Stats) bool { return sc.MayContain(s, lo, hi) })
	if err != nil {
		log.Fatal(err)
	}
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
			// The column has no nulls: value i is row i of the page.
			for i := range page.Values.Len() {
				if v := page.Values.ByteArray(i); string(v) >= "a" && string(v) <= "b" {
					fmt.Printf("row %d: %q\n", row+int64(i), v)
				}
			}
		}
	}
	// Output:
	// row 2: "a"
	// row 5: "are you"
}
