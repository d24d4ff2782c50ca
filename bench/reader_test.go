package bench

// Reader benchmarks for issue 16 (impl=ours is the page-index, kept-
// dictionary or row path; ours_* are pqcodec's baselines, not peers;
// benchtable parses these rows but does not table them yet): reading a 1% row range and a selective
// predicate from a sorted file, with pqcodec's page index (SeekRow,
// MatchingRows) against a full read with pqcodec's reader and against
// arrow-go's column reader (SeekToRow, or a full scan); reading a
// low-cardinality string column with dictionaries kept or resolved; and
// reading rows with package rows against parquet-go and pqarrow.
//
// The file is generated once per process with arrow-go's writer: columns
// id (INT64, 0..n-1, sorted), val (STRING, 16 distinct values, dictionary
// encoded) and x (DOUBLE), 64 KiB data pages, a page index, uncompressed.
// By default n is 2 Mi rows (about 35 MB); PQCODEC_READER_ROWS sets it
// (12582912 rows make the 100 MB file of the issue).

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/apache/arrow-go/v18/parquet/schema"
	pq "github.com/parquet-go/parquet-go"
	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/internal/benchdata"
	"github.com/pqcodec/pqcodec/rows"
	"github.com/pqcodec/pqcodec/stats"
)

var sortedFile = sync.OnceValues(func() ([]byte, error) {
	n := int64(2 << 20)
	if s := os.Getenv("PQCODEC_READER_ROWS"); s != "" {
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil || v < 1000 {
			return nil, fmt.Errorf("PQCODEC_READER_ROWS=%q: want an integer >= 1000", s)
		}
		n = v
	}
	return writeSorted(n)
})

