package arrowgo

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/internal/testcorpus"
	"github.com/pqcodec/pqcodec/stats"
)

// rangesFile writes a file of 3 row groups of small pages with a page
// index: a required int64 id (0, 1, ...), a nullable string, a nullable
// list of int32 and a struct holding a list of strings.
func rangesFile(t *testing.T) []byte {
	const n = 9000
	sc := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "l", Type: arrow.ListOf(arrow.PrimitiveTypes.Int32), Nullable: true},
		{Name: "st", Type: arrow.StructOf(
			arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
			arrow.Field{Name: "b", Type: arrow.ListOf(arrow.BinaryTypes.String), Nullable: true},
		), Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, sc)
	defer b.Release()
	lb := b.Field(2).(*array.ListBuilder)
	sb := b.Field(3).(*array.StructBuilder)
	slb := sb.FieldBuilder(1).(*array.ListBuilder)
	for i := range n {
		b.Field(0).(*array.Int64Builder).Append(int64(i))
		if i%5 == 0 {
			b.Field(1).(*array.StringBuilder).AppendNull()
		} else {
			b.Field(1).(*array.StringBuilder).Append(fmt.Sprintf("s%d", i))
		}
		switch i % 4 {
		case 0:
			lb.AppendNull()
		default:
			lb.Append(true)
			for k := range i % 4 {
				lb.ValueBuilder().(*array.Int32Builder).Append(int32(i*10 + k))
			}
		}
		if i%7 == 0 {
			sb.AppendNull()
		} else {
			sb.Append(true)
			sb.FieldBuilder(0).(*array.Int32Builder).Append(int32(i))
			slb.Append(true)
			for k := range i % 3 {
				slb.ValueBuilder().(*array.StringBuilder).Append(fmt.Sprintf("b%d.%d", i, k))
			}
		}
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	var buf bytes.Buffer
	props := parquet.NewWriterProperties(parquet.WithCompression(compress.Codecs.Snappy),
		parquet.WithMaxRowGroupLength(3000), parquet.WithDataPageSize(600), parquet.WithPageIndexEnabled(true),
		parquet.WithStats(true))
	w, err := pqarrow.NewFileWriter(sc, &buf, props, pqarrow.DefaultWriterProps())
	require.NoError(t, err)
	require.NoError(t, w.Write(rec))
	require.NoError(t, w.Close())
	return buf.Bytes()
}

// readRanges reads the ranges of file rows of data through
// GetRecordReaderRanges, in records of batch rows, into one chunked array
// per column.
func readRanges(t *testing.T, data []byte, mem memory.Allocator, batch int64, ranges []column.RowRange) []*arrow.Chunked {
	r, err := Open(bytes.NewReader(data), int64(len(data)), WithAllocator(mem), WithBatchSize(batch))
	require.NoError(t, err)
	rr, err := r.GetRecordReaderRanges(context.Background(), nil, nil, ranges)
	require.NoError(t, err)
	defer rr.Release()
	cols := make([][]arrow.Array, rr.Schema().NumFields())
	for rr.Next() {
		rec := rr.RecordBatch()
		if batch > 0 {
			require.LessOrEqual(t, rec.NumRows(), batch)
		}
		for i := range cols {
			c := rec.Column(i)
			c.Retain()
			cols[i] = append(cols[i], c)
		}
	}
	require.NoError(t, rr.Err())
	out := make([]*arrow.Chunked, len(cols))
	for i := range cols {
		out[i] = arrow.NewChunked(rr.Schema().Field(i).Type, cols[i])
		for _, c := range cols[i] {
			c.Release()
		}
	}
	return out
}

