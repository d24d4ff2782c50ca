package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"time"

	"github.com/pqcodec/pqcodec/codecfactory"
	"github.com/pqcodec/pqcodec/column"
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

// demoColumn is a generated column: its values, in the slice of their
// type, and their size in PLAIN encoding (the baseline of every ratio).
type demoColumn struct {
	name, about string
	column.Values
	plainSize int
}

// table returns c's values in the form the encoding table takes.
func (c *demoColumn) table() *enctable.Values { return (*enctable.Values)(&c.Values) }

// equal reports whether c and d hold the same values (floats compared by
// their bits: their PLAIN encodings are compared), and the first index
// where they differ.
func (c *demoColumn) equal(d *demoColumn) (bool, int) {
	a, errA := enctable.Lookup(format.Plain, c.Type).Encode(nil, c.table())
	b, errB := enctable.Lookup(format.Plain, d.Type).Encode(nil, d.table())
	if errA == nil && errB == nil && bytes.Equal(a, b) && c.Len() == d.Len() {
		return true, -1
	}
	for i := range min(c.Len(), d.Len()) {
		if fmt.Sprint(c.Value(i)) != fmt.Sprint(d.Value(i)) {
			return false, i
		}
	}
	return false, min(c.Len(), d.Len())
}

// generate returns n rows of realistic columns, the same for every run.
func generate(n int) []*demoColumn {
	rng := rand.New(rand.NewPCG(7, 2024))
	col := func(name, about string, t format.Type) *demoColumn {
		c := &demoColumn{name: name, about: about}
		c.Reset(t, 0)
		return c
	}
	id := col("id", "sequential order ids", format.Int64)
	ts := col("ts", "event timestamps in µs", format.Int64)
	price := col("price", "prices from a catalogue", format.Double)
	qty := col("qty", "small quantities", format.Int32)
	sensor := col("sensor", "a drifting temperature sensor", format.Float)
	flag := col("flag", "a rare flag, in runs", format.Boolean)
	country := col("country", "short strings: country codes", format.ByteArray)
	url := col("url", "long strings: URLs", format.ByteArray)

	catalogue := make([]float64, 300)
	for i := range catalogue {
		catalogue[i] = float64(99+rng.IntN(50_000)) / 100
	}
	countries := strings.Fields("US US US DE DE FR GB GB JP BR IN CA ES IT NL SE PL MX KR AU")
	sections := strings.Fields("shoes books garden kitchen toys sports music outdoor")
	t := int64(1_717_200_000_000_000)
	temp := 21.5
	on := false
	country.Offsets = append(country.Offsets, 0)
	url.Offsets = append(url.Offsets, 0)
	for i := range n {
		id.Int64s = append(id.Int64s, 100_000_000+int64(i))
		t += int64(rng.IntN(2_000_000))
		ts.Int64s = append(ts.Int64s, t)
		// A few popular prices, a long tail of others.
		p := catalogue[int(math.Floor(math.Pow(rng.Float64(), 3)*float64(len(catalogue))))]
		price.Doubles = append(price.Doubles, p)
		qty.Int32s = append(qty.Int32s, int32(1+rng.IntN(4)*rng.IntN(3)))
		temp += (rng.Float64() - 0.5) * 0.1
		sensor.Floats = append(sensor.Floats, float32(math.Round(temp*100)/100))
		if rng.IntN(100) < 3 {
			on = !on
		}
		flag.Booleans = append(flag.Booleans, on)
		country.Bytes = append(country.Bytes, countries[rng.IntN(len(countries))]...)
		country.Offsets = append(country.Offsets, int32(len(country.Bytes)))
		url.Bytes = fmt.Appendf(url.Bytes, "https://shop.example.com/%s/item/%d?ref=%s&session=%08x",
			sections[rng.IntN(len(sections))], 10_000+rng.IntN(5_000), countries[rng.IntN(len(countries))], rng.Uint32())
		url.Offsets = append(url.Offsets, int32(len(url.Bytes)))
	}
	cols := []*demoColumn{id, ts, price, qty, sensor, flag, country, url}
	for _, c := range cols {
		page, _ := enctable.Lookup(format.Plain, c.Type).Encode(nil, c.table())
		c.plainSize = len(page)
	}
	return cols
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

// encode splits c into pages of at most pageRows values in encoding enc,
// through the encoding table (internal/enctable), as the writer encodes.
func encode(c *demoColumn, enc format.Encoding, pageRows int) (*encodedColumn, error) {
	row := enctable.Lookup(enc, c.Type)
	if row == nil {
		return nil, fmt.Errorf("demo: no %v encoder for %v", enc, c.Type)
	}
	var dict enctable.DictEncoder
	if row.NewDictEncoder != nil {
		dict = row.NewDictEncoder(0, c.TypeLength)
	}
	e := &encodedColumn{}
	part := &enctable.Values{Type: c.Type, TypeLength: c.TypeLength} // a page's values, as the writer buffers them
	for a := 0; a < c.Len(); a += pageRows {
		b := min(a+pageRows, c.Len())
		var page []byte
		var err error
		if dict != nil {
			if _, err = dict.Put(c.table(), a, b); err == nil {
				page = dict.AppendIndexPage(nil)
			}
		} else {
			part.Truncate(0)
			part.AppendRange(c.table(), a, b)
			page, err = row.Encode(nil, part)
		}
		if err != nil {
			return nil, fmt.Errorf("encoding %s as %v: %w", c.name, enc, err)
		}
		e.pages = append(e.pages, page)
		e.counts = append(e.counts, b-a)
	}
	if dict != nil {
		e.dict, e.dictN = dict.AppendDictionaryPage(nil), dict.Len()
	}
	return e, nil
}

// decodePage appends the count values of the page data in encoding enc to
// out, through the encoding table and, for a dictionary encoding, the
// column reader's dictionary (enctable.Dict): the demo times the encodings
// on their own, on its generated columns, without the column layer.
func decodePage(out *demoColumn, enc format.Encoding, data []byte, count int, d *enctable.Dict) error {
	if enc == format.PlainDictionary || enc == format.RLEDictionary {
		return d.Decode(out.table(), data, count)
	}
	row := enctable.Lookup(enc, out.Type)
	if row == nil || row.Decode == nil {
		return fmt.Errorf("demo: no %v decoder for %v", enc, out.Type)
	}
	return row.Decode(out.table(), data, count, count)
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
	dict   enctable.Dict
	values column.Values // the dictionary's, aliasing dict
	out    demoColumn
}

// read decompresses and decodes every page of e, compressed with codec, into
// r.out.
func (r *demoReader) read(c *demoColumn, enc format.Encoding, codec codecfactory.Codec, e *encodedColumn, dict []byte, pages [][]byte) error {
	r.out.Reset(c.Type, c.TypeLength)
	var err error
	if dict != nil {
		if r.buf, err = r.codecs.Decompress(codec, r.buf[:0], dict, len(e.dict)); err != nil {
			return err
		}
		r.values.Reset(c.Type, c.TypeLength)
		if err = r.dict.Reset((*enctable.Values)(&r.values), r.buf, e.dictN); err != nil {
			return err
		}
	}
	for i, p := range pages {
		if r.buf, err = r.codecs.Decompress(codec, r.buf[:0], p, len(e.pages[i])); err != nil {
			return err
		}
		if err = decodePage(&r.out, enc, r.buf, e.counts[i], &r.dict); err != nil {
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
		totalPlain += c.plainSize
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
			if !applies(enc, c.Type) {
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
				cell.plain += c.plainSize
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
		fmt.Fprintf(&b, "  %-8s %-10s %s\n", c.name, strings.ToLower(c.Type.String()), c.about)
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
			if applies(enc, c.Type) {
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
			if applies(enc, c.Type) {
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
