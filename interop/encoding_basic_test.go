package interop_test

// Cross-implementation and real-data tests of encoding/plain, encoding/rle,
// encoding/bitpacked and encoding/dictionary against parquet-go and
// apache/arrow-go. Helpers carry a bx prefix so they stay apart from other
// test files of the package.

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/schema"
	"github.com/klauspost/compress/snappy"
	"github.com/parquet-go/parquet-go/deprecated"
	pqbitpacked "github.com/parquet-go/parquet-go/encoding/bitpacked"
	pqplain "github.com/parquet-go/parquet-go/encoding/plain"
	pqrle "github.com/parquet-go/parquet-go/encoding/rle"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/encoding/bitpacked"
	"github.com/pqcodec/pqcodec/encoding/dictionary"
	"github.com/pqcodec/pqcodec/encoding/plain"
	"github.com/pqcodec/pqcodec/encoding/rle"
	"github.com/pqcodec/pqcodec/internal/benchdata"
	"github.com/pqcodec/pqcodec/internal/testcorpus"
)

// ---- data ----

// bxRuns returns n values below 1<<width made of runs of the given mean
// length mixed with noise: the shapes of levels and dictionary indices.
func bxRuns(r *rand.Rand, n int, width uint, meanRun int) []uint32 {
	mask := uint32(uint64(1)<<width - 1)
	out := make([]uint32, 0, n)
	for len(out) < n {
		l := min(n-len(out), 1+r.IntN(2*meanRun))
		if r.IntN(3) != 0 {
			v := r.Uint32() & mask
			for range l {
				out = append(out, v)
			}
		} else {
			for range l {
				out = append(out, r.Uint32()&mask)
			}
		}
	}
	return out
}

func bxStrings(n, card int, r *rand.Rand) ([]byte, []int32) {
	var values []byte
	offsets := []int32{0}
	for range n {
		k := r.IntN(card)
		values = append(values, fmt.Sprintf("s%d%s", k, strings.Repeat("x", k%17))...)
		offsets = append(offsets, int32(len(values)))
	}
	return values, offsets
}

// ---- parquet-go, both ways, encoding packages ----

func TestBasicParquetGoPlain(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var pe pqplain.Encoding
	for _, n := range []int{0, 1, 7, 1000} {
		i32 := make([]int32, n)
		i64 := make([]int64, n)
		f32 := make([]float32, n)
		f64 := make([]float64, n)
		i96 := make([][12]byte, n)
		pi96 := make([]deprecated.Int96, n)
		bools := make([]bool, n)
		for i := range n {
			i32[i], i64[i] = int32(r.Uint32()), int64(r.Uint64())
			f32[i], f64[i] = float32(r.NormFloat64()), r.NormFloat64()
			pi96[i] = deprecated.Int96{r.Uint32(), r.Uint32(), r.Uint32()}
			binary.LittleEndian.PutUint32(i96[i][0:], pi96[i][0])
			binary.LittleEndian.PutUint32(i96[i][4:], pi96[i][1])
			binary.LittleEndian.PutUint32(i96[i][8:], pi96[i][2])
			bools[i] = r.IntN(2) == 0
		}
		theirs, err := pe.EncodeInt32(nil, i32)
		require.NoError(t, err)
		require.Equal(t, theirs, plain.Encode(theirs[:0:0], i32))
		got32, err := plain.Decode[int32](nil, theirs)
		require.NoError(t, err)
		require.Equal(t, len(i32), len(got32))
		back32, err := pe.DecodeInt32(nil, plain.Encode(nil, i32))
		require.NoError(t, err)
		require.Equal(t, len(i32), len(back32))
		if n > 0 {
			require.Equal(t, i32, got32)
			require.Equal(t, i32, back32)
		}

		theirs, err = pe.EncodeInt64(nil, i64)
		require.NoError(t, err)
		require.True(t, bytes.Equal(theirs, plain.Encode(nil, i64)))
		theirs, err = pe.EncodeFloat(nil, f32)
		require.NoError(t, err)
		require.True(t, bytes.Equal(theirs, plain.Encode(nil, f32)))
		theirs, err = pe.EncodeDouble(nil, f64)
		require.NoError(t, err)
		require.True(t, bytes.Equal(theirs, plain.Encode(nil, f64)))
		gotF, err := plain.Decode[float64](nil, theirs)
		require.NoError(t, err)
		require.True(t, bytes.Equal(theirs, plain.Encode(nil, gotF)))
		theirs, err = pe.EncodeInt96(nil, pi96)
		require.NoError(t, err)
		require.True(t, bytes.Equal(theirs, plain.Encode(nil, i96)))
		back96, err := pe.DecodeInt96(nil, plain.Encode(nil, i96))
		require.NoError(t, err)
		require.Equal(t, len(pi96), len(back96))
		if n > 0 {
			require.Equal(t, pi96, back96)
		}

		// Booleans: parquet-go keeps them as a bitmap, which is the PLAIN
		// encoding itself.
		ours := plain.EncodeBoolean(nil, bools)
		gotB, err := plain.DecodeBoolean(nil, ours, n)
		require.NoError(t, err)
		require.Equal(t, len(bools), len(gotB))
		theirs, err = pe.EncodeBoolean(nil, ours)
		require.NoError(t, err)
		require.True(t, bytes.Equal(theirs, ours))

		// Byte arrays and fixed-length byte arrays.
		values, offsets := bxStrings(n, 50, r)
		uoffs := make([]uint32, len(offsets))
		for i, o := range offsets {
			uoffs[i] = uint32(o)
		}
		theirs, err = pe.EncodeByteArray(nil, values, uoffs)
		require.NoError(t, err)
		require.True(t, bytes.Equal(theirs, plain.EncodeByteArray(nil, values, offsets)))
		gv, gofs, err := plain.DecodeByteArray(nil, nil, theirs)
		require.NoError(t, err)
		require.True(t, bytes.Equal(values, gv))
		require.Equal(t, offsets, gofs)
		tv, tofs, err := pe.DecodeByteArray(nil, plain.EncodeByteArray(nil, values, offsets), nil)
		require.NoError(t, err)
		require.True(t, bytes.Equal(values, tv))
		require.Equal(t, uoffs, tofs)

		fl := make([]byte, 16*n)
		for i := range fl {
			fl[i] = byte(r.Uint32())
		}
		theirs, err = pe.EncodeFixedLenByteArray(nil, fl, 16)
		require.NoError(t, err)
		gfl, err := plain.DecodeFixedLenByteArray(nil, theirs, 16)
		require.NoError(t, err)
		require.True(t, bytes.Equal(fl, gfl))
	}
}

// bxShapes returns value sets of the given width: runs of several mean
// lengths, all equal, alternating, random.
func bxShapes(r *rand.Rand, width uint) map[string][]uint32 {
	mask := uint32(uint64(1)<<width - 1)
	sets := map[string][]uint32{
		"one":    {mask},
		"short":  bxRuns(r, 13, width, 3),
		"runs4":  bxRuns(r, 3000, width, 4),
		"runs30": bxRuns(r, 3000, width, 30),
		"runs1k": bxRuns(r, 10000, width, 1000),
	}
	eq := make([]uint32, 999)
	alt := make([]uint32, 1001)
	rnd := make([]uint32, 2049)
	for i := range eq {
		eq[i] = mask / 2
	}
	for i := range alt {
		alt[i] = mask * uint32(i&1)
	}
	for i := range rnd {
		rnd[i] = r.Uint32() & mask
	}
	sets["equal"], sets["alternating"], sets["random"] = eq, alt, rnd
	return sets
}

