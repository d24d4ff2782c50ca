package interop_test

// Cross-implementation and real-data tests of encoding/delta and
// encoding/bytestreamsplit against parquet-go and apache/arrow-go. Helpers
// carry a dx prefix so they stay apart from other test files of the package.

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/schema"
	"github.com/klauspost/compress/zstd"
	pq "github.com/parquet-go/parquet-go"
	pqbss "github.com/parquet-go/parquet-go/encoding/bytestreamsplit"
	pqdelta "github.com/parquet-go/parquet-go/encoding/delta"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/encoding/bytestreamsplit"
	"github.com/pqcodec/pqcodec/encoding/delta"
	"github.com/pqcodec/pqcodec/internal/benchdata"
	"github.com/pqcodec/pqcodec/internal/testcorpus"
)

// ---- data sets ----

func dxInt64Sets() map[string][]int64 {
	r := rand.New(rand.NewPCG(42, 43))
	sets := map[string][]int64{
		"empty":  {},
		"single": {-77},
	}
	gen := func(name string, n int, f func(i int) int64) {
		v := make([]int64, n)
		for i := range v {
			v[i] = f(i)
		}
		sets[name] = v
	}
	gen("extremes", 1000, func(i int) int64 {
		if i%2 == 0 {
			return math.MinInt64
		}
		return math.MaxInt64
	})
	gen("constant", 777, func(int) int64 { return 123456789 })
	gen("random", 3001, func(int) int64 { return int64(r.Uint64()) })
	gen("timestamps", 5000, func(i int) int64 { return 1_700_000_000_000 + int64(i)*1000 + int64(r.IntN(50)) })
	gen("small deltas", 4099, func(i int) int64 { return int64(i) + int64(r.IntN(16)) - 8 })
	for _, n := range []int{2, 7, 8, 9, 31, 32, 33, 127, 128, 129, 255, 257} {
		gen(fmt.Sprint("count ", n), n, func(i int) int64 { return int64(r.IntN(1000)) - 500 })
	}
	return sets
}

func dxInt32(v []int64) []int32 {
	out := make([]int32, len(v))
	for i, x := range v {
		out[i] = int32(x) ^ int32(x>>32)
	}
	return out
}

func dxStringSets() map[string][]string {
	r := rand.New(rand.NewPCG(44, 45))
	sets := map[string][]string{
		"empty page":    {},
		"single":        {"only"},
		"empty strings": {"", "", "x", "", ""},
		"64KiB":         {strings.Repeat("a", 64<<10), strings.Repeat("a", 64<<10-1) + "b", "", strings.Repeat("c", 64<<10)},
	}
	var uuids, low, prefix, kib []string
	for i := range 2000 {
		uuids = append(uuids, fmt.Sprintf("%016x%016x", r.Uint64(), r.Uint64()))
		low = append(low, []string{"alpha", "beta", "gamma", ""}[r.IntN(4)])
		prefix = append(prefix, strings.Repeat("/very/long/shared/prefix", 40)+strconv.Itoa(i/7))
		if i < 200 {
			b := make([]byte, 1024)
			for j := range b {
				b[j] = byte('a' + r.IntN(26))
			}
			kib = append(kib, string(b))
		}
	}
	sets["uuid"], sets["low cardinality"], sets["shared prefixes"], sets["1KiB"] = uuids, low, prefix, kib
	return sets
}

var dxFlat = benchdata.Flat

func dxStrings(values []byte, offsets []int32) []string {
	out := []string{}
	for i := 0; i+1 < len(offsets); i++ {
		out = append(out, string(values[offsets[i]:offsets[i+1]]))
	}
	return out
}

func dxFromPQ(values []byte, offsets []uint32) []string {
	out := []string{}
	for i := 0; i+1 < len(offsets); i++ {
		out = append(out, string(values[offsets[i]:offsets[i+1]]))
	}
	return out
}

func dxFloats(n int, smooth bool) ([]float32, []float64) {
	r := rand.New(rand.NewPCG(46, 47))
	f32, f64 := make([]float32, n), make([]float64, n)
	for i := range n {
		if smooth {
			f64[i] = 20 + math.Sin(float64(i)/100)
		} else {
			f64[i] = math.Float64frombits(r.Uint64())
		}
		f32[i] = math.Float32frombits(uint32(math.Float64bits(f64[i]) >> 17))
	}
	return f32, f64
}

// ---- parquet-go, both ways ----

func TestDeltaParquetGoBinaryPacked(t *testing.T) {
	var pe pqdelta.BinaryPackedEncoding
	for name, v := range dxInt64Sets() {
		// Ours -> parquet-go.
		got, err := pe.DecodeInt64(nil, delta.EncodeInt64(nil, v))
		require.NoError(t, err, name)
		require.Equal(t, v, append([]int64{}, got...), name)
		// parquet-go -> ours.
		enc, err := pe.EncodeInt64(nil, v)
		require.NoError(t, err, name)
		ours, err := delta.DecodeInt64(nil, enc)
		require.NoError(t, err, name)
		require.Equal(t, v, append([]int64{}, ours...), name)

		v32 := dxInt32(v)
		got32, err := pe.DecodeInt32(nil, delta.EncodeInt32(nil, v32))
		require.NoError(t, err, name)
		require.Equal(t, v32, append([]int32{}, got32...), name)
		enc, err = pe.EncodeInt32(nil, v32)
		require.NoError(t, err, name)
		ours32, err := delta.DecodeInt32(nil, enc)
		require.NoError(t, err, name)
		require.Equal(t, v32, append([]int32{}, ours32...), name)
	}
}

