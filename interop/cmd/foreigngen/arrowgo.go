package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/apache/arrow-go/v18/parquet/schema"
)

// agSchema is every Arrow type pqarrow writes.
var agSchema = arrow.NewSchema([]arrow.Field{
	{Name: "id", Type: arrow.PrimitiveTypes.Int32},
	{Name: "b", Type: arrow.FixedWidthTypes.Boolean},
	{Name: "ob", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
	{Name: "i8", Type: arrow.PrimitiveTypes.Int8, Nullable: true},
	{Name: "i16", Type: arrow.PrimitiveTypes.Int16, Nullable: true},
	{Name: "i32", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	{Name: "i32_alt", Type: arrow.PrimitiveTypes.Int32},
	{Name: "i64", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "i64_alt", Type: arrow.PrimitiveTypes.Int64},
	{Name: "u8", Type: arrow.PrimitiveTypes.Uint8, Nullable: true},
	{Name: "u16", Type: arrow.PrimitiveTypes.Uint16, Nullable: true},
	{Name: "u32", Type: arrow.PrimitiveTypes.Uint32, Nullable: true},
	{Name: "u64", Type: arrow.PrimitiveTypes.Uint64, Nullable: true},
	{Name: "f16", Type: arrow.FixedWidthTypes.Float16, Nullable: true},
	{Name: "f32", Type: arrow.PrimitiveTypes.Float32, Nullable: true},
	{Name: "f64", Type: arrow.PrimitiveTypes.Float64},
	{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "ls", Type: arrow.BinaryTypes.LargeString},
	{Name: "lowcard", Type: arrow.BinaryTypes.String},
	{Name: "dict", Type: &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int16, ValueType: arrow.BinaryTypes.String}, Nullable: true},
	{Name: "bin", Type: arrow.BinaryTypes.Binary, Nullable: true},
	{Name: "fsb", Type: &arrow.FixedSizeBinaryType{ByteWidth: 5}, Nullable: true},
	{Name: "dec9", Type: &arrow.Decimal128Type{Precision: 9, Scale: 2}, Nullable: true},
	{Name: "dec18", Type: &arrow.Decimal128Type{Precision: 18, Scale: 4}},
	{Name: "dec38", Type: &arrow.Decimal128Type{Precision: 38, Scale: 6}, Nullable: true},
	{Name: "d32", Type: arrow.FixedWidthTypes.Date32, Nullable: true},
	{Name: "t32", Type: arrow.FixedWidthTypes.Time32ms},
	{Name: "t64", Type: arrow.FixedWidthTypes.Time64us, Nullable: true},
	{Name: "t64ns", Type: arrow.FixedWidthTypes.Time64ns},
	{Name: "ts_ms", Type: &arrow.TimestampType{Unit: arrow.Millisecond}, Nullable: true},
	{Name: "ts_us", Type: &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}},
	{Name: "ts_ns", Type: &arrow.TimestampType{Unit: arrow.Nanosecond}, Nullable: true},
	{Name: "allnull", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "li", Type: arrow.ListOf(arrow.PrimitiveTypes.Int32), Nullable: true},
	{Name: "ll", Type: arrow.ListOf(arrow.ListOf(arrow.BinaryTypes.String)), Nullable: true},
	{Name: "st", Type: arrow.StructOf(
		arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Int32},
		arrow.Field{Name: "b", Type: arrow.BinaryTypes.String, Nullable: true},
	), Nullable: true},
	{Name: "mp", Type: arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int64), Nullable: true},
	{Name: "lst", Type: arrow.ListOf(arrow.StructOf(arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Float64, Nullable: true})), Nullable: true},
}, nil)

