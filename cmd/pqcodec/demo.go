package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"time"

	"github.com/pqcodec/pqcodec/codecfactory"
	"github.com/pqcodec/pqcodec/encoding/bytestreamsplit"
	"github.com/pqcodec/pqcodec/encoding/delta"
	"github.com/pqcodec/pqcodec/encoding/dictionary"
	"github.com/pqcodec/pqcodec/encoding/plain"
	"github.com/pqcodec/pqcodec/encoding/rle"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/internal/enctable"
)

// Demo sizes: the full tour and the quick one the tests run.
const (
	demoRows      = 30_000
	demoShortRows = 2_000
	demoPageRows  = 10_000 // values per data page
)

func setupDemo(fs *flag.FlagSet) func([]string, io.Writer, io.Writer) error {
	short := fs.Bool("short", false, "quick mode: few rows, one timing pass (also PQCODEC_DEMO_SHORT=1)")
	rows := fs.Int("rows", 0, "generate `N` rows (default 30000, 2000 with --short)")
	return func(positional []string, stdout, _ io.Writer) error {
		if len(positional) > 0 {
			return usagef("the demo takes no arguments, got %q (to read a file: pqcodec inspect FILE)", positional[0])
		}
		if os.Getenv("PQCODEC_DEMO_SHORT") == "1" {
			*short = true
		}
		n := demoRows
		if *short {
			n = demoShortRows
		}
		if *rows != 0 {
			n = *rows
		}
		if n < 1 || n > 10_000_000 {
			return usagef("--rows must be between 1 and 10000000, got %d", n)
		}
		return demo(stdout, n, *short)
	}
}

// demoColumn is a generated column: its values in the slice of its type.
type demoColumn struct {
	name, about string
	typ         format.Type
	bools       []bool
	i32         []int32
	i64         []int64
	f32         []float32
	f64         []float64
	bytes       []byte  // BYTE_ARRAY values, back to back
	offsets     []int32 // value i is bytes[offsets[i]:offsets[i+1]]
}

func (c *demoColumn) len() int {
	switch c.typ {
	case format.Boolean:
		return len(c.bools)
	case format.Int32:
		return len(c.i32)
	case format.Int64:
		return len(c.i64)
	case format.Float:
		return len(c.f32)
	case format.Double:
		return len(c.f64)
	}
	return max(len(c.offsets)-1, 0)
}

// plainSize is the size of the column's values in PLAIN encoding: the
// baseline of every ratio.
func (c *demoColumn) plainSize() int {
	switch c.typ {
	case format.Boolean:
		return (len(c.bools) + 7) / 8
	case format.Int32, format.Float:
		return 4 * c.len()
	case format.Int64, format.Double:
		return 8 * c.len()
	}
	return 4*c.len() + len(c.bytes)
}

// reset empties c's values, keeping their capacity and c's type.
func (c *demoColumn) reset() {
	c.bools, c.i32, c.i64, c.f32, c.f64 = c.bools[:0], c.i32[:0], c.i64[:0], c.f32[:0], c.f64[:0]
	c.bytes, c.offsets = c.bytes[:0], c.offsets[:0]
}

// equal reports whether c and d hold the same values, floats compared by
// their bits, and the first index where they differ.
func (c *demoColumn) equal(d *demoColumn) (bool, int) {
	if c.len() != d.len() {
		return false, min(c.len(), d.len())
	}
	for i := range c.len() {
		var same bool
		switch c.typ {
		case format.Boolean:
			same = c.bools[i] == d.bools[i]
		case format.Int32:
			same = c.i32[i] == d.i32[i]
		case format.Int64:
			same = c.i64[i] == d.i64[i]
		case format.Float:
			same = math.Float32bits(c.f32[i]) == math.Float32bits(d.f32[i])
		case format.Double:
			same = math.Float64bits(c.f64[i]) == math.Float64bits(d.f64[i])
		default:
			same = string(c.bytes[c.offsets[i]:c.offsets[i+1]]) == string(d.bytes[d.offsets[i]:d.offsets[i+1]])
		}
		if !same {
			return false, i
		}
	}
	return true, -1
}