func TestBasicParquetGoRLE(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for width := uint(1); width <= 32; width++ {
		for name, vals := range bxShapes(r, width) {
			n := len(vals)
			i32 := make([]int32, n)
			for i, v := range vals {
				i32[i] = int32(v)
			}
			pe := pqrle.Encoding{BitWidth: int(width)}
			// parquet-go -> ours.
			theirs, err := pe.EncodeInt32(nil, i32)
			require.NoError(t, err)
			got, err := rle.Decode(nil, theirs, width, n)
			require.NoError(t, err, "width %d %s", width, name)
			require.Equal(t, vals, got, "width %d %s", width, name)
			// ours -> parquet-go (it decodes the padding of the last group
			// too, so compare the first n).
			ours, err := rle.Encode(nil, vals, width)
			require.NoError(t, err)
			back, err := pe.DecodeInt32(nil, ours)
			require.NoError(t, err, "width %d %s", width, name)
			require.GreaterOrEqual(t, len(back), n)
			require.Equal(t, i32, back[:n], "width %d %s", width, name)

			if width <= 8 {
				levels := make([]uint8, n)
				for i, v := range vals {
					levels[i] = uint8(v)
				}
				theirs, err := pe.EncodeLevels(nil, levels)
				require.NoError(t, err)
				got, err := rle.Decode(nil, theirs, width, n)
				require.NoError(t, err, "levels width %d %s", width, name)
				require.Equal(t, vals, got)
				ours, err := rle.Encode(nil, levels, width)
				require.NoError(t, err)
				backL, err := pe.DecodeLevels(nil, ours)
				require.NoError(t, err)
				require.Equal(t, levels, backL[:n])
			}
		}
	}
}

func TestBasicParquetGoBoolean(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	var pe pqrle.Encoding
	compared := 0
	defer func() { require.Positive(t, compared, "no stream parquet-go can read") }()
	for _, n := range []int{8, 16, 64, 1000, 4096} {
		for _, p := range []int{0, 1, 50, 95, 100} {
			bools := make([]bool, n)
			for i := range bools {
				bools[i] = r.IntN(100) < p
			}
			bitmap := plain.EncodeBoolean(nil, bools) // parquet-go's in-memory form
			theirs, err := pe.EncodeBoolean(nil, bitmap)
			require.NoError(t, err)
			got, rest, err := rle.DecodeBoolean(nil, theirs, n)
			require.NoError(t, err, "n %d p %d", n, p)
			require.Empty(t, rest)
			require.Equal(t, bools, got, "n %d p %d", n, p)

			// parquet-go decodes booleans into a bitmap by whole bytes: it
			// reads an RLE run of true written as the spec says (value byte
			// 1) as the byte 0x01 repeated, its own writer using 0xFF, and
			// misaligns after a run whose length is not a multiple of 8.
			// Compare only streams it can read.
			ours := rle.EncodeBoolean(nil, bools)
			if !bxParquetGoCanRead(ours[4:]) {
				continue
			}
			back, err := pe.DecodeBoolean(nil, ours)
			require.NoError(t, err)
			require.Equal(t, bitmap, back[:len(bitmap)], "n %d p %d", n, p)
			compared++
		}
	}
}

// bxParquetGoCanRead reports whether a width-1 hybrid stream has only RLE
// runs of false whose lengths are multiples of 8.
func bxParquetGoCanRead(src []byte) bool {
	for len(src) > 0 {
		h, k := binary.Uvarint(src)
		src = src[k:]
		if h&1 == 1 {
			src = src[h>>1:]
			continue
		}
		if src[0] != 0 || (h>>1)%8 != 0 {
			return false
		}
		src = src[1:]
	}
	return true
}

func TestBasicParquetGoDictionaryIndices(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	var pe pqrle.DictionaryEncoding
	for _, width := range []uint{1, 3, 8, 12, 20, 31} {
		for name, vals := range bxShapes(r, width) {
			n := len(vals)
			size := 0
			i32 := make([]int32, n)
			for i, v := range vals {
				i32[i] = int32(v)
				size = max(size, int(v)+1)
			}
			theirs, err := pe.EncodeInt32(nil, i32)
			require.NoError(t, err)
			got, err := dictionary.DecodeIndices(nil, theirs, n, size)
			require.NoError(t, err, "width %d %s", width, name)
			require.Equal(t, vals, got)
			if size > 0 {
				_, err = dictionary.DecodeIndices(nil, theirs, n, size-1)
				require.ErrorIs(t, err, dictionary.ErrCorrupt)
			}

			// Our encoder's index page, read by parquet-go.
			e := dictionary.NewEncoder[int32](0)
			_, err = e.Put(i32)
			require.NoError(t, err)
			idx := e.AppendIndexPage(nil)
			ix, err := pe.DecodeInt32(nil, idx)
			require.NoError(t, err)
			dict := e.AppendDictionaryPage(nil)
			dv, err := plain.Decode[int32](nil, dict)
			require.NoError(t, err)
			for i := range n {
				require.Equal(t, i32[i], dv[ix[i]])
			}
		}
	}
}

// TestBasicParquetGoBitPacked compares BIT_PACKED levels with parquet-go,
// whose encoder follows the spec (most significant bit first).
func TestBasicParquetGoBitPacked(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for width := uint(1); width <= 8; width++ {
		for _, n := range []int{1, 8, 9, 100, 1001} {
			levels := make([]uint8, n)
			vals := make([]uint32, n)
			for i := range levels {
				levels[i] = uint8(r.Uint32() & (1<<width - 1))
				vals[i] = uint32(levels[i])
			}
			pe := pqbitpacked.Encoding{BitWidth: int(width)}
			theirs, err := pe.EncodeLevels(nil, levels)
			require.NoError(t, err)
			ours, err := bitpacked.Encode(nil, vals, width)
			require.NoError(t, err)
			require.Equal(t, theirs, ours, "width %d n %d", width, n)
			got, _, err := bitpacked.Decode(nil, theirs, width, n)
			require.NoError(t, err)
			require.Equal(t, vals, got)
		}
	}
}

// ---- page walking ----

type bxPage struct {
	v2        bool
	encoding  format.Encoding
	numValues int
	defEnc    format.Encoding
	defLevels []byte // v1: with length prefix when RLE; v2: bare stream
	values    []byte
}

type bxColumn struct {
	name     string
	typ      format.Type
	typeLen  int
	maxDef   int
	dict     []byte
	dictN    int
	dictEnc  format.Encoding
	pages    []bxPage
	codecs   map[format.CompressionCodec]bool
	skipping string // why the column cannot be decoded here, if it cannot
}

func bxDecompress(codec format.CompressionCodec, src []byte, size int) ([]byte, error) {
	switch codec {
	case format.Uncompressed:
		return src, nil
	case format.Snappy:
		return snappy.Decode(make([]byte, 0, size), src)
	case format.Gzip:
		zr, err := gzip.NewReader(bytes.NewReader(src))
		if err != nil {
			return nil, err
		}
		return io.ReadAll(zr)
	}
	return nil, fmt.Errorf("codec %v not handled here", codec)
}

