package column

import (
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/stats"
)

// statsValue returns value i of v as a stats.Value (bytes copied). Its twin
// is valueAt in stats/corpus_test.go (stats cannot import column's tests).
func statsValue(v *Values, i int) stats.Value {
	switch v.Type {
	case format.Boolean:
		return stats.BooleanValue(v.Booleans[i])
	case format.Int32:
		return stats.Int32Value(v.Int32s[i])
	case format.Int64:
		return stats.Int64Value(v.Int64s[i])
	case format.Float:
		return stats.FloatValue(v.Floats[i])
	case format.Double:
		return stats.DoubleValue(v.Doubles[i])
	case format.Int96:
		b := v.Int96s[i]
		return stats.BytesValue(v.Type, b[:])
	}
	return stats.BytesValue(v.Type, append([]byte(nil), v.ByteArray(i)...))
}

// rowValues reads a non-repeated chunk: the value of each row, invalid for
// nulls.
func rowValues(f *File, rg, col int) ([]stats.Value, error) {
	r, err := f.Column(rg, col)
	if err != nil {
		return nil, err
	}
	maxDef := r.Leaf().MaxDefinitionLevel
	var out []stats.Value
	var p Page
	for {
		err := r.ReadPage(&p)
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		v := 0
		for i := range p.NumLevels {
			if maxDef > 0 && int(p.DefLevels[i]) != maxDef {
				out = append(out, stats.Value{})
				continue
			}
			out = append(out, statsValue(&p.Values, v))
			v++
		}
	}
}

// filterCase is one corpus chunk with a column index.
type filterCase struct {
	f       *File
	rg, col int
	c       *stats.Column
	values  []stats.Value
	name    string
}

// filterCases opens the files and, with keepOpen false, closes them
// with t.
func filterCases(t *testing.T, keepOpen bool) []filterCase {
	var out []filterCase
	for _, path := range corpusFiles(t, "data") {
		f, err := OpenFile(path)
		if err != nil {
			continue
		}
		if !keepOpen {
			t.Cleanup(func() { f.Close() })
		}
		for rg := range f.NumRowGroups() {
			for col, leaf := range f.Schema().Leaves() {
				if leaf.MaxRepetitionLevel > 0 {
					continue
				}
				ci, _, err := f.PageIndex(rg, col)
				if err != nil || ci == nil {
					continue
				}
				vals, err := rowValues(f, rg, col)
				if err != nil || len(vals) == 0 {
					continue
				}
				out = append(out, filterCase{f, rg, col, stats.NewColumn(f.meta, leaf), vals,
					fmt.Sprintf("%s rg %d %s", filepath.Base(path), rg, f.columnName(col))})
			}
		}
	}
	return out
}

// checkFilter checks that MatchingRows keeps every row whose value lies
// in [lo, hi], and returns how many rows it dropped.
func checkFilter(t *testing.T, fc filterCase, lo, hi stats.Value) int64 {
	ranges, err := fc.f.MatchingRows(fc.rg, fc.col, func(s stats.Stats) bool { return fc.c.MayContain(s, lo, hi) })
	require.NoError(t, err, fc.name)
	in := func(row int64) bool {
		for _, r := range ranges {
			if row >= r.First && row < r.End {
				return true
			}
		}
		return false
	}
	for row, v := range fc.values {
		if !v.Valid() {
			continue
		}
		if lo.Valid() && fc.c.Compare(v, lo) < 0 || hi.Valid() && fc.c.Compare(v, hi) > 0 {
			continue
		}
		if isNaNValue(fc.c, v) {
			continue // NaN matches no range: Compare treats it as equal to all
		}
		if !in(int64(row)) {
			t.Fatalf("%s: row %d (%v) in [%v, %v] dropped; ranges %v", fc.name, row, v, lo, hi, ranges)
		}
	}
	kept := int64(0)
	for _, r := range ranges {
		kept += r.End - r.First
	}
	return int64(len(fc.values)) - kept
}

func isNaNValue(c *stats.Column, v stats.Value) bool {
	switch v.Type() {
	case format.Float, format.Double:
		f := v.Float64()
		return f != f
	case format.FixedLenByteArray:
		if c.TypeLength == 2 {
			f := stats.Float16(v.Bytes())
			return f != f
		}
	}
	return false
}

// TestMatchingRows draws ranges from each chunk's own values and checks
// that no matching row is dropped, and that some pages are.
func TestMatchingRows(t *testing.T) {
	cases := filterCases(t, false)
	require.Greater(t, len(cases), 100)
	rnd := rand.New(rand.NewPCG(3, 4))
	var dropped, tries int64
	for _, fc := range cases {
		for range 20 {
			a, b := fc.values[rnd.IntN(len(fc.values))], fc.values[rnd.IntN(len(fc.values))]
			if a.Valid() && b.Valid() && fc.c.Compare(a, b) > 0 {
				a, b = b, a
			}
			dropped += checkFilter(t, fc, a, b)
			tries++
		}
	}
	t.Logf("%d chunks, %d ranges, %d rows dropped", len(cases), tries, dropped)
	assert.Positive(t, dropped)
}

