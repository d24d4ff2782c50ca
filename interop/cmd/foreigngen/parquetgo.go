package main

import (
	"bytes"
	"fmt"
	"io"
	"math/big"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress"
	"github.com/parquet-go/parquet-go/deprecated"
	"github.com/parquet-go/parquet-go/encoding"
)

type pgInner struct {
	A int32   `parquet:"a"`
	B *string `parquet:"b,optional"`
}

// pgRow is every type parquet-go writes from a Go struct.
type pgRow struct {
	ID      int32            `parquet:"id"`
	B       bool             `parquet:"b"`
	OB      *bool            `parquet:"ob,optional"`
	I32     int32            `parquet:"i32"`
	I32Alt  int32            `parquet:"i32_alt"`
	OI32    *int32           `parquet:"oi32,optional"`
	I64     int64            `parquet:"i64"`
	I64Alt  int64            `parquet:"i64_alt"`
	U32     uint32           `parquet:"u32"`
	U64     uint64           `parquet:"u64"`
	F32     float32          `parquet:"f32"`
	F64     float64          `parquet:"f64"`
	OF64    *float64         `parquet:"of64,optional"`
	S       string           `parquet:"s"`
	OS      *string          `parquet:"os,optional"`
	Low     string           `parquet:"lowcard"`
	En      string           `parquet:"en,enum"`
	Bin     []byte           `parquet:"bin"`
	Fixed   [7]byte          `parquet:"fixed"`
	UUID    [16]byte         `parquet:"uu,uuid"`
	D32     int32            `parquet:"d32,decimal(2:9)"`
	D64     int64            `parquet:"d64,decimal(3:18)"`
	DFix    [16]byte         `parquet:"dfix,decimal(4:38)"`
	Date    int32            `parquet:"dt,date"`
	TS      int64            `parquet:"ts,timestamp(microsecond)"`
	TSms    int64            `parquet:"ts_ms,timestamp(millisecond)"`
	TSns    int64            `parquet:"ts_ns,timestamp(nanosecond)"`
	I96     deprecated.Int96 `parquet:"i96"`
	AllNull *int64           `parquet:"allnull,optional"`
	Li      []int32          `parquet:"li,list"`
	LiOpt   []*int32         `parquet:"lio,list"`
	LL      [][]string       `parquet:"ll,list"`
	Rep     []int64          `parquet:"rep"`
	St      pgInner          `parquet:"st"`
	OSt     *pgInner         `parquet:"ost,optional"`
	Mp      map[string]int32 `parquet:"mp"`
}

func ptr[T any](v T) *T { return &v }

