// Package rows assembles the rows of a Parquet file from the repetition
// and definition levels of its leaf columns (the record assembly of the
// Dremel paper), for every nesting the Parquet LogicalTypes.md allows,
// legacy layouts included: repeated fields without a LIST annotation,
// two-level lists, MAP and MAP_KEY_VALUE groups, maps without values.
//
// A [Reader] returns each row either as one JSON object ([Reader.AppendRow],
// or streamed to an io.Writer by [Reader.WriteRow], the output of `pqcodec
// cat`) or as Go values ([Reader.ReadRow]). It can
// keep only some columns ([WithColumns], by dotted path at any depth) and some
// rows ([WithRange]).
//
// # Value model
//
// A row is a [Group]: its fields in schema order (top-level fields in the
// order [WithColumns] names them). Values are logical by default: each leaf
// is converted to what its logical type (or, without one, its converted
// type) says it stands for, by [logical.LeafOf] and [logical.Leaf.Value].
// In Go and in JSON (the output of `pqcodec cat`; this table is the one
// statement of its conventions):
//
//	null (a missing optional value)   nil                 null
//	BOOLEAN                           bool                true, false
//	INT32, INT64                      int32, int64        exact integer
//	INTEGER(8|16, signed)             int8, int16         exact integer
//	INTEGER(n, unsigned), UINT_n      uint8 ... uint64    exact unsigned integer
//	FLOAT, DOUBLE                     float32, float64    shortest round-trip decimal;
//	                                                      "NaN", "Infinity", "-Infinity"
//	FLOAT16                           float32             as FLOAT
//	STRING, ENUM, JSON (BYTE_ARRAY)   string              string (JSON values as text,
//	                                                      not embedded)
//	DATE                              time.Time           "2024-01-31"
//	TIME                              time.Duration       "12:34:56.789", "12:34:56.789Z"
//	TIMESTAMP                         time.Time           "2024-01-31T12:34:56.789000Z"
//	INT96                             time.Time           "2009-01-01T00:01:00.000000000"
//	DECIMAL                           logical.Decimal     exact decimal number: 12.30
//	UUID                              logical.UUID        "123e4567-e89b-12d3-a456-426614174000"
//	INTERVAL                          logical.Interval    "1 year 2 months 3 days 00:00:01.5"
//	other BYTE_ARRAY and              []byte              lowercase hex
//	FIXED_LEN_BYTE_ARRAY (BSON too)
//	group                             Group               object
//	LIST, repeated field              []any               array (null list: null, empty: [])
//	MAP                               []KeyValue          array of {"key": …, "value": …}
//
// Timestamps are RFC 3339 with as many fraction digits as their unit has
// (MILLIS 3, MICROS 6, NANOS 9), and a "Z" when the column is adjusted to
// UTC (isAdjustedToUTC, and the legacy TIMESTAMP_MILLIS and
// TIMESTAMP_MICROS, as LogicalTypes.md and parquet-java read them, where
// DuckDB reads those as local); a local (wall-clock) timestamp has no zone, and in Go
// is a time.Time in UTC holding that wall-clock time. TIME follows the same
// rules; a TIME outside 00:00:00-23:59:59.999… is written as its count of
// units. Dates are proleptic Gregorian; years outside 0000-9999, which RFC
// 3339 cannot write, take ISO 8601's expanded form ("+10000-01-01",
// "-0001-12-31"). INT96 is a timestamp in nanoseconds without a zone, as
// DuckDB and arrow-cpp read it.
//
// `make logical-check` compares these values with DuckDB's on every file
// of the corpora (scripts/foreign/README.md). Where the specification
// leaves a choice, the rendering is DuckDB's:
// DECIMAL as a JSON number keeping its scale's digits (12.30), UUID in
// 8-4-4-4-12 lowercase hex, INTERVAL as DuckDB prints it ([logical.Interval]),
// FLOAT16 as the float32 DuckDB reads it as, unsigned integers as unsigned,
// BSON as bytes. An annotation that does not fit its physical type (UUID on
// 8 bytes, TIMESTAMP on INT32) leaves the value physical.
//
// [WithRaw] gives physical values instead, the form of `pqcodec cat --raw`
// and of the test renderers that predict it (scripts/gojson/gojson.mjs,
// which follows [AppendFloat], [AppendString] and [AppendHex]): INT96 and
// every byte array that is not a string as bytes (hex in JSON), DATE, TIME,
// TIMESTAMP and DECIMAL as their stored integers or bytes, unsigned
// integers as their signed physical value (int32, int64), FLOAT16 as its
// two bytes.
//
// Byte slices and strings are copies, safe to keep.
//
// Projection keeps the shape: selecting "a.b.c" yields {"a":{"b":{"c":…}}}
// with only the selected parts of each group. Selecting part of a map keeps
// its keys.
//
// Options are WithX functions ([WithColumns], [WithRange], [WithRaw]) like
// those of column and codecfactory; an invalid value makes [NewReader]
// fail.
//
// # Writing
//
// A [Writer] is the mirror of Reader: it takes rows in the shapes ReadRow
// returns (logical or physical leaves, told apart by their Go types) or as
// the JSON AppendRow makes (WithRawJSON for that of WithRaw), for a schema
// built in Go (writer.Message), parsed from message-type text
// (format.ParseSchema) or taken from a file, and writes them through package
// writer. Writing what a Reader reads gives a file that reads back the same:
// TestWriterCorpus checks it on every file of both corpora.
package rows

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/internal/errs"
	"github.com/pqcodec/pqcodec/logical"
)

