package main

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/pqcodec/pqcodec/codecfactory"
	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/internal/flow"
	"github.com/pqcodec/pqcodec/recompress"
	"github.com/pqcodec/pqcodec/rows"
	"github.com/pqcodec/pqcodec/writer"
)

// stdin is the input of `convert -`; tests replace it.
var stdin io.Reader = os.Stdin

type convertFlags struct {
	from, schema, schemaFrom, codec string
	inferRows                       int
	printSchema, raw                bool
	pageSize, rowGroupSize          byteSize
	pageRows                        int
	rowGroupRows                    int64
	dictionary, statistics, index   bool
	crc                             bool
	pageVersion                     int
	delimiter                       string
	header                          bool
}

func setupConvert(fs *flag.FlagSet) func([]string, io.Writer, io.Writer) error {
	var f convertFlags
	fs.StringVar(&f.from, "from", "", "input format, `jsonl|csv` (default: by IN's extension, .csv for CSV, JSON Lines otherwise)")
	fs.StringVar(&f.schema, "schema", "", "the schema as parquet-java's message-type `text` ('message m { required int64 id; }')")
	fs.StringVar(&f.schemaFrom, "schema-from", "", "take the schema of `FILE.parquet`")
	fs.IntVar(&f.inferRows, "infer-rows", 1000, "infer the schema from the first `N` rows when neither --schema nor --schema-from is given")
	fs.BoolVar(&f.printSchema, "print-schema", false, "print the schema (given or inferred) and stop; OUT may be left out")
	fs.BoolVar(&f.raw, "raw", false, "JSON input holds physical values, as cat --raw prints them")
	fs.StringVar(&f.codec, "codec", "zstd", "`codec[:level]` of the pages (uncompressed, snappy, gzip, lzo, brotli, lz4, zstd, lz4_raw)")
	f.pageSize = writer.DefaultPageSize
	fs.Var(&f.pageSize, "page-size", "cut data pages at `SIZE` bytes before compression")
	fs.IntVar(&f.pageRows, "page-rows", writer.DefaultPageRows, "at most `N` rows per data page")
	f.rowGroupSize = writer.DefaultRowGroupSize
	fs.Var(&f.rowGroupSize, "row-group-size", "flush a row group at `SIZE` compressed bytes")
	fs.Int64Var(&f.rowGroupRows, "row-group-rows", writer.DefaultRowGroupRows, "flush a row group at `N` rows")
	fs.BoolVar(&f.dictionary, "dictionary", true, "dictionary-encode columns (falling back to PLAIN past 1 MiB)")
	fs.BoolVar(&f.statistics, "statistics", true, "write statistics")
	fs.BoolVar(&f.index, "page-index", true, "write the column and offset indexes")
	fs.BoolVar(&f.crc, "crc", true, "write page checksums")
	fs.IntVar(&f.pageVersion, "page-version", writer.DefaultPageVersion, "data pages `1|2`")
	fs.StringVar(&f.delimiter, "delimiter", ",", "CSV field delimiter (one character)")
	fs.BoolVar(&f.header, "header", true, "the first CSV line names the columns")
	return func(positional []string, stdout, stderr io.Writer) error {
		if len(positional) != 2 && !(f.printSchema && len(positional) == 1) {
			return usagef("IN and OUT expected, got %d arguments", len(positional))
		}
		return convert(&f, positional, stdout, stderr)
	}
}