// generate returns n rows of realistic columns, the same for every run.
func generate(n int) []*demoColumn {
	rng := rand.New(rand.NewPCG(7, 2024))
	id := &demoColumn{name: "id", about: "sequential order ids", typ: format.Int64}
	ts := &demoColumn{name: "ts", about: "event timestamps in µs", typ: format.Int64}
	price := &demoColumn{name: "price", about: "prices from a catalogue", typ: format.Double}
	qty := &demoColumn{name: "qty", about: "small quantities", typ: format.Int32}
	sensor := &demoColumn{name: "sensor", about: "a drifting temperature sensor", typ: format.Float}
	flag := &demoColumn{name: "flag", about: "a rare flag, in runs", typ: format.Boolean}
	country := &demoColumn{name: "country", about: "short strings: country codes", typ: format.ByteArray}
	url := &demoColumn{name: "url", about: "long strings: URLs", typ: format.ByteArray}

	catalogue := make([]float64, 300)
	for i := range catalogue {
		catalogue[i] = float64(99+rng.IntN(50_000)) / 100
	}
	countries := strings.Fields("US US US DE DE FR GB GB JP BR IN CA ES IT NL SE PL MX KR AU")
	sections := strings.Fields("shoes books garden kitchen toys sports music outdoor")
	t := int64(1_717_200_000_000_000)
	temp := 21.5
	on := false
	country.offsets = append(country.offsets, 0)
	url.offsets = append(url.offsets, 0)
	for i := range n {
		id.i64 = append(id.i64, 100_000_000+int64(i))
		t += int64(rng.IntN(2_000_000))
		ts.i64 = append(ts.i64, t)
		// A few popular prices, a long tail of others.
		p := catalogue[int(math.Floor(math.Pow(rng.Float64(), 3)*float64(len(catalogue))))]
		price.f64 = append(price.f64, p)
		qty.i32 = append(qty.i32, int32(1+rng.IntN(4)*rng.IntN(3)))
		temp += (rng.Float64() - 0.5) * 0.1
		sensor.f32 = append(sensor.f32, float32(math.Round(temp*100)/100))
		if rng.IntN(100) < 3 {
			on = !on
		}
		flag.bools = append(flag.bools, on)
		country.bytes = append(country.bytes, countries[rng.IntN(len(countries))]...)
		country.offsets = append(country.offsets, int32(len(country.bytes)))
		url.bytes = fmt.Appendf(url.bytes, "https://shop.example.com/%s/item/%d?ref=%s&session=%08x",
			sections[rng.IntN(len(sections))], 10_000+rng.IntN(5_000), countries[rng.IntN(len(countries))], rng.Uint32())
		url.offsets = append(url.offsets, int32(len(url.bytes)))
	}
	return []*demoColumn{id, ts, price, qty, sensor, flag, country, url}
}

// demoEncodings lists the encodings of the demo, in table order.
var demoEncodings = []format.Encoding{format.Plain, format.RLEDictionary, format.DeltaBinaryPacked,
	format.DeltaLengthByteArray, format.DeltaByteArray, format.ByteStreamSplit, format.RLE}

// applies reports whether enc can encode values of type t: a row of the
// encoding table.
func applies(enc format.Encoding, t format.Type) bool { return enctable.Lookup(enc, t) != nil }

// encodedColumn is a column in one encoding: an optional dictionary page
// and data pages.
type encodedColumn struct {
	dict   []byte
	dictN  int
	pages  [][]byte
	counts []int // values per data page
}

