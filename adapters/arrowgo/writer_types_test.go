package arrowgo

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/decimal256"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/format"
)

// everyType is a field of each Arrow type pqarrow writes, nullable and
// not, nested at every level.
func everyType() *arrow.Schema {
	ts := func(u arrow.TimeUnit, tz string) arrow.DataType { return &arrow.TimestampType{Unit: u, TimeZone: tz} }
	types := []arrow.DataType{
		arrow.PrimitiveTypes.Int8, arrow.PrimitiveTypes.Int16, arrow.PrimitiveTypes.Int32, arrow.PrimitiveTypes.Int64,
		arrow.PrimitiveTypes.Uint8, arrow.PrimitiveTypes.Uint16, arrow.PrimitiveTypes.Uint32, arrow.PrimitiveTypes.Uint64,
		arrow.FixedWidthTypes.Float16, arrow.PrimitiveTypes.Float32, arrow.PrimitiveTypes.Float64, arrow.FixedWidthTypes.Boolean,
		arrow.BinaryTypes.String, arrow.BinaryTypes.Binary, arrow.BinaryTypes.LargeString, arrow.BinaryTypes.LargeBinary,
		&arrow.FixedSizeBinaryType{ByteWidth: 7},
		&arrow.Decimal128Type{Precision: 9, Scale: 2}, &arrow.Decimal128Type{Precision: 38, Scale: 5},
		&arrow.Decimal256Type{Precision: 60, Scale: 4},
		arrow.FixedWidthTypes.Date32, arrow.FixedWidthTypes.Date64,
		arrow.FixedWidthTypes.Time32s, arrow.FixedWidthTypes.Time32ms, arrow.FixedWidthTypes.Time64us, arrow.FixedWidthTypes.Time64ns,
		ts(arrow.Second, ""), ts(arrow.Millisecond, "UTC"), ts(arrow.Microsecond, "America/New_York"), ts(arrow.Nanosecond, ""),
		&arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String},
		arrow.ListOf(arrow.PrimitiveTypes.Int32),
		arrow.ListOfNonNullable(arrow.BinaryTypes.String),
		arrow.LargeListOf(arrow.BinaryTypes.String),
		arrow.ListOf(arrow.ListOf(arrow.PrimitiveTypes.Int64)),
		arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int32),
		arrow.StructOf(arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
			arrow.Field{Name: "b", Type: arrow.ListOf(arrow.BinaryTypes.String), Nullable: true},
			arrow.Field{Name: "c", Type: arrow.StructOf(arrow.Field{Name: "d", Type: arrow.PrimitiveTypes.Float64}), Nullable: true}),
		arrow.ListOf(arrow.StructOf(arrow.Field{Name: "x", Type: arrow.BinaryTypes.String, Nullable: true},
			arrow.Field{Name: "y", Type: arrow.MapOf(arrow.PrimitiveTypes.Int32, arrow.ListOf(arrow.PrimitiveTypes.Int8)), Nullable: true})),
		arrow.Null,
	}
	var fields []arrow.Field
	for i, dt := range types {
		if dt.ID() != arrow.FIXED_SIZE_LIST { // pqarrow rejects null fixed-size lists
			fields = append(fields, arrow.Field{Name: fmt.Sprintf("f%d_n", i), Type: dt, Nullable: true})
		}
		if dt.ID() != arrow.NULL {
			fields = append(fields, arrow.Field{Name: fmt.Sprintf("f%d", i), Type: dt})
		}
	}
	return arrow.NewSchema(fields, nil)
}

