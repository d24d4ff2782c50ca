package column

import (
	"io"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/bloom"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/internal/testcorpus"
	"github.com/pqcodec/pqcodec/internal/testfile"
	"github.com/pqcodec/pqcodec/stats"
)

// valueHashes returns the bloom filter hash of every value of chunk (rg,
// col), and false for BOOLEAN columns, which have no filters.
func valueHashes(t *testing.T, f *File, rg, col int) ([]uint64, bool) {
	t.Helper()
	r, err := f.Column(rg, col)
	require.NoError(t, err)
	var out []uint64
	var p Page
	for {
		err := r.ReadPage(&p)
		if err == io.EOF {
			return out, true
		}
		require.NoError(t, err)
		v := &p.Values
		for i := range v.Len() {
			switch v.Type {
			case format.Boolean:
				return nil, false
			case format.Int32:
				out = append(out, bloom.HashInt32(v.Int32s[i]))
			case format.Int64:
				out = append(out, bloom.HashInt64(v.Int64s[i]))
			case format.Float:
				out = append(out, bloom.HashFloat32(v.Floats[i]))
			case format.Double:
				out = append(out, bloom.HashFloat64(v.Doubles[i]))
			case format.Int96:
				out = append(out, bloom.HashInt96(v.Int96s[i]))
			default:
				out = append(out, bloom.HashBytes(v.ByteArray(i)))
			}
		}
	}
}

// TestBloomFiltersOfWriters reads every bloom filter of files by
// parquet-mr (parquet-testing), arrow-go (every physical type and logical
// type of page_index_bloom.parquet) and the other writers of
// testdata/foreign, and checks that each holds the hash of every value of
// its chunk, so that our hashing of each type is the writers', and that
// it excludes most values that are not there.
func TestBloomFiltersOfWriters(t *testing.T) {
	files := []string{
		testcorpus.Data(t, "data_index_bloom_encoding_stats.parquet"),
		testcorpus.Data(t, "data_index_bloom_encoding_with_length.parquet"),
	}
	foreign, err := filepath.Glob(filepath.Join("..", "testdata", "foreign", "*", "*.parquet"))
	require.NoError(t, err)
	files = append(files, foreign...)
	types := map[string]bool{}
	byWriter := map[string]int{}
	filters := 0
	for _, path := range files {
		f, err := OpenFile(path)
		require.NoError(t, err)
		for rg := range f.NumRowGroups() {
			for col := range f.NumColumns() {
				bf, err := f.BloomFilter(rg, col)
				require.NoError(t, err, "%s chunk (%d, %d)", path, rg, col)
				if bf == nil {
					continue
				}
				hashes, ok := valueHashes(t, f, rg, col)
				if !ok {
					continue
				}
				filters++
				byWriter[filepath.Base(filepath.Dir(path))]++
				types[f.Schema().Leaves()[col].Element.Type.String()] = true
				for i, h := range hashes {
					if !bf.Check(h) {
						t.Fatalf("%s chunk (%d, %d): value %d not in its bloom filter", path, rg, col, i)
					}
				}
				present := make(map[uint64]bool, len(hashes))
				for _, h := range hashes {
					present[h] = true
				}
				fp, absent := 0, 0
				for i := range int64(2000) {
					if h := bloom.HashInt64(-1 - i<<20); !present[h] {
						absent++
						if bf.Check(h) {
							fp++
						}
					}
				}
				require.Less(t, fp, absent/10, "%s chunk (%d, %d): %d of %d absent values pass", path, rg, col, fp, absent)
			}
		}
		f.Close()
	}
	t.Logf("%d bloom filters (by directory: %v), physical types %v", filters, byWriter, slices.Sorted(func(yield func(string) bool) {
		for k := range types {
			if !yield(k) {
				return
			}
		}
	}))
	require.GreaterOrEqual(t, filters, 30)
	for _, want := range []string{"INT32", "INT64", "FLOAT", "DOUBLE", "BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY"} {
		require.True(t, types[want], "no bloom filter of a %s column", want)
	}
}