func TestDeltaParquetGoByteArrays(t *testing.T) {
	var dlba pqdelta.LengthByteArrayEncoding
	var dba pqdelta.ByteArrayEncoding
	for name, strs := range dxStringSets() {
		values, offsets := dxFlat(strs)
		pqOffsets := make([]uint32, len(offsets))
		for i, o := range offsets {
			pqOffsets[i] = uint32(o)
		}
		for _, c := range []struct {
			name   string
			ourEnc func([]byte, []byte, []int32) ([]byte, error)
			ourDec func([]byte, []int32, []byte) ([]byte, []int32, error)
			pqEnc  func([]byte, []byte, []uint32) ([]byte, error)
			pqDec  func([]byte, []byte, []uint32) ([]byte, []uint32, error)
		}{
			{"DLBA", delta.EncodeLengthByteArray, delta.DecodeLengthByteArray, dlba.EncodeByteArray, dlba.DecodeByteArray},
			{"DBA", delta.EncodeByteArray, delta.DecodeByteArray, dba.EncodeByteArray, dba.DecodeByteArray},
		} {
			enc, err := c.ourEnc(nil, values, offsets)
			require.NoError(t, err)
			pv, po, err := c.pqDec(nil, enc, nil)
			require.NoError(t, err, "%s %s", c.name, name)
			require.Equal(t, strs, dxFromPQ(pv, po), "%s %s: ours -> parquet-go", c.name, name)

			enc, err = c.pqEnc(nil, values, pqOffsets)
			require.NoError(t, err)
			ov, oo, err := c.ourDec(nil, nil, enc)
			require.NoError(t, err, "%s %s", c.name, name)
			require.Equal(t, strs, dxStrings(ov, oo), "%s %s: parquet-go -> ours", c.name, name)
		}
	}
	// FIXED_LEN_BYTE_ARRAY through DELTA_BYTE_ARRAY.
	r := rand.New(rand.NewPCG(1, 2))
	for _, size := range []int{1, 4, 16} {
		src := make([]byte, 999*size)
		for i := range src {
			src[i] = byte(r.IntN(3))
		}
		enc, err := delta.EncodeFixedLenByteArray(nil, src, size)
		require.NoError(t, err)
		got, err := dba.DecodeFixedLenByteArray(nil, enc, size)
		require.NoError(t, err)
		require.Equal(t, src, got)
		enc, err = dba.EncodeFixedLenByteArray(nil, src, size)
		require.NoError(t, err)
		got, err = delta.DecodeFixedLenByteArray(nil, enc, size)
		require.NoError(t, err)
		require.Equal(t, src, got)
	}
}

func TestDeltaParquetGoByteStreamSplit(t *testing.T) {
	var pe pqbss.Encoding
	for _, n := range []int{0, 1, 15, 16, 17, 1000, 4099} {
		for _, smooth := range []bool{false, true} {
			f32, f64 := dxFloats(n, smooth)
			enc, err := pe.EncodeFloat(nil, f32)
			require.NoError(t, err)
			require.Equal(t, string(enc), string(bytestreamsplit.EncodeFloat32(nil, f32)))
			got32, err := bytestreamsplit.DecodeFloat32(nil, enc)
			require.NoError(t, err)
			back, err := pe.EncodeFloat(nil, got32)
			require.NoError(t, err)
			require.Equal(t, string(enc), string(back))

			enc, err = pe.EncodeDouble(nil, f64)
			require.NoError(t, err)
			require.Equal(t, string(enc), string(bytestreamsplit.EncodeFloat64(nil, f64)))
			got64, err := bytestreamsplit.DecodeFloat64(nil, enc)
			require.NoError(t, err)
			pqGot, err := pe.DecodeDouble(nil, bytestreamsplit.EncodeFloat64(nil, got64))
			require.NoError(t, err)
			for i := range f64 {
				require.Equal(t, math.Float64bits(f64[i]), math.Float64bits(got64[i]))
				require.Equal(t, math.Float64bits(f64[i]), math.Float64bits(pqGot[i]))
			}

			i64 := make([]int64, n)
			for i := range f64 {
				i64[i] = int64(math.Float64bits(f64[i]))
			}
			enc, err = pe.EncodeInt64(nil, i64)
			require.NoError(t, err)
			gotI, err := bytestreamsplit.DecodeInt64(nil, enc)
			require.NoError(t, err)
			require.Equal(t, i64, append([]int64{}, gotI...))
			pqI, err := pe.DecodeInt64(nil, bytestreamsplit.EncodeInt64(nil, i64))
			require.NoError(t, err)
			require.Equal(t, i64, append([]int64{}, pqI...))

			i32 := dxInt32(i64)
			enc, err = pe.EncodeInt32(nil, i32)
			require.NoError(t, err)
			gotI32, err := bytestreamsplit.DecodeInt32(nil, enc)
			require.NoError(t, err)
			require.Equal(t, i32, append([]int32{}, gotI32...))

			for _, size := range []int{2, 5, 16} {
				fl := binary.LittleEndian.AppendUint64(nil, 0)[:0]
				for i := range n * size {
					fl = append(fl, byte(i*7+size))
				}
				enc, err := pe.EncodeFixedLenByteArray(nil, fl, size)
				require.NoError(t, err)
				ours, err := bytestreamsplit.EncodeFixedLenByteArray(nil, fl, size)
				require.NoError(t, err)
				require.Equal(t, string(enc), string(ours))
				got, err := bytestreamsplit.DecodeFixedLenByteArray(nil, enc, size)
				require.NoError(t, err)
				require.Equal(t, string(fl), string(got))
			}
		}
	}
}

// ---- page walking ----

type dxPage struct {
	encoding  format.Encoding
	numValues int    // values including nulls
	defLevels []byte // RLE hybrid, no length prefix; nil for required columns
	values    []byte
}

type dxColumn struct {
	name    string
	typ     format.Type
	typeLen int
	maxDef  int
	pages   []dxPage
}

func dxDecompress(t *testing.T, codec format.CompressionCodec, src []byte, size int) []byte {
	t.Helper()
	switch codec {
	case format.Uncompressed:
		return src
	case format.Zstd:
		d, err := zstd.NewReader(nil)
		require.NoError(t, err)
		defer d.Close()
		out, err := d.DecodeAll(src, make([]byte, 0, size))
		require.NoError(t, err)
		return out
	case format.Gzip:
		zr, err := gzip.NewReader(bytes.NewReader(src))
		require.NoError(t, err)
		out, err := io.ReadAll(zr)
		require.NoError(t, err)
		return out
	}
	t.Fatalf("codec %v not handled", codec)
	return nil
}

