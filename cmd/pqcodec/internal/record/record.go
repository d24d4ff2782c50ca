// Package record assembles the rows of a Parquet file from the repetition
// and definition levels of its leaf columns (the record assembly of the
// Dremel paper) and writes each row as one JSON object.
//
// Values are written at the physical level, after dictionary resolution:
// BOOLEAN as true or false; INT32 and INT64 as exact integers; INT96 as the
// lowercase hex of its 12 bytes; FLOAT and DOUBLE as the shortest decimal
// that round-trips at their precision, with "NaN", "Infinity" and
// "-Infinity" as strings; BYTE_ARRAY annotated STRING (UTF8), ENUM or JSON
// as a JSON string and other byte arrays as lowercase hex. LIST groups and
// repeated fields are arrays (a null list is null, an empty one []), MAP
// groups arrays of {"key": …, "value": …} objects, other groups objects.
// The legacy layouts of LogicalTypes.md are recognized: repeated fields
// without a LIST annotation and two-level lists.
package record

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/internal/errs"
)

var (
	// ErrCorrupt reports levels that do not form records: columns that
	// disagree on the number of rows or on the shape of a row.
	ErrCorrupt = errs.Corrupt("record: inconsistent levels")
	// ErrNoColumn reports a selected column name that is not a top-level
	// field of the schema.
	ErrNoColumn = errors.New("record: no such top-level column")
)

// Reader reads the rows of a file, or of some of its top-level fields, as
// JSON objects. It is not safe for concurrent use.
type Reader struct {
	file     *column.File
	fields   []*field
	cursors  []*cursor // the selected columns, in column order
	rowGroup int       // current row group; -1 before the first
}

// NewReader returns a Reader of the rows of f, keeping only the top-level
// fields named in columns, in that order (nil keeps every field, in schema
// order). A name that is not a top-level field returns an error wrapping
// [ErrNoColumn].
func NewReader(f *column.File, columns []string) (*Reader, error) {
	root := f.Schema().Root()
	var selected []*format.Node
	if columns == nil {
		selected = root.Children
	}
	seen := make(map[string]bool)
	for _, name := range columns {
		if seen[name] {
			continue
		}
		seen[name] = true
		var found *format.Node
		for _, c := range root.Children {
			if c.Name() == name {
				found = c
				break
			}
		}
		if found == nil {
			names := make([]string, len(root.Children))
			for i, c := range root.Children {
				names[i] = c.Name()
			}
			return nil, fmt.Errorf("%w: %q (the columns are %s)", ErrNoColumn, name, strings.Join(names, ", "))
		}
		selected = append(selected, found)
	}
	r := &Reader{file: f, rowGroup: -1}
	b := builder{cursors: make(map[int]*cursor)}
	for _, n := range selected {
		for _, leaf := range leavesOf(n) {
			if b.cursors[leaf.ColumnIndex] == nil {
				b.cursors[leaf.ColumnIndex] = newCursor(leaf)
			}
		}
	}
	for _, leaf := range f.Schema().Leaves() {
		if c := b.cursors[leaf.ColumnIndex]; c != nil {
			r.cursors = append(r.cursors, c)
		}
	}
	for _, n := range selected {
		r.fields = append(r.fields, b.fieldOf(n))
	}
	return r, nil
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
	if len(r.cursors) == 0 {
		return dst, io.EOF
	}
	for {
		if r.rowGroup >= 0 {
			ended := 0
			for _, c := range r.cursors {
				if err := c.fill(); err != nil {
					return dst, err
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
						return dst, c.corrupt("column holds more rows than column %s", r.cursors[0].path)
					}
				}
			}
		}
		if r.rowGroup+1 >= r.file.NumRowGroups() {
			return dst, io.EOF
		}
		r.rowGroup++
		for _, c := range r.cursors {
			if err := c.reset(r.file, r.rowGroup); err != nil {
				return dst, err
			}
		}
	}
	for _, c := range r.cursors {
		if rep, _ := c.levels(); rep != 0 {
			return dst, c.corrupt("row starts with repetition level %d", rep)
		}
	}
	dst = append(dst, '{')
	var err error
	for i, f := range r.fields {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = AppendString(dst, []byte(f.name))
		dst = append(dst, ':')
		if dst, err = r.emit(dst, f); err != nil {
			return dst, err
		}
	}
	return append(dst, '}'), nil
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