// checkRanges compares the rows of ranges read by GetRecordReaderRanges
// with the slices of a full read, for several batch sizes.
func checkRanges(t *testing.T, data []byte, ranges []column.RowRange) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	full, err := oursTable(data, mem)
	require.NoError(t, err)
	defer full.Release()
	for _, batch := range []int64{0, 97, 1000} {
		got := readRanges(t, data, mem, batch, ranges)
		for i, g := range got {
			var want []arrow.Array
			var slices []*arrow.Chunked
			for _, rg := range ranges {
				lo, hi := min(rg.First, full.NumRows()), min(rg.End, full.NumRows())
				if lo < hi {
					sl := array.NewChunkedSlice(full.Column(i).Data(), lo, hi)
					slices = append(slices, sl)
					want = append(want, sl.Chunks()...)
				}
			}
			w := arrow.NewChunked(g.DataType(), want)
			require.True(t, chunkedEqual(w, g), "batch %d, column %s, ranges %v", batch, full.Schema().Field(i).Name, ranges)
			w.Release()
			g.Release()
			for _, sl := range slices {
				sl.Release()
			}
		}
	}
}

// randomRanges returns up to k ordered, disjoint ranges of rows [0, n+5).
func randomRanges(rng *rand.Rand, n int64, k int) []column.RowRange {
	var out []column.RowRange
	at := int64(0)
	for range k {
		first := at + rng.Int64N(n/int64(k)+1)
		end := first + rng.Int64N(n/int64(k)+2)
		out = append(out, column.RowRange{First: first, End: end})
		at = end + rng.Int64N(3)
	}
	return out
}

// TestRecordReaderRanges reads ranges of rows of a file with page indexes,
// several row groups and nested columns, and of corpus files with and
// without page indexes, and compares them with slices of a full read.
func TestRecordReaderRanges(t *testing.T) {
	gen := rangesFile(t)
	files := map[string][]byte{"generated": gen}
	for _, name := range []string{"alltypes_tiny_pages.parquet", "alltypes_tiny_pages_plain.parquet", "int32_with_null_pages.parquet",
		"datapage_v2.snappy.parquet", "nested_lists.snappy.parquet", "repeated_no_annotation.parquet"} {
		for _, p := range testcorpus.Files(t, "data") {
			if filepath.Base(p) == name {
				data, err := os.ReadFile(p)
				require.NoError(t, err)
				files[name] = data
			}
		}
	}
	nested, err := os.ReadFile("../../testdata/foreign/duckdb/nested.parquet")
	require.NoError(t, err)
	files["duckdb/nested.parquet"] = nested
	rng := rand.New(rand.NewPCG(1, 2))
	withAdapter(t, func() {
		for name, data := range files {
			r, err := Open(bytes.NewReader(data), int64(len(data)))
			require.NoError(t, err)
			n := r.NumRows()
			t.Run(name, func(t *testing.T) {
				cases := [][]column.RowRange{
					{},
					{{First: 0, End: n}},
					{{First: n / 2, End: n/2 + 1}},
				}
				if n >= 5 {
					cases = append(cases, []column.RowRange{{First: 1, End: 2}, {First: 3, End: 3}, {First: n - 1, End: n + 10}})
				}
				for range 4 {
					cases = append(cases, randomRanges(rng, n, 1+rng.IntN(8)))
				}
				for _, ranges := range cases {
					checkRanges(t, data, ranges)
				}
			})
		}
	})
	// The ranges a predicate on the page index selects.
	r, err := Open(bytes.NewReader(gen), int64(len(gen)))
	require.NoError(t, err)
	ranges, err := r.File().MatchingFileRows(0, stats.Int64Value(2500), stats.Int64Value(3100))
	require.NoError(t, err)
	var sel int64
	for _, rg := range ranges {
		sel += rg.End - rg.First
	}
	require.Less(t, sel, r.NumRows()/2, "the page index prunes")
	withAdapter(t, func() { checkRanges(t, gen, ranges) })
}

// TestRecordReaderRangesErrors checks the ranges GetRecordReaderRanges
// refuses.
func TestRecordReaderRangesErrors(t *testing.T) {
	data := rangesFile(t)
	r, err := Open(bytes.NewReader(data), int64(len(data)))
	require.NoError(t, err)
	for _, ranges := range [][]column.RowRange{
		{{First: -1, End: 3}},
		{{First: 5, End: 3}},
		{{First: 0, End: 10}, {First: 5, End: 20}},
	} {
		_, err := r.GetRecordReaderRanges(context.Background(), nil, nil, ranges)
		require.ErrorIs(t, err, ErrArgument, "%v", ranges)
	}
}