// writerOptions returns the options of package writer the flags give.
func (f *convertFlags) writerOptions() ([]writer.Option, error) {
	t, err := recompress.ParseTarget(f.codec)
	if err != nil || t.Codec == recompress.Keep {
		return nil, usagef("--codec %q: not a codec[:level]", f.codec)
	}
	opts := []writer.Option{writer.WithCodec(t.Codec), writer.WithPageSize(int(f.pageSize)), writer.WithPageRows(f.pageRows),
		writer.WithRowGroupSize(int64(f.rowGroupSize)), writer.WithRowGroupRows(f.rowGroupRows),
		writer.WithDictionary(f.dictionary), writer.WithStatistics(f.statistics), writer.WithPageIndex(f.index),
		writer.WithChecksums(f.crc), writer.WithPageVersion(f.pageVersion)}
	if t.Level != 0 {
		if !codecfactory.HasLevels(t.Codec) {
			return nil, usagef("--codec %q: %v has no levels", f.codec, t.Codec)
		}
		o := codecfactory.WithLevel(t.Codec, t.Level)
		fac, err := codecfactory.New(o)
		if err != nil {
			return nil, usagef("--codec %q: %v", f.codec, err)
		}
		opts = append(opts, writer.WithCodecs(fac))
	}
	return opts, nil
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// inputError is an input line that cannot be converted: exit status 1,
// naming the line (and the CSV column).
type inputError struct {
	file string
	line int64
	col  string // CSV: "column N (name)"; JSON: the field path
	err  error
}

func (e *inputError) Error() string {
	s := fmt.Sprintf("%s:%d: ", e.file, e.line)
	if e.col != "" {
		s += e.col + ": "
	}
	var re *rows.RowError
	if errors.As(e.err, &re) {
		return s + re.Err.Error()
	}
	return s + e.err.Error()
}

func (e *inputError) Unwrap() error { return e.err }

// writeFailure is an error of the column writer met on the typed path.
type writeFailure struct{ err error }

func (e *writeFailure) Error() string { return e.err.Error() }
func (e *writeFailure) Unwrap() error { return e.err }

// rowSource yields the rows of the input.
type rowSource interface {
	// next returns the next row (a rows.Group or map[string]any of JSON
	// values) and its line, or io.EOF. With rw not nil, it first offers
	// the row to rw's typed path (rows.Writer.TryJSON, TryScalars), which
	// converts its tokens straight into the columns, and returns a nil
	// row for a row rw took; a row rw leaves is returned for WriteValue,
	// which writes it or gives its error. An error of rw's column writer
	// is a *writeFailure.
	next(rw *rows.Writer) (any, int64, error)
	// where names the input column of field path p, for errors ("" for
	// JSON, where the path says it).
	where(p string) string
}

func convert(f *convertFlags, positional []string, stdout, stderr io.Writer) error {
	start := time.Now()
	in := positional[0]
	kind := f.from
	if kind == "" {
		kind = "jsonl"
		if strings.EqualFold(filepath.Ext(in), ".csv") {
			kind = "csv"
		}
	}
	if kind != "jsonl" && kind != "csv" && kind != "json" {
		return usagef("--from %q: want jsonl or csv", f.from)
	}
	if f.schema != "" && f.schemaFrom != "" {
		return usagef("--schema and --schema-from exclude each other")
	}
	if len(f.delimiter) != 1 {
		return usagef("--delimiter %q: one character expected", f.delimiter)
	}
	wopts, err := f.writerOptions()
	if err != nil {
		return err
	}
	var src io.Reader
	name := in
	if in == "-" {
		src, name = stdin, "stdin"
	} else {
		file, err := os.Open(in)
		if err != nil {
			return &fileError{in, err}
		}
		defer file.Close()
		src = file
	}
	cr := &countingReader{r: src}
	var schema *format.Schema
	switch {
	case f.schema != "":
		if schema, err = format.ParseSchema(f.schema); err != nil {
			return usagef("--schema: %v", err)
		}
	case f.schemaFrom != "":
		pf, err := column.OpenFile(f.schemaFrom)
		if err != nil {
			return &fileError{f.schemaFrom, err}
		}
		schema = pf.Schema()
		pf.Close()
	}
	var rs rowSource
	var buffered []bufferedRow
	inferred := schema == nil
	if kind == "csv" {
		c, err := newCSVSource(cr, name, f)
		if err != nil {
			return err
		}
		if schema == nil {
			if buffered, schema, err = c.infer(f.inferRows); err != nil {
				return err
			}
		}
		if err := c.bind(schema); err != nil {
			return err
		}
		// The records read from here on are done with before the next
		// (the rows inferred from were converted already).
		c.r.ReuseRecord = true
		rs = c
	} else {
		j := &jsonSource{r: bufio.NewReaderSize(cr, 1<<16), name: name}
		if schema == nil {
			if buffered, schema, err = inferJSON(j, f.inferRows); err != nil {
				return err
			}
		}
		rs = j
	}
	if f.printSchema {
		fmt.Fprint(stdout, schema.String())
		return nil
	}
	out := positional[1]
	var ropts []rows.WriterOption
	ropts = append(ropts, rows.WithWriterOptions(wopts...))
	if inferred {
		ropts = append(ropts, rows.WithScalarsAsText())
	}
	if f.raw {
		ropts = append(ropts, rows.WithRawJSON())
	}
	p := newProgress(stderr)
	var n int64
	bytesOut, err := writeAtomically(out, in, func(w io.Writer) error {
		rw, err := rows.NewWriter(w, schema, ropts...)
		if err != nil {
			return usagef("%v", err)
		}
		put := func(row any, line int64) error {
			if err := rw.WriteValue(row); err != nil {
				var re *rows.RowError
				if errors.As(err, &re) {
					return &inputError{file: name, line: line, col: rs.where(re.Path), err: err}
				}
				return &fileError{out, err}
			}
			n++
			if n%4096 == 0 {
				p.update("convert %s: %d rows, %s", name, n, sizeText(cr.n))
			}
			return nil
		}
		for _, b := range buffered {
			if err := put(b.row, b.line); err != nil {
				return err
			}
		}
		for {
			row, line, err := rs.next(rw)
			if err == io.EOF {
				break
			}
			if wf, ok := err.(*writeFailure); ok {
				return &fileError{out, wf.err}
			}
			if err != nil {
				return err
			}
			if row == nil {
				n++
				if n%4096 == 0 {
					p.update("convert %s: %d rows, %s", name, n, sizeText(cr.n))
				}
				continue
			}
			if err := put(row, line); err != nil {
				return err
			}
		}
		if err := rw.Close(); err != nil {
			return &fileError{out, err}
		}
		return nil
	})
	p.done()
	if err != nil {
		return err
	}
	el := time.Since(start).Seconds()
	fmt.Fprintf(stdout, "%s -> %s: %d rows, %s -> %s (ratio %.3f), %.1f MB/s\n", name, out, n, sizeText(cr.n),
		sizeText(bytesOut), float64(bytesOut)/float64(max(cr.n, 1)), float64(cr.n)/1e6/max(el, 1e-9))
	return nil
}

// writeAtomically writes out through a temporary file beside it, locked and
// removed on interruption as rewrite's are (cleanup.createTemp,
// removeStale), synced and renamed over out only when write succeeded, and
// returns the bytes written. in is the input, which out may not be.
func writeAtomically(out, in string, write func(io.Writer) error) (int64, error) {
	ist, err := os.Stat(in)
	if err != nil {
		ist = nil
	}
	if err := checkOutput(out, ist); err != nil {
		return 0, err
	}
	cleanup := installCleanup()
	defer cleanup.stop()
	tmp, err := createOutput(out, 0o644, cleanup)
	if err != nil {
		return 0, err
	}
	defer tmp.abort()
	bw := bufio.NewWriterSize(destWriter{tmp.File}, 1<<20)
	cw := &flow.CountWriter{W: bw}
	if err := write(cw); err != nil {
		return cw.N, err
	}
	if err := bw.Flush(); err != nil {
		return cw.N, &fileError{out, err}
	}
	return cw.N, tmp.commit(nil)
}

type bufferedRow struct {
	row  any
	line int64
}

// jsonSource reads JSON Lines: one object per line, blank lines skipped.
type jsonSource struct {
	r    *bufio.Reader
	name string
	line int64
	buf  []byte
}

func (j *jsonSource) next(rw *rows.Writer) (any, int64, error) {
	for {
		b, err := j.readLine()
		if err != nil {
			return nil, 0, err
		}
		j.line++
		text := bytes.TrimSpace(b)
		if len(text) == 0 {
			continue
		}
		if rw != nil {
			ok, err := rw.TryJSON(text)
			if err != nil {
				return nil, 0, &writeFailure{err}
			}
			if ok {
				return nil, j.line, nil
			}
		}
		v, err := rows.ParseJSON(text)
		if err != nil {
			return nil, 0, &inputError{file: j.name, line: j.line, err: fmt.Errorf("invalid JSON: %v", err)}
		}
		m, ok := v.(rows.Group)
		if !ok {
			return nil, 0, &inputError{file: j.name, line: j.line, err: errors.New("not a JSON object")}
		}
		return m, j.line, nil
	}
}

func (j *jsonSource) where(p string) string { return p }

// readLine returns the next line, or io.EOF. A line that fits the reader's
// buffer is returned in place, without a copy: it is valid until the next
// read.
func (j *jsonSource) readLine() ([]byte, error) {
	chunk, err := j.r.ReadSlice('\n')
	if err == nil {
		return chunk, nil
	}
	j.buf = append(j.buf[:0], chunk...)
	for err == bufio.ErrBufferFull {
		chunk, err = j.r.ReadSlice('\n')
		j.buf = append(j.buf, chunk...)
	}
	switch {
	case err == nil || err == io.EOF && len(j.buf) > 0:
		return j.buf, nil
	case err == io.EOF:
		return nil, io.EOF
	}
	return nil, &fileError{j.name, err}
}

// csvSource reads CSV: a header line naming the columns (or col1, col2, ...
// without --header), then one row per record; an empty field is null.
type csvSource struct {
	r     *csv.Reader
	name  string
	names []string
	leaf  []*format.Node // by CSV column, once bound
	first []string       // the first record when there is no header
	lines *csvLines      // the input, split between r and a fast path
	fast  []string       // the fields of a line the fast path took
	// The typed path's row (rows.Writer.TryScalars), by schema field, and
	// the field of each CSV column; fields no column names stay null.
	kinds []rows.Scalar
	texts []string
	field []int
	// Whether each CSV column is BOOLEAN, or a number (csvNumber).
	boolean, number []bool
}

func newCSVSource(r io.Reader, name string, f *convertFlags) (*csvSource, error) {
	c := &csvSource{name: name}
	c.lines = &csvLines{r: bufio.NewReaderSize(r, 1<<16)}
	if d := f.delimiter[0]; d < utf8.RuneSelf && d != '"' && d != '\r' && d != '\n' {
		c.lines.comma = d
	}
	c.r = csv.NewReader(csvFeed{c.lines})
	c.r.Comma = rune(f.delimiter[0])
	c.r.FieldsPerRecord = -1 // checked by record, naming the column
	rec, err := c.r.Read()
	if err == io.EOF {
		return nil, &inputError{file: name, line: 1, err: errors.New("empty CSV input: no header")}
	}
	if err != nil {
		return nil, c.csvError(err)
	}
	if f.header {
		c.names = rec
	} else {
		for i := range rec {
			c.names = append(c.names, "col"+strconv.Itoa(i+1))
		}
		c.first = rec
	}
	return c, nil
}

func (c *csvSource) csvError(err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		// csv.Reader counts only the lines it read.
		p := *pe
		p.Line += int(c.lines.fast)
		if p.StartLine != 0 {
			p.StartLine += int(c.lines.fast)
		}
		pe = &p
	}
	if pe != nil {
		if pe.StartLine != 0 && pe.StartLine != pe.Line {
			// A quoted field left open runs on over the following lines:
			// name the line its record starts on, where the mistake is.
			return &inputError{file: c.name, line: int64(pe.StartLine),
				col: fmt.Sprintf("record starting here, at line %d column %d", pe.Line, pe.Column), err: pe.Err}
		}
		return &inputError{file: c.name, line: int64(pe.Line), col: fmt.Sprintf("column %d", pe.Column), err: pe.Err}
	}
	return &fileError{c.name, err}
}