// agRecord builds the rows of agSchema.
func agRecord(n int) arrow.RecordBatch {
	r := rand.New(rand.NewPCG(3, 4))
	b := array.NewRecordBuilder(memory.DefaultAllocator, agSchema)
	defer b.Release()
	max38 := new(big.Int).Sub(new(big.Int).Exp(big.NewInt(10), big.NewInt(38), nil), big.NewInt(1))
	for i := 0; i < n; i++ {
		k := 0
		next := func() array.Builder { k++; return b.Field(k - 1) }
		next().(*array.Int32Builder).Append(int32(i))
		next().(*array.BooleanBuilder).Append(i%3 == 0)
		if ob := next().(*array.BooleanBuilder); i%7 == 0 {
			ob.AppendNull()
		} else {
			ob.Append(i%5 == 1)
		}
		next().(*array.Int8Builder).Append([]int8{-128, 127, int8(i)}[i%3])
		next().(*array.Int16Builder).Append([]int16{-32768, 32767, int16(i)}[i%3])
		if x := next().(*array.Int32Builder); i%11 == 0 {
			x.AppendNull()
		} else {
			x.Append(genI32(i, r))
		}
		next().(*array.Int32Builder).Append([]int32{math.MinInt32, math.MaxInt32}[i%2])
		if x := next().(*array.Int64Builder); i%13 == 0 {
			x.AppendNull()
		} else {
			x.Append(genI64(i, r))
		}
		next().(*array.Int64Builder).Append([]int64{math.MinInt64, math.MaxInt64}[i%2])
		next().(*array.Uint8Builder).Append([]uint8{255, 0, uint8(i)}[i%3])
		next().(*array.Uint16Builder).Append([]uint16{65535, 0, uint16(i)}[i%3])
		next().(*array.Uint32Builder).Append([]uint32{math.MaxUint32, 0, uint32(i) * 1000}[i%3])
		next().(*array.Uint64Builder).Append([]uint64{math.MaxUint64, 0, uint64(i) * 1000000007}[i%3])
		if x := next().(*array.Float16Builder); i%10 == 0 {
			x.AppendNull()
		} else {
			// Halves from their bits: every finite value, ±Inf and NaN.
			x.Append(float16.FromBits(uint16(r.Uint32())))
		}
		if x := next().(*array.Float32Builder); i%10 == 7 {
			x.AppendNull()
		} else {
			x.Append(genF32(i, r))
		}
		next().(*array.Float64Builder).Append(genF64(i, r))
		if x := next().(*array.StringBuilder); i%9 == 3 {
			x.AppendNull()
		} else {
			x.Append(genString(i, r))
		}
		next().(*array.LargeStringBuilder).Append(genString(i+5, r))
		next().(*array.StringBuilder).Append("cat_" + strconv.Itoa(i%20))
		if x := next().(*array.BinaryDictionaryBuilder); i%6 == 0 {
			x.AppendNull()
		} else if err := x.AppendString([]string{"alpha", "beta", "gamma", ""}[i%4]); err != nil {
			panic(err)
		}
		if x := next().(*array.BinaryBuilder); i%13 == 0 {
			x.AppendNull()
		} else {
			x.Append(genBytes(i, r))
		}
		if x := next().(*array.FixedSizeBinaryBuilder); i%17 == 0 {
			x.AppendNull()
		} else {
			x.Append(genBytes(5, r))
		}
		if x := next().(*array.Decimal128Builder); i%5 == 0 {
			x.AppendNull()
		} else {
			x.Append(decimal128.FromI64([]int64{999999999, -999999999, int64(i*101 - 5000)}[i%3]))
		}
		next().(*array.Decimal128Builder).Append(decimal128.FromI64([]int64{999999999999999999, -999999999999999999, int64(i) * 3003}[i%3]))
		if x := next().(*array.Decimal128Builder); i%7 == 0 {
			x.AppendNull()
		} else {
			v := new(big.Int).Set(max38)
			switch i % 3 {
			case 1:
				v.Neg(v)
			case 2:
				v.SetInt64(int64(r.Uint64() >> 1))
				v.Mul(v, big.NewInt(int64(i)-700))
			}
			x.Append(decimal128.FromBigInt(v))
		}
		if x := next().(*array.Date32Builder); i%9 == 0 {
			x.AppendNull()
		} else {
			x.Append(arrow.Date32(i*37 - 50000))
		}
		next().(*array.Time32Builder).Append(arrow.Time32((i * 28123) % 86400000))
		if x := next().(*array.Time64Builder); i%4 == 0 {
			x.AppendNull()
		} else {
			x.Append(arrow.Time64((int64(i) * 28123456) % 86400000000))
		}
		next().(*array.Time64Builder).Append(arrow.Time64((int64(i)*28123456789 + 7) % 86400000000000))
		if x := next().(*array.TimestampBuilder); i%6 == 0 {
			x.AppendNull()
		} else {
			x.Append(arrow.Timestamp(1709208000000 + int64(i)*1001))
		}
		next().(*array.TimestampBuilder).Append(arrow.Timestamp(int64(i)*1234567891 - 2208988800000000))
		if x := next().(*array.TimestampBuilder); i%5 == 0 {
			x.AppendNull()
		} else {
			x.Append(arrow.Timestamp(-9223286400000000000 + int64(i)*98765432109123))
		}
		next().(*array.Int64Builder).AppendNull()
		li := next().(*array.ListBuilder)
		switch i % 6 {
		case 0:
			li.AppendNull()
		case 1:
			li.AppendEmptyValue()
		case 2:
			li.Append(true)
			v := li.ValueBuilder().(*array.Int32Builder)
			v.AppendNull()
			v.Append(int32(i))
			v.AppendNull()
		default:
			li.Append(true)
			v := li.ValueBuilder().(*array.Int32Builder)
			for j := 0; j < i%9; j++ {
				v.Append(int32(r.Uint32()))
			}
		}
		ll := next().(*array.ListBuilder)
		switch i % 5 {
		case 0:
			ll.AppendNull()
		case 1:
			ll.Append(true)
			ll.ValueBuilder().(*array.ListBuilder).AppendEmptyValue()
		case 2:
			ll.Append(true)
			inner := ll.ValueBuilder().(*array.ListBuilder)
			inner.AppendNull()
			inner.Append(true)
			inner.ValueBuilder().(*array.StringBuilder).Append("a")
			inner.ValueBuilder().(*array.StringBuilder).AppendNull()
		default:
			ll.Append(true)
			inner := ll.ValueBuilder().(*array.ListBuilder)
			inner.Append(true)
			inner.ValueBuilder().(*array.StringBuilder).AppendValues([]string{"x" + strconv.Itoa(i), "y"}, nil)
			inner.AppendEmptyValue()
		}
		st := next().(*array.StructBuilder)
		if i%8 == 0 {
			st.AppendNull()
		} else {
			st.Append(true)
			st.FieldBuilder(0).(*array.Int32Builder).Append(int32(i))
			if sb := st.FieldBuilder(1).(*array.StringBuilder); i%3 == 0 {
				sb.AppendNull()
			} else {
				sb.Append("b" + strconv.Itoa(i))
			}
		}
		mp := next().(*array.MapBuilder)
		switch i % 4 {
		case 0:
			mp.AppendNull()
		case 1:
			mp.AppendEmptyValue()
		default:
			mp.Append(true)
			mp.KeyBuilder().(*array.StringBuilder).AppendValues([]string{"k" + strconv.Itoa(i), "zz"}, nil)
			ib := mp.ItemBuilder().(*array.Int64Builder)
			ib.Append(int64(i))
			ib.AppendNull()
		}
		lst := next().(*array.ListBuilder)
		if i%5 == 0 {
			lst.AppendNull()
		} else {
			lst.Append(true)
			sb := lst.ValueBuilder().(*array.StructBuilder)
			sb.Append(true)
			sb.FieldBuilder(0).(*array.Float64Builder).Append(float64(i) * 1.5)
			sb.AppendNull()
		}
	}
	return b.NewRecordBatch()
}