// bxWalk returns the columns of a file with a flat schema, one entry per
// column chunk, with their pages decompressed.
func bxWalk(t *testing.T, data []byte) []bxColumn {
	t.Helper()
	require.True(t, len(data) > 12 && string(data[len(data)-4:]) == "PAR1")
	metaLen := int(binary.LittleEndian.Uint32(data[len(data)-8:]))
	var meta format.FileMetaData
	require.NoError(t, thrift.Unmarshal(new(thrift.CompactProtocol), data[len(data)-8-metaLen:len(data)-8], &meta))
	var leaves []bxColumn
	for _, el := range meta.Schema[1:] {
		require.False(t, el.NumChildren.Valid && el.NumChildren.V > 0, "flat schemas only")
		c := bxColumn{name: el.Name, typ: el.Type.V, typeLen: int(el.TypeLength.V)}
		switch el.RepetitionType.V {
		case format.Optional:
			c.maxDef = 1
		case format.Repeated:
			c.skipping = "repeated"
		}
		leaves = append(leaves, c)
	}
	var out []bxColumn
	for _, rg := range meta.RowGroups {
		for ci, cc := range rg.Columns {
			c := leaves[ci]
			md := cc.MetaData
			pos := md.DataPageOffset
			if md.DictionaryPageOffset > 0 && md.DictionaryPageOffset < pos {
				pos = md.DictionaryPageOffset
			}
			end := pos + md.TotalCompressedSize
			for pos < end && c.skipping == "" {
				r := new(thrift.CompactProtocol).NewReaderFromBytes(data[pos:end])
				var h format.PageHeader
				require.NoError(t, thrift.NewDecoder(r).Decode(&h))
				body := data[pos+int64(r.BytesRead()) : pos+int64(r.BytesRead())+int64(h.CompressedPageSize)]
				pos += int64(r.BytesRead()) + int64(h.CompressedPageSize)
				switch h.Type {
				case format.DictionaryPage:
					raw, err := bxDecompress(md.Codec, body, int(h.UncompressedPageSize))
					if err != nil {
						c.skipping = err.Error()
						break
					}
					c.dict, c.dictN, c.dictEnc = raw, int(h.DictionaryPageHeader.V.NumValues), h.DictionaryPageHeader.V.Encoding
				case format.DataPage:
					dh := h.DataPageHeader.V
					raw, err := bxDecompress(md.Codec, body, int(h.UncompressedPageSize))
					if err != nil {
						c.skipping = err.Error()
						break
					}
					p := bxPage{encoding: dh.Encoding, numValues: int(dh.NumValues), defEnc: dh.DefinitionLevelEncoding}
					if c.maxDef > 0 {
						p.defLevels = raw
					} else {
						p.values = raw
					}
					c.pages = append(c.pages, p)
				case format.DataPageV2:
					dh := h.DataPageHeaderV2.V
					lv := int(dh.RepetitionLevelsByteLength + dh.DefinitionLevelsByteLength)
					p := bxPage{v2: true, encoding: dh.Encoding, numValues: int(dh.NumValues), defEnc: format.RLE}
					if c.maxDef > 0 {
						p.defLevels = body[dh.RepetitionLevelsByteLength:lv]
					}
					p.values = body[lv:]
					if !dh.IsCompressed.Valid || dh.IsCompressed.V {
						v, err := bxDecompress(md.Codec, p.values, int(h.UncompressedPageSize)-lv)
						if err != nil {
							c.skipping = err.Error()
							break
						}
						p.values = v
					}
					c.pages = append(c.pages, p)
				}
			}
			out = append(out, c)
		}
	}
	return out
}

// bxDecodeColumn decodes every non-null value of a column chunk with our
// decoders, formatted as strings.
func bxDecodeColumn(t *testing.T, c bxColumn) []string {
	t.Helper()
	var out []string
	for pi, p := range c.pages {
		nonNull := p.numValues
		values := p.values
		if c.maxDef > 0 {
			var levels []uint32
			var err error
			src := p.defLevels
			switch {
			case p.v2:
				levels, err = rle.Decode(nil, src, 1, p.numValues)
			case p.defEnc == format.BitPacked:
				levels, values, err = bitpacked.Decode(nil, src, 1, p.numValues)
			default:
				var stream []byte
				stream, values, err = rle.SplitPrefix(src)
				require.NoError(t, err)
				levels, err = rle.Decode(nil, stream, 1, p.numValues)
			}
			require.NoError(t, err, "%s page %d: levels", c.name, pi)
			nonNull = 0
			for _, l := range levels {
				nonNull += int(l)
			}
		}
		vals, err := bxDecodeValues(c, p.encoding, values, nonNull)
		require.NoError(t, err, "%s page %d (%v)", c.name, pi, p.encoding)
		require.Len(t, vals, nonNull, "%s page %d", c.name, pi)
		out = append(out, vals...)
	}
	return out
}

func bxFormat[T any](v []T) []string {
	out := make([]string, len(v))
	for i, x := range v {
		out[i] = fmt.Sprint(x)
	}
	return out
}

func bxFormatBytes(values []byte, offsets []int32) []string {
	var out []string
	for i := 0; i+1 < len(offsets); i++ {
		out = append(out, string(values[offsets[i]:offsets[i+1]]))
	}
	return out
}

func bxFixed[T dictionary.Value](c bxColumn, enc format.Encoding, src []byte, n int, decode func([]byte) ([]T, error)) ([]string, error) {
	if enc == format.PlainDictionary || enc == format.RLEDictionary {
		var d dictionary.Dict[T]
		if err := d.Reset(c.dict, c.dictN); err != nil {
			return nil, err
		}
		v, err := d.Decode(nil, src, n)
		return bxFormat(v), err
	}
	v, err := decode(src)
	if err == nil && len(v) > n {
		v = v[:n]
	}
	return bxFormat(v), err
}

func bxDecodeValues(c bxColumn, enc format.Encoding, src []byte, n int) ([]string, error) {
	switch enc {
	case format.Plain, format.PlainDictionary, format.RLEDictionary:
	case format.RLE:
		if c.typ != format.Boolean {
			return nil, fmt.Errorf("RLE values of type %v", c.typ)
		}
		v, _, err := rle.DecodeBoolean(nil, src, n)
		return bxFormat(v), err
	default:
		return nil, fmt.Errorf("encoding %v not ours", enc)
	}
	switch c.typ {
	case format.Boolean:
		return bxFixed(c, enc, src, n, func(b []byte) ([]bool, error) { return plain.DecodeBoolean(nil, b, n) })
	case format.Int32:
		return bxFixed(c, enc, src, n, func(b []byte) ([]int32, error) { return plain.Decode[int32](nil, b) })
	case format.Int64:
		return bxFixed(c, enc, src, n, func(b []byte) ([]int64, error) { return plain.Decode[int64](nil, b) })
	case format.Int96:
		return bxFixed(c, enc, src, n, func(b []byte) ([][12]byte, error) { return plain.Decode[[12]byte](nil, b) })
	case format.Float:
		return bxFixed(c, enc, src, n, func(b []byte) ([]float32, error) { return plain.Decode[float32](nil, b) })
	case format.Double:
		return bxFixed(c, enc, src, n, func(b []byte) ([]float64, error) { return plain.Decode[float64](nil, b) })
	case format.ByteArray:
		if enc != format.Plain {
			var d dictionary.BytesDict
			if err := d.Reset(c.dict, c.dictN); err != nil {
				return nil, err
			}
			v, o, err := d.Decode(nil, nil, src, n)
			return bxFormatBytes(v, o), err
		}
		v, o, err := plain.DecodeByteArray(nil, nil, src)
		return bxFormatBytes(v, o), err
	case format.FixedLenByteArray:
		var flat []byte
		var err error
		if enc != format.Plain {
			var d dictionary.BytesDict
			if err := d.ResetFixedLen(c.dict, c.dictN, c.typeLen); err != nil {
				return nil, err
			}
			flat, err = d.DecodeFlat(nil, src, n)
		} else {
			flat, err = plain.DecodeFixedLenByteArray(nil, src, c.typeLen)
		}
		var out []string
		for i := 0; i+c.typeLen <= len(flat); i += c.typeLen {
			out = append(out, string(flat[i:i+c.typeLen]))
		}
		return out, err
	}
	return nil, fmt.Errorf("type %v", c.typ)
}