var (
	// ErrCorrupt reports levels that do not form records: columns that
	// disagree on the number of rows or on the shape of a row.
	ErrCorrupt = errs.Corrupt("rows: inconsistent levels")
	// ErrNoColumn reports a selected path that names no node of the
	// schema. It is [column.ErrNoColumn], the one sentinel for a missing
	// column of both packages.
	ErrNoColumn = column.ErrNoColumn
	// ErrLimit is column.ErrLimit: a row above the bound of [WithMaxRow],
	// or a page above the File's bounds.
	ErrLimit = column.ErrLimit
)

// Group is the value of a group (and of a row): its fields in order.
type Group []Field

// Field is one named value of a Group.
type Field struct {
	Name  string
	Value any
}

// KeyValue is one entry of a map.
type KeyValue struct {
	Key, Value any
}

// Option configures a [Reader]: the WithX functions below, as in column and
// codecfactory. An invalid value makes [NewReader] fail.
type Option func(*options) error

type options struct {
	paths        [][]string
	first, count int64
	ranges       []column.RowRange // WithRowRanges
	hasRange     bool              // WithRange was given
	maxValues    int64             // see WithMaxRow; 0: the default
	maxBytes     int64
	raw          bool // WithRaw
}

// DefaultMaxRowValues and DefaultMaxRowBytes are the defaults of
// [WithMaxRow] for a File without [column.WithMaxMemory]: 64 Mi values
// (column.DefaultMaxPageValues) and 1 GiB. Under WithMaxMemory(n) the
// default is n bytes and n/32 values.
const (
	DefaultMaxRowValues = column.DefaultMaxPageValues
	DefaultMaxRowBytes  = 1 << 30
)

// WithMaxRow bounds one row that [Reader.ReadRow] or [Reader.AppendRow]
// builds: at most values leaf values (nulls and list elements included) and
// about bytes bytes of Go values (ReadRow: 32 bytes per value plus the bytes
// of strings and byte slices) or of JSON text (AppendRow). A larger row
// fails, as soon as it passes the bound, with an error wrapping [ErrLimit]
// that gives the numbers; a row holding a list of 50M values took 3 GB
// through ReadRow. [Reader.WriteRow] streams a row and is not bounded. Both
// must be positive; the defaults are [DefaultMaxRowValues] and
// [DefaultMaxRowBytes], or derived from the File's WithMaxMemory.
func WithMaxRow(values, bytes int64) Option {
	return func(o *options) error {
		if values <= 0 || bytes <= 0 {
			return fmt.Errorf("rows: WithMaxRow(%d, %d): must be positive", values, bytes)
		}
		o.maxValues, o.maxBytes = values, bytes
		return nil
	}
}

// rowLimit counts what a sink has built of the current row against
// WithMaxRow.
type rowLimit struct {
	maxValues, maxBytes int64
	values, bytes       int64
}

func (l *rowLimit) reset() { l.values, l.bytes = 0, 0 }

// add counts one value of size bytes.
func (l *rowLimit) add(size int64) error {
	l.values++
	l.bytes += size
	if l.values > l.maxValues || l.bytes > l.maxBytes {
		return fmt.Errorf("%w: the row holds more than %d values or %d bytes (%d values, %d bytes so far; rows.WithMaxRow)",
			ErrLimit, l.maxValues, l.maxBytes, l.values, l.bytes)
	}
	return nil
}

// WithColumns keeps only the schema nodes at the given dotted paths ("id",
// "a.b", "int_map"), each with everything below it. Top-level fields come
// in the order of their first mention. The default keeps every field. A
// path that names no node makes [NewReader] fail with an error wrapping
// [ErrNoColumn].
func WithColumns(paths ...string) Option {
	return func(o *options) error {
		for _, p := range paths {
			if p == "" {
				return fmt.Errorf("%w: empty path", ErrNoColumn)
			}
			o.paths = append(o.paths, strings.Split(p, "."))
		}
		return nil
	}
}