type agVariant struct {
	name, desc string
	props      []parquet.WriterProperty
	arrowProps []pqarrow.WriterOption
}

func writeArrowGo(dir string) error {
	rec := agRecord(rows)
	defer rec.Release()
	ints := []string{"id", "i8", "i16", "i32", "i32_alt", "i64", "i64_alt", "u8", "u16", "u32", "u64", "d32", "t32", "t64", "t64ns", "ts_ms", "ts_us", "ts_ns", "allnull"}
	byteArrays := []string{"s", "ls", "lowcard", "dict", "bin"}
	floats := []string{"f32", "f64"}
	var variants []agVariant
	add := func(name, desc string, props []parquet.WriterProperty, aprops ...pqarrow.WriterOption) {
		variants = append(variants, agVariant{name, desc, props, aprops})
	}
	type P = []parquet.WriterProperty
	add("default", "defaults (uncompressed, dictionary, data page v1, statistics)", nil)
	for _, c := range []struct {
		name  string
		codec compress.Compression
	}{{"snappy", compress.Codecs.Snappy}, {"gzip", compress.Codecs.Gzip}, {"brotli", compress.Codecs.Brotli},
		{"zstd", compress.Codecs.Zstd}, {"lz4_raw", compress.Codecs.Lz4Raw}} {
		add("codec_"+c.name, "compression "+c.name, P{parquet.WithCompression(c.codec)})
	}
	add("v2", "data page v2", P{parquet.WithDataPageVersion(parquet.DataPageV2)})
	add("v2_zstd", "data page v2, zstd", P{parquet.WithDataPageVersion(parquet.DataPageV2), parquet.WithCompression(compress.Codecs.Zstd)})
	add("no_dict", "dictionary off (PLAIN)", P{parquet.WithDictionaryDefault(false)})
	add("v2_no_dict", "data page v2, dictionary off", P{parquet.WithDataPageVersion(parquet.DataPageV2), parquet.WithDictionaryDefault(false)})
	add("dict_fallback", "dictionary pages limited to 1 KiB (fallback to PLAIN)", P{parquet.WithDictionaryPageSizeLimit(1024)})
	delta := P{parquet.WithDictionaryDefault(false)}
	for _, c := range ints {
		delta = append(delta, parquet.WithEncodingFor(c, parquet.Encodings.DeltaBinaryPacked))
	}
	for _, c := range byteArrays {
		delta = append(delta, parquet.WithEncodingFor(c, parquet.Encodings.DeltaByteArray))
	}
	for _, c := range floats {
		delta = append(delta, parquet.WithEncodingFor(c, parquet.Encodings.ByteStreamSplit))
	}
	delta = append(delta, parquet.WithEncodingFor("b", parquet.Encodings.RLE), parquet.WithEncodingFor("ob", parquet.Encodings.RLE))
	add("delta", "dictionary off; DELTA_BINARY_PACKED ints, DELTA_BYTE_ARRAY byte arrays, BYTE_STREAM_SPLIT floats, RLE booleans", delta)
	add("delta_v2", "as delta, data page v2", append(P{parquet.WithDataPageVersion(parquet.DataPageV2)}, delta...))
	dlba := P{parquet.WithDictionaryDefault(false)}
	for _, c := range byteArrays {
		dlba = append(dlba, parquet.WithEncodingFor(c, parquet.Encodings.DeltaLengthByteArray))
	}
	for _, c := range []string{"i32", "i64", "fsb", "dec38", "f16"} {
		dlba = append(dlba, parquet.WithEncodingFor(c, parquet.Encodings.ByteStreamSplit))
	}
	add("delta_length", "dictionary off; DELTA_LENGTH_BYTE_ARRAY byte arrays, BYTE_STREAM_SPLIT ints and FIXED_LEN_BYTE_ARRAY", dlba)
	add("small_pages", "data pages of 512 B, batches of 64, row groups of 600",
		P{parquet.WithDataPageSize(512), parquet.WithBatchSize(64), parquet.WithMaxRowGroupLength(600)})
	add("small_pages_v2", "data page v2, data pages of 512 B, batches of 64, row groups of 600",
		P{parquet.WithDataPageVersion(parquet.DataPageV2), parquet.WithDataPageSize(512), parquet.WithBatchSize(64), parquet.WithMaxRowGroupLength(600)})
	add("no_stats", "statistics off", P{parquet.WithStats(false)})
	add("page_index_bloom", "page index and bloom filters", P{parquet.WithPageIndexEnabled(true), parquet.WithBloomFilterEnabled(true), parquet.WithBloomFilterNDV(2000), parquet.WithMaxBloomFilterBytes(4096)})
	add("int96", "timestamps as INT96", nil, pqarrow.WithDeprecatedInt96Timestamps(true))
	add("store_schema", "ARROW:schema stored, decimals as INT32/INT64", P{parquet.WithStoreDecimalAsInteger(true)}, pqarrow.WithStoreSchema())

	for _, v := range variants {
		props := parquet.NewWriterProperties(append(P{parquet.WithCreatedBy("parquet-go (arrow-go v18.8.0)")}, v.props...)...)
		aprops := pqarrow.NewArrowWriterProperties(v.arrowProps...)
		var buf bytes.Buffer
		w, err := pqarrow.NewFileWriter(agSchema, &buf, props, aprops)
		if err != nil {
			return fmt.Errorf("%s: %w", v.name, err)
		}
		if err := w.WriteBuffered(rec); err != nil {
			return fmt.Errorf("%s: %w", v.name, err)
		}
		if err := w.Close(); err != nil {
			return fmt.Errorf("%s: %w", v.name, err)
		}
		rendered, err := readArrowGo(buf.Bytes())
		if err != nil {
			return fmt.Errorf("%s: reading back: %w", v.name, err)
		}
		if err := save(dir, v.name, buf.Bytes(), rendered, v.desc); err != nil {
			return err
		}
	}
	return nil
}

