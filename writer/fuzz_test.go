package writer_test

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/pqcodec/pqcodec/codecfactory"
	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/internal/enctable"
	"github.com/pqcodec/pqcodec/writer"
)

// byteSource hands out the fuzzer's bytes, then zeros.
type byteSource struct{ b []byte }

func (s *byteSource) next() byte {
	if len(s.b) == 0 {
		return 0
	}
	c := s.b[0]
	s.b = s.b[1:]
	return c
}

func (s *byteSource) n(k int) int { return int(s.next()) % k }

func (s *byteSource) u64() uint64 {
	var x uint64
	for range 8 {
		x = x<<8 | uint64(s.next())
	}
	return x
}

var fuzzTypes = []string{"boolean", "int32", "int64", "int96", "float", "double", "binary", "fixed_len_byte_array(3)"}

// fuzzValue appends one random value of t to v.
func fuzzValue(s *byteSource, v *column.Values) {
	switch v.Type {
	case format.Boolean:
		v.Booleans = append(v.Booleans, s.next()&1 == 1)
	case format.Int32:
		v.Int32s = append(v.Int32s, int32(s.u64()>>s.n(64)))
	case format.Int64:
		v.Int64s = append(v.Int64s, int64(s.u64()>>s.n(64)))
	case format.Int96:
		v.Int96s = append(v.Int96s, [12]byte{s.next(), 0, 0, 0, 0, 0, 0, 0, s.next()})
	case format.Float:
		f := []float32{float32(math.NaN()), 0, float32(math.Copysign(0, -1)), float32(int8(s.next()))}
		v.Floats = append(v.Floats, f[s.n(4)])
	case format.Double:
		f := []float64{math.NaN(), 0, math.Copysign(0, -1), math.Inf(1), float64(int8(s.next())) / 3}
		v.Doubles = append(v.Doubles, f[s.n(5)])
	case format.ByteArray:
		for range s.n(5) {
			v.Bytes = append(v.Bytes, 'a'+byte(s.n(3)))
		}
		v.Offsets = append(v.Offsets, int32(len(v.Bytes)))
	case format.FixedLenByteArray:
		v.Bytes = append(v.Bytes, s.next(), byte(s.n(2)), 0xff)
	}
}

// FuzzRoundTrip writes random schemas and values under random options and
// reads them back with column: values and levels must be what was written,
// and the bytes the same with 2 to 4 workers as with one.
func FuzzRoundTrip(f *testing.F) {
	f.Add([]byte{3, 0, 1, 2, 7, 9, 1, 1, 1, 200, 3, 4, 5, 6, 7, 8, 9, 10})
	f.Add([]byte("a fuzz seed with more bytes in it, to make a few rows of several columns"))
	codecs, err := codecfactory.New()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s := &byteSource{b: data}
		ncols := 1 + s.n(3)
		var text strings.Builder
		text.WriteString("message m {\n")
		kinds := make([]int, ncols)
		for i := range ncols {
			kinds[i] = s.n(4)
			typ := fuzzTypes[s.n(len(fuzzTypes))]
			switch kinds[i] {
			case 0:
				fmt.Fprintf(&text, "required %s c%d;\n", typ, i)
			case 1:
				fmt.Fprintf(&text, "optional %s c%d;\n", typ, i)
			case 2:
				fmt.Fprintf(&text, "optional group c%d (LIST) { repeated group list { optional %s element; } }\n", i, typ)
			case 3:
				fmt.Fprintf(&text, "repeated %s c%d;\n", typ, i)
			}
		}
		text.WriteString("}")
		schema, err := format.ParseSchema(text.String())
		if err != nil {
			t.Fatal(err)
		}
		rows := s.n(60)
		want := &fileData{schema: schema, cols: make([]colData, ncols)}
		for i, leaf := range schema.Leaves() {
			c := &want.cols[i]
			tl := 0
			if leaf.Element.TypeLength != nil {
				tl = int(*leaf.Element.TypeLength)
			}
			c.vals.Reset(*leaf.Element.Type, tl)
			if c.vals.Type == format.ByteArray {
				c.vals.Offsets = []int32{0}
			}
			for range rows {
				c.rowStarts = append(c.rowStarts, max(len(c.def), c.vals.Len()))
				c.valStarts = append(c.valStarts, c.vals.Len())
				switch kinds[i] {
				case 0:
					fuzzValue(s, &c.vals)
				case 1:
					if s.next()&1 == 0 {
						c.def = append(c.def, 0)
					} else {
						c.def = append(c.def, 1)
						fuzzValue(s, &c.vals)
					}
				case 2:
					switch n := s.n(5); n {
					case 0, 1: // null or empty list
						c.def, c.rep = append(c.def, int16(n)), append(c.rep, 0)
					default:
						for k := range n - 1 {
							c.rep = append(c.rep, int16(min(k, 1)))
							if s.next()&3 == 0 {
								c.def = append(c.def, 2)
							} else {
								c.def = append(c.def, 3)
								fuzzValue(s, &c.vals)
							}
						}
					}
				case 3:
					n := s.n(4)
					if n == 0 {
						c.def, c.rep = append(c.def, 0), append(c.rep, 0)
					}
					for k := range n {
						c.def, c.rep = append(c.def, 1), append(c.rep, int16(min(k, 1)))
						fuzzValue(s, &c.vals)
					}
				}
			}
			c.rowStarts = append(c.rowStarts, max(len(c.def), c.vals.Len()))
			c.valStarts = append(c.valStarts, c.vals.Len())
		}
		codecList := []codecfactory.Codec{codecfactory.Uncompressed, codecfactory.Snappy, codecfactory.Gzip,
			codecfactory.Zstd, codecfactory.Lz4Raw, codecfactory.Lz4, codecfactory.Brotli}
		opts := []writer.Option{writer.WithCodecs(codecs), writer.WithCodec(codecList[s.n(len(codecList))]),
			writer.WithPageVersion(1 + s.n(2)), writer.WithDictionary(s.next()&1 == 0),
			writer.WithDictionaryLimit(1 + s.n(200)), writer.WithPageRows(1 + s.n(20)), writer.WithPageSize(1 + 8*s.n(100)),
			writer.WithRowGroupRows(int64(1 + s.n(40)))}
		for _, leaf := range schema.Leaves() {
			encs := enctable.Encodings(*leaf.Element.Type)
			e := encs[s.n(len(encs))]
			if e != format.RLEDictionary {
				opts = append(opts, writer.WithColumn(strings.Join(leaf.Path(), "."), writer.WithEncoding(e)))
			}
		}
		window := 1 + s.n(10)
		out, err := writeFile(want, window, opts...)
		if err != nil {
			t.Fatalf("schema %s: %v", text.String(), err)
		}
		// The same file with workers (the last choice taken from data,
		// so that the seeds keep their meaning): the same bytes.
		workers := 2 + s.n(3)
		again, err := writeFile(want, window, append(opts, writer.WithWorkers(workers))...)
		if err != nil {
			t.Fatalf("schema %s, %d workers: %v", text.String(), workers, err)
		}
		if !bytes.Equal(out, again) {
			t.Fatalf("schema %s: %d workers wrote other bytes than one", text.String(), workers)
		}
		got, err := readFile(out)
		if err != nil {
			t.Fatalf("schema %s: read back: %v", text.String(), err)
		}
		if rows == 0 {
			return
		}
		if err := compareFiles(want, got); err != nil {
			t.Fatalf("schema %s: %v", text.String(), err)
		}
		if err := checkStatistics(out); err != nil {
			t.Fatalf("schema %s: statistics: %v", text.String(), err)
		}
	})
}