// fill appends n random values (a fifth null where the builder's field is
// nullable) to b.
func fill(b array.Builder, r *rand.Rand, n int, nullable bool) {
	for range n {
		if nullable && r.IntN(5) == 0 {
			b.AppendNull()
			continue
		}
		switch b := b.(type) {
		case *array.Int8Builder:
			b.Append(int8(r.Uint32()))
		case *array.Int16Builder:
			b.Append(int16(r.Uint32()))
		case *array.Int32Builder:
			b.Append(int32(r.Uint32()))
		case *array.Int64Builder:
			b.Append(int64(r.Uint64()))
		case *array.Uint8Builder:
			b.Append(uint8(r.Uint32()))
		case *array.Uint16Builder:
			b.Append(uint16(r.Uint32()))
		case *array.Uint32Builder:
			b.Append(r.Uint32())
		case *array.Uint64Builder:
			b.Append(r.Uint64())
		case *array.Float16Builder:
			b.Append(float16.New(float32(r.NormFloat64())))
		case *array.Float32Builder:
			b.Append(float32(r.NormFloat64()))
		case *array.Float64Builder:
			b.Append(r.NormFloat64())
		case *array.BooleanBuilder:
			b.Append(r.IntN(2) == 0)
		case *array.StringBuilder:
			b.Append(fmt.Sprint("s", r.IntN(50)))
		case *array.LargeStringBuilder:
			b.Append(fmt.Sprint("long string ", r.Uint64()))
		case *array.BinaryBuilder:
			b.Append([]byte(fmt.Sprint(r.Uint32())))
		case *array.FixedSizeBinaryBuilder:
			v := make([]byte, b.Type().(*arrow.FixedSizeBinaryType).ByteWidth)
			for i := range v {
				v[i] = byte(r.Uint32())
			}
			b.Append(v)
		case *array.Decimal128Builder:
			b.Append(decimal128.FromI64(r.Int64N(2e9) - 1e9))
		case *array.Decimal256Builder:
			b.Append(decimal256.FromI64(int64(r.Uint64())).Negate())
		case *array.Date32Builder:
			b.Append(arrow.Date32(r.Int32N(40000)))
		case *array.Date64Builder:
			b.Append(arrow.Date64(int64(r.Int32N(40000)) * 86400000))
		case *array.Time32Builder:
			b.Append(arrow.Time32(r.Int32N(86400)))
		case *array.Time64Builder:
			b.Append(arrow.Time64(r.Int64N(86400e6)))
		case *array.TimestampBuilder:
			b.Append(arrow.Timestamp(r.Int64N(1e15)))
		case *array.DurationBuilder:
			b.Append(arrow.Duration(r.Int64N(1e12)))
		case *array.BinaryDictionaryBuilder:
			b.AppendString(fmt.Sprint("d", r.IntN(10)))
		case *array.MapBuilder:
			b.Append(true)
			for range r.IntN(3) {
				fill(b.KeyBuilder(), r, 1, false)
				fill(b.ItemBuilder(), r, 1, true)
			}
		case *array.ListBuilder:
			b.Append(true)
			fill(b.ValueBuilder(), r, r.IntN(4), b.Type().(*arrow.ListType).ElemField().Nullable)
		case *array.LargeListBuilder:
			b.Append(true)
			fill(b.ValueBuilder(), r, r.IntN(4), true)
		case *array.FixedSizeListBuilder:
			b.Append(true)
			ft := b.Type().(*arrow.FixedSizeListType)
			fill(b.ValueBuilder(), r, int(ft.Len()), ft.ElemField().Nullable)
		case *array.StructBuilder:
			b.Append(true)
			st := b.Type().(*arrow.StructType)
			for i := range b.NumField() {
				fill(b.FieldBuilder(i), r, 1, st.Field(i).Nullable)
			}
		case *array.NullBuilder:
			b.AppendNull()
		default:
			panic(fmt.Sprintf("no generator for %T", b))
		}
	}
}

func randomRecord(mem memory.Allocator, sc *arrow.Schema, n int, seed uint64) arrow.RecordBatch {
	r := rand.New(rand.NewPCG(seed, 1))
	rb := array.NewRecordBuilder(mem, sc)
	defer rb.Release()
	for i, f := range sc.Fields() {
		fill(rb.Field(i), r, n, f.Nullable)
	}
	return rb.NewRecordBatch()
}