func pgRows(n int) []pgRow {
	r := rand.New(rand.NewPCG(1, 2))
	out := make([]pgRow, n)
	for i := range out {
		x := &out[i]
		x.ID = int32(i)
		x.B = i%3 == 0
		if i%7 != 0 {
			x.OB = ptr(i%5 == 1)
		}
		x.I32 = genI32(i, r)
		x.I32Alt = []int32{-1 << 31, 1<<31 - 1}[i%2]
		if i%11 != 0 {
			x.OI32 = ptr(int32(i*7 - 10000))
		}
		x.I64 = genI64(i, r)
		x.I64Alt = []int64{-1 << 63, 1<<63 - 1}[i%2]
		x.U32 = []uint32{1<<32 - 1, 0, uint32(i * 1000)}[i%3]
		x.U64 = []uint64{1<<64 - 1, 0, uint64(i) * 1000000007}[i%3]
		x.F32 = genF32(i, r)
		x.F64 = genF64(i, r)
		if i%4 != 0 {
			x.OF64 = ptr(genF64(i+1, r))
		}
		x.S = genString(i, r)
		if i%9 != 3 {
			x.OS = ptr(genString(i+4, r))
		}
		x.Low = "cat_" + strconv.Itoa(i%20)
		x.En = []string{"red", "green", "blue"}[i%3]
		x.Bin = genBytes(i, r)
		for k := range x.Fixed {
			x.Fixed[k] = byte(r.Uint32())
		}
		for k := range x.UUID {
			x.UUID[k] = byte(r.Uint32())
		}
		x.D32 = []int32{999999999, -999999999, int32(i*101 - 5000)}[i%3]
		x.D64 = []int64{999999999999999999, -999999999999999999, int64(i) * 3003}[i%3]
		d := new(big.Int).Exp(big.NewInt(10), big.NewInt(38), nil)
		d.Sub(d, big.NewInt(1))
		switch i % 3 {
		case 1:
			d.Neg(d)
		case 2:
			d.SetInt64(int64(r.Uint64() >> 1))
			d.Mul(d, big.NewInt(int64(i)-700))
		}
		copy(x.DFix[:], beBytes(d, 16))
		x.Date = int32(i*37 - 50000)
		x.TS = int64(i)*1234567891 - 2208988800000000
		x.TSms = 1709208000000 + int64(i)*1001
		x.TSns = -9223286400000000000 + int64(i)*98765432109123
		nanos := r.Uint64() % (86400 * 1e9) // of the day
		x.I96 = deprecated.Int96{uint32(nanos), uint32(nanos >> 32), 2440588 - 30000 + uint32(i)*7}
		switch i % 6 {
		case 0:
		case 1:
			x.Li = []int32{}
		default:
			for k := 0; k < i%9; k++ {
				x.Li = append(x.Li, int32(r.Uint32()))
			}
		}
		if i%5 != 0 {
			x.LiOpt = []*int32{nil, ptr(int32(i)), nil}
		}
		switch i % 5 {
		case 1:
			x.LL = [][]string{{}}
		case 2:
			x.LL = [][]string{{"x" + strconv.Itoa(i), "y"}, {}, {"z"}}
		}
		for k := 0; k < i%4; k++ {
			x.Rep = append(x.Rep, int64(i*k))
		}
		x.St = pgInner{A: int32(i)}
		if i%3 != 0 {
			x.St.B = ptr("b" + strconv.Itoa(i))
		}
		if i%8 != 0 {
			x.OSt = &pgInner{A: int32(-i)}
		}
		// At most one key: the order of a Go map's keys is not fixed, so
		// a second key would make the file bytes depend on the run.
		if i%4 >= 2 {
			x.Mp = map[string]int32{"k" + strconv.Itoa(i): int32(i)}
		}
	}
	return out
}