// dxReadPages walks every data page of a flat parquet file.
func dxReadPages(t *testing.T, data []byte) []dxColumn {
	t.Helper()
	require.True(t, len(data) > 12 && string(data[len(data)-4:]) == "PAR1")
	metaLen := int(binary.LittleEndian.Uint32(data[len(data)-8:]))
	var meta format.FileMetaData
	require.NoError(t, thrift.Unmarshal(new(thrift.CompactProtocol), data[len(data)-8-metaLen:len(data)-8], &meta))
	var cols []dxColumn
	for _, el := range meta.Schema[1:] {
		require.False(t, el.NumChildren.Valid && el.NumChildren.V > 0, "flat schemas only")
		c := dxColumn{name: el.Name, typ: el.Type.V, typeLen: int(el.TypeLength.V)}
		if el.RepetitionType.V == format.Optional {
			c.maxDef = 1
		}
		cols = append(cols, c)
	}
	for _, rg := range meta.RowGroups {
		for ci, cc := range rg.Columns {
			md := cc.MetaData
			pos := md.DataPageOffset
			if md.DictionaryPageOffset > 0 && md.DictionaryPageOffset < pos {
				pos = md.DictionaryPageOffset
			}
			end := pos + md.TotalCompressedSize
			for pos < end {
				r := new(thrift.CompactProtocol).NewReaderFromBytes(data[pos:end])
				var h format.PageHeader
				require.NoError(t, thrift.NewDecoder(r).Decode(&h))
				body := data[pos+int64(r.BytesRead()) : pos+int64(r.BytesRead())+int64(h.CompressedPageSize)]
				pos += int64(r.BytesRead()) + int64(h.CompressedPageSize)
				switch h.Type {
				case format.DataPage:
					dh := h.DataPageHeader.V
					raw := dxDecompress(t, md.Codec, body, int(h.UncompressedPageSize))
					p := dxPage{encoding: dh.Encoding, numValues: int(dh.NumValues)}
					if cols[ci].maxDef > 0 {
						n := int(binary.LittleEndian.Uint32(raw))
						p.defLevels, raw = raw[4:4+n], raw[4+n:]
					}
					p.values = raw
					cols[ci].pages = append(cols[ci].pages, p)
				case format.DataPageV2:
					dh := h.DataPageHeaderV2.V
					lv := int(dh.RepetitionLevelsByteLength + dh.DefinitionLevelsByteLength)
					require.Zero(t, dh.RepetitionLevelsByteLength)
					p := dxPage{encoding: dh.Encoding, numValues: int(dh.NumValues), defLevels: body[:lv]}
					if cols[ci].maxDef == 0 {
						p.defLevels = nil
					}
					p.values = body[lv:]
					if !dh.IsCompressed.Valid || dh.IsCompressed.V {
						p.values = dxDecompress(t, md.Codec, p.values, int(h.UncompressedPageSize)-lv)
					}
					cols[ci].pages = append(cols[ci].pages, p)
				}
			}
		}
	}
	return cols
}

// dxDefLevels decodes n definition levels of bit width 1 (RLE/bit-packing
// hybrid, no length prefix); nil levels mean a required column.
func dxDefLevels(t *testing.T, src []byte, n int) []bool {
	t.Helper()
	out := make([]bool, 0, n)
	if src == nil {
		for range n {
			out = append(out, true)
		}
		return out
	}
	for len(out) < n {
		h, k := binary.Uvarint(src)
		require.Positive(t, k)
		src = src[k:]
		if h&1 == 0 {
			v := src[0] != 0
			src = src[1:]
			for range h >> 1 {
				out = append(out, v)
			}
			continue
		}
		bytes := int(h>>1) * 1
		for _, b := range src[:bytes] {
			for j := range 8 {
				out = append(out, b>>j&1 != 0)
			}
		}
		src = src[bytes:]
	}
	return out[:n]
}

// dxValue holds one column's decoded non-null values in the form of the
// physical type, rendered as strings for comparison.
func dxDecodePage(t *testing.T, c dxColumn, p dxPage, nonNull int) []string {
	t.Helper()
	var out []string
	switch p.encoding {
	case format.DeltaBinaryPacked:
		if c.typ == format.Int32 {
			v, err := delta.DecodeInt32(nil, p.values)
			require.NoError(t, err, c.name)
			for _, x := range v {
				out = append(out, strconv.FormatInt(int64(x), 10))
			}
		} else {
			v, err := delta.DecodeInt64(nil, p.values)
			require.NoError(t, err, c.name)
			for _, x := range v {
				out = append(out, strconv.FormatInt(x, 10))
			}
		}
	case format.DeltaLengthByteArray:
		v, o, err := delta.DecodeLengthByteArray(nil, nil, p.values)
		require.NoError(t, err, c.name)
		out = dxStrings(v, o)
	case format.DeltaByteArray:
		if c.typ == format.FixedLenByteArray {
			v, err := delta.DecodeFixedLenByteArray(nil, p.values, c.typeLen)
			require.NoError(t, err, c.name)
			for i := 0; i < len(v); i += c.typeLen {
				out = append(out, string(v[i:i+c.typeLen]))
			}
		} else {
			v, o, err := delta.DecodeByteArray(nil, nil, p.values)
			require.NoError(t, err, c.name)
			out = dxStrings(v, o)
		}
	case format.ByteStreamSplit:
		k := c.typeLen
		switch c.typ {
		case format.Float, format.Int32:
			k = 4
		case format.Double, format.Int64:
			k = 8
		}
		// The page may carry trailing bytes only if the count says so.
		require.Equal(t, nonNull*k, len(p.values), c.name)
		switch c.typ {
		case format.Float:
			v, err := bytestreamsplit.DecodeFloat32(nil, p.values)
			require.NoError(t, err)
			for _, x := range v {
				out = append(out, strconv.FormatUint(uint64(math.Float32bits(x)), 16))
			}
		case format.Double:
			v, err := bytestreamsplit.DecodeFloat64(nil, p.values)
			require.NoError(t, err)
			for _, x := range v {
				out = append(out, strconv.FormatUint(math.Float64bits(x), 16))
			}
		case format.Int32:
			v, err := bytestreamsplit.DecodeInt32(nil, p.values)
			require.NoError(t, err)
			for _, x := range v {
				out = append(out, strconv.FormatInt(int64(x), 10))
			}
		case format.Int64:
			v, err := bytestreamsplit.DecodeInt64(nil, p.values)
			require.NoError(t, err)
			for _, x := range v {
				out = append(out, strconv.FormatInt(x, 10))
			}
		default:
			v, err := bytestreamsplit.DecodeFixedLenByteArray(nil, p.values, k)
			require.NoError(t, err)
			for i := 0; i < len(v); i += k {
				out = append(out, string(v[i:i+k]))
			}
		}
	case format.Plain:
		return nil // not ours; the caller skips the column
	default:
		t.Fatalf("%s: encoding %v", c.name, p.encoding)
	}
	require.Len(t, out, nonNull, c.name)
	return out
}

