package stats_test

import (
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/internal/testcorpus"
	"github.com/pqcodec/pqcodec/stats"
)

// valueAt returns value i of v as a stats.Value. Its twin is statsValue in
// column/filter_test.go.
func valueAt(v *column.Values, i int) stats.Value {
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

func isNaN(c *stats.Column, v stats.Value) bool {
	switch v.Type() {
	case format.Float, format.Double:
		return math.IsNaN(v.Float64())
	case format.FixedLenByteArray:
		f := stats.Float16(v.Bytes())
		return c.TypeLength == 2 && f != f
	}
	return false
}

// checked counts what the corpus test verified, so that it cannot pass
// by checking nothing.
type checked struct {
	chunkMinMax, chunkNulls, pageMinMax, pageNulls, allNull, values int
}

// checkBounds checks the non-null values of a page or chunk against s.
func checkBounds(t *testing.T, c *stats.Column, s stats.Stats, vals []stats.Value, nulls int, maxRep int, where string, n *checked, page bool) {
	t.Helper()
	if s.HasMinMax {
		nans := 0
		for _, v := range vals {
			if isNaN(c, v) {
				nans++
				if !isNaN(c, s.Min) && !isNaN(c, s.Max) {
					continue // NaNs may lie outside min/max
				}
			}
			if c.Compare(v, s.Min) < 0 || c.Compare(v, s.Max) > 0 {
				t.Errorf("%s: value %v outside [%v, %v]", where, v, s.Min, s.Max)
				return
			}
			n.values++
		}
		if s.HasNaNCount {
			assert.Equal(t, int64(nans), s.NaNCount, where)
		}
		if page {
			n.pageMinMax++
		} else {
			n.chunkMinMax++
		}
	}
	if s.AllNull {
		assert.Empty(t, vals, where)
		n.allNull++
	}
	if s.HasNullCount && maxRep == 0 {
		assert.Equal(t, int64(nulls), s.NullCount, where)
		if page {
			n.pageNulls++
		} else {
			n.chunkNulls++
		}
	}
}

// TestCorpusBounds reads every column chunk of the corpus and checks its
// values against the typed chunk statistics and, where the chunk has a
// column index, each page's values against the page's statistics.
func TestCorpusBounds(t *testing.T) {
	root := testcorpus.Dir(t)
	var n checked
	require.NoError(t, filepath.WalkDir(filepath.Join(root, "data"), func(path string, e os.DirEntry, err error) error {
		if err != nil || e.IsDir() || !strings.HasSuffix(path, ".parquet") {
			return err
		}
		fh, err := os.Open(path)
		require.NoError(t, err)
		defer fh.Close()
		st, err := fh.Stat()
		require.NoError(t, err)
		f, err := column.Open(fh, st.Size())
		if err != nil {
			return nil
		}
		meta := f.MetaData()
		name := filepath.Base(path)
		var page column.Page
		for rg := range f.NumRowGroups() {
			for col, leaf := range f.Schema().Leaves() {
				where := name + " " + strings.Join(leaf.Path(), ".")
				c := stats.NewColumn(meta, leaf)
				cc := &meta.RowGroups[rg].Columns[col]
				cs := c.Chunk(cc.MetaData.Statistics)
				require.NoError(t, cs.BadMinMax, where)
				ci, err := format.ReadColumnIndex(fh, st.Size(), cc)
				require.NoError(t, err, where)
				var ps []stats.Stats
				if ci != nil {
					ps = c.Pages(nil, ci)
					for _, p := range ps {
						require.NoError(t, p.BadMinMax, where)
					}
				}
				if cc.MetaData.TotalUncompressedSize > 4<<20 {
					continue // keep the test fast
				}
				r, err := f.Column(rg, col)
				if err != nil {
					continue
				}
				var all []stats.Value
				nulls, p := 0, 0
				for {
					err := r.ReadPage(&page)
					if errors.Is(err, io.EOF) {
						break
					}
					if err != nil {
						all = nil
						break
					}
					var vals []stats.Value
					for i := range page.Values.Len() {
						vals = append(vals, valueAt(&page.Values, i))
					}
					pn := page.NumLevels - page.Values.Len()
					if ps != nil {
						require.Less(t, p, len(ps), where)
						checkBounds(t, c, ps[p], vals, pn, leaf.MaxRepetitionLevel, where+" page "+string(rune('0'+p%10)), &n, true)
					}
					p++
					all = append(all, vals...)
					nulls += pn
				}
				if all != nil {
					checkBounds(t, c, cs, all, nulls, leaf.MaxRepetitionLevel, where, &n, false)
				}
			}
		}
		return nil
	}))
	t.Logf("%+v", n)
	assert.Greater(t, n.chunkMinMax, 300)
	assert.Greater(t, n.pageMinMax, 5000)
	assert.Greater(t, n.chunkNulls, 300)
	assert.Greater(t, n.pageNulls, 5000)
}
