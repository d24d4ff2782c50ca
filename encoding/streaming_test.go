package encoding_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"testing"
	"unsafe"

	"github.com/pqcodec/pqcodec/codecfactory"
	"github.com/pqcodec/pqcodec/encoding/bytestreamsplit"
	"github.com/pqcodec/pqcodec/encoding/delta"
	"github.com/pqcodec/pqcodec/encoding/dictionary"
	"github.com/pqcodec/pqcodec/encoding/plain"
	"github.com/pqcodec/pqcodec/encoding/rle"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/internal/pages"
	"github.com/pqcodec/pqcodec/internal/testcorpus"
)

// streamingDecoder is the shape every streaming decoder of the encoding
// packages shares (see the package doc): after Reset, Remaining values are
// left, and Decode writes up to len(dst) of them, returning 0, io.EOF once
// none is left.
type streamingDecoder[T any] interface {
	Remaining() int
	Decode(dst []T) (int, error)
}

// Compile-time checks that every streaming decoder has the shape.
var (
	_ streamingDecoder[int64]   = (*plain.Decoder[int64])(nil)
	_ streamingDecoder[int64]   = (*delta.Decoder[int64])(nil)
	_ streamingDecoder[float64] = (*bytestreamsplit.Decoder[float64])(nil)
	_ streamingDecoder[uint32]  = (*rle.Decoder)(nil)
)

// readAll is the one read loop: it is written once, for the interface, and
// must terminate on every decoder. It checks that Remaining counts down by
// what Decode returns and is 0 at io.EOF, and that io.EOF repeats.
func readAll[T any](d streamingDecoder[T], bufSize int) ([]T, error) {
	buf := make([]T, bufSize)
	var got []T
	left := d.Remaining()
	for calls := 0; ; calls++ {
		if calls > left+1 {
			return got, fmt.Errorf("no io.EOF after %d calls for %d values", calls, left)
		}
		n, err := d.Decode(buf)
		got = append(got, buf[:n]...)
		if err == io.EOF {
			if n != 0 || d.Remaining() != 0 {
				return got, fmt.Errorf("io.EOF with n=%d, Remaining %d", n, d.Remaining())
			}
			if n, err := d.Decode(buf); n != 0 || err != io.EOF {
				return got, fmt.Errorf("Decode after io.EOF: %d, %v", n, err)
			}
			if len(got) != left {
				return got, fmt.Errorf("%d values, Remaining said %d", len(got), left)
			}
			return got, nil
		}
		if err != nil {
			return got, err
		}
		if n == 0 {
			return got, errors.New("0 values without an error")
		}
		if r := d.Remaining(); r != left-len(got) {
			return got, fmt.Errorf("Remaining %d after %d of %d values", r, len(got), left)
		}
	}
}

// bufSizes are the dst lengths the loop is run with: shorter, equal and
// longer than the 32-value groups the decoders work in.
var bufSizes = []int{1, 7, 32, 100, 1024}

// checkStream resets d through reset for every buffer size, drives it with
// readAll and compares its values, byte for byte (NaNs included), with
// want, the whole-page decoder's output.
func checkStream[T any](t *testing.T, name string, d streamingDecoder[T], reset func() error, want []T) {
	t.Helper()
	for _, size := range bufSizes {
		if err := reset(); err != nil {
			t.Fatalf("%s: Reset: %v", name, err)
		}
		got, err := readAll(d, size)
		if err != nil {
			t.Fatalf("%s, dst of %d: %v", name, size, err)
		}
		if !bytes.Equal(asBytes(got), asBytes(want)) {
			t.Fatalf("%s, dst of %d: values differ from the whole-page decoder's", name, size)
		}
	}
}

func asBytes[T any](v []T) []byte {
	if len(v) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&v[0])), len(v)*int(unsafe.Sizeof(v[0])))
}

// streamFiles are corpus files that hold, between them, pages of every
// streaming decoder, written by several writers, with v1 and v2 pages.
var streamFiles = []string{
	"alltypes_plain.parquet",
	"alltypes_dictionary.parquet",
	"alltypes_tiny_pages_plain.parquet",
	"alltypes_tiny_pages.parquet",
	"datapage_v2.snappy.parquet",
	"delta_binary_packed.parquet",
	"delta_encoding_optional_column.parquet",
	"delta_encoding_required_column.parquet",
	"byte_stream_split.zstd.parquet",
	"byte_stream_split_extended.gzip.parquet",
	"int32_with_null_pages.parquet",
	"nulls.snappy.parquet",
}