// record returns the next record and its line.
func (c *csvSource) record() ([]string, int64, error) {
	if c.first != nil {
		rec := c.first
		c.first = nil
		return rec, 1, nil
	}
	rec, line, err := c.read()
	if err != nil {
		return nil, 0, err
	}
	if len(rec) != len(c.names) {
		col := ""
		if len(rec) > len(c.names) {
			col = fmt.Sprintf("column %d", len(c.names)+1)
		}
		return nil, 0, &inputError{file: c.name, line: int64(line), col: col,
			err: fmt.Errorf("wrong number of fields: %d, the first line has %d", len(rec), len(c.names))}
	}
	return rec, int64(line), nil
}

// read returns the next record and its line, by the fast path of c.lines
// or by csv.Reader.
func (c *csvSource) read() ([]string, int, error) {
	rec, line, ok := c.lines.next(c.fast)
	if ok {
		c.fast = rec
		if !c.r.ReuseRecord {
			rec = append([]string(nil), rec...)
		}
		return rec, int(line), nil
	}
	rec, err := c.r.Read()
	if err == io.EOF {
		return nil, 0, io.EOF
	}
	if err != nil {
		return nil, 0, c.csvError(err)
	}
	first, _ := c.r.FieldPos(0)
	return rec, first + int(c.lines.fast), nil
}