// WithRange keeps count rows starting at row first (0-based, across row
// groups); a negative count keeps every row from first on. Row groups
// entirely before first are skipped without reading them, going by their
// num_rows in the footer (a row group that declares 0 rows is read), and
// in the row group holding first each column skips the pages before it
// with [column.Reader.SeekRow].
func WithRange(first, count int64) Option {
	return func(o *options) error {
		if first < 0 {
			return fmt.Errorf("%w: WithRange(%d, %d): negative first row", ErrRange, first, count)
		}
		o.first, o.count, o.hasRange = first, count, true
		return nil
	}
}

// WithRaw makes the Reader give physical values, as it did before it
// converted logical types: INT96 and other byte arrays than strings as
// bytes (lowercase hex in JSON), timestamps, dates, times and decimals as
// their stored integers or bytes, unsigned integers as their signed
// physical value. `pqcodec cat --raw` prints this form. The default
// converts (see the package documentation).
func WithRaw() Option {
	return func(o *options) error {
		o.raw = true
		return nil
	}
}

// Reader reads the rows of a file. It is not safe for concurrent use.
type Reader struct {
	file     *column.File
	fields   []*field
	cursors  []*cursor // the selected columns, in column order
	rowGroup int       // current row group; -1 before the first
	skip     int64     // rows still to skip before the first returned
	pos      int64     // file row of the next row to return (seek.go)
	ranges   []column.RowRange
	ri       int // ranges[ri] is the first that ends after pos
	json     jsonSink
	line     []byte // WriteRow's buffer
	values   valueSink
	emptyPos int64 // rows of rowGroup returned, without columns
	limit    rowLimit
}

// NewReader returns a Reader of the rows of f.
func NewReader(f *column.File, opts ...Option) (*Reader, error) {
	o := options{count: -1}
	for _, opt := range opts {
		if err := opt(&o); err != nil {
			return nil, err
		}
	}
	root := f.Schema().Root()
	b := builder{cursors: make(map[int]*cursor), raw: o.raw}
	var selected []*format.Node
	if o.paths == nil {
		selected = root.Children
	} else {
		b.keep = make(map[*format.Node]bool)
		seen := make(map[*format.Node]bool)
		for _, p := range o.paths {
			n := find(root, p)
			if n == nil {
				return nil, fmt.Errorf("%w: %q (the top-level fields are %s)", ErrNoColumn, strings.Join(p, "."), childNames(root))
			}
			b.mark(n)
			top := n
			for top.Parent != root {
				top = top.Parent
			}
			if !seen[top] {
				seen[top] = true
				selected = append(selected, top)
			}
		}
		b.markMapKeys(root)
	}
	r := &Reader{file: f, rowGroup: -1}
	if err := r.setRanges(&o); err != nil {
		return nil, err
	}
	r.limit.maxValues, r.limit.maxBytes = o.maxValues, o.maxBytes
	if o.maxValues == 0 {
		r.limit.maxValues, r.limit.maxBytes = DefaultMaxRowValues, DefaultMaxRowBytes
		if m := f.MaxMemory(); m > 0 {
			r.limit.maxValues, r.limit.maxBytes = max(m/32, 1), m
		}
	}
	r.json.limit, r.values.limit = &r.limit, &r.limit
	fields := make([]*field, 0, len(selected))
	for _, n := range selected {
		fields = append(fields, b.fieldOf(n))
	}
	for _, leaf := range f.Schema().Leaves() {
		if c := b.cursors[leaf.ColumnIndex]; c != nil {
			r.cursors = append(r.cursors, c)
		}
	}
	r.fields = fields
	return r, nil
}

// find returns the node at path p below root, or nil.
func find(root *format.Node, p []string) *format.Node {
	n := root
	for _, name := range p {
		var next *format.Node
		for _, c := range n.Children {
			if c.Name() == name {
				next = c
				break
			}
		}
		if next == nil {
			return nil
		}
		n = next
	}
	return n
}

func childNames(n *format.Node) string {
	names := make([]string, len(n.Children))
	for i, c := range n.Children {
		names[i] = c.Name()
	}
	return strings.Join(names, ", ")
}

// leavesOf returns the leaves under n, in column order.
func leavesOf(n *format.Node) []*format.Node {
	if n.Leaf() {
		return []*format.Node{n}
	}
	var out []*format.Node
	for _, c := range n.Children {
		out = append(out, leavesOf(c)...)
	}
	return out
}

// AppendRow appends the next row to dst as a JSON object (without a
// newline) and returns the extended slice. It returns io.EOF after the last
// row. Errors from the column readers are returned as they are (they are
// *column.PageError); rows whose columns disagree return a
// *column.PageError wrapping [ErrCorrupt]. After an error the Reader must
// not be used again.
func (r *Reader) AppendRow(dst []byte) ([]byte, error) {
	if err := r.next(); err != nil {
		return dst, err
	}
	r.json.dst, r.json.start = dst, len(dst)
	r.limit.reset()
	err := r.emitRow(&r.json)
	dst, r.json.dst = r.json.dst, nil
	return dst, err
}