// TestMatchingRangeBounds is issue 28's wrong answer: DOUBLE bounds on an
// INT64 column returned no ranges and no error. Integral ones now give the
// INT64 bounds' answer; others, and bounds of another kind, an error.
func TestMatchingRangeBounds(t *testing.T) {
	f, err := OpenFile(testcorpus.Data(t, "alltypes_tiny_pages.parquet"))
	require.NoError(t, err)
	defer f.Close()
	col, err := f.LeafIndex("bigint_col")
	require.NoError(t, err)
	want, err := f.MatchingRange(0, col, stats.Int64Value(10), stats.Int64Value(20))
	require.NoError(t, err)
	require.NotEmpty(t, want)
	all, err := f.MatchingRange(0, col, stats.Value{}, stats.Value{})
	require.NoError(t, err)
	require.NotEqual(t, all, want, "the INT64 bounds prune no page")
	for _, b := range [][2]stats.Value{
		{stats.DoubleValue(10), stats.DoubleValue(20)},
		{stats.Int32Value(10), stats.Int32Value(20)},
		{stats.FloatValue(10), stats.Int64Value(20)},
	} {
		got, err := f.MatchingRange(0, col, b[0], b[1])
		require.NoError(t, err, "%v", b)
		require.Equal(t, want, got, "%v", b)
		got, err = f.MatchingFileRows(col, b[0], b[1])
		require.NoError(t, err, "%v", b)
		require.Equal(t, want, got, "%v: one row group, file rows are its rows", b)
	}
	for _, b := range [][2]stats.Value{
		{stats.DoubleValue(10.5), stats.DoubleValue(20)},
		{stats.Int64Value(10), stats.BytesValue(format.ByteArray, []byte("20"))},
		{stats.BooleanValue(true), stats.Value{}},
	} {
		_, err := f.MatchingRange(0, col, b[0], b[1])
		require.ErrorIs(t, err, stats.ErrInvalidArgument, "%v", b)
		_, err = f.MatchingFileRows(col, b[0], b[1])
		require.ErrorIs(t, err, stats.ErrInvalidArgument, "%v", b)
	}
}

// fileRowValues returns the value of every file row of the non-repeated
// column col, invalid for nulls.
func fileRowValues(t *testing.T, f *File, col int) []stats.Value {
	var out []stats.Value
	for rg := range f.NumRowGroups() {
		require.Equal(t, int64(len(out)), f.FirstRow(rg))
		v, err := rowValues(f, rg, col)
		require.NoError(t, err)
		out = append(out, v...)
	}
	return out
}

// TestMatchingFileRows checks, on DuckDB's file of 5 row groups, that the
// file rows MatchingFileRows returns hold every row whose value matches
// (ranges and equalities, present and absent values), that row groups
// are pruned by their statistics, and that RowGroupOf inverts FirstRow.
func TestMatchingFileRows(t *testing.T) {
	f, err := OpenFile(filepath.Join("..", "testdata", "foreign", "duckdb", "row_groups.parquet"))
	require.NoError(t, err)
	defer f.Close()
	require.Equal(t, 5, f.NumRowGroups())
	total := f.FirstRow(f.NumRowGroups())
	require.Equal(t, f.MetaData().NumRows, total)
	for _, row := range []int64{0, 1, 2047, 2048, 4100, total - 1} {
		rg, in, err := f.RowGroupOf(row)
		require.NoError(t, err)
		require.Equal(t, row, f.FirstRow(rg)+in)
		require.Less(t, in, f.MetaData().RowGroups[rg].NumRows)
	}
	for _, row := range []int64{-1, total} {
		_, _, err := f.RowGroupOf(row)
		require.ErrorIs(t, err, ErrRange)
	}
	rnd := rand.New(rand.NewPCG(3, 4))
	for _, name := range []string{"v", "s", "n"} {
		col, err := f.LeafIndex(name)
		require.NoError(t, err)
		c := stats.NewColumn(f.MetaData(), f.Schema().Leaves()[col])
		values := fileRowValues(t, f, col)
		require.Len(t, values, int(total))
		var present []stats.Value
		for _, v := range values {
			if v.Valid() {
				present = append(present, v)
			}
		}
		check := func(lo, hi stats.Value) []RowRange {
			ranges, err := f.MatchingFileRows(col, lo, hi)
			require.NoError(t, err)
			covered := func(row int64) bool {
				for _, r := range ranges {
					if row >= r.First && row < r.End {
						return true
					}
				}
				return false
			}
			for row, v := range values {
				if v.Valid() && (!lo.Valid() || c.Compare(v, lo) >= 0) && (!hi.Valid() || c.Compare(v, hi) <= 0) {
					require.True(t, covered(int64(row)), "%s in [%v, %v]: row %d (%v) left out of %v", name, lo, hi, row, v, ranges)
				}
			}
			return ranges
		}
		for range 30 {
			a, b := present[rnd.IntN(len(present))], present[rnd.IntN(len(present))]
			if c.Compare(a, b) > 0 {
				a, b = b, a
			}
			check(a, b)
			check(a, a)
			check(stats.Value{}, a)
		}
		if name == "v" {
			// v counts rows: one row group's values prune the four others.
			ranges := check(stats.Int64Value(2100), stats.Int64Value(2200))
			require.Equal(t, []RowRange{{2048, 4096}}, ranges)
			ranges = check(stats.DoubleValue(-10), stats.DoubleValue(-1))
			require.Empty(t, ranges)
		}
	}
}