// bxArrowValues reads every non-null value of every column chunk of a file
// with arrow-go, formatted as strings, in the order of bxWalk.
func bxArrowValues(t *testing.T, data []byte) [][]string {
	t.Helper()
	r, err := file.NewParquetReader(bytes.NewReader(data))
	require.NoError(t, err)
	defer r.Close()
	var out [][]string
	for rg := 0; rg < r.NumRowGroups(); rg++ {
		rgr := r.RowGroup(rg)
		for ci := 0; ci < rgr.NumColumns(); ci++ {
			col, err := rgr.Column(ci)
			require.NoError(t, err)
			out = append(out, bxArrowColumn(t, col, int(rgr.NumRows())))
		}
	}
	return out
}

func bxArrowColumn(t *testing.T, col file.ColumnChunkReader, rows int) []string {
	t.Helper()
	def := make([]int16, rows)
	read := func(f func() (int, error)) {
		for col.HasNext() {
			_, err := f()
			require.NoError(t, err)
		}
	}
	switch c := col.(type) {
	case *file.BooleanColumnChunkReader:
		var all []bool
		buf := make([]bool, rows)
		read(func() (int, error) {
			_, n, err := c.ReadBatch(int64(rows), buf, def, nil)
			all = append(all, buf[:n]...)
			return n, err
		})
		return bxFormat(all)
	case *file.Int32ColumnChunkReader:
		var all []int32
		buf := make([]int32, rows)
		read(func() (int, error) {
			_, n, err := c.ReadBatch(int64(rows), buf, def, nil)
			all = append(all, buf[:n]...)
			return n, err
		})
		return bxFormat(all)
	case *file.Int64ColumnChunkReader:
		var all []int64
		buf := make([]int64, rows)
		read(func() (int, error) {
			_, n, err := c.ReadBatch(int64(rows), buf, def, nil)
			all = append(all, buf[:n]...)
			return n, err
		})
		return bxFormat(all)
	case *file.Int96ColumnChunkReader:
		var all [][12]byte
		buf := make([]parquet.Int96, rows)
		read(func() (int, error) {
			_, n, err := c.ReadBatch(int64(rows), buf, def, nil)
			for _, v := range buf[:n] {
				all = append(all, [12]byte(v))
			}
			return n, err
		})
		return bxFormat(all)
	case *file.Float32ColumnChunkReader:
		var all []float32
		buf := make([]float32, rows)
		read(func() (int, error) {
			_, n, err := c.ReadBatch(int64(rows), buf, def, nil)
			all = append(all, buf[:n]...)
			return n, err
		})
		return bxFormat(all)
	case *file.Float64ColumnChunkReader:
		var all []float64
		buf := make([]float64, rows)
		read(func() (int, error) {
			_, n, err := c.ReadBatch(int64(rows), buf, def, nil)
			all = append(all, buf[:n]...)
			return n, err
		})
		return bxFormat(all)
	case *file.ByteArrayColumnChunkReader:
		var all []string
		buf := make([]parquet.ByteArray, rows)
		read(func() (int, error) {
			_, n, err := c.ReadBatch(int64(rows), buf, def, nil)
			for _, v := range buf[:n] {
				all = append(all, string(v))
			}
			return n, err
		})
		return all
	case *file.FixedLenByteArrayColumnChunkReader:
		var all []string
		buf := make([]parquet.FixedLenByteArray, rows)
		read(func() (int, error) {
			_, n, err := c.ReadBatch(int64(rows), buf, def, nil)
			for _, v := range buf[:n] {
				all = append(all, string(v))
			}
			return n, err
		})
		return all
	}
	t.Fatalf("column reader %T", col)
	return nil
}

// ---- real data ----

func TestBasicRealFiles(t *testing.T) {
	files := []string{
		"alltypes_plain.parquet",
		"alltypes_plain.snappy.parquet",
		"alltypes_dictionary.parquet",
		"alltypes_tiny_pages.parquet",
		"alltypes_tiny_pages_plain.parquet",
		"plain-dict-uncompressed-checksum.parquet",
		"datapage_v1-uncompressed-checksum.parquet",
		"datapage_v1-snappy-compressed-checksum.parquet",
		"datapage_v2.snappy.parquet",
		"binary.parquet",
		"binary_truncated_min_max.parquet",
		"byte_array_decimal.parquet",
		"fixed_length_byte_array.parquet",
		"data_index_bloom_encoding_with_length.parquet",
		"dict-page-offset-zero.parquet",
		"int32_decimal.parquet",
		"int64_decimal.parquet",
		"rle_boolean_encoding.parquet",
		"nulls.snappy.parquet",
		"single_nan.parquet",
	}
	decodedColumns := 0
	for _, name := range files {
		t.Run(name, func(t *testing.T) {
			path := testcorpus.Data(t, name)
			data, err := os.ReadFile(path)
			require.NoError(t, err)
			if md := bxFlatOnly(t, data); md != "" {
				t.Skip(md)
			}
			cols := bxWalk(t, data)
			want := bxArrowValues(t, data)
			require.Len(t, want, len(cols))
			for i, c := range cols {
				if c.skipping != "" {
					t.Logf("column %s skipped: %s", c.name, c.skipping)
					continue
				}
				ours := bxDecodeColumn(t, c)
				require.Equal(t, len(want[i]), len(ours), "column %s", c.name)
				if len(ours) > 0 {
					require.Equal(t, want[i], ours, "column %s", c.name)
				}
				decodedColumns++
			}
		})
	}
	t.Logf("%d column chunks decoded and matched", decodedColumns)
}

// bxFlatOnly reports why a file cannot be walked here ("" if it can).
func bxFlatOnly(t *testing.T, data []byte) string {
	metaLen := int(binary.LittleEndian.Uint32(data[len(data)-8:]))
	var meta format.FileMetaData
	if err := thrift.Unmarshal(new(thrift.CompactProtocol), data[len(data)-8-metaLen:len(data)-8], &meta); err != nil {
		return err.Error()
	}
	for _, el := range meta.Schema[1:] {
		if el.NumChildren.Valid && el.NumChildren.V > 0 {
			return "nested schema"
		}
	}
	return ""
}

// ---- apache/arrow-go, both ways ----

type bxArrowCase struct {
	dict     bool
	v2       bool
	optional bool
}