// TestMatchingRowsNoIndex: a chunk without a page index gives the whole row
// group, and its chunk statistics are read from the footer.
func TestMatchingRowsNoIndex(t *testing.T) {
	f, err := OpenFile(nestedFile)
	require.NoError(t, err)
	defer f.Close()
	rr, err := f.MatchingRows(0, 0, func(stats.Stats) bool { return false })
	require.NoError(t, err)
	assert.Equal(t, []RowRange{{0, 1200}}, rr)
	s, err := f.Stats(0, 0) // id: 0 to 1199
	require.NoError(t, err)
	assert.True(t, s.HasMinMax && s.HasNullCount)
	assert.Equal(t, int32(0), s.Min.Int32())
	assert.Equal(t, int32(1199), s.Max.Int32())
	_, err = f.Stats(1, 0)
	assert.Error(t, err)
}

// FuzzMatchingRows picks a corpus chunk and a range from fuzzed indexes.
func FuzzMatchingRows(f *testing.F) {
	f.Add(uint16(0), uint16(1), uint16(2))
	f.Add(uint16(7), uint16(100), uint16(3))
	var cases []filterCase
	f.Fuzz(func(t *testing.T, which, i, j uint16) {
		if cases == nil {
			cases = filterCases(t, true) // kept open across fuzz calls
		}
		fc := cases[int(which)%len(cases)]
		a, b := fc.values[int(i)%len(fc.values)], fc.values[int(j)%len(fc.values)]
		if i&1 == 1 {
			a = stats.Value{}
		}
		checkFilter(t, fc, a, b)
	})
}

// TestForeignStatsNeverFail reads the statistics of every chunk of the
// committed foreign corpus, and the page statistics of every chunk with a
// page index: no call fails, and the only statistics reported unusable are
// the DECIMAL FIXED_LEN_BYTE_ARRAY ones of parquet-go, which orders them as
// unsigned bytes (min above max in the specification's signed order); the
// chunk's values all lie in every chunk min/max that is kept.
func TestForeignStatsNeverFail(t *testing.T) {
	paths, err := filepath.Glob("../testdata/foreign/*/*.parquet")
	require.NoError(t, err)
	require.Greater(t, len(paths), 100)
	bad, parquetGoFiles, checked := 0, 0, 0
	for _, path := range paths {
		f, err := OpenFile(path)
		require.NoError(t, err, path)
		createdBy := ""
		if f.MetaData().CreatedBy != nil {
			createdBy = *f.MetaData().CreatedBy
		}
		sawBad := false
		for rg := range f.NumRowGroups() {
			for col, leaf := range f.Schema().Leaves() {
				where := fmt.Sprintf("%s rg %d %s", path, rg, leaf.Path())
				s, err := f.Stats(rg, col)
				require.NoError(t, err, where)
				ranges, err := f.MatchingRows(rg, col, func(stats.Stats) bool { return true })
				require.NoError(t, err, where)
				if n := f.MetaData().RowGroups[rg].NumRows; n > 0 {
					require.Equal(t, []RowRange{{0, n}}, ranges, where)
				}
				ci, _, err := f.PageIndex(rg, col)
				require.NoError(t, err, where)
				var pages []stats.Stats
				if ci != nil {
					pages = stats.NewColumn(f.MetaData(), leaf).Pages(nil, ci)
				}
				for _, st := range append(pages, s) {
					if st.BadMinMax == nil {
						continue
					}
					bad++
					sawBad = true
					assert.ErrorIs(t, st.BadMinMax, stats.ErrCorrupt, where)
					assert.Contains(t, createdBy, "parquet-go", where)
					assert.Equal(t, format.FixedLenByteArray, *leaf.Element.Type, where)
					assert.Equal(t, format.LogicalDecimal, leaf.Element.LogicalType.Kind, where)
				}
				if !s.HasMinMax || leaf.MaxRepetitionLevel > 0 {
					continue
				}
				if lt := leaf.Element.LogicalType; strings.Contains(createdBy, "arrow-go") &&
					(lt != nil && lt.Kind == format.LogicalFloat16 || leaf.Path()[0] == "dict") {
					// arrow-go v18.8.0 writes minima that are not: -180.125
					// for a FLOAT16 column holding -64288, and "alpha" for
					// its dictionary-typed string column holding "". They
					// are ordered, so no reader can tell them from true
					// ones; every other chunk is checked.
					continue
				}
				vals, err := rowValues(f, rg, col)
				require.NoError(t, err, where)
				c := stats.NewColumn(f.MetaData(), leaf)
				for _, v := range vals {
					if v.Valid() && !isNaNValue(c, v) && (c.Compare(v, s.Min) < 0 || c.Compare(v, s.Max) > 0) {
						t.Fatalf("%s (%s): value %v outside [%v, %v]", where, createdBy, v, s.Min, s.Max)
					}
				}
				checked++
			}
		}
		if sawBad {
			parquetGoFiles++
		}
		require.NoError(t, f.Close())
	}
	t.Logf("%d unusable min/max in %d parquet-go files; %d chunks' values checked against their min/max", bad, parquetGoFiles, checked)
	assert.Equal(t, 16, parquetGoFiles) // every parquet-go file but no_stats.parquet
	assert.Greater(t, checked, 500)
}