// encode splits c into pages of at most pageRows values in encoding enc.
func encode(c *demoColumn, enc format.Encoding, pageRows int) (*encodedColumn, error) {
	e := &encodedColumn{}
	var dictFixed interface {
		AppendIndexPage([]byte) []byte
		AppendDictionaryPage([]byte) []byte
		Len() int
	}
	var bytesDict *dictionary.BytesEncoder
	if enc == format.RLEDictionary {
		switch c.typ {
		case format.Int32:
			dictFixed = dictionary.NewEncoder[int32](0)
		case format.Int64:
			dictFixed = dictionary.NewEncoder[int64](0)
		case format.Float:
			dictFixed = dictionary.NewEncoder[float32](0)
		case format.Double:
			dictFixed = dictionary.NewEncoder[float64](0)
		case format.ByteArray:
			bytesDict = dictionary.NewBytesEncoder(0)
			dictFixed = bytesDict
		}
	}
	for a := 0; a < c.len(); a += pageRows {
		b := min(a+pageRows, c.len())
		var page []byte
		var err error
		switch enc {
		case format.Plain:
			switch c.typ {
			case format.Boolean:
				page = plain.EncodeBoolean(nil, c.bools[a:b])
			case format.Int32:
				page = plain.Encode(nil, c.i32[a:b])
			case format.Int64:
				page = plain.Encode(nil, c.i64[a:b])
			case format.Float:
				page = plain.Encode(nil, c.f32[a:b])
			case format.Double:
				page = plain.Encode(nil, c.f64[a:b])
			default:
				page = plain.EncodeByteArray(nil, c.bytes, c.offsets[a:b+1])
			}
		case format.RLEDictionary:
			switch c.typ {
			case format.Int32:
				_, err = dictFixed.(*dictionary.Encoder[int32]).Put(c.i32[a:b])
			case format.Int64:
				_, err = dictFixed.(*dictionary.Encoder[int64]).Put(c.i64[a:b])
			case format.Float:
				_, err = dictFixed.(*dictionary.Encoder[float32]).Put(c.f32[a:b])
			case format.Double:
				_, err = dictFixed.(*dictionary.Encoder[float64]).Put(c.f64[a:b])
			default:
				_, err = bytesDict.Put(c.bytes, c.offsets[a:b+1])
			}
			page = dictFixed.AppendIndexPage(nil)
		case format.DeltaBinaryPacked:
			if c.typ == format.Int32 {
				page = delta.EncodeInt32(nil, c.i32[a:b])
			} else {
				page = delta.EncodeInt64(nil, c.i64[a:b])
			}
		case format.DeltaLengthByteArray:
			page, err = delta.EncodeLengthByteArray(nil, c.bytes, c.offsets[a:b+1])
		case format.DeltaByteArray:
			page, err = delta.EncodeByteArray(nil, c.bytes, c.offsets[a:b+1])
		case format.ByteStreamSplit:
			switch c.typ {
			case format.Int32:
				page = bytestreamsplit.Encode(nil, c.i32[a:b])
			case format.Int64:
				page = bytestreamsplit.Encode(nil, c.i64[a:b])
			case format.Float:
				page = bytestreamsplit.Encode(nil, c.f32[a:b])
			default:
				page = bytestreamsplit.Encode(nil, c.f64[a:b])
			}
		case format.RLE:
			page = rle.EncodeBoolean(nil, c.bools[a:b])
		default:
			return nil, fmt.Errorf("demo: no %v encoder", enc)
		}
		if err != nil {
			return nil, fmt.Errorf("encoding %s as %v: %w", c.name, enc, err)
		}
		e.pages = append(e.pages, page)
		e.counts = append(e.counts, b-a)
	}
	if dictFixed != nil {
		e.dict, e.dictN = dictFixed.AppendDictionaryPage(nil), dictFixed.Len()
	}
	return e, nil
}

// demoDicts holds the decoded dictionary of a column.
type demoDicts struct {
	i32   dictionary.Dict[int32]
	i64   dictionary.Dict[int64]
	f32   dictionary.Dict[float32]
	f64   dictionary.Dict[float64]
	bytes dictionary.BytesDict
}

func (d *demoDicts) load(t format.Type, page []byte, n int) error {
	switch t {
	case format.Int32:
		return d.i32.Reset(page, n)
	case format.Int64:
		return d.i64.Reset(page, n)
	case format.Float:
		return d.f32.Reset(page, n)
	case format.Double:
		return d.f64.Reset(page, n)
	}
	return d.bytes.Reset(page, n)
}

// decodePage appends the count values of the page data in encoding enc to
// out. It is the twin of column's Reader.decodeValues (column/reader.go),
// kept on purpose: the demo times each encoding package on its own, on its
// generated columns, without the column layer.
func decodePage(out *demoColumn, enc format.Encoding, data []byte, count int, d *demoDicts) error {
	var err error
	switch enc {
	case format.Plain:
		switch out.typ {
		case format.Boolean:
			out.bools, err = plain.DecodeBoolean(out.bools, data, count)
		case format.Int32:
			out.i32, err = plain.Decode(out.i32, data)
		case format.Int64:
			out.i64, err = plain.Decode(out.i64, data)
		case format.Float:
			out.f32, err = plain.Decode(out.f32, data)
		case format.Double:
			out.f64, err = plain.Decode(out.f64, data)
		default:
			out.bytes, out.offsets, err = plain.DecodeByteArray(out.bytes, out.offsets, data)
		}
	case format.RLEDictionary:
		switch out.typ {
		case format.Int32:
			out.i32, err = d.i32.Decode(out.i32, data, count)
		case format.Int64:
			out.i64, err = d.i64.Decode(out.i64, data, count)
		case format.Float:
			out.f32, err = d.f32.Decode(out.f32, data, count)
		case format.Double:
			out.f64, err = d.f64.Decode(out.f64, data, count)
		default:
			out.bytes, out.offsets, err = d.bytes.Decode(out.bytes, out.offsets, data, count)
		}
	case format.DeltaBinaryPacked:
		if out.typ == format.Int32 {
			out.i32, err = delta.DecodeInt32(out.i32, data)
		} else {
			out.i64, err = delta.DecodeInt64(out.i64, data)
		}
	case format.DeltaLengthByteArray:
		out.bytes, out.offsets, err = delta.DecodeLengthByteArray(out.bytes, out.offsets, data)
	case format.DeltaByteArray:
		out.bytes, out.offsets, err = delta.DecodeByteArray(out.bytes, out.offsets, data)
	case format.ByteStreamSplit:
		switch out.typ {
		case format.Int32:
			out.i32, err = bytestreamsplit.Decode(out.i32, data)
		case format.Int64:
			out.i64, err = bytestreamsplit.Decode(out.i64, data)
		case format.Float:
			out.f32, err = bytestreamsplit.Decode(out.f32, data)
		default:
			out.f64, err = bytestreamsplit.Decode(out.f64, data)
		}
	case format.RLE:
		out.bools, _, err = rle.DecodeBoolean(out.bools, data, count)
	default:
		err = fmt.Errorf("demo: no %v decoder", enc)
	}
	return err
}