// WriteRow writes the next row to w as [Reader.AppendRow] formats it,
// followed by a newline, streaming it: the row's text goes to w in pieces
// of about 32 KiB as it is assembled (w is typically a bufio.Writer), so
// that a row of any size needs no more memory than its largest value and
// the pages of its columns. It returns io.EOF after the last row, errors
// as AppendRow, and w's errors as they are; after an error, w may hold
// part of a row.
func (r *Reader) WriteRow(w io.Writer) error {
	if err := r.next(); err != nil {
		return err
	}
	j := &r.json
	j.dst, j.w = r.line[:0], w
	err := r.emitRow(j)
	if err == nil {
		j.dst = append(j.dst, '\n')
		err = j.flush()
	}
	r.line, j.dst, j.w = j.dst[:0], nil, nil
	return err
}

// ReadRow returns the next row as Go values (see the package
// documentation), reusing dst's capacity for the top-level fields. It
// returns io.EOF after the last row, and errors as [Reader.AppendRow].
func (r *Reader) ReadRow(dst Group) (Group, error) {
	if err := r.next(); err != nil {
		return dst[:0], err
	}
	r.values.reset(dst[:0])
	r.limit.reset()
	err := r.emitRow(&r.values)
	return r.values.row(), err
}

// SkipRows skips the next n rows, reading their levels but building no
// values; it returns how many it skipped, fewer than n at the end of the
// file (with io.EOF).
func (r *Reader) SkipRows(n int64) (int64, error) {
	for i := int64(0); i < n; i++ {
		if err := r.next(); err != nil {
			return i, err
		}
		if err := r.emitRow(discard{}); err != nil {
			return i, err
		}
	}
	return n, nil
}

// next positions the cursors at the start of the next row to return,
// skipping rows before the range, and checks that every column agrees.
func (r *Reader) next() error {
	if err := r.toRange(); err != nil {
		return err
	}
	if len(r.cursors) == 0 {
		if err := r.nextEmpty(); err != nil {
			return err
		}
		r.pos++
		return nil
	}
	for {
		if err := r.nextRow(); err != nil {
			return err
		}
		if r.skip == 0 {
			break
		}
		if err := r.emitRow(discard{}); err != nil {
			return err
		}
		r.skip--
	}
	r.pos++
	return nil
}

// nextRow moves to the next row group when the current one has ended
// (skipping whole row groups still before the range), and checks that the
// next row starts in every column.
func (r *Reader) nextRow() error {
	for {
		if r.rowGroup >= 0 {
			ended := 0
			for _, c := range r.cursors {
				if err := c.fill(); err != nil {
					return err
				}
				if c.eof {
					ended++
				}
			}
			if ended == 0 {
				break
			}
			if ended < len(r.cursors) {
				for _, c := range r.cursors {
					if !c.eof {
						return c.corrupt("column holds more rows than column %s", r.cursors[0].path)
					}
				}
			}
		}
		meta := r.file.MetaData()
		for r.rowGroup+1 < len(meta.RowGroups) {
			n := meta.RowGroups[r.rowGroup+1].NumRows
			if n <= 0 || r.skip < n {
				break
			}
			r.skip -= n
			r.rowGroup++
		}
		if r.rowGroup+1 >= len(meta.RowGroups) {
			return io.EOF
		}
		r.rowGroup++
		for _, c := range r.cursors {
			if err := c.reset(r.file, r.rowGroup); err != nil {
				return err
			}
		}
		if r.skip > 0 && r.skip < meta.RowGroups[r.rowGroup].NumRows {
			// Start the row group at the first row to return: each
			// column skips the pages before it unread.
			for _, c := range r.cursors {
				if err := c.seekRow(r.skip); err != nil {
					return err
				}
			}
			r.skip = 0
		}
	}
	for _, c := range r.cursors {
		if rep, _ := c.levels(); rep != 0 {
			return c.corrupt("row starts with repetition level %d", rep)
		}
	}
	return nil
}

// emitRow writes the current row to s.
func (r *Reader) emitRow(s sink) error { return emitGroup(s, r.fields) }

// emitGroup writes a group of fields to s: the row itself, or a group
// inside it.
func emitGroup(s sink, fields []*field) error {
	s.beginGroup()
	for i, f := range fields {
		s.name(f.name, i)
		if err := emit(s, f); err != nil {
			return err
		}
	}
	s.endGroup()
	return nil
}

// head returns the levels of the next entry of c, loading a page if needed;
// a column that has ended is an error, since a record is being read.
func head(c *cursor) (rep, def int, err error) {
	if err := c.fill(); err != nil {
		return 0, 0, err
	}
	if c.eof {
		return 0, 0, c.corrupt("column ends inside a row")
	}
	rep, def = c.levels()
	return rep, def, nil
}

