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
	"fmt"
	"io"
	"strings"

	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/internal/errs"
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