// demoCell is one codec x encoding cell of the table: sums over the
// columns the encoding applies to.
type demoCell struct {
	plain, compressed int
	read              time.Duration // fastest decompress + decode pass, summed over columns
}

// demoReader reads the compressed pages of one column back, reusing its
// buffers.
type demoReader struct {
	codecs *codecfactory.Factory
	buf    []byte
	dicts  demoDicts
	out    demoColumn
}

// read decompresses and decodes every page of e, compressed with codec, into
// r.out.
func (r *demoReader) read(c *demoColumn, enc format.Encoding, codec codecfactory.Codec, e *encodedColumn, dict []byte, pages [][]byte) error {
	r.out.typ = c.typ
	r.out.reset()
	var err error
	if dict != nil {
		if r.buf, err = r.codecs.Decompress(codec, r.buf[:0], dict, len(e.dict)); err != nil {
			return err
		}
		if err = r.dicts.load(c.typ, r.buf, e.dictN); err != nil {
			return err
		}
	}
	for i, p := range pages {
		if r.buf, err = r.codecs.Decompress(codec, r.buf[:0], p, len(e.pages[i])); err != nil {
			return err
		}
		if err = decodePage(&r.out, enc, r.buf, e.counts[i], &r.dicts); err != nil {
			return err
		}
	}
	return nil
}

// demo runs the tour on n generated rows and prints its table.
func demo(out io.Writer, n int, short bool) error {
	start := time.Now()
	codecs, err := codecfactory.New()
	if err != nil {
		return err
	}
	cols := generate(n)
	totalPlain := 0
	for _, c := range cols {
		totalPlain += c.plainSize()
	}
	var allCodecs, skipped []codecfactory.Codec
	for c := codecfactory.Codec(0); c.Valid(); c++ {
		if !codecs.CanCompress(c) {
			skipped = append(skipped, c)
			continue
		}
		allCodecs = append(allCodecs, c)
	}
	cells := make(map[[2]int]*demoCell)
	r := &demoReader{codecs: codecs}
	var compressed [][]byte
	var cdict []byte
	for _, c := range cols {
		for ei, enc := range demoEncodings {
			if !applies(enc, c.typ) {
				continue
			}
			e, err := encode(c, enc, demoPageRows)
			if err != nil {
				return err
			}
			for ci, codec := range allCodecs {
				cell := cells[[2]int{ci, ei}]
				if cell == nil {
					cell = &demoCell{}
					cells[[2]int{ci, ei}] = cell
				}
				size := 0
				cdict = nil
				if e.dict != nil {
					if cdict, err = codecs.Compress(codec, nil, e.dict); err != nil {
						return err
					}
					size += len(cdict)
				}
				compressed = compressed[:0]
				for _, p := range e.pages {
					cp, err := codecs.Compress(codec, nil, p)
					if err != nil {
						return err
					}
					compressed = append(compressed, cp)
					size += len(cp)
				}
				best := time.Duration(-1)
				var spent time.Duration
				for pass := 0; pass < 1 || !short && (pass < 2 || spent < time.Millisecond) && pass < 20; pass++ {
					t0 := time.Now()
					if err := r.read(c, enc, codec, e, cdict, compressed); err != nil {
						return fmt.Errorf("demo: reading %s as %v with %v: %w", c.name, enc, codec, err)
					}
					d := time.Since(t0)
					spent += d
					if best < 0 || d < best {
						best = d
					}
				}
				if ok, at := c.equal(&r.out); !ok {
					return fmt.Errorf("demo: %s as %v with %v: value %d differs after the round trip", c.name, enc, codec, at)
				}
				cell.plain += c.plainSize()
				cell.compressed += size
				cell.read += best
			}
		}
	}
	writeDemo(out, cols, n, totalPlain, allCodecs, skipped, cells, time.Since(start))
	return nil
}