// emit writes the value of f for the current entry of its columns to s and
// consumes the entries it covers.
func emit(s sink, f *field) error {
	switch f.kind {
	case kindLeaf:
		c := f.leaf
		_, def, err := head(c)
		if err != nil {
			return err
		}
		c.pos++
		if def < c.maxDef {
			return s.null()
		}
		return s.leaf(c)
	case kindGroup:
		if f.nullable {
			_, def, err := head(f.leaves[0])
			if err != nil {
				return err
			}
			if def < f.def {
				if err := s.null(); err != nil {
					return err
				}
				return skip(f, f.def)
			}
		}
		return emitGroup(s, f.children)
	}
	// A list or a map.
	first := f.leaves[0]
	_, def, err := head(first)
	if err != nil {
		return err
	}
	if f.nullable && def < f.def {
		if err := s.null(); err != nil {
			return err
		}
		return skip(f, f.def)
	}
	isMap := f.kind == kindMap
	if def < f.repDef {
		s.emptyList(isMap)
		return skip(f, f.repDef)
	}
	s.beginList(isMap)
	for n := 0; ; n++ {
		s.elem(n)
		if isMap {
			err = emitEntry(s, f)
		} else {
			err = emit(s, f.children[0])
		}
		if err != nil {
			return err
		}
		if err := first.fill(); err != nil {
			return err
		}
		if first.eof {
			break
		}
		if rep, _ := first.levels(); rep != f.repRep {
			break
		}
	}
	s.endList(isMap)
	return nil
}

// emitEntry writes one key-value entry of map f.
func emitEntry(s sink, f *field) error {
	s.beginEntry()
	if err := emit(s, f.children[0]); err != nil {
		return err
	}
	s.entryValue()
	if f.children[1] == nil {
		if err := s.null(); err != nil {
			return err
		}
	} else if err := emit(s, f.children[1]); err != nil {
		return err
	}
	s.endEntry()
	return nil
}

// skip consumes the one entry each column under f holds for a null or
// empty f, checking that its definition level is below below.
func skip(f *field, below int) error {
	for _, c := range f.leaves {
		_, def, err := head(c)
		if err != nil {
			return err
		}
		if def >= below {
			return c.corrupt("definition level %d where the columns before say %d is absent", def, below)
		}
		c.pos++
	}
	return nil
}

// sink receives the parts of a row as emit walks it.
type sink interface {
	null() error
	leaf(c *cursor) error // the next value of c
	beginGroup()
	name(name string, i int) // before the i-th field of a group
	endGroup()
	emptyList(isMap bool)
	beginList(isMap bool)
	elem(i int) // before the i-th element
	endList(isMap bool)
	beginEntry() // a map entry: key, entryValue, value, endEntry
	entryValue()
	endEntry()
}

// jsonSink writes JSON text, to dst and, when w is set, from dst to w
// whenever dst holds jsonFlush bytes or more after a value.
type jsonSink struct {
	dst   []byte
	w     io.Writer
	start int       // len(dst) when AppendRow started
	limit *rowLimit // AppendRow's bound; WriteRow (w set) streams unbounded
}

// count counts a value that grew dst from before bytes, unless streaming.
func (j *jsonSink) count(before int) error {
	if j.w != nil {
		return nil
	}
	return j.limit.add(int64(len(j.dst) - before))
}

// jsonFlush is how much of a row's text WriteRow holds before writing it.
const jsonFlush = 32 << 10

// flush writes dst to w and empties it.
func (j *jsonSink) flush() error {
	_, err := j.w.Write(j.dst)
	j.dst = j.dst[:0]
	return err
}

func (j *jsonSink) null() error {
	j.dst = append(j.dst, "null"...)
	return j.count(len(j.dst) - 4)
}

func (j *jsonSink) leaf(c *cursor) error {
	var err error
	before := len(j.dst)
	if j.dst, err = c.appendValue(j.dst); err != nil {
		return err
	}
	if err := j.count(before); err != nil {
		return err
	}
	if j.w != nil && len(j.dst) >= jsonFlush {
		return j.flush()
	}
	return nil
}

func (j *jsonSink) beginGroup() { j.dst = append(j.dst, '{') }

func (j *jsonSink) name(name string, i int) {
	if i > 0 {
		j.dst = append(j.dst, ',')
	}
	j.dst = AppendString(j.dst, []byte(name))
	j.dst = append(j.dst, ':')
}

func (j *jsonSink) endGroup()            { j.dst = append(j.dst, '}') }
func (j *jsonSink) emptyList(isMap bool) { j.dst = append(j.dst, "[]"...) }
func (j *jsonSink) beginList(isMap bool) { j.dst = append(j.dst, '[') }