// dxRows decodes every column with our decoders: per row, the value or nil
// for a null. ok is false for columns in encodings this file does not cover.
func dxRows(t *testing.T, c dxColumn) (rows []*string, ok bool) {
	t.Helper()
	for _, p := range c.pages {
		defined := dxDefLevels(t, p.defLevels, p.numValues)
		nonNull := 0
		for _, d := range defined {
			if d {
				nonNull++
			}
		}
		vals := dxDecodePage(t, c, p, nonNull)
		if p.encoding == format.Plain {
			return nil, false
		}
		for _, d := range defined {
			if d {
				rows = append(rows, &vals[0])
				vals = vals[1:]
			} else {
				rows = append(rows, nil)
			}
		}
	}
	return rows, true
}

// dxParquetGoRows reads column ci of the file with parquet-go, rendered as
// dxDecodePage renders our values.
func dxParquetGoRows(t *testing.T, data []byte, ci int, c dxColumn) []*string {
	t.Helper()
	f, err := pq.OpenFile(bytes.NewReader(data), int64(len(data)))
	require.NoError(t, err)
	var rows []*string
	for _, rg := range f.RowGroups() {
		pages := rg.ColumnChunks()[ci].Pages()
		for {
			p, err := pages.ReadPage()
			if err == io.EOF {
				break
			}
			require.NoError(t, err)
			vr := p.Values()
			buf := make([]pq.Value, 64)
			for {
				n, err := vr.ReadValues(buf)
				for _, v := range buf[:n] {
					if v.IsNull() {
						rows = append(rows, nil)
						continue
					}
					var s string
					switch c.typ {
					case format.Int32:
						s = strconv.FormatInt(int64(v.Int32()), 10)
					case format.Int64:
						s = strconv.FormatInt(v.Int64(), 10)
					case format.Float:
						s = strconv.FormatUint(uint64(math.Float32bits(v.Float())), 16)
					case format.Double:
						s = strconv.FormatUint(math.Float64bits(v.Double()), 16)
					default:
						s = string(v.ByteArray())
					}
					rows = append(rows, &s)
				}
				if err == io.EOF {
					break
				}
				require.NoError(t, err)
			}
		}
		require.NoError(t, pages.Close())
	}
	return rows
}

func dxDeref(rows []*string) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		if r == nil {
			out[i] = "<null>"
		} else {
			out[i] = *r
		}
	}
	return out
}

// TestDeltaRealFiles decodes every delta and BYTE_STREAM_SPLIT page of the
// corpus files with our decoders and compares them with parquet-go's reading
// of the same files and, where the corpus has one, with the expected CSV.
func TestDeltaRealFiles(t *testing.T) {
	for _, tc := range []struct{ file, csv string }{
		{"delta_binary_packed.parquet", "delta_binary_packed_expect.csv"},
		{"delta_byte_array.parquet", "delta_byte_array_expect.csv"},
		{"delta_encoding_optional_column.parquet", "delta_encoding_optional_column_expect.csv"},
		{"delta_encoding_required_column.parquet", "delta_encoding_required_column_expect.csv"},
		{"delta_length_byte_array.parquet", ""},
		{"byte_stream_split.zstd.parquet", ""},
		{"byte_stream_split_extended.gzip.parquet", ""},
	} {
		t.Run(tc.file, func(t *testing.T) {
			data, err := os.ReadFile(testcorpus.Data(t, tc.file))
			require.NoError(t, err)
			cols := dxReadPages(t, data)
			var records [][]string
			if tc.csv != "" {
				f, err := os.Open(testcorpus.Data(t, tc.csv))
				require.NoError(t, err)
				defer f.Close()
				records, err = csv.NewReader(f).ReadAll()
				require.NoError(t, err)
				require.Len(t, records[0], len(cols))
				records = records[1:]
			}
			decoded := 0
			for ci, c := range cols {
				rows, ok := dxRows(t, c)
				if !ok {
					continue
				}
				decoded++
				require.Equal(t, dxDeref(dxParquetGoRows(t, data, ci, c)), dxDeref(rows), "column %s", c.name)
				if records == nil {
					continue
				}
				require.Len(t, records, len(rows), c.name)
				for i, r := range rows {
					want := records[i][ci]
					if r == nil {
						require.Empty(t, want, "%s row %d is null", c.name, i)
					} else {
						require.Equal(t, want, *r, "%s row %d", c.name, i)
					}
				}
			}
			require.Positive(t, decoded)
			t.Logf("%d of %d columns decoded, %d CSV rows checked", decoded, len(cols), len(records))
		})
	}
}