// TestBasicArrowGoToOurs writes every physical type with arrow-go (PLAIN or
// dictionary, v1 or v2 pages, required or optional) and decodes the pages
// with ours.
func TestBasicArrowGoToOurs(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	const n = 20000
	for _, tc := range []bxArrowCase{{false, false, false}, {false, true, true}, {true, false, true}, {true, true, false}, {true, false, false}} {
		t.Run(fmt.Sprintf("dict=%v,v2=%v,optional=%v", tc.dict, tc.v2, tc.optional), func(t *testing.T) {
			rep := parquet.Repetitions.Required
			if tc.optional {
				rep = parquet.Repetitions.Optional
			}
			fields := schema.FieldList{
				schema.NewBooleanNode("b", rep, -1),
				schema.NewInt32Node("i32", rep, -1),
				schema.NewInt64Node("i64", rep, -1),
				schema.NewInt96Node("i96", rep, -1),
				schema.NewFloat32Node("f32", rep, -1),
				schema.NewFloat64Node("f64", rep, -1),
				schema.NewByteArrayNode("ba", rep, -1),
			}
			flba, err := schema.NewPrimitiveNode("flba", rep, parquet.Types.FixedLenByteArray, -1, 6)
			require.NoError(t, err)
			fields = append(fields, flba)
			root, err := schema.NewGroupNode("schema", parquet.Repetitions.Required, fields, -1)
			require.NoError(t, err)
			version := parquet.DataPageV1
			if tc.v2 {
				version = parquet.DataPageV2
			}
			props := parquet.NewWriterProperties(parquet.WithDictionaryDefault(tc.dict),
				parquet.WithDataPageVersion(version), parquet.WithDataPageSize(8<<10),
				parquet.WithDictionaryPageSizeLimit(1<<20))
			var buf bytes.Buffer
			w := file.NewParquetWriter(&buf, root, file.WithWriterProps(props))
			rg := w.AppendRowGroup()

			var def []int16
			if tc.optional {
				def = make([]int16, n)
				for i := range def {
					if r.IntN(10) != 0 {
						def[i] = 1
					}
				}
			}
			count := n
			if tc.optional {
				count = 0
				for _, d := range def {
					count += int(d)
				}
			}
			card := 1 + r.IntN(300)
			bools := make([]bool, count)
			i32 := make([]int32, count)
			i64 := make([]int64, count)
			i96 := make([]parquet.Int96, count)
			f32 := make([]float32, count)
			f64 := make([]float64, count)
			ba := make([]parquet.ByteArray, count)
			fl := make([]parquet.FixedLenByteArray, count)
			for i := range count {
				k := r.IntN(card)
				bools[i] = k%3 == 0
				i32[i] = int32(k * 7919)
				i64[i] = int64(k) << 33
				i96[i] = parquet.Int96{byte(k), 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, byte(k >> 8)}
				f32[i] = float32(k) / 7
				f64[i] = float64(k) * math.E
				ba[i] = parquet.ByteArray(fmt.Sprintf("value %d", k))
				fl[i] = parquet.FixedLenByteArray(fmt.Sprintf("%06d", k))
			}
			writers := []func(file.ColumnChunkWriter) error{
				func(cw file.ColumnChunkWriter) error {
					_, err := cw.(*file.BooleanColumnChunkWriter).WriteBatch(bools, def, nil)
					return err
				},
				func(cw file.ColumnChunkWriter) error {
					_, err := cw.(*file.Int32ColumnChunkWriter).WriteBatch(i32, def, nil)
					return err
				},
				func(cw file.ColumnChunkWriter) error {
					_, err := cw.(*file.Int64ColumnChunkWriter).WriteBatch(i64, def, nil)
					return err
				},
				func(cw file.ColumnChunkWriter) error {
					_, err := cw.(*file.Int96ColumnChunkWriter).WriteBatch(i96, def, nil)
					return err
				},
				func(cw file.ColumnChunkWriter) error {
					_, err := cw.(*file.Float32ColumnChunkWriter).WriteBatch(f32, def, nil)
					return err
				},
				func(cw file.ColumnChunkWriter) error {
					_, err := cw.(*file.Float64ColumnChunkWriter).WriteBatch(f64, def, nil)
					return err
				},
				func(cw file.ColumnChunkWriter) error {
					_, err := cw.(*file.ByteArrayColumnChunkWriter).WriteBatch(ba, def, nil)
					return err
				},
				func(cw file.ColumnChunkWriter) error {
					_, err := cw.(*file.FixedLenByteArrayColumnChunkWriter).WriteBatch(fl, def, nil)
					return err
				},
			}
			for _, write := range writers {
				cw, err := rg.NextColumn()
				require.NoError(t, err)
				require.NoError(t, write(cw))
				require.NoError(t, cw.Close())
			}
			require.NoError(t, rg.Close())
			require.NoError(t, w.Close())
			data := buf.Bytes()

			want := [][]string{bxFormat(bools), bxFormat(i32), bxFormat(i64), nil, bxFormat(f32), bxFormat(f64), nil, nil}
			for _, v := range i96 {
				want[3] = append(want[3], fmt.Sprint([12]byte(v)))
			}
			for i := range ba {
				want[6] = append(want[6], string(ba[i]))
				want[7] = append(want[7], string(fl[i]))
			}
			cols := bxWalk(t, data)
			require.Len(t, cols, len(want))
			sawDict := false
			for i, c := range cols {
				require.Empty(t, c.skipping)
				sawDict = sawDict || c.dict != nil
				if c.typ != format.Boolean {
					require.Greater(t, len(c.pages), 1, "column %s: several pages", c.name)
				}
				require.Equal(t, want[i], bxDecodeColumn(t, c), "column %s", c.name)
			}
			require.Equal(t, tc.dict, sawDict)
		})
	}
}

// bxOurColumn is one column chunk written with our encoders.
type bxOurColumn struct {
	typ      format.Type
	typeLen  int
	optional bool
	v2       bool
	dict     []byte // dictionary page, nil for none
	dictN    int
	pages    []bxOurPage
}

type bxOurPage struct {
	encoding  format.Encoding
	numValues int
	numNulls  int
	levels    []byte // v1: prefixed RLE levels; v2: bare stream
	values    []byte
}