func (j *jsonSink) elem(i int) {
	if i > 0 {
		j.dst = append(j.dst, ',')
	}
}

func (j *jsonSink) endList(isMap bool) { j.dst = append(j.dst, ']') }
func (j *jsonSink) beginEntry()        { j.dst = append(j.dst, `{"key":`...) }
func (j *jsonSink) entryValue()        { j.dst = append(j.dst, `,"value":`...) }
func (j *jsonSink) endEntry()          { j.dst = append(j.dst, '}') }

// discard consumes a row without building anything.
type discard struct{}

func (discard) null() error { return nil }

func (discard) leaf(c *cursor) error {
	if c.val >= c.nvals {
		return c.corrupt("page holds %d values, its levels need more", c.nvals)
	}
	c.val++
	return nil
}

func (discard) beginGroup()      {}
func (discard) name(string, int) {}
func (discard) endGroup()        {}
func (discard) emptyList(bool)   {}
func (discard) beginList(bool)   {}
func (discard) elem(int)         {}
func (discard) endList(bool)     {}
func (discard) beginEntry()      {}
func (discard) entryValue()      {}
func (discard) endEntry()        {}

// valueSink builds Go values on a stack of open containers.
type valueSink struct {
	stack []frame
	top   Group     // the row
	limit *rowLimit // ReadRow's bound
}

// valueCost is what ReadRow counts for one value besides its bytes: its
// interface in a list or a Field, the boxed value, and the list's growth.
const valueCost = 32

type frameKind uint8

const (
	frameGroup frameKind = iota
	frameList
	frameMap
	frameEntry
)

type frame struct {
	kind  frameKind
	group Group
	list  []any
	kvs   []KeyValue
	name  string // group: the pending field's name
	entry KeyValue
	key   bool // entry: the key has been set
}

func (v *valueSink) reset(dst Group) {
	v.stack = v.stack[:0]
	v.top = dst
}

func (v *valueSink) row() Group { return v.top }

// put adds x to the innermost open container.
func (v *valueSink) put(x any) {
	f := &v.stack[len(v.stack)-1]
	switch f.kind {
	case frameGroup:
		f.group = append(f.group, Field{Name: f.name, Value: x})
	case frameList:
		f.list = append(f.list, x)
	case frameEntry:
		if !f.key {
			f.entry.Key, f.key = x, true
		} else {
			f.entry.Value = x
		}
	}
}

func (v *valueSink) pop() frame {
	f := v.stack[len(v.stack)-1]
	v.stack = v.stack[:len(v.stack)-1]
	return f
}

func (v *valueSink) null() error {
	if err := v.limit.add(valueCost); err != nil {
		return err
	}
	v.put(nil)
	return nil
}

func (v *valueSink) leaf(c *cursor) error {
	if err := v.limit.add(valueCost + c.valueBytes()); err != nil {
		return err
	}
	x, err := c.value()
	if err != nil {
		return err
	}
	v.put(x)
	return nil
}

func (v *valueSink) beginGroup() {
	if len(v.stack) == 0 {
		v.stack = append(v.stack, frame{kind: frameGroup, group: v.top})
		return
	}
	v.stack = append(v.stack, frame{kind: frameGroup})
}

func (v *valueSink) name(name string, _ int) { v.stack[len(v.stack)-1].name = name }

func (v *valueSink) endGroup() {
	f := v.pop()
	if len(v.stack) == 0 {
		v.top = f.group
		return
	}
	v.put(f.group)
}

func (v *valueSink) emptyList(isMap bool) {
	if isMap {
		v.put([]KeyValue{})
	} else {
		v.put([]any{})
	}
}

func (v *valueSink) beginList(isMap bool) {
	k := frameList
	if isMap {
		k = frameMap
	}
	v.stack = append(v.stack, frame{kind: k})
}

func (v *valueSink) elem(int) {}

func (v *valueSink) endList(isMap bool) {
	f := v.pop()
	if isMap {
		v.put(f.kvs)
	} else {
		v.put(f.list)
	}
}

func (v *valueSink) beginEntry() { v.stack = append(v.stack, frame{kind: frameEntry}) }
func (v *valueSink) entryValue() {}

func (v *valueSink) endEntry() {
	f := v.pop()
	m := &v.stack[len(v.stack)-1]
	m.kvs = append(m.kvs, f.entry)
}

// leafFormat is how a column's values are written.
type leafFormat uint8

const (
	formatBoolean leafFormat = iota
	formatInt32
	formatInt64
	formatInt96
	formatFloat
	formatDouble
	formatString // BYTE_ARRAY annotated STRING, ENUM or JSON
	formatHex    // other BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY
	// formatLogical is every logical conversion (not with WithRaw);
	// cursor.leaf has its parameters.
	formatLogical
)

