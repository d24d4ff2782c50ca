package column_test

import (
	"errors"
	"fmt"
	"io"
	"log"

	"github.com/pqcodec/pqcodec/column"
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