// demoShortNames are the table's column headers.
var demoShortNames = map[format.Encoding]string{
	format.Plain: "PLAIN", format.RLEDictionary: "DICT", format.DeltaBinaryPacked: "DELTA",
	format.DeltaLengthByteArray: "DELTA_LEN", format.DeltaByteArray: "DELTA_BA",
	format.ByteStreamSplit: "BSS", format.RLE: "RLE",
}

func writeDemo(out io.Writer, cols []*demoColumn, n, totalPlain int, codecs, skipped []codecfactory.Codec, cells map[[2]int]*demoCell, took time.Duration) {
	var b strings.Builder
	fmt.Fprintf(&b, "pqcodec demo: %d rows of %d generated columns, %s as PLAIN values\n", n, len(cols), human(totalPlain))
	for _, c := range cols {
		fmt.Fprintf(&b, "  %-8s %-10s %s\n", c.name, strings.ToLower(c.typ.String()), c.about)
	}
	fmt.Fprintf(&b, "Each column was encoded with every encoding that applies to it, in pages of %d values;\n"+
		"every page was compressed with every codec, then decompressed, decoded and checked value by value.\n\n", demoPageRows)
	t := table{align: "ll" + strings.Repeat("r", len(demoEncodings))}
	head := []string{"", ""}
	which := []string{"", "columns"}
	for _, enc := range demoEncodings {
		head = append(head, demoShortNames[enc])
		var names []string
		for _, c := range cols {
			if applies(enc, c.typ) {
				names = append(names, c.name)
			}
		}
		if len(names) == len(cols) {
			which = append(which, "all")
		} else {
			which = append(which, fmt.Sprint(len(names)))
		}
	}
	t.add(head...)
	t.add(which...)
	for ci, codec := range codecs {
		size, ratio, speed := []string{codec.String(), "size"}, []string{"", "ratio"}, []string{"", "MB/s"}
		for ei := range demoEncodings {
			cell := cells[[2]int{ci, ei}]
			if cell == nil {
				size, ratio, speed = append(size, ""), append(ratio, ""), append(speed, "")
				continue
			}
			size = append(size, human(cell.compressed))
			ratio = append(ratio, fmt.Sprintf("%.2fx", float64(cell.plain)/float64(cell.compressed)))
			speed = append(speed, rate(float64(cell.plain)/1e6, cell.read))
		}
		t.add(size...)
		t.add(ratio...)
		t.add(speed...)
	}
	t.write(&b, "")
	fmt.Fprintf(&b, "\nratio: PLAIN size / compressed size; MB/s: PLAIN bytes read per second (decompress + decode).\n")
	legend := []string{}
	for _, enc := range demoEncodings {
		var names []string
		for _, c := range cols {
			if applies(enc, c.typ) {
				names = append(names, c.name)
			}
		}
		legend = append(legend, fmt.Sprintf("%s = %v (%s)", demoShortNames[enc], enc, strings.Join(names, " ")))
	}
	fmt.Fprintf(&b, "%s\n", strings.Join(legend[1:], "; "))
	if len(skipped) > 0 {
		names := make([]string, len(skipped))
		for i, c := range skipped {
			names[i] = c.String()
		}
		fmt.Fprintf(&b, "Skipped %s: this build can decompress it but not compress it (needs cgo and its C library).\n",
			strings.Join(names, ", "))
	}
	fmt.Fprintf(&b, "Done in %.1fs. On a real file: pqcodec inspect FILE, pqcodec cat FILE --limit 5, pqcodec bench FILE\n",
		took.Seconds())
	io.WriteString(out, b.String())
}

// human formats a byte count with a decimal unit.
func human(n int) string {
	switch {
	case n >= 1e6:
		return fmt.Sprintf("%.2f MB", float64(n)/1e6)
	case n >= 1e3:
		return fmt.Sprintf("%.1f kB", float64(n)/1e3)
	}
	return fmt.Sprintf("%d B", n)
}