// TestDeltaBSSExtendedTwins checks each BYTE_STREAM_SPLIT column of the
// extended file decodes to the values of its PLAIN twin column.
func TestDeltaBSSExtendedTwins(t *testing.T) {
	data, err := os.ReadFile(testcorpus.Data(t, "byte_stream_split_extended.gzip.parquet"))
	require.NoError(t, err)
	cols := dxReadPages(t, data)
	byName := map[string]int{}
	for i, c := range cols {
		byName[c.name] = i
	}
	twins := 0
	for ci, c := range cols {
		base, ok := strings.CutSuffix(c.name, "_byte_stream_split")
		if !ok {
			continue
		}
		pi, ok := byName[base+"_plain"]
		require.True(t, ok, "no plain twin for %s", c.name)
		ours, ok := dxRows(t, c)
		require.True(t, ok)
		require.Equal(t, dxDeref(dxParquetGoRows(t, data, pi, cols[pi])), dxDeref(ours), c.name)
		_ = ci
		twins++
	}
	require.Equal(t, 7, twins)
}

// ---- apache/arrow-go, both ways, through files ----

// dxArrowWrite writes values with arrow-go in one column of the given
// encoding and returns the file.
func dxArrowWrite(t *testing.T, node *schema.PrimitiveNode, enc parquet.Encoding, v2 bool, write func(file.ColumnChunkWriter) error) []byte {
	t.Helper()
	root, err := schema.NewGroupNode("schema", parquet.Repetitions.Required, schema.FieldList{node}, -1)
	require.NoError(t, err)
	version := parquet.DataPageV1
	if v2 {
		version = parquet.DataPageV2
	}
	props := parquet.NewWriterProperties(parquet.WithDictionaryDefault(false), parquet.WithEncoding(enc),
		parquet.WithDataPageVersion(version), parquet.WithDataPageSize(1<<16))
	var buf bytes.Buffer
	w := file.NewParquetWriter(&buf, root, file.WithWriterProps(props))
	rg := w.AppendRowGroup()
	cw, err := rg.NextColumn()
	require.NoError(t, err)
	require.NoError(t, write(cw))
	require.NoError(t, cw.Close())
	require.NoError(t, rg.Close())
	require.NoError(t, w.Close())
	return buf.Bytes()
}

// dxOurFile wraps one page our encoder wrote in a minimal parquet file with
// a single required column.
func dxOurFile(t testing.TB, typ format.Type, typeLen int, enc format.Encoding, n int, page []byte) []byte {
	t.Helper()
	h := format.PageHeader{
		Type:                 format.DataPage,
		UncompressedPageSize: int32(len(page)),
		CompressedPageSize:   int32(len(page)),
		DataPageHeader: thrift.New(format.DataPageHeader{
			NumValues: int32(n), Encoding: enc,
			DefinitionLevelEncoding: format.RLE, RepetitionLevelEncoding: format.RLE,
		}),
	}
	hb, err := thrift.Marshal(new(thrift.CompactProtocol), &h)
	require.NoError(t, err)
	out := append([]byte("PAR1"), hb...)
	out = append(out, page...)
	leaf := format.SchemaElement{Type: thrift.New(typ), RepetitionType: thrift.New(format.Required), Name: "v"}
	if typeLen > 0 {
		leaf.TypeLength = thrift.New(int32(typeLen))
	}
	size := int64(len(hb) + len(page))
	meta := format.FileMetaData{
		Version: 1,
		Schema: thrift.Slice[format.SchemaElement]{
			{Name: "schema", NumChildren: thrift.New(int32(1))},
			leaf,
		},
		NumRows: int64(n),
		RowGroups: thrift.Slice[format.RowGroup]{{
			Columns: thrift.Slice[format.ColumnChunk]{{
				FileOffset: 4,
				MetaData: format.ColumnMetaData{
					Type: typ, Encoding: thrift.Slice[format.Encoding]{enc}, PathInSchema: thrift.Slice[string]{"v"},
					Codec: format.Uncompressed, NumValues: int64(n), TotalUncompressedSize: size,
					TotalCompressedSize: size, DataPageOffset: 4,
				},
			}},
			TotalByteSize: size,
			NumRows:       int64(n),
		}},
	}
	mb, err := thrift.Marshal(new(thrift.CompactProtocol), &meta)
	require.NoError(t, err)
	out = append(out, mb...)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(mb)))
	return append(out, "PAR1"...)
}

func dxArrowReader(t *testing.T, data []byte) file.ColumnChunkReader {
	t.Helper()
	r, err := file.NewParquetReader(bytes.NewReader(data))
	require.NoError(t, err)
	col, err := r.RowGroup(0).Column(0)
	require.NoError(t, err)
	return col
}

func TestDeltaArrowGoBinaryPacked(t *testing.T) {
	for name, v := range dxInt64Sets() {
		if len(v) == 0 {
			continue // arrow-go writes no page for an empty column
		}
		v32 := dxInt32(v)
		for _, v2 := range []bool{false, true} {
			// arrow-go -> ours.
			data := dxArrowWrite(t, schema.NewInt64Node("v", parquet.Repetitions.Required, -1),
				parquet.Encodings.DeltaBinaryPacked, v2, func(cw file.ColumnChunkWriter) error {
					_, err := cw.(*file.Int64ColumnChunkWriter).WriteBatch(v, nil, nil)
					return err
				})
			var got []int64
			for _, p := range dxReadPages(t, data)[0].pages {
				require.Equal(t, format.DeltaBinaryPacked, p.encoding)
				var err error
				got, err = delta.DecodeInt64(got, p.values)
				require.NoError(t, err, name)
			}
			require.Equal(t, v, got, name)

			data = dxArrowWrite(t, schema.NewInt32Node("v", parquet.Repetitions.Required, -1),
				parquet.Encodings.DeltaBinaryPacked, v2, func(cw file.ColumnChunkWriter) error {
					_, err := cw.(*file.Int32ColumnChunkWriter).WriteBatch(v32, nil, nil)
					return err
				})
			var got32 []int32
			for _, p := range dxReadPages(t, data)[0].pages {
				var err error
				got32, err = delta.DecodeInt32(got32, p.values)
				require.NoError(t, err, name)
			}
			require.Equal(t, v32, got32, name)
		}

		// ours -> arrow-go.
		col := dxArrowReader(t, dxOurFile(t, format.Int64, 0, format.DeltaBinaryPacked, len(v), delta.EncodeInt64(nil, v)))
		out := make([]int64, len(v))
		total, n, err := col.(*file.Int64ColumnChunkReader).ReadBatch(int64(len(v)), out, nil, nil)
		require.NoError(t, err, name)
		require.Equal(t, len(v), n)
		require.EqualValues(t, len(v), total)
		require.Equal(t, v, out, name)

		col = dxArrowReader(t, dxOurFile(t, format.Int32, 0, format.DeltaBinaryPacked, len(v), delta.EncodeInt32(nil, v32)))
		out32 := make([]int32, len(v))
		_, n, err = col.(*file.Int32ColumnChunkReader).ReadBatch(int64(len(v)), out32, nil, nil)
		require.NoError(t, err, name)
		require.Equal(t, len(v), n)
		require.Equal(t, v32, out32, name)
	}
}