// cursor walks the levels and values of one column chunk across its pages.
type cursor struct {
	node           *format.Node
	path           string
	format         leafFormat
	leaf           logical.Leaf // formatLogical: the conversion
	maxDef, maxRep int

	rd       column.Reader
	page     column.Page
	rowGroup int
	pos      int // next level in page
	val      int // next value in page (of page.Values, or of page.Indices)
	nvals    int // values in page
	eof      bool
	ctx      context.Context // of a running XContext method, else nil
	wl       *wleaf          // the column's buffer in a Writer
}

func newCursor(n *format.Node, raw bool) *cursor {
	c := &cursor{node: n, path: strings.Join(n.Path(), "."), maxDef: n.MaxDefinitionLevel, maxRep: n.MaxRepetitionLevel}
	leaf := logical.LeafOf(n.Element)
	switch *n.Element.Type {
	case format.Boolean:
		c.format = formatBoolean
	case format.Int32:
		c.format = formatInt32
	case format.Int64:
		c.format = formatInt64
	case format.Int96:
		c.format = formatInt96
	case format.Float:
		c.format = formatFloat
	case format.Double:
		c.format = formatDouble
	case format.ByteArray:
		c.format = formatHex
		if leaf.Kind == logical.KindString {
			c.format = formatString
		}
	default:
		c.format = formatHex
	}
	if !raw && leaf.Kind != logical.KindPhysical && leaf.Kind != logical.KindString {
		c.format, c.leaf = formatLogical, leaf
	}
	return c
}

// reset points c at the column's chunk in row group rg.
func (c *cursor) reset(f *column.File, rg int) error {
	if err := f.ResetReader(&c.rd, rg, c.node.ColumnIndex); err != nil {
		return err
	}
	c.rowGroup, c.pos, c.val, c.nvals, c.eof = rg, 0, 0, 0, false
	c.page.NumLevels = 0
	return nil
}

// fill loads the next non-empty page when the current one is used up, and
// sets eof at the end of the chunk.
func (c *cursor) fill() error {
	for !c.eof && c.pos >= c.page.NumLevels {
		err := c.readPage()
		if err == io.EOF {
			c.eof = true
			return nil
		}
		if err != nil {
			return err
		}
		c.pos, c.val, c.nvals = 0, 0, c.page.NumValues()
		if c.maxDef > 0 && len(c.page.DefLevels) != c.page.NumLevels ||
			c.maxRep > 0 && len(c.page.RepLevels) != c.page.NumLevels {
			return c.corrupt("page of %d values with %d definition and %d repetition levels",
				c.page.NumLevels, len(c.page.DefLevels), len(c.page.RepLevels))
		}
	}
	return nil
}

// levels returns the levels of the current entry; c must be filled and not
// at its end.
func (c *cursor) levels() (rep, def int) {
	if c.maxRep > 0 {
		rep = int(c.page.RepLevels[c.pos])
	}
	if c.maxDef > 0 {
		def = int(c.page.DefLevels[c.pos])
	}
	return rep, def
}

// corrupt returns a *column.PageError wrapping ErrCorrupt at c's current
// page, as the column reader numbers it (dictionary and index pages count).
func (c *cursor) corrupt(format string, args ...any) error {
	return &column.PageError{Column: c.path, RowGroup: c.rowGroup, Page: max(c.rd.PageIndex(), 0),
		Err: fmt.Errorf("%w: %s", ErrCorrupt, fmt.Sprintf(format, args...))}
}

// next returns where the next value of c is, and moves past it: in the
// page's Values, or, for a page that keeps its dictionary indices (a File
// opened with column.WithKeepDictionary), in the chunk's dictionary. c.val
// must be below c.nvals.
func (c *cursor) next() (*column.Values, int) {
	i := c.val
	c.val++
	if c.page.Dictionary != nil {
		return c.page.Dictionary, int(c.page.Indices[i])
	}
	return &c.page.Values, i
}

// appendValue appends the next value of c.
func (c *cursor) appendValue(dst []byte) ([]byte, error) {
	if c.val >= c.nvals {
		return dst, c.corrupt("page holds %d values, its levels need more", c.nvals)
	}
	v, i := c.next()
	switch c.format {
	case formatBoolean:
		return strconv.AppendBool(dst, v.Booleans[i]), nil
	case formatInt32:
		return strconv.AppendInt(dst, int64(v.Int32s[i]), 10), nil
	case formatInt64:
		return strconv.AppendInt(dst, v.Int64s[i], 10), nil
	case formatInt96:
		return AppendHex(dst, v.Int96s[i][:]), nil
	case formatFloat:
		return AppendFloat(dst, float64(v.Floats[i]), 32), nil
	case formatDouble:
		return AppendFloat(dst, v.Doubles[i], 64), nil
	case formatString:
		return AppendString(dst, v.ByteArray(i)), nil
	case formatLogical:
		return c.appendLogical(dst, v, i)
	}
	return AppendHex(dst, v.ByteArray(i)), nil
}

