package interop_test

// Seeking and predicate pruning on files arrow-go writes with many small
// pages (v1 and v2, with and without dictionaries, with a page index):
// every row of every column must be reachable with column.Reader.SeekRow,
// and File.MatchingRows must keep every row a predicate matches.

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/stats"
)

// skWrite writes n rows of id (sorted int64), s (nullable string) and l
// (nullable list of nullable int32) with tiny pages.
func skWrite(t *testing.T, n int, version parquet.DataPageVersion, dict bool) []byte {
	mem := memory.NewGoAllocator()
	sc := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "l", Type: arrow.ListOf(arrow.PrimitiveTypes.Int32), Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(mem, sc)
	defer b.Release()
	rnd := rand.New(rand.NewPCG(uint64(n), 7))
	ids := b.Field(0).(*array.Int64Builder)
	ss := b.Field(1).(*array.StringBuilder)
	ls := b.Field(2).(*array.ListBuilder)
	lv := ls.ValueBuilder().(*array.Int32Builder)
	for i := range n {
		ids.Append(int64(i))
		if rnd.IntN(5) == 0 {
			ss.AppendNull()
		} else {
			ss.Append(fmt.Sprintf("v%03d", rnd.IntN(40)))
		}
		switch k := rnd.IntN(6); k {
		case 0:
			ls.AppendNull()
		default:
			ls.Append(true)
			for range k - 1 {
				if rnd.IntN(7) == 0 {
					lv.AppendNull()
				} else {
					lv.Append(int32(rnd.IntN(1000)))
				}
			}
		}
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	tbl := array.NewTableFromRecords(sc, []arrow.RecordBatch{rec})
	defer tbl.Release()
	props := parquet.NewWriterProperties(
		parquet.WithDataPageSize(200),
		parquet.WithDictionaryDefault(dict),
		parquet.WithPageIndexEnabled(true),
		parquet.WithStats(true),
		parquet.WithDataPageVersion(version),
		parquet.WithCompression(compress.Codecs.Snappy),
		parquet.WithBatchSize(64),
	)
	var buf bytes.Buffer
	require.NoError(t, pqarrow.WriteTable(tbl, &buf, int64(n/2+1), props, pqarrow.DefaultWriterProps()))
	return buf.Bytes()
}

// skFlat is a column chunk read in full.
type skFlat struct {
	rep, def  []int16
	vals      []string
	rowLevel  []int
	valBefore []int
}

func skReadFlat(t *testing.T, f *column.File, rg, col int) *skFlat {
	r, err := f.Column(rg, col)
	require.NoError(t, err)
	fc := &skFlat{}
	maxDef := r.Leaf().MaxDefinitionLevel
	var p column.Page
	levels := 0
	for {
		err := r.ReadPage(&p)
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err)
		v := 0
		for i := range p.NumLevels {
			if len(p.RepLevels) == 0 || p.RepLevels[i] == 0 {
				fc.rowLevel = append(fc.rowLevel, levels+i)
			}
			fc.valBefore = append(fc.valBefore, len(fc.vals))
			if maxDef == 0 || int(p.DefLevels[i]) == maxDef {
				fc.vals = append(fc.vals, fmt.Sprint(p.Values.Value(v)))
				v++
			}
		}
		fc.rep = append(fc.rep, p.RepLevels...)
		fc.def = append(fc.def, p.DefLevels...)
		levels += p.NumLevels
	}
	fc.valBefore = append(fc.valBefore, len(fc.vals))
	return fc
}

func TestSeekGeneratedSmallPages(t *testing.T) {
	var seeks, pagesSeen int
	rnd := rand.New(rand.NewPCG(5, 6))
	for _, version := range []parquet.DataPageVersion{parquet.DataPageV1, parquet.DataPageV2} {
		for _, dict := range []bool{false, true} {
			data := skWrite(t, 3000, version, dict)
			f, err := column.Open(bytes.NewReader(data), int64(len(data)))
			require.NoError(t, err)
			for rg := range f.NumRowGroups() {
				for col := range f.NumColumns() {
					where := fmt.Sprintf("v%d dict=%v rg %d col %d", version+1, dict, rg, col)
					_, oi, err := f.PageIndex(rg, col)
					require.NoError(t, err, where)
					require.NotNil(t, oi, where)
					pagesSeen += oi.NumPages()
					fc := skReadFlat(t, f, rg, col)
					r, err := f.Column(rg, col)
					require.NoError(t, err)
					var p column.Page
					// Every row, forward, then every 7th backward.
					var rows []int
					for i := range fc.rowLevel {
						rows = append(rows, i)
					}
					for i := len(fc.rowLevel) - 1; i >= 0; i -= 7 {
						rows = append(rows, i)
					}
					for _, row := range rows {
						require.NoError(t, r.SeekRow(int64(row)), where)
						require.NoError(t, r.ReadPage(&p), where)
						require.Equal(t, int64(row), r.RowIndex(), where)
						start := fc.rowLevel[row]
						end := start + p.NumLevels
						require.LessOrEqual(t, end, len(fc.valBefore)-1, where)
						if len(fc.rep) > 0 {
							require.Equal(t, fc.rep[start:end], p.RepLevels, "%s row %d", where, row)
						}
						if len(fc.def) > 0 {
							require.Equal(t, fc.def[start:end], p.DefLevels, "%s row %d", where, row)
						}
						got := make([]string, p.Values.Len())
						for i := range got {
							got[i] = fmt.Sprint(p.Values.Value(i))
						}
						want := fc.vals[fc.valBefore[start]:fc.valBefore[end]]
						if len(want) == 0 {
							want = []string{}
						}
						require.Equal(t, want, got, "%s row %d", where, row)
						seeks++
					}
				}
				// Pruning on the sorted id column keeps the rows in range.
				sc := stats.NewColumn(f.MetaData(), f.Schema().Leaves()[0])
				for range 50 {
					lo := int64(rnd.IntN(int(f.MetaData().RowGroups[rg].NumRows)))
					base := int64(0)
					for g := range rg {
						base += f.MetaData().RowGroups[g].NumRows
					}
					lo += base
					hi := lo + int64(rnd.IntN(40))
					ranges, err := f.MatchingRows(rg, 0, func(s stats.Stats) bool {
						return sc.MayContain(s, stats.Int64Value(lo), stats.Int64Value(hi))
					})
					require.NoError(t, err)
					var kept int64
					for _, rr := range ranges {
						kept += rr.End - rr.First
					}
					for id := max(lo, base); id <= hi && id < base+f.MetaData().RowGroups[rg].NumRows; id++ {
						row := id - base
						found := false
						for _, rr := range ranges {
							found = found || row >= rr.First && row < rr.End
						}
						require.True(t, found, "id %d dropped by [%d, %d]: %v", id, lo, hi, ranges)
					}
					assert.Less(t, kept, f.MetaData().RowGroups[rg].NumRows/4, "pruning on a sorted column")
				}
			}
		}
	}
	t.Logf("%d seeks over %d pages", seeks, pagesSeen)
}