// bind checks that schema is flat and names the CSV columns.
func (c *csvSource) bind(schema *format.Schema) error {
	c.leaf = make([]*format.Node, len(c.names))
	c.field = make([]int, len(c.names))
	c.boolean, c.number = make([]bool, len(c.names)), make([]bool, len(c.names))
	c.kinds = make([]rows.Scalar, len(schema.Root().Children))
	c.texts = make([]string, len(schema.Root().Children))
	for i, name := range c.names {
		var n *format.Node
		for k, ch := range schema.Root().Children {
			if ch.Name() == name {
				n, c.field[i] = ch, k
			}
		}
		if n == nil {
			return &inputError{file: c.name, line: 1, col: c.column(i), err: errors.New("no such field in the schema")}
		}
		if !n.Leaf() || n.MaxRepetitionLevel > 0 {
			return &inputError{file: c.name, line: 1, col: c.column(i), err: errors.New("CSV holds only flat columns, the schema's field is a group or repeated")}
		}
		c.leaf[i] = n
		c.boolean[i], c.number[i] = *n.Element.Type == format.Boolean, csvNumber(n)
	}
	return nil
}

func (c *csvSource) column(i int) string {
	return fmt.Sprintf("column %d (%s)", i+1, c.names[i])
}

func (c *csvSource) where(p string) string {
	for i, n := range c.names {
		if n == p {
			return c.column(i)
		}
	}
	return p
}