// readArrowGo reads a file with pqarrow and renders its rows.
func readArrowGo(data []byte) ([][]byte, error) {
	pf, err := file.NewParquetReader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	defer pf.Close()
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
	if err != nil {
		return nil, err
	}
	tbl, err := fr.ReadTable(context.Background())
	if err != nil {
		return nil, err
	}
	defer tbl.Release()
	sc := pf.MetaData().Schema
	leaves := make([]*schema.Column, sc.NumColumns())
	for i := range leaves {
		leaves[i] = sc.Column(i)
	}
	var writers []func(dst []byte, a arrow.Array, i int) ([]byte, error)
	next := 0
	for _, f := range tbl.Schema().Fields() {
		w, err := arrowWriter(f.Type, leaves, &next)
		if err != nil {
			return nil, fmt.Errorf("field %s: %w", f.Name, err)
		}
		writers = append(writers, w)
	}
	if next != len(leaves) {
		return nil, fmt.Errorf("%d of %d leaves used", next, len(leaves))
	}
	var out [][]byte
	tr := array.NewTableReader(tbl, 1<<20)
	defer tr.Release()
	for tr.Next() {
		rec := tr.RecordBatch()
		for i := 0; i < int(rec.NumRows()); i++ {
			dst := []byte{'{'}
			for c, f := range rec.Schema().Fields() {
				if c > 0 {
					dst = append(dst, ',')
				}
				dst = append(appendString(dst, f.Name), ':')
				if dst, err = writers[c](dst, rec.Column(c), i); err != nil {
					return nil, err
				}
			}
			out = append(out, append(dst, '}'))
		}
	}
	return out, tr.Err()
}