// renderPG writes the rows read back by parquet-go.
func renderPG(x *pgRow) map[string][]byte {
	m := make(map[string][]byte)
	i32 := func(v int32) []byte { return strconv.AppendInt(nil, int64(v), 10) }
	i64 := func(v int64) []byte { return strconv.AppendInt(nil, v, 10) }
	str := func(s string) []byte { return appendString(nil, s) }
	m["id"] = i32(x.ID)
	m["b"] = strconv.AppendBool(nil, x.B)
	m["ob"] = []byte("null")
	if x.OB != nil {
		m["ob"] = strconv.AppendBool(nil, *x.OB)
	}
	m["i32"] = i32(x.I32)
	m["i32_alt"] = i32(x.I32Alt)
	m["oi32"] = []byte("null")
	if x.OI32 != nil {
		m["oi32"] = i32(*x.OI32)
	}
	m["i64"] = i64(x.I64)
	m["i64_alt"] = i64(x.I64Alt)
	m["u32"] = i32(int32(x.U32))
	m["u64"] = i64(int64(x.U64))
	m["f32"] = appendFloat(nil, float64(x.F32), 32)
	m["f64"] = appendFloat(nil, x.F64, 64)
	m["of64"] = []byte("null")
	if x.OF64 != nil {
		m["of64"] = appendFloat(nil, *x.OF64, 64)
	}
	m["s"] = str(x.S)
	m["os"] = []byte("null")
	if x.OS != nil {
		m["os"] = str(*x.OS)
	}
	m["lowcard"] = str(x.Low)
	m["en"] = str(x.En)
	m["bin"] = appendHex(nil, x.Bin)
	m["fixed"] = appendHex(nil, x.Fixed[:])
	m["uu"] = appendHex(nil, x.UUID[:])
	m["d32"] = i32(x.D32)
	m["d64"] = i64(x.D64)
	m["dfix"] = appendHex(nil, x.DFix[:])
	m["dt"] = i32(x.Date)
	m["ts"] = i64(x.TS)
	m["ts_ms"] = i64(x.TSms)
	m["ts_ns"] = i64(x.TSns)
	var i96 [12]byte
	for k, w := range x.I96 {
		for j := 0; j < 4; j++ {
			i96[4*k+j] = byte(w >> (8 * j))
		}
	}
	m["i96"] = appendHex(nil, i96[:])
	m["allnull"] = []byte("null")
	if x.AllNull != nil {
		m["allnull"] = i64(*x.AllNull)
	}
	list := func(n int, f func(k int) []byte) []byte {
		b := []byte{'['}
		for k := 0; k < n; k++ {
			if k > 0 {
				b = append(b, ',')
			}
			b = append(b, f(k)...)
		}
		return append(b, ']')
	}
	m["li"] = list(len(x.Li), func(k int) []byte { return i32(x.Li[k]) })
	m["lio"] = list(len(x.LiOpt), func(k int) []byte {
		if x.LiOpt[k] == nil {
			return []byte("null")
		}
		return i32(*x.LiOpt[k])
	})
	m["ll"] = list(len(x.LL), func(k int) []byte {
		return list(len(x.LL[k]), func(j int) []byte { return str(x.LL[k][j]) })
	})
	m["rep"] = list(len(x.Rep), func(k int) []byte { return i64(x.Rep[k]) })
	inner := func(s *pgInner) []byte {
		b := append([]byte(`{"a":`), i32(s.A)...)
		b = append(b, `,"b":`...)
		if s.B == nil {
			b = append(b, "null"...)
		} else {
			b = append(b, str(*s.B)...)
		}
		return append(b, '}')
	}
	m["st"] = inner(&x.St)
	m["ost"] = []byte("null")
	if x.OSt != nil {
		m["ost"] = inner(x.OSt)
	}
	mp := []byte{'['}
	for k, v := range x.Mp { // at most one key
		mp = append(mp, `{"key":`...)
		mp = append(append(mp, str(k)...), `,"value":`...)
		mp = append(append(mp, i32(v)...), '}')
	}
	m["mp"] = append(mp, ']')
	return m
}

type pgVariant struct {
	name, desc string
	opts       []parquet.WriterOption
}