// writeSorted writes the sorted file of n rows with arrow-go's column
// writers; its three batch loops are twins, one per typed ColumnChunkWriter.
func writeSorted(n int64) ([]byte, error) {
	str := schema.StringLogicalType{}
	id, err := schema.NewPrimitiveNode("id", parquet.Repetitions.Required, parquet.Types.Int64, -1, -1)
	if err != nil {
		return nil, err
	}
	val, err := schema.NewPrimitiveNodeLogical("val", parquet.Repetitions.Required, str, parquet.Types.ByteArray, -1, -1)
	if err != nil {
		return nil, err
	}
	x, err := schema.NewPrimitiveNode("x", parquet.Repetitions.Required, parquet.Types.Double, -1, -1)
	if err != nil {
		return nil, err
	}
	root, err := schema.NewGroupNode("schema", parquet.Repetitions.Required, schema.FieldList{id, val, x}, -1)
	if err != nil {
		return nil, err
	}
	props := parquet.NewWriterProperties(
		parquet.WithCompression(compress.Codecs.Uncompressed),
		parquet.WithDataPageSize(64<<10),
		parquet.WithDictionaryDefault(false),
		parquet.WithDictionaryFor("val", true),
		parquet.WithPageIndexEnabled(true),
		parquet.WithStats(true),
		parquet.WithMaxRowGroupLength(1<<30),
		parquet.WithDataPageVersion(parquet.DataPageV1),
	)
	var buf bytes.Buffer
	w := file.NewParquetWriter(&buf, root, file.WithWriterProps(props))
	rg := w.AppendRowGroup()
	const batch = 1 << 16
	ids := make([]int64, batch)
	vals := make([]parquet.ByteArray, batch)
	xs := make([]float64, batch)
	names := make([]parquet.ByteArray, 16)
	for i := range names {
		names[i] = parquet.ByteArray(fmt.Sprintf("category-%02d", i))
	}
	cw, err := rg.NextColumn()
	if err != nil {
		return nil, err
	}
	for start := int64(0); start < n; start += batch {
		k := min(batch, n-start)
		for i := range k {
			ids[i] = start + i
		}
		if _, err := cw.(*file.Int64ColumnChunkWriter).WriteBatch(ids[:k], nil, nil); err != nil {
			return nil, err
		}
	}
	if err := cw.Close(); err != nil {
		return nil, err
	}
	if cw, err = rg.NextColumn(); err != nil {
		return nil, err
	}
	for start := int64(0); start < n; start += batch {
		k := min(batch, n-start)
		for i := range k {
			vals[i] = names[uint64(start+i)*0x9e3779b97f4a7c15>>60]
		}
		if _, err := cw.(*file.ByteArrayColumnChunkWriter).WriteBatch(vals[:k], nil, nil); err != nil {
			return nil, err
		}
	}
	if err := cw.Close(); err != nil {
		return nil, err
	}
	if cw, err = rg.NextColumn(); err != nil {
		return nil, err
	}
	for start := int64(0); start < n; start += batch {
		k := min(batch, n-start)
		for i := range k {
			xs[i] = math.Sqrt(float64(start + i))
		}
		if _, err := cw.(*file.Float64ColumnChunkWriter).WriteBatch(xs[:k], nil, nil); err != nil {
			return nil, err
		}
	}
	if err := cw.Close(); err != nil {
		return nil, err
	}
	if err := rg.Close(); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// rangeResult is what reading rows [first, first+count) of id and x gives:
// a sum of ids (known in closed form) and of x, to check every
// implementation before timing it.
type rangeResult struct {
	ids   int64
	xs    float64
	count int64
}

func wantRange(first, count int64) int64 { return count*first + count*(count-1)/2 }

// pqSeekRange reads rows [first, first+count) of columns id (0) and x (2)
// with SeekRow and SliceRows.
func pqSeekRange(f *column.File, rs []*column.Reader, p *column.Page, first, count int64) (rangeResult, error) {
	var res rangeResult
	for c, col := range []int{0, 2} {
		r := rs[c]
		if err := f.ResetReader(r, 0, col); err != nil {
			return res, err
		}
		if err := r.SeekRow(first); err != nil {
			return res, err
		}
		for row := first; row < first+count; {
			if err := r.ReadPage(p); err != nil {
				return res, err
			}
			r.SliceRows(p, 0, int(first+count-row))
			row += int64(p.NumLevels)
			if col == 0 {
				for _, v := range p.Values.Int64s {
					res.ids += v
				}
				res.count += int64(len(p.Values.Int64s))
			} else {
				for _, v := range p.Values.Doubles {
					res.xs += v
				}
			}
		}
	}
	return res, nil
}

// pqFullRange reads every page of id and x and keeps the rows in range.
func pqFullRange(f *column.File, rs []*column.Reader, p *column.Page, first, count int64) (rangeResult, error) {
	var res rangeResult
	for c, col := range []int{0, 2} {
		r := rs[c]
		if err := f.ResetReader(r, 0, col); err != nil {
			return res, err
		}
		row := int64(0)
		for {
			err := r.ReadPage(p)
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				return res, err
			}
			lo, hi := max(first-row, 0), min(first+count-row, int64(p.NumLevels))
			if lo < hi {
				if col == 0 {
					for _, v := range p.Values.Int64s[lo:hi] {
						res.ids += v
					}
					res.count += hi - lo
				} else {
					for _, v := range p.Values.Doubles[lo:hi] {
						res.xs += v
					}
				}
			}
			row += int64(p.NumLevels)
		}
	}
	return res, nil
}

// arrowRange reads rows [first, first+count) of id and x with arrow-go,
// seeking with SeekToRow when seek is set and skipping values otherwise.
func arrowRange(r *file.Reader, ids []int64, xs []float64, first, count int64, seek bool) (rangeResult, error) {
	var res rangeResult
	rg := r.RowGroup(0)
	cid, err := rg.Column(0)
	if err != nil {
		return res, err
	}
	cx, err := rg.Column(2)
	if err != nil {
		return res, err
	}
	ir, xr := cid.(*file.Int64ColumnChunkReader), cx.(*file.Float64ColumnChunkReader)
	if seek {
		if err := cid.SeekToRow(first); err != nil {
			return res, err
		}
		if err := cx.SeekToRow(first); err != nil {
			return res, err
		}
	} else {
		if _, err := ir.Skip(first); err != nil {
			return res, err
		}
		if _, err := xr.Skip(first); err != nil {
			return res, err
		}
	}
	for left := count; left > 0; {
		_, n, err := ir.ReadBatch(min(left, int64(len(ids))), ids, nil, nil)
		if err != nil {
			return res, err
		}
		if n == 0 {
			return res, io.ErrUnexpectedEOF
		}
		for _, v := range ids[:n] {
			res.ids += v
		}
		res.count += int64(n)
		left -= int64(n)
	}
	for left := count; left > 0; {
		_, n, err := xr.ReadBatch(min(left, int64(len(xs))), xs, nil, nil)
		if err != nil {
			return res, err
		}
		if n == 0 {
			return res, io.ErrUnexpectedEOF
		}
		for _, v := range xs[:n] {
			res.xs += v
		}
		left -= int64(n)
	}
	return res, nil
}