// arrowWriter returns the function that renders a value of type t, whose
// Parquet leaves start at leaves[*next].
func arrowWriter(t arrow.DataType, leaves []*schema.Column, next *int) (func([]byte, arrow.Array, int) ([]byte, error), error) {
	null := func(dst []byte, a arrow.Array, i int) ([]byte, bool) {
		if a.IsNull(i) {
			return append(dst, "null"...), true
		}
		return dst, false
	}
	if e, ok := t.(arrow.ExtensionType); ok {
		// arrow.uuid and the like: the values are those of the storage.
		w, err := arrowWriter(e.StorageType(), leaves, next)
		if err != nil {
			return nil, err
		}
		return func(dst []byte, a arrow.Array, i int) ([]byte, error) {
			return w(dst, a.(array.ExtensionArray).Storage(), i)
		}, nil
	}
	switch t := t.(type) {
	case *arrow.ListType, *arrow.LargeListType:
		el, err := arrowWriter(t.(arrow.ListLikeType).Elem(), leaves, next)
		if err != nil {
			return nil, err
		}
		return func(dst []byte, a arrow.Array, i int) ([]byte, error) {
			if d, ok := null(dst, a, i); ok {
				return d, nil
			}
			l := a.(array.ListLike)
			start, end := l.ValueOffsets(i)
			dst = append(dst, '[')
			var err error
			for k := start; k < end; k++ {
				if k > start {
					dst = append(dst, ',')
				}
				if dst, err = el(dst, l.ListValues(), int(k)); err != nil {
					return dst, err
				}
			}
			return append(dst, ']'), nil
		}, nil
	case *arrow.MapType:
		kw, err := arrowWriter(t.KeyType(), leaves, next)
		if err != nil {
			return nil, err
		}
		vw, err := arrowWriter(t.ItemType(), leaves, next)
		if err != nil {
			return nil, err
		}
		return func(dst []byte, a arrow.Array, i int) ([]byte, error) {
			if d, ok := null(dst, a, i); ok {
				return d, nil
			}
			m := a.(*array.Map)
			start, end := m.ValueOffsets(i)
			dst = append(dst, '[')
			var err error
			for k := start; k < end; k++ {
				if k > start {
					dst = append(dst, ',')
				}
				dst = append(dst, `{"key":`...)
				if dst, err = kw(dst, m.Keys(), int(k)); err != nil {
					return dst, err
				}
				dst = append(dst, `,"value":`...)
				if dst, err = vw(dst, m.Items(), int(k)); err != nil {
					return dst, err
				}
				dst = append(dst, '}')
			}
			return append(dst, ']'), nil
		}, nil
	case *arrow.StructType:
		var ws []func([]byte, arrow.Array, int) ([]byte, error)
		for _, f := range t.Fields() {
			w, err := arrowWriter(f.Type, leaves, next)
			if err != nil {
				return nil, err
			}
			ws = append(ws, w)
		}
		return func(dst []byte, a arrow.Array, i int) ([]byte, error) {
			if d, ok := null(dst, a, i); ok {
				return d, nil
			}
			s := a.(*array.Struct)
			dst = append(dst, '{')
			var err error
			for k, f := range t.Fields() {
				if k > 0 {
					dst = append(dst, ',')
				}
				dst = append(appendString(dst, f.Name), ':')
				if dst, err = ws[k](dst, s.Field(k), i); err != nil {
					return dst, err
				}
			}
			return append(dst, '}'), nil
		}, nil
	}
	if *next >= len(leaves) {
		return nil, fmt.Errorf("no leaf left for %s", t)
	}
	leaf := leaves[*next]
	*next++
	leafFn, err := leafWriter(t, leaf)
	if err != nil {
		return nil, fmt.Errorf("column %s: %w", leaf.Path(), err)
	}
	return func(dst []byte, a arrow.Array, i int) ([]byte, error) {
		if d, ok := null(dst, a, i); ok {
			return d, nil
		}
		if d, ok := a.(*array.Dictionary); ok {
			return leafFn(dst, d.Dictionary(), d.GetValueIndex(i))
		}
		return leafFn(dst, a, i)
	}, nil
}