// emit appends the value of f for the current entry of its columns and
// consumes the entries it covers.
func (r *Reader) emit(dst []byte, f *field) ([]byte, error) {
	switch f.kind {
	case kindLeaf:
		c := f.leaf
		_, def, err := head(c)
		if err != nil {
			return dst, err
		}
		c.pos++
		if def < c.maxDef {
			return append(dst, "null"...), nil
		}
		return c.appendValue(dst)
	case kindGroup:
		if f.nullable {
			_, def, err := head(f.leaves[0])
			if err != nil {
				return dst, err
			}
			if def < f.def {
				return skip(append(dst, "null"...), f, f.def)
			}
		}
		dst = append(dst, '{')
		for i, ch := range f.children {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = AppendString(dst, []byte(ch.name))
			dst = append(dst, ':')
			var err error
			if dst, err = r.emit(dst, ch); err != nil {
				return dst, err
			}
		}
		return append(dst, '}'), nil
	}
	// A list or a map.
	first := f.leaves[0]
	_, def, err := head(first)
	if err != nil {
		return dst, err
	}
	if f.nullable && def < f.def {
		return skip(append(dst, "null"...), f, f.def)
	}
	if def < f.repDef {
		return skip(append(dst, "[]"...), f, f.repDef)
	}
	dst = append(dst, '[')
	for n := 0; ; n++ {
		if n > 0 {
			dst = append(dst, ',')
		}
		if f.kind == kindList {
			dst, err = r.emit(dst, f.children[0])
		} else {
			dst, err = r.emitEntry(dst, f)
		}
		if err != nil {
			return dst, err
		}
		if err := first.fill(); err != nil {
			return dst, err
		}
		if first.eof {
			break
		}
		if rep, _ := first.levels(); rep != f.repRep {
			break
		}
	}
	return append(dst, ']'), nil
}

// emitEntry appends one key-value entry of map f.
func (r *Reader) emitEntry(dst []byte, f *field) ([]byte, error) {
	dst = append(dst, `{"key":`...)
	dst, err := r.emit(dst, f.children[0])
	if err != nil {
		return dst, err
	}
	dst = append(dst, `,"value":`...)
	if f.children[1] == nil {
		return append(dst, "null}"...), nil
	}
	if dst, err = r.emit(dst, f.children[1]); err != nil {
		return dst, err
	}
	return append(dst, '}'), nil
}

// skip consumes the one entry each column under f holds for a null or
// empty f, checking that its definition level is below below.
func skip(dst []byte, f *field, below int) ([]byte, error) {
	for _, c := range f.leaves {
		_, def, err := head(c)
		if err != nil {
			return dst, err
		}
		if def >= below {
			return dst, c.corrupt("definition level %d where the columns before say %d is absent", def, below)
		}
		c.pos++
	}
	return dst, nil
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
)

// isText reports whether a BYTE_ARRAY column holds text.
func isText(e *format.SchemaElement) bool {
	if e.LogicalType != nil {
		switch e.LogicalType.Kind {
		case format.LogicalString, format.LogicalEnum, format.LogicalJSON:
			return true
		}
	}
	if e.ConvertedType != nil {
		switch *e.ConvertedType {
		case format.ConvertedUTF8, format.ConvertedEnum, format.ConvertedJSON:
			return true
		}
	}
	return false
}

// cursor walks the levels and values of one column chunk across its pages.
type cursor struct {
	node           *format.Node
	path           string
	format         leafFormat
	maxDef, maxRep int

	rd       column.Reader
	page     column.Page
	rowGroup int
	hasDict  bool // the chunk starts with a dictionary page, for page numbers
	pages    int  // data pages read from the chunk
	pos      int  // next level in page
	val      int  // next value in page.Values
	nvals    int  // values in page
	eof      bool
}

func newCursor(n *format.Node) *cursor {
	c := &cursor{node: n, path: strings.Join(n.Path(), "."), maxDef: n.MaxDefinitionLevel, maxRep: n.MaxRepetitionLevel}
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
		if isText(n.Element) {
			c.format = formatString
		}
	default:
		c.format = formatHex
	}
	return c
}

// reset points c at the column's chunk in row group rg.
func (c *cursor) reset(f *column.File, rg int) error {
	if err := f.ResetReader(&c.rd, rg, c.node.ColumnIndex); err != nil {
		return err
	}
	c.rowGroup, c.pages, c.pos, c.val, c.nvals, c.eof = rg, 0, 0, 0, 0, false
	c.page.NumLevels = 0
	m := c.rd.MetaData()
	c.hasDict = m.DictionaryPageOffset != nil && *m.DictionaryPageOffset > 0
	for _, e := range m.Encodings {
		if e == format.PlainDictionary || e == format.RLEDictionary {
			c.hasDict = true
		}
	}
	return nil
}

// fill loads the next non-empty page when the current one is used up, and
// sets eof at the end of the chunk.
func (c *cursor) fill() error {
	for !c.eof && c.pos >= c.page.NumLevels {
		err := c.rd.ReadPage(&c.page)
		if err == io.EOF {
			c.eof = true
			return nil
		}
		if err != nil {
			return err
		}
		c.pages++
		c.pos, c.val, c.nvals = 0, 0, c.page.Values.Len()
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
// page.
func (c *cursor) corrupt(format string, args ...any) error {
	page := c.pages - 1
	if c.hasDict {
		page++
	}
	return &column.PageError{Column: c.path, RowGroup: c.rowGroup, Page: max(page, 0),
		Err: fmt.Errorf("%w: %s", ErrCorrupt, fmt.Sprintf(format, args...))}
}

// appendValue appends the next value of c.
func (c *cursor) appendValue(dst []byte) ([]byte, error) {
	i := c.val
	if i >= c.nvals {
		return dst, c.corrupt("page holds %d values, its levels need more", c.nvals)
	}
	c.val++
	v := &c.page.Values
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
	}
	return AppendHex(dst, v.ByteArray(i)), nil
}