// bxOurFile wraps columns written by our encoders in a minimal parquet
// file with one row group, so that arrow-go can read them.
func bxOurFile(t *testing.T, rows int, cols []bxOurColumn) []byte {
	t.Helper()
	out := []byte("PAR1")
	meta := format.FileMetaData{Version: 1, NumRows: int64(rows)}
	meta.Schema = append(meta.Schema, format.SchemaElement{Name: "schema", NumChildren: thrift.New(int32(len(cols)))})
	var chunks thrift.Slice[format.ColumnChunk]
	for ci, c := range cols {
		name := fmt.Sprintf("c%d", ci)
		leaf := format.SchemaElement{Type: thrift.New(c.typ), RepetitionType: thrift.New(format.Required), Name: name}
		if c.optional {
			leaf.RepetitionType = thrift.New(format.Optional)
		}
		if c.typeLen > 0 {
			leaf.TypeLength = thrift.New(int32(c.typeLen))
		}
		meta.Schema = append(meta.Schema, leaf)
		start := int64(len(out))
		md := format.ColumnMetaData{Type: c.typ, PathInSchema: thrift.Slice[string]{name}, Codec: format.Uncompressed}
		encs := map[format.Encoding]bool{format.RLE: true}
		if c.dict != nil {
			h := format.PageHeader{
				Type: format.DictionaryPage, UncompressedPageSize: int32(len(c.dict)), CompressedPageSize: int32(len(c.dict)),
				DictionaryPageHeader: thrift.New(format.DictionaryPageHeader{NumValues: int32(c.dictN), Encoding: format.Plain}),
			}
			hb, err := thrift.Marshal(new(thrift.CompactProtocol), &h)
			require.NoError(t, err)
			md.DictionaryPageOffset = start
			out = append(append(out, hb...), c.dict...)
			encs[format.Plain] = true
		}
		md.DataPageOffset = int64(len(out))
		for _, p := range c.pages {
			encs[p.encoding] = true
			body := append(append([]byte{}, p.levels...), p.values...)
			h := format.PageHeader{UncompressedPageSize: int32(len(body)), CompressedPageSize: int32(len(body))}
			if c.v2 {
				h.Type = format.DataPageV2
				h.DataPageHeaderV2 = thrift.New(format.DataPageHeaderV2{
					NumValues: int32(p.numValues), NumNulls: int32(p.numNulls), NumRows: int32(p.numValues),
					Encoding: p.encoding, DefinitionLevelsByteLength: int32(len(p.levels)),
					IsCompressed: thrift.New(false),
				})
			} else {
				h.Type = format.DataPage
				h.DataPageHeader = thrift.New(format.DataPageHeader{
					NumValues: int32(p.numValues), Encoding: p.encoding,
					DefinitionLevelEncoding: format.RLE, RepetitionLevelEncoding: format.RLE,
				})
			}
			hb, err := thrift.Marshal(new(thrift.CompactProtocol), &h)
			require.NoError(t, err)
			out = append(append(out, hb...), body...)
			md.NumValues += int64(p.numValues)
		}
		for e := range encs {
			md.Encoding = append(md.Encoding, e)
		}
		md.TotalCompressedSize = int64(len(out)) - start
		md.TotalUncompressedSize = md.TotalCompressedSize
		chunks = append(chunks, format.ColumnChunk{FileOffset: start, MetaData: md})
	}
	meta.RowGroups = thrift.Slice[format.RowGroup]{{Columns: chunks, NumRows: int64(rows), TotalByteSize: int64(len(out))}}
	mb, err := thrift.Marshal(new(thrift.CompactProtocol), &meta)
	require.NoError(t, err)
	out = append(out, mb...)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(mb)))
	return append(out, "PAR1"...)
}

// TestBasicOursToArrowGo writes every physical type with our encoders
// (PLAIN and dictionary, v1 and v2 pages, with definition levels) and reads
// the file with arrow-go.
func TestBasicOursToArrowGo(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	const rows, perPage = 5000, 1000
	for _, v2 := range []bool{false, true} {
		for _, dict := range []bool{false, true} {
			def := make([]uint32, rows)
			nonNull := 0
			for i := range def {
				if r.IntN(8) != 0 {
					def[i] = 1
					nonNull++
				}
			}
			card := 1 + r.IntN(200)
			keys := make([]int, nonNull)
			for i := range keys {
				keys[i] = r.IntN(card)
			}
			type colSpec struct {
				typ     format.Type
				typeLen int
				value   func(k int) []byte // PLAIN image of one value
				str     func(k int) string // as bxArrowColumn formats it
			}
			specs := []colSpec{
				{format.Boolean, 0, nil, func(k int) string { return fmt.Sprint(k%2 == 0) }},
				{format.Int32, 0, func(k int) []byte { return plain.Encode(nil, []int32{int32(-k * 31)}) }, func(k int) string { return fmt.Sprint(-k * 31) }},
				{format.Int64, 0, func(k int) []byte { return plain.Encode(nil, []int64{int64(k) << 40}) }, func(k int) string { return fmt.Sprint(int64(k) << 40) }},
				{format.Int96, 0, func(k int) []byte { return plain.Encode(nil, [][12]byte{{11: byte(k)}}) }, func(k int) string { return fmt.Sprint([12]byte{11: byte(k)}) }},
				{format.Float, 0, func(k int) []byte { return plain.Encode(nil, []float32{float32(k) / 3}) }, func(k int) string { return fmt.Sprint(float32(k) / 3) }},
				{format.Double, 0, func(k int) []byte { return plain.Encode(nil, []float64{float64(k) / 3}) }, func(k int) string { return fmt.Sprint(float64(k) / 3) }},
				{format.ByteArray, 0, func(k int) []byte { return []byte(fmt.Sprintf("str%d", k)) }, func(k int) string { return fmt.Sprintf("str%d", k) }},
				{format.FixedLenByteArray, 5, func(k int) []byte { return []byte(fmt.Sprintf("%05d", k)) }, func(k int) string { return fmt.Sprintf("%05d", k) }},
			}
			var cols []bxOurColumn
			var want [][]string
			for _, s := range specs {
				c := bxOurColumn{typ: s.typ, typeLen: s.typeLen, optional: true, v2: v2}
				var ws []string
				for _, k := range keys {
					ws = append(ws, s.str(k))
				}
				want = append(want, ws)
				useDict := dict && s.typ != format.Boolean
				var indexOf []uint32
				if useDict {
					// Dictionary in first-seen order.
					pos := map[int]uint32{}
					var dv []byte
					var doffs []int32
					doffs = append(doffs, 0)
					for _, k := range keys {
						if _, ok := pos[k]; !ok {
							pos[k] = uint32(len(pos))
							dv = append(dv, s.value(k)...)
							doffs = append(doffs, int32(len(dv)))
						}
						indexOf = append(indexOf, pos[k])
					}
					if s.typ == format.ByteArray {
						c.dict = plain.EncodeByteArray(nil, dv, doffs)
					} else {
						c.dict = dv
					}
					c.dictN = len(pos)
				}
				vi := 0
				for start := 0; start < rows; start += perPage {
					lv := def[start : start+perPage]
					cnt := 0
					for _, l := range lv {
						cnt += int(l)
					}
					p := bxOurPage{numValues: perPage, numNulls: perPage - cnt}
					var err error
					if v2 {
						p.levels, err = rle.Encode(nil, lv, 1)
					} else {
						p.levels, err = rle.EncodeWithPrefix(nil, lv, 1)
					}
					require.NoError(t, err)
					pk := keys[vi : vi+cnt]
					switch {
					case useDict:
						p.encoding = format.RLEDictionary
						if !v2 {
							p.encoding = format.PlainDictionary
						}
						width := rle.BitWidth(uint32(c.dictN - 1))
						p.values, err = rle.Encode([]byte{byte(width)}, indexOf[vi:vi+cnt], width)
						require.NoError(t, err)
					case s.typ == format.Boolean:
						bools := make([]bool, cnt)
						for i, k := range pk {
							bools[i] = k%2 == 0
						}
						if v2 {
							p.encoding = format.RLE
							p.values = rle.EncodeBoolean(nil, bools)
						} else {
							p.encoding = format.Plain
							p.values = plain.EncodeBoolean(nil, bools)
						}
					case s.typ == format.ByteArray:
						p.encoding = format.Plain
						var vals []byte
						offs := []int32{0}
						for _, k := range pk {
							vals = append(vals, s.value(k)...)
							offs = append(offs, int32(len(vals)))
						}
						p.values = plain.EncodeByteArray(nil, vals, offs)
					default:
						p.encoding = format.Plain
						for _, k := range pk {
							p.values = append(p.values, s.value(k)...)
						}
					}
					vi += cnt
					c.pages = append(c.pages, p)
				}
				cols = append(cols, c)
			}
			data := bxOurFile(t, rows, cols)
			got := bxArrowValues(t, data)
			require.Len(t, got, len(want))
			for i := range want {
				require.Equal(t, want[i], got[i], "v2=%v dict=%v column %d (%v)", v2, dict, i, specs[i].typ)
			}
			// And our walker reads our file back the same way.
			for i, c := range bxWalk(t, data) {
				require.Equal(t, want[i], bxDecodeColumn(t, c))
			}
		}
	}
}

