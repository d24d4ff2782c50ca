package arrowgo

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/stretchr/testify/require"

	pqcodec "github.com/pqcodec/pqcodec"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/internal/testcorpus"
)

// corpusFiles lists parquet-testing's data/ and bad_data/ files and
// testdata/foreign's.
func corpusFiles(t *testing.T) []string {
	files := testcorpus.Files(t, "data")
	files = append(files, testcorpus.Files(t, "bad_data")...)
	require.NoError(t, filepath.WalkDir("../../testdata/foreign", func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".parquet") {
			files = append(files, p)
		}
		return err
	}))
	return files
}

// pqarrowTable reads data with pqarrow, our codecs registered; a panic in
// arrow-go is an error.
func pqarrowTable(data []byte, props pqarrow.ArrowReadProperties) (tbl arrow.Table, err error) {
	defer func() {
		if r := recover(); r != nil {
			tbl, err = nil, errors.New("pqarrow panicked")
		}
	}()
	rdr, err := file.NewParquetReader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	defer rdr.Close()
	fr, err := pqarrow.NewFileReader(rdr, props, memory.DefaultAllocator)
	if err != nil {
		return nil, err
	}
	return fr.ReadTable(context.Background())
}

func oursTable(data []byte, mem memory.Allocator, opts ...ReaderOption) (arrow.Table, error) {
	r, err := Open(bytes.NewReader(data), int64(len(data)), append([]ReaderOption{WithAllocator(mem)}, opts...)...)
	if err != nil {
		return nil, err
	}
	return r.ReadTable(context.Background())
}

// equalTables reports where two tables differ, or "".
func equalTables(want, got arrow.Table) string {
	if !want.Schema().Equal(got.Schema()) {
		return "schema:\n" + want.Schema().String() + "\nvs\n" + got.Schema().String()
	}
	if want.NumRows() != got.NumRows() {
		return fmt.Sprintf("rows differ: %d vs %d", want.NumRows(), got.NumRows())
	}
	for i := 0; i < int(want.NumCols()); i++ {
		if !chunkedEqual(want.Column(i).Data(), got.Column(i).Data()) {
			return "column " + want.Schema().Field(i).Name + " differs"
		}
	}
	return ""
}

// chunkedEqual is array.ChunkedEqual where NaN equals NaN: both
// arrays are compared with array.Equal after their floats are replaced by
// their bits (a float array's NaN never equals itself under Equal).
func chunkedEqual(a, b *arrow.Chunked) bool {
	if array.ChunkedEqual(a, b) {
		return true
	}
	// Equal fails on NaNs; ApproxEqual with no tolerance accepts equal NaNs
	// but skips values under null slots, so both must agree with the
	// strict comparison on the arrays' shape.
	return array.ChunkedApproxEqual(a, b, array.WithNaNsEqual(true), array.WithAbsTolerance(0)) && hasFloats(a.DataType())
}

func hasFloats(t arrow.DataType) bool {
	switch tt := t.(type) {
	case *arrow.Float16Type, *arrow.Float32Type, *arrow.Float64Type:
		return true
	case arrow.NestedType:
		for _, f := range tt.Fields() {
			if hasFloats(f.Type) {
				return true
			}
		}
	}
	return false
}

// tooLarge lists the corpus files the tests skip, and why.
var tooLarge = map[string]string{
	// Its one string column holds more than 2 GiB: FileReader returns an
	// error wrapping ErrUnsupported (a record's string array cannot hold
	// it; large_string would), as pqarrow fails on it; reading it takes
	// about two minutes on the shared test machine.
	"data/large_string_map.brotli.parquet": "more than 2 GiB of strings in one column",
}

// pqarrowWrong lists the files whose tables pqarrow reads differently
// from pqcodec's rows; they are checked against rows in
// TestReadTableAgainstRows.
var pqarrowWrong = map[string]string{}

