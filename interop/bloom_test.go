package interop_test

// Bloom filters that parquet-go writes, read by pqcodec: every value of
// every chunk passes its chunk's filter under package bloom's hashes (one
// per physical type), and equality predicates on absent values prune the
// row groups.

import (
	"bytes"
	"fmt"
	"io"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	pgo "github.com/parquet-go/parquet-go"
	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/bloom"
	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/stats"
)

type bloomRow struct {
	I32 int32   `parquet:"i32"`
	I64 int64   `parquet:"i64"`
	F32 float32 `parquet:"f32"`
	F64 float64 `parquet:"f64"`
	S   string  `parquet:"s"`
	B   []byte  `parquet:"b"`
	FB  [6]byte `parquet:"fb"`
	OS  *string `parquet:"os,optional"`
}

func TestParquetGoBloomFilters(t *testing.T) {
	var rows []bloomRow
	for i := range 3000 {
		s := fmt.Sprintf("name-%d", i*7)
		r := bloomRow{I32: int32(i * 3), I64: int64(i) * 1000003, F32: float32(i) / 4, F64: float64(i) * 1.5,
			S: s, B: []byte(s + "!"), FB: [6]byte{byte(i), byte(i >> 8), 1, 2, 3, 4}}
		if i%3 != 0 {
			r.OS = &s
		}
		rows = append(rows, r)
	}
	var buf bytes.Buffer
	var filters []pgo.BloomFilterColumn
	for _, c := range []string{"i32", "i64", "f32", "f64", "s", "b", "fb", "os"} {
		filters = append(filters, pgo.SplitBlockFilter(10, c))
	}
	w := pgo.NewGenericWriter[bloomRow](&buf, pgo.BloomFilters(filters...), pgo.MaxRowsPerRowGroup(1000))
	_, err := w.Write(rows)
	require.NoError(t, err)
	require.NoError(t, w.Close())

	f, err := column.Open(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	require.NoError(t, err)
	require.Equal(t, 3, f.NumRowGroups())
	checked := checkBloomValues(t, f)
	require.Equal(t, 3000*7+2000, checked)

	// Equalities: a present value keeps its row group only (the values
	// grow with the row), an absent one within min/max keeps none.
	for _, c := range []struct {
		name         string
		present, gap stats.Value
	}{
		{"i32", stats.Int32Value(1500 * 3), stats.Int32Value(1500*3 + 1)},
		{"i64", stats.Int64Value(1500 * 1000003), stats.Int64Value(1500*1000003 + 1)},
		{"f64", stats.DoubleValue(1500 * 1.5), stats.DoubleValue(1500*1.5 + 0.25)},
		{"os", stats.BytesValue(format.ByteArray, []byte("name-10507")), stats.BytesValue(format.ByteArray, []byte("name-10508"))},
	} {
		col, err := f.LeafIndex(c.name)
		require.NoError(t, err)
		ranges, err := f.MatchingFileRows(col, c.present, c.present)
		require.NoError(t, err)
		require.Len(t, ranges, 1, c.name)
		require.True(t, ranges[0].First <= 1500 && 1501 < ranges[0].End, "%s: %v", c.name, ranges)
		ranges, err = f.MatchingFileRows(col, c.gap, c.gap)
		require.NoError(t, err)
		require.Empty(t, ranges, c.name)
	}
}

// checkBloomValues checks that every chunk of f has a bloom filter holding
// the hash of each of its values (BOOLEAN chunks aside), and returns how
// many values it checked.
func checkBloomValues(t *testing.T, f *column.File) int {
	checked := 0
	for rg := range f.NumRowGroups() {
		for col := range f.NumColumns() {
			if *f.Schema().Leaves()[col].Element.Type == format.Boolean {
				continue
			}
			bf, err := f.BloomFilter(rg, col)
			require.NoError(t, err)
			require.NotNil(t, bf, "chunk (%d, %d) without a bloom filter", rg, col)
			r, err := f.Column(rg, col)
			require.NoError(t, err)
			var p column.Page
			for {
				if err := r.ReadPage(&p); err == io.EOF {
					break
				} else {
					require.NoError(t, err)
				}
				v := &p.Values
				for i := range v.Len() {
					var h uint64
					switch v.Type {
					case format.Int32:
						h = bloom.HashInt32(v.Int32s[i])
					case format.Int64:
						h = bloom.HashInt64(v.Int64s[i])
					case format.Float:
						h = bloom.HashFloat32(v.Floats[i])
					case format.Double:
						h = bloom.HashFloat64(v.Doubles[i])
					default:
						h = bloom.HashBytes(v.ByteArray(i))
					}
					require.True(t, bf.Check(h), "chunk (%d, %d) value %d", rg, col, i)
					checked++
				}
			}
		}
	}
	return checked
}

// TestArrowGoBloomFilters does the same with arrow-go's writer: every
// physical type but BOOLEAN, a list column, 4 row groups.
func TestArrowGoBloomFilters(t *testing.T) {
	mem := memory.NewGoAllocator()
	sc := arrow.NewSchema([]arrow.Field{
		{Name: "i32", Type: arrow.PrimitiveTypes.Int32},
		{Name: "i64", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "f32", Type: arrow.PrimitiveTypes.Float32},
		{Name: "f64", Type: arrow.PrimitiveTypes.Float64},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "fb", Type: &arrow.FixedSizeBinaryType{ByteWidth: 5}},
		{Name: "l", Type: arrow.ListOf(arrow.PrimitiveTypes.Int32), Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(mem, sc)
	defer b.Release()
	const n = 4000
	for i := range n {
		b.Field(0).(*array.Int32Builder).Append(int32(i * 3))
		if i%5 == 0 {
			b.Field(1).(*array.Int64Builder).AppendNull()
		} else {
			b.Field(1).(*array.Int64Builder).Append(int64(i) << 20)
		}
		b.Field(2).(*array.Float32Builder).Append(float32(i) / 8)
		b.Field(3).(*array.Float64Builder).Append(float64(i) * 0.75)
		b.Field(4).(*array.StringBuilder).Append(fmt.Sprintf("k%05d", i*11))
		b.Field(5).(*array.FixedSizeBinaryBuilder).Append([]byte{byte(i), byte(i >> 8), 9, 9, 9})
		lb := b.Field(6).(*array.ListBuilder)
		lb.Append(true)
		for k := range i % 4 {
			lb.ValueBuilder().(*array.Int32Builder).Append(int32(i*10 + k))
		}
	}
	rec := b.NewRecord()
	defer rec.Release()
	tbl := array.NewTableFromRecords(sc, []arrow.Record{rec})
	defer tbl.Release()
	props := parquet.NewWriterProperties(parquet.WithBloomFilterEnabled(true), parquet.WithDictionaryDefault(false))
	var buf bytes.Buffer
	require.NoError(t, pqarrow.WriteTable(tbl, &buf, 1000, props, pqarrow.DefaultWriterProps()))

	f, err := column.Open(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	require.NoError(t, err)
	require.Equal(t, 4, f.NumRowGroups())
	checked := checkBloomValues(t, f)
	require.Equal(t, 6*n-n/5+n*3/2, checked)
	for _, c := range []struct {
		name         string
		present, gap stats.Value
	}{
		{"i32", stats.Int32Value(2500 * 3), stats.Int32Value(2500*3 + 1)},
		{"s", stats.BytesValue(format.ByteArray, []byte("k27500")), stats.BytesValue(format.ByteArray, []byte("k27501"))},
		{"fb", stats.BytesValue(format.FixedLenByteArray, []byte{0xc4, 9, 9, 9, 9}), stats.BytesValue(format.FixedLenByteArray, []byte{0xc4, 9, 9, 9, 8})},
	} {
		col, err := f.LeafIndex(c.name)
		require.NoError(t, err)
		ranges, err := f.MatchingFileRows(col, c.gap, c.gap)
		require.NoError(t, err)
		require.Empty(t, ranges, c.name)
		ranges, err = f.MatchingFileRows(col, c.present, c.present)
		require.NoError(t, err)
		require.NotEmpty(t, ranges, c.name)
	}
}