func TestDeltaArrowGoByteArrays(t *testing.T) {
	for name, strs := range dxStringSets() {
		if len(strs) == 0 {
			continue
		}
		ba := make([]parquet.ByteArray, len(strs))
		for i, s := range strs {
			ba[i] = parquet.ByteArray(s)
		}
		values, offsets := dxFlat(strs)
		for _, c := range []struct {
			arrow  parquet.Encoding
			ours   format.Encoding
			encode func([]byte, []byte, []int32) ([]byte, error)
			decode func([]byte, []int32, []byte) ([]byte, []int32, error)
		}{
			{parquet.Encodings.DeltaLengthByteArray, format.DeltaLengthByteArray, delta.EncodeLengthByteArray, delta.DecodeLengthByteArray},
			{parquet.Encodings.DeltaByteArray, format.DeltaByteArray, delta.EncodeByteArray, delta.DecodeByteArray},
		} {
			for _, v2 := range []bool{false, true} {
				data := dxArrowWrite(t, schema.NewByteArrayNode("v", parquet.Repetitions.Required, -1), c.arrow, v2,
					func(cw file.ColumnChunkWriter) error {
						_, err := cw.(*file.ByteArrayColumnChunkWriter).WriteBatch(ba, nil, nil)
						return err
					})
				var gv []byte
				var gotOffsets []int32
				for _, p := range dxReadPages(t, data)[0].pages {
					require.Equal(t, c.ours, p.encoding)
					var err error
					gv, gotOffsets, err = c.decode(gv, gotOffsets, p.values)
					require.NoError(t, err, "%v %s", c.ours, name)
				}
				require.Equal(t, strs, dxStrings(gv, gotOffsets), "%v %s: arrow-go -> ours", c.ours, name)
			}
			page, err := c.encode(nil, values, offsets)
			require.NoError(t, err)
			col := dxArrowReader(t, dxOurFile(t, format.ByteArray, 0, c.ours, len(strs), page))
			out := make([]parquet.ByteArray, len(strs))
			_, n, err := col.(*file.ByteArrayColumnChunkReader).ReadBatch(int64(len(strs)), out, nil, nil)
			require.NoError(t, err, "%v %s", c.ours, name)
			require.Equal(t, len(strs), n)
			for i := range strs {
				require.Equal(t, strs[i], string(out[i]), "%v %s: ours -> arrow-go, value %d", c.ours, name, i)
			}
		}
	}
}

func TestDeltaArrowGoByteStreamSplit(t *testing.T) {
	for _, n := range []int{1, 15, 16, 17, 1000} {
		f32, f64 := dxFloats(n, n%2 == 0)
		data := dxArrowWrite(t, schema.NewFloat64Node("v", parquet.Repetitions.Required, -1),
			parquet.Encodings.ByteStreamSplit, false, func(cw file.ColumnChunkWriter) error {
				_, err := cw.(*file.Float64ColumnChunkWriter).WriteBatch(f64, nil, nil)
				return err
			})
		var got []float64
		for _, p := range dxReadPages(t, data)[0].pages {
			require.Equal(t, format.ByteStreamSplit, p.encoding)
			var err error
			got, err = bytestreamsplit.DecodeFloat64(got, p.values)
			require.NoError(t, err)
		}
		require.Equal(t, bytestreamsplit.EncodeFloat64(nil, f64), bytestreamsplit.EncodeFloat64(nil, got))

		col := dxArrowReader(t, dxOurFile(t, format.Float, 0, format.ByteStreamSplit, n, bytestreamsplit.EncodeFloat32(nil, f32)))
		out := make([]float32, n)
		_, m, err := col.(*file.Float32ColumnChunkReader).ReadBatch(int64(n), out, nil, nil)
		require.NoError(t, err)
		require.Equal(t, n, m)
		require.Equal(t, bytestreamsplit.EncodeFloat32(nil, f32), bytestreamsplit.EncodeFloat32(nil, out))

		fl := make([]byte, 5*n)
		for i := range fl {
			fl[i] = byte(i * 13)
		}
		page, err := bytestreamsplit.EncodeFixedLenByteArray(nil, fl, 5)
		require.NoError(t, err)
		col = dxArrowReader(t, dxOurFile(t, format.FixedLenByteArray, 5, format.ByteStreamSplit, n, page))
		outFL := make([]parquet.FixedLenByteArray, n)
		_, m, err = col.(*file.FixedLenByteArrayColumnChunkReader).ReadBatch(int64(n), outFL, nil, nil)
		require.NoError(t, err)
		require.Equal(t, n, m)
		for i := range n {
			require.Equal(t, fl[5*i:5*i+5], []byte(outFL[i]))
		}
	}
}

// ---- benchmarks against the peers ----
//
// Every case runs each implementation under the sub-benchmark key impl=, so
// `benchstat -col /impl` prints the ratios. arrow-go exposes its encoders
// only through its file API, so its rows decode a one-page, uncompressed file
// with a ColumnChunkReader, which adds page-header and footer parsing to the
// decoding proper.

var dxBenchSizes = []int{64 << 10, 1 << 20}

func dxMvalues(b *testing.B, n int) {
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mvalues/s")
}

func dxSizeName(size int) string {
	if size >= 1<<20 {
		return fmt.Sprintf("%dMiB", size>>20)
	}
	return fmt.Sprintf("%dKiB", size>>10)
}

