package arrowgo

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/internal/testcorpus"
)

// fuzzSeeds are small corpus files of many shapes: nested lists and maps,
// dictionaries, v2 pages, decimals, INT96, float16, BYTE_STREAM_SPLIT,
// LZ4 (all small: an 800 KB seed of many tiny pages read 13 rows a batch
// took the fuzzing engine's workers seconds per input).
var fuzzSeeds = []string{
	"nested_lists.snappy.parquet", "null_list.parquet", "nested_maps.snappy.parquet", "nulls.snappy.parquet",
	"alltypes_dictionary.parquet", "alltypes_plain.snappy.parquet", "datapage_v2.snappy.parquet",
	"repeated_no_annotation.parquet", "old_list_structure.parquet", "int32_decimal.parquet",
	"fixed_length_decimal.parquet", "byte_array_decimal.parquet", "int96_from_spark.parquet",
	"float16_nonzeros_and_nans.parquet", "hadoop_lz4_compressed.parquet", "map_no_value.parquet",
}

// FuzzFileReader reads mutated corpus files through FileReader: ReadTable,
// a RecordReader of small batches and one of row ranges. Every read
// returns arrays or an error, never panics, and leaves nothing allocated
// in a CheckedAllocator once released.
func FuzzFileReader(f *testing.F) {
	for _, p := range testcorpus.Files(f, "data") {
		for _, name := range fuzzSeeds {
			if filepath.Base(p) == name {
				data, err := os.ReadFile(p)
				if err != nil {
					f.Fatal(err)
				}
				f.Add(data, uint16(3))
			}
		}
	}
	for _, name := range []string{"duckdb/nested.parquet", "duckdb/v2_floats_bss.parquet", "duckdb/all_null.parquet"} {
		data, err := os.ReadFile(filepath.Join("../../testdata/foreign", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data, uint16(5))
	}
	f.Fuzz(fuzzFileReader)
}

// fuzzFileReader is the body of FuzzFileReader.
func fuzzFileReader(t *testing.T, data []byte, batch uint16) {
	{
		if len(data) > 1<<20 {
			return
		}
		mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
		defer mem.AssertSize(t, 0)
		limits := WithColumnOptions(column.WithMaxMemory(64<<20), column.WithMaxPageValues(1<<20))
		r, err := Open(bytes.NewReader(data), int64(len(data)), WithAllocator(mem), limits)
		if err != nil {
			return
		}
		if r.NumRows() > 1<<20 {
			return
		}
		if tbl, err := r.ReadTable(context.Background()); err == nil {
			tbl.Release()
		}
		r2, err := Open(bytes.NewReader(data), int64(len(data)), WithAllocator(mem), WithBatchSize(int64(batch%64)+1), limits)
		if err != nil {
			t.Fatalf("second Open failed where the first did not: %v", err)
		}
		if rr, err := r2.GetRecordReader(context.Background(), nil, nil); err == nil {
			for rr.Next() {
				_ = rr.RecordBatch().NumRows()
			}
			rr.Release()
		}
		n := r2.NumRows()
		ranges := []column.RowRange{{First: int64(batch) % (n + 1), End: int64(batch)%(n+1) + 2}, {First: n / 2, End: n}}
		if ranges[1].First < ranges[0].End {
			ranges = ranges[:1]
		}
		if rr, err := r2.GetRecordReaderRanges(context.Background(), nil, nil, ranges); err == nil {
			for rr.Next() {
				_ = rr.RecordBatch().NumRows()
			}
			rr.Release()
		}
	}
}

// TestDamagedArrowSchema opens the two files the fuzzer found whose
// damaged ARROW:schema made arrow-go's IPC reader allocate 10 GB and 2.8
// GB (a schema's field count, a message's length): Open fails with
// ErrCorrupt, allocating little.
func TestDamagedArrowSchema(t *testing.T) {
	for _, name := range []string{"arrow_schema_fields_10gb", "arrow_schema_message_3gb"} {
		data := fuzzSeed(t, filepath.Join("testdata/fuzz/FuzzFileReader", name))
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		_, err := Open(bytes.NewReader(data), int64(len(data)))
		runtime.ReadMemStats(&m1)
		require.ErrorIs(t, err, ErrCorrupt, name)
		require.Less(t, m1.TotalAlloc-m0.TotalAlloc, uint64(16<<20), name)
	}
}

// fuzzSeed returns the []byte argument of a seed file of the fuzz corpus.
func fuzzSeed(t *testing.T, path string) []byte {
	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	lines := strings.Split(string(raw), "\n")
	require.GreaterOrEqual(t, len(lines), 2)
	lit := strings.TrimSuffix(strings.TrimPrefix(lines[1], "[]byte("), ")")
	s, err := strconv.Unquote(lit)
	require.NoError(t, err)
	return []byte(s)
}