// TestWriteEveryType writes records of every Arrow type with pqarrow,
// reads the file with FileReader, writes that table with FileWriter
// (several property sets) and reads it back with pqarrow and FileReader:
// equal to what pqarrow reads from its own file.
func TestWriteEveryType(t *testing.T) {
	withAdapter(t, func() {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		defer mem.AssertSize(t, 0)
		sc := everyType()
		rec := randomRecord(mem, sc, 3000, 7)
		defer rec.Release()
		var pb bytes.Buffer
		pw, err := pqarrow.NewFileWriter(sc, &pb, parquet.NewWriterProperties(parquet.WithMaxRowGroupLength(1000)),
			pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()))
		require.NoError(t, err)
		require.NoError(t, pw.Write(rec))
		require.NoError(t, pw.Close())
		want, err := pqarrowTable(pb.Bytes(), pqarrow.ArrowReadProperties{})
		require.NoError(t, err)
		defer want.Release()
		tbl, err := oursTable(pb.Bytes(), mem)
		require.NoError(t, err)
		defer tbl.Release()
		require.Empty(t, equalTables(want, tbl))
		for _, props := range []*parquet.WriterProperties{
			nil,
			parquet.NewWriterProperties(parquet.WithAllocator(mem), parquet.WithCompression(compress.Codecs.Snappy), parquet.WithDataPageVersion(parquet.DataPageV2),
				parquet.WithMaxRowGroupLength(700)),
			parquet.NewWriterProperties(parquet.WithAllocator(mem), parquet.WithDictionaryDefault(false), parquet.WithDataPageSize(512),
				parquet.WithStats(false), parquet.WithCompression(compress.Codecs.Zstd), parquet.WithCompressionLevel(9)),
		} {
			var opts []WriterOption
			if props != nil {
				opts = append(opts, WithWriterProperties(props))
			}
			data := writeOurs(t, tbl, 0, opts...)
			back, err := pqarrowTable(data, pqarrow.ArrowReadProperties{})
			require.NoError(t, err)
			if diff := equalTablesLogical(want, back); diff != "" {
				t.Errorf("pqarrow reads back: %s", diff)
			}
			back.Release()
			ours, err := oursTable(data, mem)
			require.NoError(t, err)
			if diff := equalTablesLogical(want, ours); diff != "" {
				t.Errorf("FileReader reads back: %s", diff)
			}
			ours.Release()
			// a record written directly equals too
			var buf bytes.Buffer
			fw, err := NewFileWriter(sc, &buf, opts...)
			require.NoError(t, err)
			require.NoError(t, fw.Write(rec))
			require.NoError(t, fw.Close())
			direct, err := oursTable(buf.Bytes(), mem)
			require.NoError(t, err)
			if diff := equalTablesLogical(want, direct); diff != "" {
				t.Errorf("record written directly: %s", diff)
			}
			direct.Release()
		}
		// a slice of the record: offsets into every buffer
		sl := rec.NewSlice(123, 2890)
		defer sl.Release()
		var buf bytes.Buffer
		fw, err := NewFileWriter(sc, &buf)
		require.NoError(t, err)
		require.NoError(t, fw.Write(sl))
		require.NoError(t, fw.Close())
		got, err := oursTable(buf.Bytes(), mem)
		require.NoError(t, err)
		defer got.Release()
		cols := make([]arrow.Column, want.NumCols())
		for i := range cols {
			ch := array.NewChunkedSlice(want.Column(i).Data(), 123, 2890)
			cols[i] = *arrow.NewColumn(want.Schema().Field(i), ch)
			ch.Release()
		}
		wantSlice := array.NewTable(want.Schema(), cols, 2890-123)
		defer wantSlice.Release()
		for i := range cols {
			cols[i].Release()
		}
		if diff := equalTablesLogical(wantSlice, got); diff != "" {
			t.Errorf("slice: %s", diff)
		}
	})
}