func writeParquetGo(dir string) error {
	data := pgRows(rows)
	var variants []pgVariant
	add := func(name, desc string, opts ...parquet.WriterOption) {
		variants = append(variants, pgVariant{name, desc, opts})
	}
	add("default", "defaults (uncompressed, PLAIN, data page v2, statistics)")
	for _, c := range []struct {
		name  string
		codec compress.Codec
	}{{"snappy", &parquet.Snappy}, {"gzip", &parquet.Gzip}, {"brotli", &parquet.Brotli}, {"lz4_raw", &parquet.Lz4Raw}, {"zstd", &parquet.Zstd}} {
		add("codec_"+c.name, "compression "+c.name, parquet.Compression(c.codec))
	}
	add("v1", "data page v1", parquet.DataPageVersion(1))
	add("v1_zstd", "data page v1, zstd", parquet.DataPageVersion(1), parquet.Compression(&parquet.Zstd))
	add("dict", "RLE_DICTIONARY everywhere", parquet.DefaultEncoding(&parquet.RLEDictionary))
	add("dict_v1_snappy", "RLE_DICTIONARY everywhere, data page v1, snappy", parquet.DefaultEncoding(&parquet.RLEDictionary),
		parquet.DataPageVersion(1), parquet.Compression(&parquet.Snappy))
	// DictionaryMaxBytes(1024) writes the same bytes as "dict" in v0.32: no
	// fallback file for parquet-go.
	delta := []parquet.WriterOption{
		parquet.DefaultEncodingFor(parquet.Int32, &parquet.DeltaBinaryPacked),
		parquet.DefaultEncodingFor(parquet.Int64, &parquet.DeltaBinaryPacked),
		parquet.DefaultEncodingFor(parquet.ByteArray, &parquet.DeltaByteArray),
		parquet.DefaultEncodingFor(parquet.FixedLenByteArray, &parquet.DeltaByteArray),
		parquet.DefaultEncodingFor(parquet.Float, &parquet.ByteStreamSplit),
		parquet.DefaultEncodingFor(parquet.Double, &parquet.ByteStreamSplit),
		parquet.DefaultEncodingFor(parquet.Boolean, &parquet.RLE),
	}
	add("delta", "DELTA_BINARY_PACKED ints, DELTA_BYTE_ARRAY byte arrays, BYTE_STREAM_SPLIT floats, RLE booleans", delta...)
	add("delta_v1", "as delta, data page v1", append(delta, parquet.DataPageVersion(1))...)
	add("delta_length", "DELTA_LENGTH_BYTE_ARRAY byte arrays, BYTE_STREAM_SPLIT ints",
		parquet.DefaultEncodingFor(parquet.ByteArray, &parquet.DeltaLengthByteArray),
		parquet.DefaultEncodingFor(parquet.Int32, &parquet.ByteStreamSplit),
		parquet.DefaultEncodingFor(parquet.Int64, &parquet.ByteStreamSplit))
	add("small_pages", "page buffer 512 B, row groups of 400 rows", parquet.PageBufferSize(512), parquet.MaxRowsPerRowGroup(400))
	add("small_pages_v1_dict", "page buffer 512 B, row groups of 400 rows, data page v1, dictionary",
		parquet.PageBufferSize(512), parquet.MaxRowsPerRowGroup(400), parquet.DataPageVersion(1),
		parquet.DefaultEncoding(&parquet.RLEDictionary))
	add("no_stats", "no page statistics, no page bounds", parquet.DataPageStatistics(false), parquet.SkipPageBounds())
	// DataPageStatistics(true) writes the same bytes as the defaults.

	for _, v := range variants {
		opts := append([]parquet.WriterOption{parquet.CreatedBy("parquet-go", "0.32.0", "")}, v.opts...)
		var buf bytes.Buffer
		w := parquet.NewGenericWriter[pgRow](&buf, opts...)
		if _, err := w.Write(data); err != nil {
			return fmt.Errorf("%s: %w", v.name, err)
		}
		if err := w.Close(); err != nil {
			return fmt.Errorf("%s: %w", v.name, err)
		}
		rendered, err := readPG(buf.Bytes())
		if err != nil {
			// Kept: the other readers decide, and gen.mjs notes it.
			fmt.Fprintf(os.Stderr, "foreigngen: parquet-go cannot read its own %s: %v\n", v.name, err)
			rendered = nil
		}
		if err := save(dir, v.name, buf.Bytes(), rendered, v.desc); err != nil {
			return err
		}
		if rendered == nil {
			if err := os.WriteFile(filepath.Join(dir, v.name+".ownerr"), []byte(err.Error()+"\n"), 0o644); err != nil {
				return err
			}
		}
	}
	return nil
}

// readPG reads a file with parquet-go and renders its rows.
func readPG(file []byte) ([][]byte, error) {
	f, err := parquet.OpenFile(bytes.NewReader(file), int64(len(file)))
	if err != nil {
		return nil, err
	}
	var names []string
	for _, fl := range f.Schema().Fields() {
		names = append(names, fl.Name())
	}
	r := parquet.NewGenericReader[pgRow](f)
	defer r.Close()
	var out [][]byte
	for {
		buf := make([]pgRow, 100) // fresh: Read may append to slices it finds
		n, err := r.Read(buf)
		for k := 0; k < n; k++ {
			row, err := object(names, renderPG(&buf[k]))
			if err != nil {
				return nil, err
			}
			out = append(out, row)
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

var _ encoding.Encoding = &parquet.Plain