// TestReadTableMatchesPqarrow reads every corpus file with both readers:
// where pqarrow reads a file, the tables are equal, schema included; every
// file pqarrow cannot read is logged, and read by ours without a panic or a
// leak.
func TestReadTableMatchesPqarrow(t *testing.T) {
	withAdapter(t, func() {
		var both, onlyOurs, onlyTheirs, neither int
		for _, path := range corpusFiles(t) {
			name := filepath.Base(filepath.Dir(path)) + "/" + filepath.Base(path)
			if reason, ok := tooLarge[name]; ok {
				t.Logf("%s skipped: %s", name, reason)
				continue
			}
			t.Run(name, func(t *testing.T) {
				data, err := os.ReadFile(path)
				require.NoError(t, err)
				mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
				defer mem.AssertSize(t, 0)
				got, ourErr := oursTable(data, mem)
				want, theirErr := pqarrowTable(data, pqarrow.ArrowReadProperties{})
				if want != nil {
					defer want.Release()
				}
				if got != nil {
					defer got.Release()
				}
				switch {
				case ourErr == nil && theirErr == nil:
					both++
					if _, ok := pqarrowWrong[name]; ok {
						return
					}
					if diff := equalTables(want, got); diff != "" {
						t.Errorf("%s", diff)
					}
				case ourErr == nil:
					onlyOurs++
					t.Logf("pqarrow fails: %v", theirErr)
				case theirErr == nil:
					onlyTheirs++
					if !strings.Contains(path, "bad_data") {
						t.Errorf("only pqarrow reads it; ours: %v", ourErr)
					} else {
						t.Logf("only pqarrow reads it; ours: %v", ourErr)
					}
				default:
					neither++
				}
			})
		}
		t.Logf("both read %d files (equal), only ours %d, only pqarrow %d, neither %d", both, onlyOurs, onlyTheirs, neither)
	})
}

// TestRecordReaderBatches reads files with small batches, across row
// groups, and checks the concatenated records against ReadTable, with
// every buffer released.
func TestRecordReaderBatches(t *testing.T) {
	for _, name := range []string{"duckdb/nested.parquet", "duckdb/row_groups.parquet", "arrow-go/small_pages.parquet", "polars/nested.parquet"} {
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("../../testdata/foreign", name))
			require.NoError(t, err)
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			whole, err := oursTable(data, mem)
			require.NoError(t, err)
			defer whole.Release()
			for _, batch := range []int64{1, 7, 1000} {
				r, err := Open(bytes.NewReader(data), int64(len(data)), WithAllocator(mem), WithBatchSize(batch))
				require.NoError(t, err)
				rr, err := r.GetRecordReader(context.Background(), nil, nil)
				require.NoError(t, err)
				var recs []arrow.RecordBatch
				for rr.Next() {
					rec := rr.RecordBatch()
					require.LessOrEqual(t, rec.NumRows(), batch)
					rec.Retain()
					recs = append(recs, rec)
				}
				require.NoError(t, rr.Err())
				rr.Release()
				tbl := array.NewTableFromRecords(rr.Schema(), recs)
				for _, rec := range recs {
					rec.Release()
				}
				require.Empty(t, equalTables(whole, tbl), "batch %d", batch)
				tbl.Release()
			}
		})
	}
}

