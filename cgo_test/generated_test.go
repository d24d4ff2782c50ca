package cgotest

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// genSchema covers every physical type, nulls, and a list (repetition
// levels), for TestGeneratedByArrow.
var genSchema = arrow.NewSchema([]arrow.Field{
	{Name: "b", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
	{Name: "i32", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	{Name: "i64", Type: arrow.PrimitiveTypes.Int64},
	{Name: "f32", Type: arrow.PrimitiveTypes.Float32, Nullable: true},
	{Name: "f64", Type: arrow.PrimitiveTypes.Float64},
	{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "fixed", Type: &arrow.FixedSizeBinaryType{ByteWidth: 5}, Nullable: true},
	{Name: "l", Type: arrow.ListOf(arrow.PrimitiveTypes.Int64), Nullable: true},
}, nil)

// genRecord builds n rows of genSchema from seed: small and repeated
// values (dictionary- and delta-friendly) mixed with extremes, NaN and
// -0 floats, empty strings and lists, and nulls at every level.
func genRecord(n int, seed uint64) arrow.RecordBatch {
	rng := rand.New(rand.NewPCG(seed, seed+1))
	bld := array.NewRecordBuilder(memory.NewGoAllocator(), genSchema)
	defer bld.Release()
	b := bld.Field(0).(*array.BooleanBuilder)
	i32 := bld.Field(1).(*array.Int32Builder)
	i64 := bld.Field(2).(*array.Int64Builder)
	f32 := bld.Field(3).(*array.Float32Builder)
	f64 := bld.Field(4).(*array.Float64Builder)
	s := bld.Field(5).(*array.StringBuilder)
	fixed := bld.Field(6).(*array.FixedSizeBinaryBuilder)
	l := bld.Field(7).(*array.ListBuilder)
	lv := l.ValueBuilder().(*array.Int64Builder)
	null := func(p int) bool { return rng.IntN(100) < p }
	for i := range n {
		if null(10) {
			b.AppendNull()
		} else {
			b.Append(rng.IntN(3) == 0)
		}
		switch {
		case null(5):
			i32.AppendNull()
		case i%997 == 0:
			i32.Append(math.MinInt32 + int32(rng.IntN(2))*(math.MaxInt32))
		default:
			i32.Append(int32(rng.IntN(200)) - 100)
		}
		i64.Append(1_600_000_000_000 + int64(i)*1000 + int64(rng.IntN(7)))
		switch {
		case null(5):
			f32.AppendNull()
		case i%101 == 0:
			f32.Append(float32(math.NaN()))
		default:
			f32.Append(float32(rng.NormFloat64()))
		}
		if i%89 == 0 {
			f64.Append(math.Copysign(0, -1))
		} else {
			f64.Append(float64(rng.IntN(5000)) / 8)
		}
		if null(8) {
			s.AppendNull()
		} else {
			s.Append(fmt.Sprintf("v%03d", rng.IntN(300))[:rng.IntN(5)]) // "" included
		}
		if null(8) {
			fixed.AppendNull()
		} else {
			fixed.Append([]byte{byte(i), byte(i >> 8), 0, byte(rng.IntN(4)), 7})
		}
		switch {
		case null(6):
			l.AppendNull()
		default:
			l.Append(true)
			for range rng.IntN(4) { // 0 to 3 elements: empty lists too
				lv.Append(int64(rng.IntN(50)))
			}
		}
	}
	return bld.NewRecordBatch()
}

// TestGeneratedByArrow writes files with arrow-go's writer across page
// versions, codecs, encodings and small pages (many pages per chunk, lists
// spanning page boundaries), and compares our decoding with arrow-go's
// column chunk readers value by value.
func TestGeneratedByArrow(t *testing.T) {
	rec := genRecord(20000, 7)
	defer rec.Release()
	type enc struct {
		col string
		e   parquet.Encoding
	}
	for _, tc := range []struct {
		name  string
		codec compress.Compression
		v2    bool
		dict  bool
		encs  []enc
	}{
		{"v1-plain-snappy", compress.Codecs.Snappy, false, false, nil},
		{"v2-plain-zstd", compress.Codecs.Zstd, true, false, nil},
		{"v1-dict-gzip", compress.Codecs.Gzip, false, true, nil},
		{"v2-dict-brotli", compress.Codecs.Brotli, true, true, nil},
		{"v1-dict-uncompressed", compress.Codecs.Uncompressed, false, true, nil},
		{"v2-delta-zstd", compress.Codecs.Zstd, true, false, []enc{
			{"i32", parquet.Encodings.DeltaBinaryPacked}, {"i64", parquet.Encodings.DeltaBinaryPacked},
			{"s", parquet.Encodings.DeltaByteArray}, // arrow-go writes no DELTA_BYTE_ARRAY FLBA
			{"l.list.element", parquet.Encodings.DeltaBinaryPacked}}},
		{"v1-delta-length-lz4raw", compress.Codecs.Lz4Raw, false, false, []enc{
			{"s", parquet.Encodings.DeltaLengthByteArray}, {"i64", parquet.Encodings.DeltaBinaryPacked}}},
		{"v2-bss-snappy", compress.Codecs.Snappy, true, false, []enc{
			{"i32", parquet.Encodings.ByteStreamSplit}, {"i64", parquet.Encodings.ByteStreamSplit},
			{"f32", parquet.Encodings.ByteStreamSplit}, {"f64", parquet.Encodings.ByteStreamSplit},
			{"fixed", parquet.Encodings.ByteStreamSplit}}},
		{"v2-rle-boolean-uncompressed", compress.Codecs.Uncompressed, true, false, []enc{
			{"b", parquet.Encodings.RLE}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts := []parquet.WriterProperty{
				parquet.WithCompression(tc.codec),
				parquet.WithDictionaryDefault(tc.dict),
				parquet.WithDataPageSize(4 << 10),
				parquet.WithMaxRowGroupLength(7000), // three row groups, the last short
				parquet.WithBatchSize(300),
			}
			if tc.v2 {
				opts = append(opts, parquet.WithDataPageVersion(parquet.DataPageV2))
			}
			for _, e := range tc.encs {
				opts = append(opts, parquet.WithEncodingFor(e.col, e.e))
			}
			var buf bytes.Buffer
			w, err := pqarrow.NewFileWriter(genSchema, &buf, parquet.NewWriterProperties(opts...), pqarrow.DefaultWriterProps())
			if err != nil {
				t.Fatal(err)
			}
			if err := w.Write(rec); err != nil {
				t.Fatal(err)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			ours, st, err := readOurs(buf.Bytes())
			if err != nil {
				t.Fatal(err)
			}
			want, err := readArrow(buf.Bytes())
			if err != nil {
				t.Fatal(err)
			}
			if d := diffFiles(ours, want); d != "" {
				t.Fatal(d)
			}
			// The file must exercise what the case names.
			for _, e := range tc.encs {
				if !st.Encodings[fmt.Sprint(e.e)] {
					t.Errorf("no %v page read; encodings seen %v", e.e, keys(st.Encodings))
				}
			}
			wantVersion := 1
			if tc.v2 {
				wantVersion = 2
			}
			if len(st.Versions) != 1 || st.Versions[wantVersion] < 3*len(genSchema.Fields()) {
				t.Errorf("data pages by version %v, want several v%d pages per chunk", st.Versions, wantVersion)
			}
			t.Logf("%d pages, encodings %v, codecs %v", st.Versions[wantVersion], keys(st.Encodings), keys(st.Codecs))
		})
	}
}