// leafWriter renders an Arrow value as the physical value of leaf.
func leafWriter(t arrow.DataType, leaf *schema.Column) (func([]byte, arrow.Array, int) ([]byte, error), error) {
	phys := leaf.PhysicalType()
	if d, ok := t.(*arrow.DictionaryType); ok {
		t = d.ValueType
	}
	asPhysInt := func(dst []byte, v int64) ([]byte, error) {
		switch phys {
		case parquet.Types.Int32:
			return strconv.AppendInt(dst, int64(int32(v)), 10), nil
		case parquet.Types.Int64:
			return strconv.AppendInt(dst, v, 10), nil
		}
		return dst, fmt.Errorf("integer in %s", phys)
	}
	// unitNanos is the Parquet unit of a TIME or TIMESTAMP leaf in ns.
	unitNanos := func() int64 {
		switch lt := leaf.LogicalType().(type) {
		case schema.TimestampLogicalType:
			return map[schema.TimeUnitType]int64{schema.TimeUnitMillis: 1e6, schema.TimeUnitMicros: 1e3, schema.TimeUnitNanos: 1}[lt.TimeUnit()]
		case schema.TimeLogicalType:
			return map[schema.TimeUnitType]int64{schema.TimeUnitMillis: 1e6, schema.TimeUnitMicros: 1e3, schema.TimeUnitNanos: 1}[lt.TimeUnit()]
		}
		return 0
	}
	arrowNanos := func(u arrow.TimeUnit) int64 {
		return map[arrow.TimeUnit]int64{arrow.Second: 1e9, arrow.Millisecond: 1e6, arrow.Microsecond: 1e3, arrow.Nanosecond: 1}[u]
	}
	switch t := t.(type) {
	case *arrow.BooleanType:
		return func(dst []byte, a arrow.Array, i int) ([]byte, error) {
			return strconv.AppendBool(dst, a.(*array.Boolean).Value(i)), nil
		}, nil
	case *arrow.Int8Type, *arrow.Int16Type, *arrow.Int32Type, *arrow.Int64Type,
		*arrow.Uint8Type, *arrow.Uint16Type, *arrow.Uint32Type, *arrow.Uint64Type, *arrow.Date32Type:
		return func(dst []byte, a arrow.Array, i int) ([]byte, error) {
			var v int64
			switch a := a.(type) {
			case *array.Int8:
				v = int64(a.Value(i))
			case *array.Int16:
				v = int64(a.Value(i))
			case *array.Int32:
				v = int64(a.Value(i))
			case *array.Int64:
				v = a.Value(i)
			case *array.Uint8:
				v = int64(a.Value(i))
			case *array.Uint16:
				v = int64(a.Value(i))
			case *array.Uint32:
				v = int64(a.Value(i))
			case *array.Uint64:
				v = int64(a.Value(i))
			case *array.Date32:
				v = int64(a.Value(i))
			}
			return asPhysInt(dst, v)
		}, nil
	case *arrow.Date64Type:
		return func(dst []byte, a arrow.Array, i int) ([]byte, error) {
			return asPhysInt(dst, int64(a.(*array.Date64).Value(i))/86400000)
		}, nil
	case *arrow.Time32Type, *arrow.Time64Type, *arrow.TimestampType:
		var unit arrow.TimeUnit
		switch t := t.(type) {
		case *arrow.Time32Type:
			unit = t.Unit
		case *arrow.Time64Type:
			unit = t.Unit
		case *arrow.TimestampType:
			unit = t.Unit
		}
		an := arrowNanos(unit)
		pn := unitNanos()
		return func(dst []byte, a arrow.Array, i int) ([]byte, error) {
			var v int64
			switch a := a.(type) {
			case *array.Time32:
				v = int64(a.Value(i))
			case *array.Time64:
				v = int64(a.Value(i))
			case *array.Timestamp:
				v = int64(a.Value(i))
			}
			if phys == parquet.Types.Int96 {
				return int96Hex(dst, v*an), nil
			}
			if pn == 0 {
				return dst, fmt.Errorf("no time unit")
			}
			if an >= pn {
				return asPhysInt(dst, v*(an/pn))
			}
			return asPhysInt(dst, v/(pn/an))
		}, nil
	case *arrow.Float16Type:
		return func(dst []byte, a arrow.Array, i int) ([]byte, error) {
			var b [2]byte
			binary.LittleEndian.PutUint16(b[:], a.(*array.Float16).Value(i).Uint16())
			return appendHex(dst, b[:]), nil
		}, nil
	case *arrow.Float32Type:
		return func(dst []byte, a arrow.Array, i int) ([]byte, error) {
			return appendFloat(dst, float64(a.(*array.Float32).Value(i)), 32), nil
		}, nil
	case *arrow.Float64Type:
		return func(dst []byte, a arrow.Array, i int) ([]byte, error) {
			return appendFloat(dst, a.(*array.Float64).Value(i), 64), nil
		}, nil
	case *arrow.StringType, *arrow.LargeStringType, *arrow.BinaryType, *arrow.LargeBinaryType, *arrow.FixedSizeBinaryType:
		text := false
		switch leaf.LogicalType().(type) {
		case schema.StringLogicalType, schema.EnumLogicalType, schema.JSONLogicalType:
			text = true
		}
		return func(dst []byte, a arrow.Array, i int) ([]byte, error) {
			var v []byte
			switch a := a.(type) {
			case *array.String:
				v = []byte(a.Value(i))
			case *array.LargeString:
				v = []byte(a.Value(i))
			case *array.Binary:
				v = a.Value(i)
			case *array.LargeBinary:
				v = a.Value(i)
			case *array.FixedSizeBinary:
				v = a.Value(i)
			}
			if text {
				return appendString(dst, string(v)), nil
			}
			return appendHex(dst, v), nil
		}, nil
	case *arrow.Decimal128Type:
		return func(dst []byte, a arrow.Array, i int) ([]byte, error) {
			v := a.(*array.Decimal128).Value(i).BigInt()
			switch phys {
			case parquet.Types.Int32, parquet.Types.Int64:
				return asPhysInt(dst, v.Int64())
			case parquet.Types.FixedLenByteArray:
				return appendHex(dst, beBytes(v, leaf.TypeLength())), nil
			case parquet.Types.ByteArray:
				return appendHex(dst, beBytes(v, 0)), nil
			}
			return dst, fmt.Errorf("decimal in %s", phys)
		}, nil
	}
	return nil, fmt.Errorf("unsupported Arrow type %s", t)
}
