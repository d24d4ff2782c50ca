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
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
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

// BenchmarkReadTable reads whole files into tables with pqarrow
// (impl=pqarrow, pqcodec's codecs registered, so only decoding and
// assembly differ) and with FileReader (impl=pqcodec), after checking once
// that both give equal tables. cpu-ns/op is the process CPU time.
func BenchmarkReadTable(b *testing.B) {
	type input struct {
		name string
		data []byte
	}
	var inputs []input
	for _, f := range benchFiles {
		data, err := os.ReadFile(filepath.Join("../../testdata/foreign", f))
		require.NoError(b, err)
		inputs = append(inputs, input{f, data})
	}
	inputs = append(inputs, input{"gen/1M_dict", generated(b, true)}, input{"gen/1M_plain", generated(b, false)})
	withAdapter(b, func() {
		for _, in := range inputs {
			want, err := pqarrowTable(in.data, pqarrow.ArrowReadProperties{})
			require.NoError(b, err)
			got, err := oursTable(in.data, memory.DefaultAllocator)
			require.NoError(b, err)
			require.Empty(b, equalTables(want, got), in.name)
			want.Release()
			got.Release()
			impls := []struct {
				name string
				read func() (arrow.Table, error)
			}{
				{"pqarrow", func() (arrow.Table, error) {
					return pqarrow.ReadTable(context.Background(), bytes.NewReader(in.data), nil, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
				}},
				{"pqcodec", func() (arrow.Table, error) { return oursTable(in.data, memory.DefaultAllocator) }},
			}
			for _, impl := range impls {
				b.Run("file="+in.name+"/impl="+impl.name, func(b *testing.B) {
					b.SetBytes(int64(len(in.data)))
					b.ReportAllocs()
					cpu := processCPUTime()
					for b.Loop() {
						tbl, err := impl.read()
						if err != nil {
							b.Fatal(err)
						}
						tbl.Release()
					}
					b.ReportMetric(float64(processCPUTime()-cpu)/float64(b.N), "cpu-ns/op")
				})
			}
		}
	})
}