// FuzzInvalidBatches writes random, mostly invalid batches: every call
// returns an error or succeeds, never panics; after an error nothing more
// is written; after success the file reads back.
func FuzzInvalidBatches(f *testing.F) {
	f.Add([]byte{0, 3, 1, 2, 3, 4, 5, 6, 7, 8})
	f.Add([]byte{2, 5, 0, 1, 3, 2, 9, 1, 1, 1, 0, 4})
	f.Fuzz(func(t *testing.T, data []byte) {
		s := &byteSource{b: data}
		var buf bytes.Buffer
		w, err := writer.New(&buf, testSchema(t), writer.WithPageRows(1+s.n(5)))
		if err != nil {
			t.Fatal(err)
		}
		failed := false
		for range 1 + s.n(6) {
			col := s.n(5) - (s.n(8) / 7) // sometimes -1 or 4
			types := []format.Type{format.Int64, format.ByteArray, format.FixedLenByteArray, format.Boolean, format.Int32}
			v := &column.Values{Type: types[s.n(len(types))], TypeLength: s.n(4)}
			if v.Type == format.ByteArray {
				v.Offsets = []int32{0}
			}
			nv := s.n(6)
			for range nv {
				fuzzValue(s, v)
			}
			if v.Type == format.FixedLenByteArray && s.next()&1 == 0 {
				v.TypeLength = 2
				v.Bytes = v.Bytes[:len(v.Bytes)/3*2]
			}
			if v.Type == format.ByteArray && s.next()&7 == 0 {
				v.Offsets[len(v.Offsets)-1] += 9
			}
			var def, rep []int16
			for range s.n(8) {
				def = append(def, int16(s.n(5))-1)
			}
			if s.next()&1 == 0 {
				for range len(def) + s.n(2) - s.n(2) {
					rep = append(rep, int16(s.n(3))-(int16(s.n(8))/7))
				}
			}
			if err := w.Write(col, v, def, rep); err != nil {
				failed = true
			}
			if s.next()&3 == 0 {
				if err := w.Flush(); err != nil {
					failed = true
				}
			}
		}
		err = w.Close()
		if failed && err == nil || !failed && err != nil && !errors.Is(err, writer.ErrRowCount) {
			t.Fatalf("Close after failed=%v returned %v", failed, err)
		}
		if err != nil {
			if buf.Len() > 0 && bytes.HasSuffix(buf.Bytes(), []byte("PAR1")) && buf.Len() > 8 {
				t.Fatal("footer written after an error")
			}
			return
		}
		if _, err := readFile(buf.Bytes()); err != nil {
			t.Fatalf("file written without error does not read back: %v", err)
		}
	})
}