// TestBloomPrunes checks that an equality on a value that is not in a
// chunk but within its min/max is pruned by the chunk's bloom filter
// (arrow-go's page_index_bloom.parquet), and kept without one.
func TestBloomPrunes(t *testing.T) {
	f, err := OpenFile(filepath.Join("..", "testdata", "foreign", "arrow-go", "page_index_bloom.parquet"))
	require.NoError(t, err)
	defer f.Close()
	pruned, byStats, tried := 0, 0, 0
	for col := range f.NumColumns() {
		leaf := f.Schema().Leaves()[col]
		if *leaf.Element.Type != format.Int64 || leaf.MaxRepetitionLevel > 0 {
			continue
		}
		bf, err := f.BloomFilter(0, col)
		require.NoError(t, err)
		s, err := f.Stats(0, col)
		require.NoError(t, err)
		if bf == nil || !s.HasMinMax {
			continue
		}
		values := fileRowValues(t, f, col)
		seen := map[int64]bool{}
		for _, v := range values {
			if v.Valid() {
				seen[v.Int64()] = true
			}
		}
		for x := s.Min.Int64(); x <= s.Max.Int64() && tried < 2000; x += max(1, (s.Max.Int64()-s.Min.Int64())/500) {
			if seen[x] {
				continue
			}
			tried++
			ranges, err := f.MatchingFileRows(col, stats.Int64Value(x), stats.Int64Value(x))
			require.NoError(t, err)
			if len(ranges) == 0 {
				pruned++
			}
			// Without the bloom filter: statistics and the column index.
			ranges, err = f.MatchingRange(0, col, stats.Int64Value(x), stats.Int64Value(x))
			require.NoError(t, err)
			if len(ranges) == 0 {
				byStats++
			}
		}
	}
	t.Logf("%d of %d absent values within min/max pruned, %d by statistics and page index alone", pruned, tried, byStats)
	require.Greater(t, tried, 100)
	require.Greater(t, pruned, tried*8/10)
	require.Less(t, byStats, pruned/2)
}

// TestBloomFilterBounds reads bloom filters whose offset or length lies
// past the end of the file: errors wrapping ErrCorrupt, having allocated
// no more than the file holds; MatchingFileRows then prunes nothing.
func TestBloomFilterBounds(t *testing.T) {
	body := make([]byte, 0, 8)
	for i := range int32(2) {
		body = append(body, byte(i), 0, 0, 0)
	}
	for _, c := range []struct {
		off    int64
		length *int32
	}{
		{1 << 40, nil},
		{-5, nil},
		{4, ptr[int32](1 << 30)},
		{4, nil}, // a data page header: no algorithm, hash or compression
	} {
		leaf := reqInt32
		schema := []format.SchemaElement{{Name: "root", NumChildren: ptr[int32](1)}, leaf}
		off := c.off
		chunk := testfile.Chunk{Pages: [][]byte{v1Page(2, format.Plain, body)}, Meta: format.ColumnMetaData{
			Type: format.Int32, PathInSchema: []string{"a"}, Codec: format.Uncompressed, NumValues: 2,
			Encodings: []format.Encoding{format.Plain}, BloomFilterOffset: &off, BloomFilterLength: c.length,
		}}
		f := openBytes(t, testfile.File(schema, 2, []testfile.Chunk{chunk}, nil))
		_, err := f.BloomFilter(0, 0)
		if c.off == 4 && c.length == nil {
			require.ErrorIs(t, err, bloom.ErrUnsupported)
		} else {
			require.ErrorIs(t, err, ErrCorrupt, "offset %d", c.off)
			require.ErrorIs(t, err, bloom.ErrCorrupt, "offset %d", c.off)
		}
		ranges, err := f.MatchingFileRows(0, stats.Int32Value(7), stats.Int32Value(7))
		require.NoError(t, err)
		require.Equal(t, []RowRange{{0, 2}}, ranges)
	}
}