// TestStreamingDecoders drives every streaming decoder with readAll over the
// value sections of real pages, and checks that the loop ends and that the
// values match the whole-page decoders.
func TestStreamingDecoders(t *testing.T) {
	codecs, err := codecfactory.New()
	if err != nil {
		t.Fatal(err)
	}
	defer codecs.Close()
	seen := map[string]int{}
	skipped := 0
	for _, name := range streamFiles {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if t.Skipped() {
					skipped++
				}
			}()
			streamFile(t, codecs, testcorpus.Data(t, name), seen)
		})
	}
	if skipped == len(streamFiles) {
		t.Skip("every corpus file was skipped")
	}
	for _, kind := range []string{"plain", "dictionary", "delta", "bytestreamsplit", "rle indices", "rle levels"} {
		if seen[kind] == 0 {
			t.Errorf("no %s page in the corpus files", kind)
		}
	}
	t.Logf("pages per decoder: %v", seen)
}

// page is the value section of one data page, decompressed.
type page struct {
	typ      format.Type
	encoding format.Encoding
	values   []byte // the values section
	count    int    // non-null values in it
}

func streamFile(t *testing.T, codecs *codecfactory.Factory, path string, seen map[string]int) {
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	st, err := fh.Stat()
	if err != nil {
		t.Fatal(err)
	}
	meta, err := format.ReadFooter(fh, st.Size())
	if err != nil {
		t.Fatal(err)
	}
	schema, err := format.NewSchema(meta.Schema)
	if err != nil {
		t.Fatal(err)
	}
	var chunk, dict []byte
	for rg := range meta.RowGroups {
		for col, leaf := range schema.Leaves() {
			if leaf.MaxRepetitionLevel > 0 {
				continue
			}
			cc := &meta.RowGroups[rg].Columns[col]
			rng, err := meta.ColumnChunkRange(cc, st.Size())
			if err != nil {
				t.Fatal(err)
			}
			if chunk, err = format.ReadColumnChunk(chunk[:0], fh, rng); err != nil {
				t.Fatal(err)
			}
			dict = dict[:0]
			dictCount := 0
			w := &pages.Pipeline{Codecs: codecs, Codec: codecfactory.Codec(cc.MetaData.Codec)}
			for w.Reset(chunk, rng); w.Next(); {
				h := w.Header()
				switch h.Type {
				case format.DictionaryPage:
					dict, dictCount = decompress(t, w, h, w.Body()), int(h.DictionaryPageHeader.NumValues)
				case format.DataPage, format.DataPageV2:
					p, levels := valuesOf(t, w, h, w.Body(), leaf.MaxDefinitionLevel)
					p.typ = cc.MetaData.Type
					if levels != nil {
						checkLevels(t, levels, leaf.MaxDefinitionLevel, seen)
					}
					checkPage(t, p, dict, dictCount, seen)
				}
			}
		}
	}
}

// levelStream is a bare RLE definition-level stream of a page.
type levelStream struct {
	src   []byte
	count int
}