// equalTablesLogical is equalTables where dictionary columns compare by
// their values row by row: row groups cut elsewhere give chunks with
// other dictionaries, and array.Equal compares dictionary indices.
func equalTablesLogical(want, got arrow.Table) string {
	if !want.Schema().Equal(got.Schema()) || want.NumRows() != got.NumRows() {
		return equalTables(want, got)
	}
	for i := 0; i < int(want.NumCols()); i++ {
		if want.Schema().Field(i).Type.ID() != arrow.DICTIONARY {
			if !chunkedEqual(want.Column(i).Data(), got.Column(i).Data()) {
				return "column " + want.Schema().Field(i).Name + " differs"
			}
			continue
		}
		if w, g := rowStrings(want.Column(i).Data()), rowStrings(got.Column(i).Data()); !slices.Equal(w, g) {
			return "dictionary column " + want.Schema().Field(i).Name + " differs"
		}
	}
	return ""
}

func rowStrings(c *arrow.Chunked) []string {
	var out []string
	for _, ch := range c.Chunks() {
		for j := range ch.Len() {
			out = append(out, ch.ValueStr(j))
		}
	}
	return out
}

// TestWriteFixedSizeList writes fixed-size lists and checks pqarrow reads
// them back as it reads its own file, and FileReader reads both files as
// pqarrow does.
func TestWriteFixedSizeList(t *testing.T) {
	withAdapter(t, func() {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		defer mem.AssertSize(t, 0)
		sc := arrow.NewSchema([]arrow.Field{
			{Name: "v", Type: arrow.FixedSizeListOf(3, arrow.PrimitiveTypes.Int16)},
			{Name: "s", Type: arrow.FixedSizeListOfNonNullable(2, arrow.BinaryTypes.String)},
			{Name: "st", Type: arrow.FixedSizeListOf(2, arrow.StructOf(arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Int32, Nullable: true}))},
		}, nil)
		rec := randomRecord(mem, sc, 500, 3)
		defer rec.Release()
		var pb, ob bytes.Buffer
		pw, err := pqarrow.NewFileWriter(sc, &pb, nil, pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()))
		require.NoError(t, err)
		require.NoError(t, pw.Write(rec))
		require.NoError(t, pw.Close())
		want, err := pqarrowTable(pb.Bytes(), pqarrow.ArrowReadProperties{})
		require.NoError(t, err)
		defer want.Release()
		fw, err := NewFileWriter(sc, &ob)
		require.NoError(t, err)
		require.NoError(t, fw.Write(rec))
		require.NoError(t, fw.Close())
		got, err := pqarrowTable(ob.Bytes(), pqarrow.ArrowReadProperties{})
		require.NoError(t, err)
		defer got.Release()
		require.Empty(t, equalTables(want, got))
		require.Equal(t, arrow.FIXED_SIZE_LIST, want.Schema().Field(0).Type.ID())
		for _, data := range [][]byte{pb.Bytes(), ob.Bytes()} {
			ours, err := oursTable(data, mem)
			require.NoError(t, err)
			require.Empty(t, equalTables(want, ours))
			ours.Release()
		}

		// Null fixed-size lists, which pqarrow's writer refuses and its
		// reader reads: written by FileWriter, read by both.
		nsc := arrow.NewSchema([]arrow.Field{
			{Name: "vn", Type: arrow.FixedSizeListOf(2, arrow.PrimitiveTypes.Float64), Nullable: true},
			{Name: "sn", Type: arrow.FixedSizeListOf(3, arrow.StructOf(arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Int32, Nullable: true})), Nullable: true},
		}, nil)
		nrec := randomRecord(mem, nsc, 500, 4)
		defer nrec.Release()
		var nb bytes.Buffer
		nw, err := NewFileWriter(nsc, &nb)
		require.NoError(t, err)
		require.NoError(t, nw.Write(nrec))
		require.NoError(t, nw.Close())
		nwant, err := pqarrowTable(nb.Bytes(), pqarrow.ArrowReadProperties{})
		require.NoError(t, err)
		defer nwant.Release()
		require.Positive(t, nwant.Column(0).Data().NullN())
		nours, err := oursTable(nb.Bytes(), mem)
		require.NoError(t, err)
		defer nours.Release()
		require.Empty(t, equalTables(nwant, nours))
	})
}

