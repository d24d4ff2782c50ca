package rows

import (
	"io"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/internal/testcorpus"
	"github.com/pqcodec/pqcodec/stats"
)

// seekFiles are files of several row groups (DuckDB's, with a list
// column) and of one row group of many pages with an offset index.
func seekFiles(t *testing.T) []string {
	return []string{
		filepath.Join("..", "testdata", "foreign", "duckdb", "row_groups.parquet"),
		testcorpus.Data(t, "alltypes_tiny_pages.parquet"),
	}
}

// readN reads up to n rows as JSON.
func readN(t *testing.T, r *Reader, n int) []string {
	t.Helper()
	var out []string
	for range n {
		b, err := r.AppendRow(nil)
		if err == io.EOF {
			break
		}
		require.NoError(t, err)
		out = append(out, string(b))
	}
	return out
}

// TestRowRanges reads ranges of file rows and compares them with the
// same rows of a whole read.
func TestRowRanges(t *testing.T) {
	rnd := rand.New(rand.NewPCG(5, 6))
	for _, path := range seekFiles(t) {
		f, err := column.OpenFile(path)
		require.NoError(t, err)
		defer f.Close()
		all := allRows(t, f)
		total := int64(len(all))
		require.Equal(t, f.MetaData().NumRows, total)
		for trial := range 16 {
			var ranges []column.RowRange
			var want []string
			at := int64(0)
			for at < total {
				first := at + rnd.Int64N(total/4+1)
				if trial%4 == 0 {
					first = at // adjacent ranges
				}
				end := first + rnd.Int64N(300)
				ranges = append(ranges, column.RowRange{First: first, End: end})
				for i := first; i < min(end, total); i++ {
					want = append(want, all[i])
				}
				at = end
			}
			got := allRows(t, f, WithRowRanges(ranges...))
			require.Equal(t, want, got, "%s ranges %v", path, ranges)
		}
		require.Empty(t, allRows(t, f, WithRowRanges()))
		_, err = NewReader(f, WithRowRanges(column.RowRange{First: 5, End: 10}, column.RowRange{First: 9, End: 12}))
		require.ErrorIs(t, err, ErrRange)
		_, err = NewReader(f, WithRowRanges(column.RowRange{First: 5, End: 4}))
		require.ErrorIs(t, err, ErrRange)
		_, err = NewReader(f, WithRange(1, 2), WithRowRanges(column.RowRange{First: 5, End: 10}))
		require.ErrorIs(t, err, ErrRange)
	}
}

// TestSeekRow seeks forward within a row group, across row groups and
// back, reading a few rows after each seek, and compares them with a whole
// read; with WithRowRanges, a seek lands on the first kept row at or after
// it.
func TestSeekRow(t *testing.T) {
	rnd := rand.New(rand.NewPCG(7, 8))
	for _, path := range seekFiles(t) {
		f, err := column.OpenFile(path)
		require.NoError(t, err)
		defer f.Close()
		all := allRows(t, f)
		total := int64(len(all))
		r, err := NewReader(f, WithRaw())
		require.NoError(t, err)
		pos := int64(0)
		for range 200 {
			var to int64
			switch rnd.IntN(3) {
			case 0: // a little forward
				to = pos + rnd.Int64N(50)
			case 1: // anywhere
				to = rnd.Int64N(total + 3)
			default: // backward
				to = max(0, pos-rnd.Int64N(100))
			}
			require.NoError(t, r.SeekRow(to))
			k := rnd.IntN(5)
			got := readN(t, r, k)
			want := all[min(to, total):min(to+int64(k), total)]
			require.Equal(t, len(want), len(got), "%s: SeekRow(%d) then %d rows", path, to, k)
			require.Equal(t, want, append([]string{}, got...), "%s: SeekRow(%d) then %d rows", path, to, k)
			pos = to + int64(len(got))
		}
		require.ErrorIs(t, r.SeekRow(-1), ErrRange)

		r, err = NewReader(f, WithRaw(), WithRowRanges(column.RowRange{First: 10, End: 20}, column.RowRange{First: 1000, End: 1003}))
		require.NoError(t, err)
		require.NoError(t, r.SeekRow(15))
		require.Equal(t, append(append([]string{}, all[15:20]...), all[1000:1003]...), readN(t, r, 100))
		require.NoError(t, r.SeekRow(500))
		require.Equal(t, all[1000:1003], readN(t, r, 100))
		require.NoError(t, r.SeekRow(0))
		require.Equal(t, all[10:12], readN(t, r, 2))
	}
	f, err := column.OpenFile(filepath.Join("..", "testdata", "regress", "no_columns.parquet"))
	require.NoError(t, err)
	defer f.Close()
	r, err := NewReader(f, WithRaw())
	require.NoError(t, err)
	require.NoError(t, r.SeekRow(1))
	require.Equal(t, []string{"{}"}, readN(t, r, 5))
	require.NoError(t, r.SeekRow(0))
	require.Equal(t, []string{"{}", "{}"}, readN(t, r, 5))
}

// TestPredicateRows reads the rows of a predicate over the whole file:
// MatchingFileRows, then WithRowRanges, keeping the rows whose value
// matches. They are exactly the rows a whole read finds.
func TestPredicateRows(t *testing.T) {
	f, err := column.OpenFile(filepath.Join("..", "testdata", "foreign", "duckdb", "row_groups.parquet"))
	require.NoError(t, err)
	defer f.Close()
	col, err := f.LeafIndex("v")
	require.NoError(t, err)
	match := func(g Group) bool {
		v, ok := g.Get("v")
		return ok && v != nil && v.(int64) >= 4000 && v.(int64) <= 4199
	}
	var want []string
	r, err := NewReader(f, WithRaw())
	require.NoError(t, err)
	for {
		g, err := r.ReadRow(nil)
		if err == io.EOF {
			break
		}
		require.NoError(t, err)
		if match(g) {
			want = append(want, string(appendJSON(nil, g)))
		}
	}
	require.Len(t, want, 200)
	ranges, err := f.MatchingFileRows(col, stats.Int64Value(4000), stats.Int64Value(4199))
	require.NoError(t, err)
	kept := int64(0)
	for _, rg := range ranges {
		kept += rg.End - rg.First
	}
	require.Less(t, kept, f.MetaData().NumRows/2, "row groups pruned: %v", ranges)
	r, err = NewReader(f, WithRaw(), WithRowRanges(ranges...))
	require.NoError(t, err)
	var got []string
	for {
		g, err := r.ReadRow(nil)
		if err == io.EOF {
			break
		}
		require.NoError(t, err)
		if match(g) {
			got = append(got, string(appendJSON(nil, g)))
		}
	}
	require.Equal(t, want, got)
}