func BenchmarkRowRange(b *testing.B) {
	data, err := sortedFile()
	require.NoError(b, err)
	f, err := column.Open(bytes.NewReader(data), int64(len(data)))
	require.NoError(b, err)
	n := f.MetaData().NumRows
	first, count := n/2+n/1000, n/100
	want := wantRange(first, count)
	rs := []*column.Reader{new(column.Reader), new(column.Reader)}
	var p column.Page
	ar, err := file.NewParquetReader(bytes.NewReader(data))
	require.NoError(b, err)
	ids, xs := make([]int64, 4096), make([]float64, 4096)
	run := map[string]func() (rangeResult, error){
		"impl=ours":          func() (rangeResult, error) { return pqSeekRange(f, rs, &p, first, count) },
		"impl=ours_fullread": func() (rangeResult, error) { return pqFullRange(f, rs, &p, first, count) },
		"impl=arrowgo":       func() (rangeResult, error) { return arrowRange(ar, ids, xs, first, count, true) },
		"impl=arrowgo_skip":  func() (rangeResult, error) { return arrowRange(ar, ids, xs, first, count, false) },
	}
	ref, err := run["impl=ours_fullread"]()
	require.NoError(b, err)
	require.Equal(b, want, ref.ids)
	for _, name := range []string{"impl=ours", "impl=ours_fullread", "impl=arrowgo", "impl=arrowgo_skip"} {
		b.Run(name, func(b *testing.B) {
			got, err := run[name]()
			require.NoError(b, err)
			require.Equal(b, ref, got, "checked before timing")
			b.SetBytes(count * 16)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := run[name](); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkPredicate reads x where lo <= id < lo+n/100: with MatchingRows
// on id's column index and SeekRow on both columns, or by reading both
// columns in full and filtering.
func BenchmarkPredicate(b *testing.B) {
	data, err := sortedFile()
	require.NoError(b, err)
	f, err := column.Open(bytes.NewReader(data), int64(len(data)))
	require.NoError(b, err)
	n := f.MetaData().NumRows
	lo, hi := n/3, n/3+n/100-1
	sc := stats.NewColumn(f.MetaData(), f.Schema().Leaves()[0])
	rs := []*column.Reader{new(column.Reader), new(column.Reader)}
	var p column.Page
	pruned := func() (rangeResult, error) {
		ranges, err := f.MatchingRows(0, 0, func(s stats.Stats) bool {
			return sc.MayContain(s, stats.Int64Value(lo), stats.Int64Value(hi))
		})
		if err != nil {
			return rangeResult{}, err
		}
		var res rangeResult
		for _, rr := range ranges {
			// The pages may hold rows outside [lo, hi]: filter on id.
			got, err := pqSeekRange(f, rs, &p, rr.First, rr.End-rr.First)
			if err != nil {
				return res, err
			}
			res.ids += got.ids
			res.xs += got.xs
			res.count += got.count
		}
		return res, nil
	}
	full := func() (rangeResult, error) { return pqFullRange(f, rs, &p, 0, n) }
	// The ids are sorted: the pruned ranges cover [lo, hi] and some rows
	// around it; check that they cover it and are far fewer than n.
	got, err := pruned()
	require.NoError(b, err)
	require.Less(b, got.count, n/50, "pruning keeps about 1% of the rows")
	require.GreaterOrEqual(b, got.count, hi-lo+1)
	all, err := full()
	require.NoError(b, err)
	require.Equal(b, wantRange(0, n), all.ids)
	for name, fn := range map[string]func() (rangeResult, error){"impl=ours": pruned, "impl=ours_fullscan": full} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := fn(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkDictionaryKept reads the low-cardinality string column val with
// dictionaries resolved into values and kept as indices.
func BenchmarkDictionaryKept(b *testing.B) {
	data, err := sortedFile()
	require.NoError(b, err)
	for _, keep := range []bool{false, true} {
		b.Run(map[bool]string{true: "impl=ours", false: "impl=ours_resolved"}[keep], func(b *testing.B) {
			f, err := column.Open(bytes.NewReader(data), int64(len(data)), column.WithKeepDictionary(keep))
			require.NoError(b, err)
			var r column.Reader
			var p column.Page
			read := func() (int64, error) {
				if err := f.ResetReader(&r, 0, 1); err != nil {
					return 0, err
				}
				var n int64
				for {
					err := r.ReadPage(&p)
					if errors.Is(err, io.EOF) {
						return n, nil
					}
					if err != nil {
						return n, err
					}
					if keep && p.Dictionary == nil {
						return n, fmt.Errorf("page not dictionary-encoded")
					}
					n += int64(p.NumValues())
				}
			}
			got, err := read()
			require.NoError(b, err)
			require.Equal(b, f.MetaData().NumRows, got)
			b.SetBytes(got * int64(len("category-00")))
			b.ReportAllocs()
			cpu0 := benchdata.CPUTime()
			for b.Loop() {
				if _, err := read(); err != nil {
					b.Fatal(err)
				}
			}
			reportCPU(b, cpu0)
		})
	}
}

var rowsFile = sync.OnceValues(func() ([]byte, error) { return writeSorted(1 << 18) })

// BenchmarkRows reads every row of a 256 Ki-row file (id, val, x) as Go
// values: pqcodec's rows.Reader.ReadRow (and AppendRow, as JSON),
// parquet-go's Reader.ReadRows and arrow-go's pqarrow.ReadTable (columnar:
// the table, not rows).
func BenchmarkRows(b *testing.B) {
	data, err := rowsFile()
	require.NoError(b, err)
	f, err := column.Open(bytes.NewReader(data), int64(len(data)))
	require.NoError(b, err)
	n := f.MetaData().NumRows
	run := map[string]func() (int64, error){
		"impl=ours": func() (int64, error) {
			r, err := rows.NewReader(f)
			if err != nil {
				return 0, err
			}
			var row rows.Group
			var sum int64
			for {
				row, err = r.ReadRow(row)
				if errors.Is(err, io.EOF) {
					return sum, nil
				}
				if err != nil {
					return sum, err
				}
				sum += row[0].Value.(int64)
			}
		},
		"impl=ours_json": func() (int64, error) {
			r, err := rows.NewReader(f)
			if err != nil {
				return 0, err
			}
			var line []byte
			var sum int64
			for {
				line, err = r.AppendRow(line[:0])
				if errors.Is(err, io.EOF) {
					return sum, nil
				}
				if err != nil {
					return sum, err
				}
				// {"id":N,...: parse N to check the output.
				v := int64(0)
				for _, c := range line[6:] {
					if c < '0' || c > '9' {
						break
					}
					v = v*10 + int64(c-'0')
				}
				sum += v
			}
		},
		"impl=parquetgo": func() (int64, error) {
			r := pq.NewReader(bytes.NewReader(data))
			defer r.Close()
			buf := make([]pq.Row, 1024)
			var sum int64
			for {
				k, err := r.ReadRows(buf)
				for _, row := range buf[:k] {
					sum += row[0].Int64()
				}
				if errors.Is(err, io.EOF) {
					return sum, nil
				}
				if err != nil {
					return sum, err
				}
			}
		},
		"impl=arrowgo_pqarrow": func() (int64, error) {
			tbl, err := pqarrow.ReadTable(context.Background(), bytes.NewReader(data), nil, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
			if err != nil {
				return 0, err
			}
			defer tbl.Release()
			var sum int64
			for _, chunk := range tbl.Column(0).Data().Chunks() {
				for _, v := range chunk.(*array.Int64).Int64Values() {
					sum += v
				}
			}
			return sum, nil
		},
	}
	for _, name := range []string{"impl=ours", "impl=ours_json", "impl=parquetgo", "impl=arrowgo_pqarrow"} {
		b.Run(name, func(b *testing.B) {
			sum, err := run[name]()
			require.NoError(b, err)
			require.Equal(b, wantRange(0, n), sum, "checked before timing")
			b.ReportAllocs()
			for b.Loop() {
				if _, err := run[name](); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(int64(b.N)*n), "ns/row")
		})
	}
}