// ---- benchmarks: ours beside parquet-go on the same pages ----
//
// Run with `go test -run x -bench BenchmarkBasic -count 5 | benchstat -col /impl -`.
// Decoders of both libraries read the same input, written by our encoder.

// bxPageSizes are the decoded sizes of the benchmarked pages.
var bxPageSizes = []struct {
	name string
	size int
}{{"64KiB", 64 << 10}, {"1MiB", 1 << 20}}

type bxBench struct {
	name   string
	bytes  int // decoded size, for SetBytes
	ours   func() error
	theirs func() error
}

func bxRun(b *testing.B, cases []bxBench) {
	for _, c := range cases {
		for impl, f := range map[string]func() error{"ours": c.ours, "parquet-go": c.theirs} {
			if f == nil {
				continue
			}
			b.Run(c.name+"/impl="+impl, func(b *testing.B) {
				if err := f(); err != nil { // checked once before timing
					b.Fatal(err)
				}
				b.SetBytes(int64(c.bytes))
				b.ReportAllocs()
				for b.Loop() {
					if err := f(); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

func bxCheck(ok bool, what string) error {
	if !ok {
		return fmt.Errorf("%s: wrong output", what)
	}
	return nil
}

func BenchmarkBasicPlain(b *testing.B) {
	r := rand.New(rand.NewPCG(21, 22))
	var pe pqplain.Encoding
	var cases []bxBench
	for _, ps := range bxPageSizes {
		src := make([]byte, ps.size)
		for i := range src {
			src[i] = byte(r.Uint32())
		}
		dst := make([]byte, ps.size)
		cases = append(cases, bxBench{name: "copy/" + ps.name, bytes: ps.size,
			ours: func() error { copy(dst, src); return nil }})

		i32 := make([]int32, 0, ps.size/4)
		p32 := make([]int32, 0, ps.size/4)
		want32 := int32(binary.LittleEndian.Uint32(src[ps.size-4:]))
		cases = append(cases, bxBench{name: "decode/int32/" + ps.name, bytes: ps.size,
			ours: func() (err error) {
				i32, err = plain.Decode(i32[:0], src)
				return errors.Join(err, bxCheck(i32[len(i32)-1] == want32, "int32"))
			},
			theirs: func() (err error) {
				p32, err = pe.DecodeInt32(p32[:0], src)
				return errors.Join(err, bxCheck(p32[len(p32)-1] == want32, "int32"))
			}})
		i64 := make([]int64, 0, ps.size/8)
		p64 := make([]int64, 0, ps.size/8)
		cases = append(cases, bxBench{name: "decode/int64/" + ps.name, bytes: ps.size,
			ours: func() (err error) {
				i64, err = plain.Decode(i64[:0], src)
				return errors.Join(err, bxCheck(len(i64) == ps.size/8, "int64"))
			},
			theirs: func() (err error) {
				p64, err = pe.DecodeInt64(p64[:0], src)
				return errors.Join(err, bxCheck(len(p64) == ps.size/8, "int64"))
			}})
		f64 := make([]float64, 0, ps.size/8)
		pf64 := make([]float64, 0, ps.size/8)
		cases = append(cases, bxBench{name: "decode/double/" + ps.name, bytes: ps.size,
			ours: func() (err error) {
				f64, err = plain.Decode(f64[:0], src)
				return errors.Join(err, bxCheck(len(f64) == ps.size/8, "double"))
			},
			theirs: func() (err error) {
				pf64, err = pe.DecodeDouble(pf64[:0], src)
				return errors.Join(err, bxCheck(len(pf64) == ps.size/8, "double"))
			}})
		vals32, _ := plain.Decode[int32](nil, src)
		vals64, _ := plain.Decode[int64](nil, src)
		valsF, _ := plain.Decode[float64](nil, src)
		out := make([]byte, 0, ps.size)
		cases = append(cases,
			bxBench{name: "encode/int32/" + ps.name, bytes: ps.size,
				ours: func() error {
					out = plain.Encode(out[:0], vals32)
					return bxCheck(len(out) == ps.size, "int32")
				},
				theirs: func() (err error) {
					out, err = pe.EncodeInt32(out[:0], vals32)
					return errors.Join(err, bxCheck(len(out) == ps.size, "int32"))
				}},
			bxBench{name: "encode/int64/" + ps.name, bytes: ps.size,
				ours: func() error {
					out = plain.Encode(out[:0], vals64)
					return bxCheck(len(out) == ps.size, "int64")
				},
				theirs: func() (err error) {
					out, err = pe.EncodeInt64(out[:0], vals64)
					return errors.Join(err, bxCheck(len(out) == ps.size, "int64"))
				}},
			bxBench{name: "encode/double/" + ps.name, bytes: ps.size,
				ours: func() error {
					out = plain.Encode(out[:0], valsF)
					return bxCheck(len(out) == ps.size, "double")
				},
				theirs: func() (err error) {
					out, err = pe.EncodeDouble(out[:0], valsF)
					return errors.Join(err, bxCheck(len(out) == ps.size, "double"))
				}})

		// Byte arrays: low cardinality, words of 4-24 bytes, UUID-like, 1 KiB
		// strings.
		for _, kind := range benchdata.ByteArrayKinds {
			values, offsets := benchdata.ByteArrays(r, kind, ps.size)
			page := plain.EncodeByteArray(nil, values, offsets)
			uoffs := make([]uint32, len(offsets))
			for i, o := range offsets {
				uoffs[i] = uint32(o)
			}
			n := len(offsets) - 1
			ov := make([]byte, 0, len(values))
			oo := make([]int32, 0, n+1)
			pv := make([]byte, 0, len(values))
			po := make([]uint32, 0, n+1)
			cases = append(cases,
				bxBench{name: "decode/byte_array_" + kind + "/" + ps.name, bytes: len(page),
					ours: func() (err error) {
						ov, oo, err = plain.DecodeByteArray(ov[:0], oo[:0], page)
						return errors.Join(err, bxCheck(len(oo) == n+1, "byte_array"))
					},
					theirs: func() (err error) {
						pv, po, err = pe.DecodeByteArray(pv[:0], page, po[:0])
						return errors.Join(err, bxCheck(len(po) == n+1, "byte_array"))
					}},
				bxBench{name: "encode/byte_array_" + kind + "/" + ps.name, bytes: len(page),
					ours: func() error {
						out = plain.EncodeByteArray(out[:0], values, offsets)
						return bxCheck(len(out) == len(page), "byte_array")
					},
					theirs: func() (err error) {
						out, err = pe.EncodeByteArray(out[:0], values, uoffs)
						return errors.Join(err, bxCheck(len(out) == len(page), "byte_array"))
					}})
		}

		// BOOLEAN: ours expands to []bool; parquet-go keeps the bitmap, so
		// its PLAIN decode is a copy.
		nb := ps.size
		bools := make([]bool, nb)
		for i := range bools {
			bools[i] = r.IntN(2) == 0
		}
		bpage := plain.EncodeBoolean(nil, bools)
		ob := make([]bool, 0, nb)
		pb := make([]byte, 0, nb)
		cases = append(cases,
			bxBench{name: "decode/boolean/" + ps.name, bytes: nb,
				ours: func() (err error) {
					ob, err = plain.DecodeBoolean(ob[:0], bpage, nb)
					return errors.Join(err, bxCheck(ob[nb-1] == bools[nb-1], "boolean"))
				},
				theirs: func() (err error) {
					pb, err = pe.DecodeBoolean(pb[:0], bpage)
					return errors.Join(err, bxCheck(len(pb) == nb/8, "boolean"))
				}},
			bxBench{name: "encode/boolean/" + ps.name, bytes: nb,
				ours: func() error {
					out = plain.EncodeBoolean(out[:0], bools)
					return bxCheck(len(out) == nb/8, "boolean")
				},
				theirs: func() (err error) {
					out, err = pe.EncodeBoolean(out[:0], bpage)
					return errors.Join(err, bxCheck(len(out) == nb/8, "boolean"))
				}})
	}
	bxRun(b, cases)
}

// bxLevels is internal/benchdata's, shared with encoding/rle's benchmarks.
var bxLevels = benchdata.Levels

func BenchmarkBasicRLE(b *testing.B) {
	r := rand.New(rand.NewPCG(23, 24))
	var cases []bxBench
	for _, ps := range bxPageSizes {
		n := ps.size / 4 // values, decoded as 32-bit
		type set struct {
			name  string
			width uint
			vals  []uint32
		}
		sets := []set{{"levels_w1", 1, bxLevels(r, n)}}
		for _, w := range []uint{3, 8, 12, 20} {
			sets = append(sets, set{fmt.Sprintf("indices_w%d", w), w, bxRuns(r, n, w, 12)})
		}
		for _, s := range sets {
			width, vals := s.width, s.vals
			enc, err := rle.Encode(nil, vals, width)
			if err != nil {
				b.Fatal(err)
			}
			i32 := make([]int32, n)
			for i, v := range vals {
				i32[i] = int32(v)
			}
			pe := pqrle.Encoding{BitWidth: int(width)}
			penc, err := pe.EncodeInt32(nil, i32)
			if err != nil {
				b.Fatal(err)
			}
			last := vals[n-1]
			ours := make([]uint32, 0, n)
			theirs := make([]int32, 0, n+8)
			out := make([]byte, 0, 2*len(penc)+1024)
			cases = append(cases,
				bxBench{name: "decode/" + s.name + "/" + ps.name, bytes: 4 * n,
					ours: func() (err error) {
						ours, err = rle.Decode(ours[:0], enc, width, n)
						return errors.Join(err, bxCheck(ours[n-1] == last, "rle"))
					},
					theirs: func() (err error) {
						theirs, err = pe.DecodeInt32(theirs[:0], enc)
						return errors.Join(err, bxCheck(uint32(theirs[n-1]) == last, "rle"))
					}},
				bxBench{name: "encode/" + s.name + "/" + ps.name, bytes: 4 * n,
					ours: func() (err error) {
						out, err = rle.Encode(out[:0], vals, width)
						return errors.Join(err, bxCheck(len(out) == len(enc), "rle"))
					},
					theirs: func() (err error) {
						out, err = pe.EncodeInt32(out[:0], i32)
						return errors.Join(err, bxCheck(len(out) > 0, "rle"))
					}})
			if width == 1 {
				// Levels as parquet-go reads them: one byte per level.
				pl := make([]uint8, 0, n+8)
				ol := make([]uint8, 0, n)
				cases = append(cases, bxBench{name: "decode/levels_w1_uint8/" + ps.name, bytes: n,
					ours: func() (err error) {
						ol, err = rle.DecodeLevels(ol[:0], enc, width, n)
						return errors.Join(err, bxCheck(uint32(ol[n-1]) == last, "rle"))
					},
					theirs: func() (err error) {
						pl, err = pe.DecodeLevels(pl[:0], enc)
						return errors.Join(err, bxCheck(uint32(pl[n-1]) == last, "rle"))
					}})
			}
		}

		// BOOLEAN in RLE (the v2 encoding of booleans).
		bools := make([]bool, n)
		lv := bxLevels(r, n)
		for i := range bools {
			bools[i] = lv[i] == 1
		}
		benc := rle.EncodeBoolean(nil, bools)
		var pr pqrle.Encoding
		bitmap := plain.EncodeBoolean(nil, bools)
		pbenc, err := pr.EncodeBoolean(nil, bitmap)
		if err != nil {
			b.Fatal(err)
		}
		ob := make([]bool, 0, n)
		pb := make([]byte, 0, n/8+64)
		out := make([]byte, 0, 2*len(pbenc)+1024)
		cases = append(cases,
			bxBench{name: "decode/boolean/" + ps.name, bytes: n,
				ours: func() (err error) {
					ob, _, err = rle.DecodeBoolean(ob[:0], benc, n)
					return errors.Join(err, bxCheck(ob[n-1] == bools[n-1], "boolean"))
				},
				theirs: func() (err error) {
					pb, err = pr.DecodeBoolean(pb[:0], pbenc)
					return errors.Join(err, bxCheck(len(pb) >= n/8, "boolean"))
				}},
			bxBench{name: "encode/boolean/" + ps.name, bytes: n,
				ours: func() error {
					out = rle.EncodeBoolean(out[:0], bools)
					return bxCheck(len(out) == len(benc), "boolean")
				},
				theirs: func() (err error) {
					out, err = pr.EncodeBoolean(out[:0], bitmap)
					return errors.Join(err, bxCheck(len(out) > 4, "boolean"))
				}})
	}
	bxRun(b, cases)
}

func BenchmarkBasicDictionary(b *testing.B) {
	r := rand.New(rand.NewPCG(25, 26))
	var cases []bxBench
	for _, ps := range bxPageSizes {
		n := ps.size / 8
		for _, card := range []int{8, 4096, 1 << 20} {
			vals := make([]int64, n)
			for i := range vals {
				vals[i] = int64(r.IntN(card)) * 1_000_003
			}
			e := dictionary.NewEncoder[int64](0)
			if _, err := e.Put(vals); err != nil {
				b.Fatal(err)
			}
			dpage := e.AppendDictionaryPage(nil)
			ipage := e.AppendIndexPage(nil)
			var d dictionary.Dict[int64]
			if err := d.Reset(dpage, e.Len()); err != nil {
				b.Fatal(err)
			}
			// parquet-go's part of the same work: index page to indices,
			// then the lookup.
			var pd pqrle.DictionaryEncoding
			dict := d.Values()
			out := make([]int64, 0, n)
			idx := make([]int32, 0, n+8)
			last := vals[n-1]
			cases = append(cases, bxBench{name: fmt.Sprintf("decode/int64_card%d/%s", card, ps.name), bytes: 8 * n,
				ours: func() (err error) {
					out, err = d.Decode(out[:0], ipage, n)
					return errors.Join(err, bxCheck(out[n-1] == last, "dict"))
				},
				theirs: func() (err error) {
					idx, err = pd.DecodeInt32(idx[:0], ipage)
					out = out[:n]
					for i, ix := range idx[:n] {
						out[i] = dict[ix]
					}
					return errors.Join(err, bxCheck(out[n-1] == last, "dict"))
				}})
		}
	}
	bxRun(b, cases)
}