// dxArrowDecode benchmarks arrow-go reading n values of the one-page file.
func dxArrowDecode(b *testing.B, data []byte, n int, read func(file.ColumnChunkReader) (int, error)) {
	b.Helper()
	open := func() file.ColumnChunkReader {
		r, err := file.NewParquetReader(bytes.NewReader(data))
		if err != nil {
			b.Fatal(err)
		}
		col, err := r.RowGroup(0).Column(0)
		if err != nil {
			b.Fatal(err)
		}
		return col
	}
	if m, err := read(open()); err != nil || m != n {
		b.Fatalf("arrow-go read %d of %d: %v", m, n, err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		_, _ = read(open())
	}
	dxMvalues(b, n)
}

func BenchmarkDeltaBinaryPackedPeers(b *testing.B) {
	var pe pqdelta.BinaryPackedEncoding
	for _, size := range dxBenchSizes {
		ints32, ints64 := benchdata.Int32s(size), benchdata.Int64s(size)
		for name, v := range ints32 {
			page := delta.EncodeInt32(nil, v)
			prefix := fmt.Sprintf("int32/%s/%s", name, dxSizeName(size))
			b.Run("decode/"+prefix+"/impl=ours", func(b *testing.B) {
				dst, err := delta.DecodeInt32(nil, page)
				require.NoError(b, err)
				require.Equal(b, v, dst)
				b.SetBytes(int64(4 * len(v)))
				b.ReportAllocs()
				for b.Loop() {
					dst, _ = delta.DecodeInt32(dst[:0], page)
				}
				dxMvalues(b, len(v))
			})
			b.Run("decode/"+prefix+"/impl=parquet-go", func(b *testing.B) {
				dst, err := pe.DecodeInt32(nil, page)
				require.NoError(b, err)
				require.Equal(b, v, dst)
				b.SetBytes(int64(4 * len(v)))
				b.ReportAllocs()
				for b.Loop() {
					dst, _ = pe.DecodeInt32(dst[:0], page)
				}
				dxMvalues(b, len(v))
			})
			b.Run("decode/"+prefix+"/impl=arrow-go", func(b *testing.B) {
				data := dxOurFile(b, format.Int32, 0, format.DeltaBinaryPacked, len(v), page)
				out := make([]int32, len(v))
				b.SetBytes(int64(4 * len(v)))
				dxArrowDecode(b, data, len(v), func(c file.ColumnChunkReader) (int, error) {
					_, n, err := c.(*file.Int32ColumnChunkReader).ReadBatch(int64(len(out)), out, nil, nil)
					return n, err
				})
			})
			b.Run("encode/"+prefix+"/impl=ours", func(b *testing.B) {
				out := delta.EncodeInt32(nil, v)
				b.SetBytes(int64(4 * len(v)))
				b.ReportAllocs()
				for b.Loop() {
					out = delta.EncodeInt32(out[:0], v)
				}
				dxMvalues(b, len(v))
			})
			b.Run("encode/"+prefix+"/impl=parquet-go", func(b *testing.B) {
				out, _ := pe.EncodeInt32(nil, v)
				b.SetBytes(int64(4 * len(v)))
				b.ReportAllocs()
				for b.Loop() {
					out, _ = pe.EncodeInt32(out[:0], v)
				}
				dxMvalues(b, len(v))
			})
		}
		for name, v := range ints64 {
			page := delta.EncodeInt64(nil, v)
			prefix := fmt.Sprintf("int64/%s/%s", name, dxSizeName(size))
			b.Run("decode/"+prefix+"/impl=ours", func(b *testing.B) {
				dst, err := delta.DecodeInt64(nil, page)
				require.NoError(b, err)
				require.Equal(b, v, dst)
				b.SetBytes(int64(8 * len(v)))
				b.ReportAllocs()
				for b.Loop() {
					dst, _ = delta.DecodeInt64(dst[:0], page)
				}
				dxMvalues(b, len(v))
			})
			b.Run("decode/"+prefix+"/impl=parquet-go", func(b *testing.B) {
				dst, err := pe.DecodeInt64(nil, page)
				require.NoError(b, err)
				require.Equal(b, v, dst)
				b.SetBytes(int64(8 * len(v)))
				b.ReportAllocs()
				for b.Loop() {
					dst, _ = pe.DecodeInt64(dst[:0], page)
				}
				dxMvalues(b, len(v))
			})
			b.Run("decode/"+prefix+"/impl=arrow-go", func(b *testing.B) {
				data := dxOurFile(b, format.Int64, 0, format.DeltaBinaryPacked, len(v), page)
				out := make([]int64, len(v))
				b.SetBytes(int64(8 * len(v)))
				dxArrowDecode(b, data, len(v), func(c file.ColumnChunkReader) (int, error) {
					_, n, err := c.(*file.Int64ColumnChunkReader).ReadBatch(int64(len(out)), out, nil, nil)
					return n, err
				})
			})
			b.Run("encode/"+prefix+"/impl=ours", func(b *testing.B) {
				out := delta.EncodeInt64(nil, v)
				b.SetBytes(int64(8 * len(v)))
				b.ReportAllocs()
				for b.Loop() {
					out = delta.EncodeInt64(out[:0], v)
				}
				dxMvalues(b, len(v))
			})
			b.Run("encode/"+prefix+"/impl=parquet-go", func(b *testing.B) {
				out, _ := pe.EncodeInt64(nil, v)
				b.SetBytes(int64(8 * len(v)))
				b.ReportAllocs()
				for b.Loop() {
					out, _ = pe.EncodeInt64(out[:0], v)
				}
				dxMvalues(b, len(v))
			})
		}
	}
}

func BenchmarkDeltaByteArrayPeers(b *testing.B) {
	var pqDLBA pqdelta.LengthByteArrayEncoding
	var pqDBA pqdelta.ByteArrayEncoding
	for _, size := range dxBenchSizes {
		for name, strs := range benchdata.Strings(size) {
			values, offsets := dxFlat(strs)
			ba := make([]parquet.ByteArray, len(strs))
			for i, s := range strs {
				ba[i] = parquet.ByteArray(s)
			}
			for _, c := range []struct {
				name   string
				enc    format.Encoding
				ourEnc func([]byte, []byte, []int32) ([]byte, error)
				ourDec func([]byte, []int32, []byte) ([]byte, []int32, error)
				pqDec  func([]byte, []byte, []uint32) ([]byte, []uint32, error)
			}{
				{"DLBA", format.DeltaLengthByteArray, delta.EncodeLengthByteArray, delta.DecodeLengthByteArray, pqDLBA.DecodeByteArray},
				{"DBA", format.DeltaByteArray, delta.EncodeByteArray, delta.DecodeByteArray, pqDBA.DecodeByteArray},
			} {
				page, err := c.ourEnc(nil, values, offsets)
				require.NoError(b, err)
				prefix := fmt.Sprintf("decode/%s/%s/%s", c.name, name, dxSizeName(size))
				b.Run(prefix+"/impl=ours", func(b *testing.B) {
					v, o, err := c.ourDec(nil, nil, page)
					require.NoError(b, err)
					require.Equal(b, strs, dxStrings(v, o))
					b.SetBytes(int64(len(values)))
					b.ReportAllocs()
					for b.Loop() {
						v, o, _ = c.ourDec(v[:0], o[:0], page)
					}
					dxMvalues(b, len(strs))
				})
				b.Run(prefix+"/impl=parquet-go", func(b *testing.B) {
					v, o, err := c.pqDec(nil, page, nil)
					require.NoError(b, err)
					require.Equal(b, strs, dxFromPQ(v, o))
					b.SetBytes(int64(len(values)))
					b.ReportAllocs()
					for b.Loop() {
						v, o, _ = c.pqDec(v[:0], page, o[:0])
					}
					dxMvalues(b, len(strs))
				})
				b.Run(prefix+"/impl=arrow-go", func(b *testing.B) {
					data := dxOurFile(b, format.ByteArray, 0, c.enc, len(strs), page)
					out := make([]parquet.ByteArray, len(strs))
					b.SetBytes(int64(len(values)))
					dxArrowDecode(b, data, len(strs), func(cr file.ColumnChunkReader) (int, error) {
						_, n, err := cr.(*file.ByteArrayColumnChunkReader).ReadBatch(int64(len(out)), out, nil, nil)
						return n, err
					})
				})
			}
		}
	}
}

func BenchmarkDeltaByteStreamSplitPeers(b *testing.B) {
	var pe pqbss.Encoding
	for _, size := range dxBenchSizes {
		for _, smooth := range []bool{true, false} {
			shape := "random"
			if smooth {
				shape = "smooth"
			}
			f32, _ := dxFloats(size/4, smooth)
			_, f64 := dxFloats(size/8, smooth)
			p32 := bytestreamsplit.EncodeFloat32(nil, f32)
			p64 := bytestreamsplit.EncodeFloat64(nil, f64)
			pre := fmt.Sprintf("decode/float32/%s/%s", shape, dxSizeName(size))
			b.Run(pre+"/impl=ours", func(b *testing.B) {
				dst, err := bytestreamsplit.DecodeFloat32(nil, p32)
				require.NoError(b, err)
				require.Equal(b, p32, bytestreamsplit.EncodeFloat32(nil, dst))
				b.SetBytes(int64(len(p32)))
				b.ReportAllocs()
				for b.Loop() {
					dst, _ = bytestreamsplit.DecodeFloat32(dst[:0], p32)
				}
				dxMvalues(b, len(f32))
			})
			b.Run(pre+"/impl=parquet-go", func(b *testing.B) {
				dst, err := pe.DecodeFloat(nil, p32)
				require.NoError(b, err)
				require.Equal(b, p32, bytestreamsplit.EncodeFloat32(nil, dst))
				b.SetBytes(int64(len(p32)))
				b.ReportAllocs()
				for b.Loop() {
					dst, _ = pe.DecodeFloat(dst[:0], p32)
				}
				dxMvalues(b, len(f32))
			})
			b.Run(pre+"/impl=arrow-go", func(b *testing.B) {
				data := dxOurFile(b, format.Float, 0, format.ByteStreamSplit, len(f32), p32)
				out := make([]float32, len(f32))
				b.SetBytes(int64(len(p32)))
				dxArrowDecode(b, data, len(f32), func(c file.ColumnChunkReader) (int, error) {
					_, n, err := c.(*file.Float32ColumnChunkReader).ReadBatch(int64(len(out)), out, nil, nil)
					return n, err
				})
			})
			pre = fmt.Sprintf("decode/float64/%s/%s", shape, dxSizeName(size))
			b.Run(pre+"/impl=ours", func(b *testing.B) {
				dst, err := bytestreamsplit.DecodeFloat64(nil, p64)
				require.NoError(b, err)
				require.Equal(b, p64, bytestreamsplit.EncodeFloat64(nil, dst))
				b.SetBytes(int64(len(p64)))
				b.ReportAllocs()
				for b.Loop() {
					dst, _ = bytestreamsplit.DecodeFloat64(dst[:0], p64)
				}
				dxMvalues(b, len(f64))
			})
			b.Run(pre+"/impl=parquet-go", func(b *testing.B) {
				dst, err := pe.DecodeDouble(nil, p64)
				require.NoError(b, err)
				require.Equal(b, p64, bytestreamsplit.EncodeFloat64(nil, dst))
				b.SetBytes(int64(len(p64)))
				b.ReportAllocs()
				for b.Loop() {
					dst, _ = pe.DecodeDouble(dst[:0], p64)
				}
				dxMvalues(b, len(f64))
			})
			b.Run(pre+"/impl=arrow-go", func(b *testing.B) {
				data := dxOurFile(b, format.Double, 0, format.ByteStreamSplit, len(f64), p64)
				out := make([]float64, len(f64))
				b.SetBytes(int64(len(p64)))
				dxArrowDecode(b, data, len(f64), func(c file.ColumnChunkReader) (int, error) {
					_, n, err := c.(*file.Float64ColumnChunkReader).ReadBatch(int64(len(out)), out, nil, nil)
					return n, err
				})
			})
		}
	}
}