// TestProjection reads one leaf's field and a subset of row groups and
// compares with pqarrow's ReadRowGroups.
func TestProjection(t *testing.T) {
	data, err := os.ReadFile("../../testdata/foreign/duckdb/row_groups.parquet")
	require.NoError(t, err)
	r, err := Open(bytes.NewReader(data), int64(len(data)))
	require.NoError(t, err)
	require.Greater(t, r.File().NumRowGroups(), 1)
	rdr, err := file.NewParquetReader(bytes.NewReader(data))
	require.NoError(t, err)
	defer rdr.Close()
	fr, err := pqarrow.NewFileReader(rdr, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
	require.NoError(t, err)
	cols, rgs := []int{1}, []int{1}
	want, err := fr.ReadRowGroups(context.Background(), cols, rgs)
	require.NoError(t, err)
	defer want.Release()
	got, err := r.ReadRowGroups(context.Background(), cols, rgs)
	require.NoError(t, err)
	defer got.Release()
	require.Empty(t, equalTables(want, got))

	ch, err := r.ReadColumn(context.Background(), nil, 0)
	require.NoError(t, err)
	defer ch.Release()
	tbl, err := r.ReadTable(context.Background())
	require.NoError(t, err)
	defer tbl.Release()
	require.True(t, array.ChunkedEqual(tbl.Column(0).Data(), ch))

	_, err = r.ReadColumn(context.Background(), nil, 99)
	require.ErrorIs(t, err, ErrArgument)
	_, err = r.GetRecordReader(context.Background(), []int{99}, nil)
	require.ErrorIs(t, err, ErrArgument)
	_, err = r.GetRecordReader(context.Background(), nil, []int{99})
	require.ErrorIs(t, err, ErrArgument)
}

// TestContextCancel checks that a cancelled context stops a read before
// its next page, releasing what it allocated.
func TestContextCancel(t *testing.T) {
	data, err := os.ReadFile("../../testdata/foreign/arrow-go/small_pages.parquet")
	require.NoError(t, err)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	r, err := Open(bytes.NewReader(data), int64(len(data)), WithAllocator(mem), WithBatchSize(10))
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	rr, err := r.GetRecordReader(ctx, nil, nil)
	require.NoError(t, err)
	require.True(t, rr.Next())
	cancel()
	for rr.Next() {
	}
	require.ErrorIs(t, rr.Err(), context.Canceled)
	rr.Release()
	_, err = r.ReadTable(ctx)
	require.ErrorIs(t, err, context.Canceled)
}

// TestConcurrentReaders reads one file from several goroutines at once
// through one FileReader (run under -race).
func TestConcurrentReaders(t *testing.T) {
	data, err := os.ReadFile("../../testdata/foreign/duckdb/nested.parquet")
	require.NoError(t, err)
	r, err := Open(bytes.NewReader(data), int64(len(data)))
	require.NoError(t, err)
	want, err := r.ReadTable(context.Background())
	require.NoError(t, err)
	defer want.Release()
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 3 {
				got, err := r.ReadTable(context.Background())
				if err != nil {
					errs <- err.Error()
					return
				}
				if d := equalTables(want, got); d != "" {
					errs <- d
				}
				got.Release()
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// samePruned compares pqarrow's array w of a pruned nested field with
// ours, g, where w's list types still name the members pruned from their
// values.
func samePruned(t *testing.T, w, g arrow.Array) {
	t.Helper()
	require.Equal(t, w.Len(), g.Len())
	require.Equal(t, w.NullN(), g.NullN())
	for i := 0; i < w.Len(); i++ {
		require.Equal(t, w.IsNull(i), g.IsNull(i))
	}
	if arrow.TypeEqual(w.DataType(), g.DataType()) && array.Equal(w, g) {
		return
	}
	switch wa := w.(type) {
	case array.ListLike:
		ga := g.(array.ListLike)
		require.False(t, arrow.TypeEqual(wa.DataType().(arrow.ListLikeType).Elem(), wa.ListValues().DataType()),
			"types differ where pqarrow's list is valid")
		require.True(t, arrow.TypeEqual(ga.DataType().(arrow.ListLikeType).Elem(), ga.ListValues().DataType()))
		for i := 0; i < wa.Len(); i++ {
			ws, we := wa.ValueOffsets(i)
			gs, ge := ga.ValueOffsets(i)
			require.Equal(t, [2]int64{ws, we}, [2]int64{gs, ge})
		}
		samePruned(t, wa.ListValues(), ga.ListValues())
	case *array.Struct:
		ga := g.(*array.Struct)
		require.Equal(t, wa.NumField(), ga.NumField(), "%s vs %s", wa.DataType(), ga.DataType())
		for k := 0; k < wa.NumField(); k++ {
			samePruned(t, wa.Field(k), ga.Field(k))
		}
	default:
		t.Fatalf("arrays differ: %v vs %v", w, g)
	}
}

// TestLeafProjection reads each leaf column of nested files alone, as
// pqarrow's GetRecordReader does: the struct members holding no selected
// leaf are pruned, and the records equal pqarrow's.
func TestLeafProjection(t *testing.T) {
	for _, name := range []string{"duckdb/nested.parquet", "polars/nested.parquet", "duckdb/deep.parquet"} {
		data, err := os.ReadFile(filepath.Join("../../testdata/foreign", name))
		require.NoError(t, err)
		r, err := Open(bytes.NewReader(data), int64(len(data)))
		require.NoError(t, err)
		rdr, err := file.NewParquetReader(bytes.NewReader(data))
		require.NoError(t, err)
		fr, err := pqarrow.NewFileReader(rdr, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
		require.NoError(t, err)
		for c := 0; c < r.File().NumColumns(); c++ {
			t.Run(fmt.Sprintf("%s/%d", name, c), func(t *testing.T) {
				rgs := make([]int, r.File().NumRowGroups())
				for i := range rgs {
					rgs[i] = i
				}
				want, err := fr.ReadRowGroups(context.Background(), []int{c}, rgs)
				require.NoError(t, err)
				defer want.Release()
				got, err := r.ReadRowGroups(context.Background(), []int{c}, nil)
				require.NoError(t, err)
				defer got.Release()
				if want.Schema().Equal(got.Schema()) {
					require.Empty(t, equalTables(want, got))
					return
				}
				// pqarrow prunes a struct inside a list from the values
				// but not from the list's type: its array is invalid
				// (the list's element type is not its values' type).
				// Ours prunes both; the values must be pqarrow's.
				samePruned(t, want.Column(0).Data().Chunk(0), got.Column(0).Data().Chunk(0))
			})
		}
		rdr.Close()
	}
}

// TestReadDict reads the byte array columns of files as dictionaries,
// as pqarrow's SetReadDict does, and compares the values with pqarrow's.
func TestReadDict(t *testing.T) {
	withAdapter(t, func() {
		for _, name := range []string{"arrow-go/default.parquet", "duckdb/default.parquet", "arrow-go/dict_fallback.parquet", "polars/codec_snappy.parquet"} {
			t.Run(name, func(t *testing.T) {
				data, err := os.ReadFile(filepath.Join("../../testdata/foreign", name))
				require.NoError(t, err)
				r0, err := Open(bytes.NewReader(data), int64(len(data)))
				require.NoError(t, err)
				var props pqarrow.ArrowReadProperties
				for c, leaf := range r0.File().Schema().Leaves() {
					if *leaf.Element.Type == format.ByteArray {
						props.SetReadDict(c, true)
					}
				}
				want, err := pqarrowTable(data, props)
				require.NoError(t, err)
				defer want.Release()
				mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
				defer mem.AssertSize(t, 0)
				got, err := oursTable(data, mem, WithReadProperties(props))
				require.NoError(t, err)
				defer got.Release()
				require.True(t, want.Schema().Equal(got.Schema()), "%s\nvs\n%s", want.Schema(), got.Schema())
				for i := 0; i < int(want.NumCols()); i++ {
					if want.Schema().Field(i).Type.ID() != arrow.DICTIONARY {
						continue
					}
					w, g := want.Column(i).Data(), got.Column(i).Data()
					if chunkedEqual(w, g) {
						t.Logf("column %s: equal dictionary arrays", want.Schema().Field(i).Name)
						continue
					}
					// Equal dictionary arrays need equal dictionaries;
					// compare the values they stand for.
					require.Equal(t, dictValues(w), dictValues(g), "column %s", want.Schema().Field(i).Name)
				}
			})
		}
	})
}

func dictValues(c *arrow.Chunked) []string {
	var out []string
	for _, ch := range c.Chunks() {
		d := ch.(*array.Dictionary)
		for i := 0; i < d.Len(); i++ {
			if d.IsNull(i) {
				out = append(out, "<null>")
				continue
			}
			out = append(out, d.Dictionary().ValueStr(d.GetValueIndex(i)))
		}
	}
	return out
}

// peakAllocator records the most bytes allocated at once.
type peakAllocator struct {
	memory.Allocator
	mu        sync.Mutex
	cur, peak int
}

func (a *peakAllocator) add(n int) {
	a.mu.Lock()
	a.cur += n
	a.peak = max(a.peak, a.cur)
	a.mu.Unlock()
}

func (a *peakAllocator) Allocate(n int) []byte {
	a.add(n)
	return a.Allocator.Allocate(n)
}

func (a *peakAllocator) Reallocate(n int, b []byte) []byte {
	a.add(n - len(b))
	return a.Allocator.Reallocate(n, b)
}

func (a *peakAllocator) Free(b []byte) {
	a.add(-len(b))
	a.Allocator.Free(b)
}

// TestClaimedRows reads files whose footer claims far more rows than their
// pages hold: an error wrapping pqcodec.ErrCorrupt, no allocation sized by
// the claim, no leak.
func TestClaimedRows(t *testing.T) {
	for _, name := range []string{"duckdb/default.parquet", "duckdb/nested.parquet"} {
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("../../testdata/foreign", name))
			require.NoError(t, err)
			md, err := format.ReadFooter(bytes.NewReader(data), int64(len(data)))
			require.NoError(t, err)
			md.RowGroups[0].NumRows = 1 << 40
			md.NumRows = 1 << 40
			footerLen := int(binary.LittleEndian.Uint32(data[len(data)-8:]))
			body := data[:len(data)-8-footerLen]
			footer := format.AppendFileMetaData(nil, md)
			out := append(append([]byte{}, body...), footer...)
			out = binary.LittleEndian.AppendUint32(out, uint32(len(footer)))
			out = append(out, "PAR1"...)
			mem := &peakAllocator{Allocator: memory.NewCheckedAllocator(memory.NewGoAllocator())}
			defer mem.Allocator.(*memory.CheckedAllocator).AssertSize(t, 0)
			tbl, err := oursTable(out, mem)
			if tbl != nil {
				tbl.Release()
			}
			require.ErrorIs(t, err, pqcodec.ErrCorrupt)
			require.Less(t, mem.peak, 256<<20, "peak allocation")
		})
	}
}

// TestByteArraysOutgrowBuffer reads, through RecordReaders of several
// batch sizes and a CheckedAllocator, a PLAIN string column of one page
// whose first values are long and the rest short: a batch's data buffer,
// sized from the page's average length, is too small for the long
// values, which column.Reader.AppendValues then appends in Go memory and
// the leaf copies into the grown Arrow buffer. Every batch holds the
// strings written, and nothing leaks.
func TestByteArraysOutgrowBuffer(t *testing.T) {
	const n = 4000
	want := make([]string, n)
	sc := arrow.NewSchema([]arrow.Field{{Name: "s", Type: arrow.BinaryTypes.String}}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, sc)
	defer b.Release()
	for i := range want {
		want[i] = fmt.Sprint(i)
		if i < n/4 {
			want[i] = strings.Repeat(want[i], 60)
		}
		b.Field(0).(*array.StringBuilder).Append(want[i])
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	var buf bytes.Buffer
	props := parquet.NewWriterProperties(parquet.WithDictionaryDefault(false), parquet.WithDataPageSize(1<<30))
	w, err := pqarrow.NewFileWriter(sc, &buf, props, pqarrow.DefaultWriterProps())
	require.NoError(t, err)
	require.NoError(t, w.Write(rec))
	require.NoError(t, w.Close())
	for _, batch := range []int64{100, 999, n} {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		r, err := Open(bytes.NewReader(buf.Bytes()), int64(buf.Len()), WithAllocator(mem),
			WithReadProperties(pqarrow.ArrowReadProperties{BatchSize: batch}))
		require.NoError(t, err)
		rr, err := r.GetRecordReader(context.Background(), nil, nil)
		require.NoError(t, err)
		var got []string
		for rr.Next() {
			col := rr.RecordBatch().Column(0).(*array.String)
			for i := range col.Len() {
				got = append(got, col.Value(i))
			}
		}
		require.NoError(t, rr.Err())
		rr.Release()
		require.Equal(t, want, got, "batch %d", batch)
		mem.AssertSize(t, 0)
	}
}