// TestWriteDecimalsAsIntegers writes decimals with pqarrow's
// StoreDecimalAsInteger property: INT32 up to precision 9, INT64 up to 18,
// FIXED_LEN_BYTE_ARRAY above, as pqarrow stores them; pqarrow and
// FileReader read the file back into the record, as pqarrow reads its own.
func TestWriteDecimalsAsIntegers(t *testing.T) {
	withAdapter(t, func() {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		defer mem.AssertSize(t, 0)
		sc := arrow.NewSchema([]arrow.Field{
			{Name: "d5", Type: &arrow.Decimal128Type{Precision: 5, Scale: 2}, Nullable: true},
			{Name: "d9", Type: &arrow.Decimal128Type{Precision: 9, Scale: 0}},
			{Name: "d12", Type: &arrow.Decimal128Type{Precision: 12, Scale: 3}, Nullable: true},
			{Name: "d18", Type: &arrow.Decimal128Type{Precision: 18, Scale: 4}},
			{Name: "d30", Type: &arrow.Decimal128Type{Precision: 30, Scale: 5}, Nullable: true},
			{Name: "w15", Type: &arrow.Decimal256Type{Precision: 15, Scale: 1}, Nullable: true},
			{Name: "l", Type: arrow.ListOfField(arrow.Field{Name: "element", Type: &arrow.Decimal128Type{Precision: 10, Scale: 2}, Nullable: true}), Nullable: true},
		}, nil)
		rec := decimalRecord(mem, sc, 700)
		defer rec.Release()
		props := parquet.NewWriterProperties(parquet.WithStoreDecimalAsInteger(true))
		var pb, ob bytes.Buffer
		pw, err := pqarrow.NewFileWriter(sc, &pb, props, pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()))
		require.NoError(t, err)
		require.NoError(t, pw.Write(rec))
		require.NoError(t, pw.Close())
		fw, err := NewFileWriter(sc, &ob, WithWriterProperties(props))
		require.NoError(t, err)
		require.NoError(t, fw.Write(rec))
		require.NoError(t, fw.Close())

		r, err := Open(bytes.NewReader(ob.Bytes()), int64(ob.Len()))
		require.NoError(t, err)
		var phys []format.Type
		for _, l := range r.File().Schema().Leaves() {
			phys = append(phys, *l.Element.Type)
		}
		require.Equal(t, []format.Type{format.Int32, format.Int32, format.Int64, format.Int64, format.FixedLenByteArray,
			format.Int64, format.Int64}, phys)

		want, err := pqarrowTable(pb.Bytes(), pqarrow.ArrowReadProperties{})
		require.NoError(t, err)
		defer want.Release()
		theirs, err := pqarrowTable(ob.Bytes(), pqarrow.ArrowReadProperties{})
		require.NoError(t, err)
		defer theirs.Release()
		require.Empty(t, equalTables(want, theirs))
		ours, err := oursTable(ob.Bytes(), mem)
		require.NoError(t, err)
		defer ours.Release()
		require.Empty(t, equalTables(want, ours))
		in := array.NewTableFromRecords(sc, []arrow.RecordBatch{rec})
		defer in.Release()
		require.Empty(t, equalColumns(in, ours))
	})
}