// csvNumber reports whether a column's values are JSON numbers in cat's
// form (integers, floats, decimals), so that a CSV field passes as one.
func csvNumber(n *format.Node) bool {
	switch *n.Element.Type {
	case format.Int32, format.Int64, format.Float, format.Double:
		e := n.Element
		if e.LogicalType != nil && (e.LogicalType.Kind == format.LogicalDate || e.LogicalType.Kind == format.LogicalTime ||
			e.LogicalType.Kind == format.LogicalTimestamp) {
			return false
		}
		if e.ConvertedType != nil {
			switch *e.ConvertedType {
			case format.ConvertedDate, format.ConvertedTimeMillis, format.ConvertedTimeMicros,
				format.ConvertedTimestampMillis, format.ConvertedTimestampMicros:
				return false
			}
		}
		return true
	}
	e := n.Element
	return e.LogicalType != nil && (e.LogicalType.Kind == format.LogicalDecimal || e.LogicalType.Kind == format.LogicalFloat16) ||
		e.ConvertedType != nil && *e.ConvertedType == format.ConvertedDecimal
}

func (c *csvSource) next(rw *rows.Writer) (any, int64, error) {
	rec, line, err := c.record()
	if err != nil {
		return nil, 0, err
	}
	if rw != nil && c.scalars(rec) {
		ok, err := rw.TryScalars(c.kinds, c.texts)
		if err != nil {
			return nil, 0, &writeFailure{err}
		}
		if ok {
			return nil, line, nil
		}
	}
	m, err := c.convert(rec, line)
	return m, line, err
}