// decompress returns the decompressed data of the page (h, body) through
// the column reader's pipeline, in a new buffer: the values section of a
// data page v2, the whole body of another page.
func decompress(t *testing.T, w *pages.Pipeline, h *format.PageHeader, body []byte) []byte {
	s, err := pages.Split(h, body)
	if err != nil {
		t.Fatal(err)
	}
	var buf []byte
	b, err := w.Decompress(&buf, s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// valuesOf returns the decompressed values section of a data page and its
// definition levels, if any are RLE-encoded.
func valuesOf(t *testing.T, w *pages.Pipeline, h *format.PageHeader, body []byte, maxDef int) (page, *levelStream) {
	width := uint(0)
	for maxDef>>width != 0 {
		width++
	}
	var p page
	var levels []byte
	var n int
	if h.Type == format.DataPage {
		b := decompress(t, w, h, body)
		p.encoding, n = h.DataPageHeader.Encoding, int(h.DataPageHeader.NumValues)
		if maxDef > 0 {
			if h.DataPageHeader.DefinitionLevelEncoding != format.RLE || len(b) < 4 {
				t.Fatalf("v1 page with %v levels", h.DataPageHeader.DefinitionLevelEncoding)
			}
			l := int(uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24)
			levels, b = b[4:4+l], b[4+l:]
		}
		p.values = b
	} else {
		v2 := h.DataPageHeaderV2
		p.encoding, n = v2.Encoding, int(v2.NumValues)
		s, err := pages.Split(h, body)
		if err != nil {
			t.Fatal(err)
		}
		levels, p.values = s.DefLevels, decompress(t, w, h, body)
	}
	p.count = n
	if maxDef == 0 {
		return p, nil
	}
	defs, err := rle.DecodeLevels[uint8](nil, levels, width, n)
	if err != nil {
		t.Fatal(err)
	}
	p.count = 0
	for _, d := range defs {
		if int(d) == maxDef {
			p.count++
		}
	}
	return p, &levelStream{levels, n}
}

func checkLevels(t *testing.T, l *levelStream, maxDef int, seen map[string]int) {
	width := uint(0)
	for maxDef>>width != 0 {
		width++
	}
	want, err := rle.Decode(nil, l.src, width, l.count)
	if err != nil {
		t.Fatal(err)
	}
	var d rle.Decoder
	checkStream(t, "rle levels", &d, func() error { return d.Reset(l.src, width, l.count) }, want)
	seen["rle levels"]++
}

func checkPage(t *testing.T, p page, dict []byte, dictCount int, seen map[string]int) {
	switch p.typ {
	case format.Int32:
		checkTyped[int32](t, p, dict, dictCount, seen)
	case format.Int64:
		checkTyped[int64](t, p, dict, dictCount, seen)
	case format.Float:
		checkTyped[float32](t, p, dict, dictCount, seen)
	case format.Double:
		checkTyped[float64](t, p, dict, dictCount, seen)
	default:
		if isDict(p.encoding) {
			checkIndices(t, p, dictCount, seen)
		}
	}
}

func isDict(e format.Encoding) bool {
	return e == format.RLEDictionary || e == format.PlainDictionary
}

// checkIndices drives rle.Decoder over a dictionary index stream.
func checkIndices(t *testing.T, p page, dictCount int, seen map[string]int) {
	width, stream, err := rle.SplitBitWidth(p.values)
	if err != nil {
		t.Fatal(err)
	}
	want, err := dictionary.DecodeIndices(nil, p.values, p.count, dictCount)
	if err != nil {
		t.Fatal(err)
	}
	var d rle.Decoder
	checkStream(t, "rle indices", &d, func() error { return d.Reset(stream, width, p.count) }, want)
	seen["rle indices"]++
}

type fixed interface {
	int32 | int64 | float32 | float64
}

func checkTyped[T fixed](t *testing.T, p page, dictBytes []byte, dictCount int, seen map[string]int) {
	size := int(unsafe.Sizeof(T(0)))
	switch {
	case p.encoding == format.Plain:
		src := p.values[:p.count*size]
		want, err := plain.Decode[T](nil, src)
		if err != nil {
			t.Fatal(err)
		}
		var d plain.Decoder[T]
		checkStream(t, "plain", &d, func() error { return d.Reset(src) }, want)
		seen["plain"]++
	case isDict(p.encoding):
		var dict dictionary.Dict[T]
		if err := dict.Reset(dictBytes, dictCount); err != nil {
			t.Fatal(err)
		}
		want, err := dict.Decode(nil, p.values, p.count)
		if err != nil {
			t.Fatal(err)
		}
		if len(want) != p.count {
			t.Fatalf("dictionary: %d values, want %d", len(want), p.count)
		}
		seen["dictionary"]++
		checkIndices(t, p, dictCount, seen)
	case p.encoding == format.DeltaBinaryPacked:
		switch any(T(0)).(type) {
		case int32:
			checkDelta[int32](t, p, delta.DecodeInt32, seen)
		case int64:
			checkDelta[int64](t, p, delta.DecodeInt64, seen)
		}
	case p.encoding == format.ByteStreamSplit:
		src := p.values[:p.count*size]
		want, err := bytestreamsplit.Decode[T](nil, src)
		if err != nil {
			t.Fatal(err)
		}
		var d bytestreamsplit.Decoder[T]
		checkStream(t, "bytestreamsplit", &d, func() error { return d.Reset(src) }, want)
		seen["bytestreamsplit"]++
	}
}

func checkDelta[T delta.Integer](t *testing.T, p page, whole func([]T, []byte) ([]T, error), seen map[string]int) {
	want, err := whole(nil, p.values)
	if err != nil {
		t.Fatal(err)
	}
	if len(want) != p.count {
		t.Fatalf("delta page of %d values, %d expected", len(want), p.count)
	}
	var d delta.Decoder[T]
	checkStream(t, "delta", &d, func() error { return d.Reset(p.values) }, want)
	seen["delta"]++
}