// valueBytes returns the bytes the next value of c copies (strings, byte
// slices), checked before the copy; 0 for other types or past the page.
func (c *cursor) valueBytes() int64 {
	if c.val >= c.nvals {
		return 0
	}
	switch c.format {
	case formatString, formatHex:
		if d := c.page.Dictionary; d != nil {
			return int64(len(d.ByteArray(int(c.page.Indices[c.val]))))
		}
		return int64(len(c.page.Values.ByteArray(c.val)))
	}
	return 0
}

// appendLogical appends value i of v (the page's values or its
// dictionary) as its logical type's JSON (see the package documentation).
func (c *cursor) appendLogical(dst []byte, v *column.Values, i int) ([]byte, error) {
	l := &c.leaf
	var err error
	switch l.Kind {
	case logical.KindDate:
		dst = append(dst, '"')
		dst = logical.AppendDate(dst, v.Int32s[i])
		return append(dst, '"'), nil
	case logical.KindTime:
		var x int64
		if l.Type == format.Int32 {
			x = int64(v.Int32s[i])
		} else {
			x = v.Int64s[i]
		}
		if x < 0 || x >= 86400*unitsPerSecond(l.Unit) {
			// No clock shows it: the count of units, as a number.
			return strconv.AppendInt(dst, x, 10), nil
		}
		dst = append(dst, '"')
		dst, err = logical.AppendTime(dst, x, l.Unit, l.UTC)
		return append(dst, '"'), err
	case logical.KindTimestamp:
		dst = append(dst, '"')
		dst, err = logical.AppendTimestamp(dst, v.Int64s[i], l.Unit, l.UTC)
		return append(dst, '"'), err
	case logical.KindInt96:
		dst = append(dst, '"')
		dst = logical.AppendInt96(dst, v.Int96s[i])
		return append(dst, '"'), nil
	case logical.KindDecimal:
		switch l.Type {
		case format.Int32:
			return logical.AppendDecimal(dst, int64(v.Int32s[i]), l.Scale), nil
		case format.Int64:
			return logical.AppendDecimal(dst, v.Int64s[i], l.Scale), nil
		}
		return logical.AppendDecimalBytes(dst, v.ByteArray(i), l.Scale), nil
	case logical.KindUUID:
		dst = append(dst, '"')
		dst = logical.AppendUUID(dst, v.ByteArray(i))
		return append(dst, '"'), nil
	case logical.KindInterval:
		dst = append(dst, '"')
		dst = logical.AppendInterval(dst, logical.IntervalOf(v.ByteArray(i)))
		return append(dst, '"'), nil
	case logical.KindFloat16:
		return AppendFloat(dst, float64(logical.Float16Of(v.ByteArray(i))), 32), nil
	case logical.KindInteger:
		switch {
		case l.Signed && l.Type == format.Int32:
			x := v.Int32s[i]
			switch l.BitWidth {
			case 8:
				x = int32(int8(x))
			case 16:
				x = int32(int16(x))
			}
			return strconv.AppendInt(dst, int64(x), 10), nil
		case l.Signed:
			return strconv.AppendInt(dst, v.Int64s[i], 10), nil
		case l.Type == format.Int32:
			return strconv.AppendUint(dst, uint64(uint32(v.Int32s[i])&uint32(1<<l.BitWidth-1)), 10), nil
		}
		return strconv.AppendUint(dst, uint64(v.Int64s[i]), 10), nil
	}
	return dst, fmt.Errorf("rows: no JSON form for %v", l.Kind)
}

// unitsPerSecond returns the units of u in a second (u is known).
func unitsPerSecond(u format.TimeUnit) int64 {
	switch u {
	case format.Millis:
		return 1e3
	case format.Micros:
		return 1e6
	}
	return 1e9
}

// value returns the next value of c as a Go value (see the package
// documentation).
func (c *cursor) value() (any, error) {
	if c.val >= c.nvals {
		return nil, c.corrupt("page holds %d values, its levels need more", c.nvals)
	}
	v, i := c.next()
	switch c.format {
	case formatBoolean:
		return v.Booleans[i], nil
	case formatInt32:
		return v.Int32s[i], nil
	case formatInt64:
		return v.Int64s[i], nil
	case formatInt96:
		return v.Int96s[i], nil
	case formatFloat:
		return v.Floats[i], nil
	case formatDouble:
		return v.Doubles[i], nil
	case formatString:
		return string(v.ByteArray(i)), nil
	case formatLogical:
		return c.leaf.Value(v.Value(i))
	}
	return append([]byte(nil), v.ByteArray(i)...), nil
}