// TestWriteDurations writes durations of every unit, nullable, in lists
// and structs, as arrow-cpp stores them (INT64 columns, the duration in
// ARROW:schema; pqarrow writes none): FileReader reads them back into the
// record.
func TestWriteDurations(t *testing.T) {
	withAdapter(t, func() {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		defer mem.AssertSize(t, 0)
		sc := arrow.NewSchema([]arrow.Field{
			{Name: "s", Type: arrow.FixedWidthTypes.Duration_s, Nullable: true},
			{Name: "ms", Type: arrow.FixedWidthTypes.Duration_ms},
			{Name: "us", Type: arrow.FixedWidthTypes.Duration_us, Nullable: true},
			{Name: "ns", Type: arrow.FixedWidthTypes.Duration_ns},
			{Name: "l", Type: arrow.ListOfField(arrow.Field{Name: "element", Type: arrow.FixedWidthTypes.Duration_ms, Nullable: true}), Nullable: true},
			{Name: "st", Type: arrow.StructOf(arrow.Field{Name: "d", Type: arrow.FixedWidthTypes.Duration_ns, Nullable: true}), Nullable: true},
		}, nil)
		rec := randomRecord(mem, sc, 600, 6)
		defer rec.Release()
		var ob bytes.Buffer
		fw, err := NewFileWriter(sc, &ob)
		require.NoError(t, err)
		require.NoError(t, fw.Write(rec))
		require.NoError(t, fw.Close())
		in := array.NewTableFromRecords(sc, []arrow.RecordBatch{rec})
		defer in.Release()
		ours, err := oursTable(ob.Bytes(), mem)
		require.NoError(t, err)
		defer ours.Release()
		require.Empty(t, equalColumns(in, ours))
		// pqarrow reads none of these files, arrow-cpp's included: its
		// reader has no duration column reader.
		_, err = pqarrowTable(ob.Bytes(), pqarrow.ArrowReadProperties{})
		require.Error(t, err)
	})
}

// decimalRecord returns n rows of random decimals within each field's
// precision (at most 18 digits), a fifth null where nullable, for the
// decimal fields and lists of decimals of sc.
func decimalRecord(mem memory.Allocator, sc *arrow.Schema, n int) arrow.RecordBatch {
	r := rand.New(rand.NewPCG(7, 1))
	rb := array.NewRecordBuilder(mem, sc)
	defer rb.Release()
	var add func(b array.Builder, nullable bool)
	add = func(b array.Builder, nullable bool) {
		if nullable && r.IntN(5) == 0 {
			b.AppendNull()
			return
		}
		switch b := b.(type) {
		case *array.Decimal128Builder:
			p := min(b.Type().(*arrow.Decimal128Type).Precision, 18)
			b.Append(decimal128.FromI64(r.Int64N(pow10(p)) - pow10(p)/2))
		case *array.Decimal256Builder:
			p := min(b.Type().(*arrow.Decimal256Type).Precision, 18)
			b.Append(decimal256.FromI64(r.Int64N(pow10(p)) - pow10(p)/2))
		case *array.ListBuilder:
			b.Append(true)
			for range r.IntN(4) {
				add(b.ValueBuilder(), true)
			}
		}
	}
	for i, f := range sc.Fields() {
		for range n {
			add(rb.Field(i), f.Nullable)
		}
	}
	return rb.NewRecordBatch()
}

func pow10(p int32) int64 {
	x := int64(1)
	for range p {
		x *= 10
	}
	return x
}

// equalColumns reports where the columns of two tables of the same types
// differ, or "" (the schemas' metadata is not compared).
func equalColumns(want, got arrow.Table) string {
	if want.NumCols() != got.NumCols() || want.NumRows() != got.NumRows() {
		return fmt.Sprintf("%d columns of %d rows vs %d of %d", want.NumCols(), want.NumRows(), got.NumCols(), got.NumRows())
	}
	for i := range int(want.NumCols()) {
		if !chunkedEqual(want.Column(i).Data(), got.Column(i).Data()) {
			return "column " + want.Schema().Field(i).Name + " differs"
		}
	}
	return ""
}