// scalar returns the JSON scalar CSV field s of column i stands for: an
// empty field is null, a BOOLEAN column's field true or false (anything
// else an error), a number column's field a number (but NaN and
// infinities, strings as cat prints them), any other a string.
func (c *csvSource) scalar(i int, s string) (rows.Scalar, error) {
	switch {
	case s == "":
		return rows.ScalarNull, nil
	case c.boolean[i]:
		b, err := strconv.ParseBool(s)
		if err != nil {
			return 0, fmt.Errorf("%q is not a boolean", s)
		}
		if b {
			return rows.ScalarTrue, nil
		}
		return rows.ScalarFalse, nil
	case c.number[i] && s != "NaN" && s != "Infinity" && s != "-Infinity":
		return rows.ScalarNumber, nil
	}
	return rows.ScalarString, nil
}

// scalars sets c.kinds and c.texts to record rec, reporting false when a
// field is bad (convert then gives the error).
func (c *csvSource) scalars(rec []string) bool {
	for i, s := range rec {
		k, err := c.scalar(i, s)
		if err != nil {
			return false
		}
		c.kinds[c.field[i]], c.texts[c.field[i]] = k, s
	}
	return true
}

// convert returns the row of CSV record rec, at line, as JSON values.
func (c *csvSource) convert(rec []string, line int64) (map[string]any, error) {
	m := make(map[string]any, len(rec))
	for i, s := range rec {
		k, err := c.scalar(i, s)
		if err != nil {
			return nil, &inputError{file: c.name, line: line, col: c.column(i), err: err}
		}
		switch k {
		case rows.ScalarNull:
			m[c.names[i]] = nil
		case rows.ScalarTrue, rows.ScalarFalse:
			m[c.names[i]] = k == rows.ScalarTrue
		case rows.ScalarNumber:
			m[c.names[i]] = json.Number(s)
		default:
			m[c.names[i]] = s
		}
	}
	return m, nil
}

const convertHelp = `convert reads rows from IN, JSON Lines (one object per line, in the form cat
prints; blank lines skipped) or CSV (by IN's extension .csv, or --from), or
standard input for -, and writes them to OUT through package rows' Writer.

The schema is --schema's message-type text, that of --schema-from's Parquet
file, or else inferred from the first --infer-rows rows:
  - JSON: integers are INT64, numbers with a fraction or exponent DOUBLE (an
    integer column that meets one becomes DOUBLE), true/false BOOLEAN,
    strings that are RFC 3339 timestamps (2024-01-31T12:34:56.789Z, or with
    an offset) INT64 TIMESTAMP(MICROS,true), other strings STRING; a field
    whose values mix these kinds is a STRING holding each value's text.
    Objects are groups, arrays LISTs of their elements' merged type (three
    levels, element named "element"). A field that is null or missing in
    any row read is optional, otherwise required; a field that is only ever
    null is an optional STRING. Fields keep the order of their first
    appearance.
  - CSV: the header line names the columns (--header=false: col1, col2, ...);
    an empty field is null; columns take the same kinds from their text, and
    any mix but integer with number is a STRING.
A later row that does not fit the schema (a null in a required field, a new
field, another type) is an error: give --schema, or more --infer-rows.
--print-schema prints the schema and stops.

With --schema-from, the input may hold the logical values cat prints (dates,
timestamps, decimals, UUIDs, intervals as text) or, with --raw, the physical
ones of cat --raw; pqcodec cat F | pqcodec convert - G --schema-from F gives
a G whose cat prints what F's does.

An error names the input line (and the CSV column, or the JSON field path)
and exits with status 1, leaving no OUT: the output is written to a
temporary file beside OUT, synced, and renamed over OUT only once complete,
as rewrite does. The writer flags are those of package writer (its
documentation gives the defaults and why). A summary line gives the rows,
the bytes in and out and the speed in MB/s of input; progress shows on a
terminal.`
