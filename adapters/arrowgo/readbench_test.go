package arrowgo

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/pqcodec/pqcodec/internal/benchdata"
	"github.com/stretchr/testify/require"
)

// benchFiles are the foreign-writer files BenchmarkReadTable reads.
var benchFiles = []string{
	"arrow-go/default.parquet", "arrow-go/delta.parquet", "arrow-rs/default.parquet",
	"duckdb/default.parquet", "duckdb/nested.parquet", "polars/codec_snappy.parquet",
	"parquet-go/default.parquet", "hyparquet/default.parquet",
}

// generated writes a 1M-row file with pqarrow: int64, float64, a nullable
// int32, a string and a list<int32>, dictionary on or off, snappy.
func generated(tb testing.TB, dict bool) []byte {
	const n = 1 << 20
	mem := memory.DefaultAllocator
	sc := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "x", Type: arrow.PrimitiveTypes.Float64},
		{Name: "n", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "s", Type: arrow.BinaryTypes.String},
		{Name: "l", Type: arrow.ListOf(arrow.PrimitiveTypes.Int32), Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(mem, sc)
	defer b.Release()
	lb := b.Field(4).(*array.ListBuilder)
	vb := lb.ValueBuilder().(*array.Int32Builder)
	for i := range n {
		b.Field(0).(*array.Int64Builder).Append(int64(i) * 7)
		b.Field(1).(*array.Float64Builder).Append(float64(i%1000) / 7)
		if i%3 == 0 {
			b.Field(2).(*array.Int32Builder).AppendNull()
		} else {
			b.Field(2).(*array.Int32Builder).Append(int32(i))
		}
		b.Field(3).(*array.StringBuilder).Append(fmt.Sprintf("value-%d", i%5000))
		switch i % 4 {
		case 0:
			lb.AppendNull()
		default:
			lb.Append(true)
			for k := range i % 4 {
				vb.Append(int32(i + k))
			}
		}
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	var buf bytes.Buffer
	props := parquet.NewWriterProperties(parquet.WithCompression(compress.Codecs.Snappy), parquet.WithDictionaryDefault(dict))
	w, err := pqarrow.NewFileWriter(sc, &buf, props, pqarrow.DefaultWriterProps())
	require.NoError(tb, err)
	require.NoError(tb, w.Write(rec))
	require.NoError(tb, w.Close())
	return buf.Bytes()
}

// benchInput is a file of the read benchmarks.
type benchInput struct {
	name string
	data []byte
}

// benchInputs returns the files of BenchmarkReadTable and
// BenchmarkRecordReader: benchFiles and the two generated 1M-row files.
func benchInputs(b *testing.B) []benchInput {
	var inputs []benchInput
	for _, f := range benchFiles {
		data, err := os.ReadFile(filepath.Join("../../testdata/foreign", f))
		require.NoError(b, err)
		inputs = append(inputs, benchInput{f, data})
	}
	return append(inputs, benchInput{"gen/1M_dict", generated(b, true)}, benchInput{"gen/1M_plain", generated(b, false)})
}

// benchRead runs read as sub-benchmark file=name/impl=impl, reporting
// cpu-ns/op, the process CPU time.
func benchRead(b *testing.B, in benchInput, impl string, read func() error) {
	b.Run("file="+in.name+"/impl="+impl, func(b *testing.B) {
		b.SetBytes(int64(len(in.data)))
		b.ReportAllocs()
		cpu := benchdata.CPUTime()
		for b.Loop() {
			if err := read(); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(benchdata.CPUTime()-cpu)/float64(b.N), "cpu-ns/op")
	})
}

// BenchmarkReadTable reads whole files into tables with pqarrow
// (impl=pqarrow, pqcodec's codecs registered, so only decoding and
// assembly differ) and with FileReader (impl=pqcodec), after checking once
// that both give equal tables. cpu-ns/op is the process CPU time.
func BenchmarkReadTable(b *testing.B) {
	inputs := benchInputs(b)
	withAdapter(b, func() {
		for _, in := range inputs {
			want, err := pqarrowTable(in.data, pqarrow.ArrowReadProperties{})
			require.NoError(b, err)
			got, err := oursTable(in.data, memory.DefaultAllocator)
			require.NoError(b, err)
			require.Empty(b, equalTables(want, got), in.name)
			want.Release()
			got.Release()
			benchRead(b, in, "pqarrow", func() error {
				tbl, err := pqarrow.ReadTable(context.Background(), bytes.NewReader(in.data), nil, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
				if err == nil {
					tbl.Release()
				}
				return err
			})
			benchRead(b, in, "pqcodec", func() error {
				tbl, err := oursTable(in.data, memory.DefaultAllocator)
				if err == nil {
					tbl.Release()
				}
				return err
			})
		}
	})
}

// recordBatch is the batch size of BenchmarkRecordReader.
const recordBatch = 8192

// BenchmarkRecordReader reads whole files through a RecordReader of
// recordBatch rows with pqarrow (impl=pqarrow, pqcodec's codecs
// registered) and with FileReader (impl=pqcodec), after checking once that
// both give the same number of rows.
func BenchmarkRecordReader(b *testing.B) {
	inputs := benchInputs(b)
	props := pqarrow.ArrowReadProperties{BatchSize: recordBatch}
	loop := func(rr array.RecordReader) (int64, error) {
		defer rr.Release()
		var n int64
		for rr.Next() {
			n += rr.RecordBatch().NumRows()
		}
		return n, rr.Err()
	}
	theirs := func(data []byte) (int64, error) {
		pf, err := file.NewParquetReader(bytes.NewReader(data))
		if err != nil {
			return 0, err
		}
		defer pf.Close()
		fr, err := pqarrow.NewFileReader(pf, props, memory.DefaultAllocator)
		if err != nil {
			return 0, err
		}
		rr, err := fr.GetRecordReader(context.Background(), nil, nil)
		if err != nil {
			return 0, err
		}
		return loop(rr)
	}
	ours := func(data []byte) (int64, error) {
		r, err := Open(bytes.NewReader(data), int64(len(data)), WithReadProperties(props))
		if err != nil {
			return 0, err
		}
		rr, err := r.GetRecordReader(context.Background(), nil, nil)
		if err != nil {
			return 0, err
		}
		return loop(rr)
	}
	withAdapter(b, func() {
		for _, in := range inputs {
			want, err := theirs(in.data)
			require.NoError(b, err)
			got, err := ours(in.data)
			require.NoError(b, err)
			require.Equal(b, want, got, in.name)
			benchRead(b, in, "pqarrow", func() error { _, err := theirs(in.data); return err })
			benchRead(b, in, "pqcodec", func() error { _, err := ours(in.data); return err })
		}
	})
}
