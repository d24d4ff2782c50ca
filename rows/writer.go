package rows

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/internal/enctable"
	"github.com/pqcodec/pqcodec/internal/errs"
	"github.com/pqcodec/pqcodec/writer"
)

// ErrRow reports a row that does not fit the schema of a [Writer]: a value
// of a type its field cannot hold, a null in a required field, a field the
// schema does not have. It matches pqcodec.ErrInvalidInput; the error is a
// *RowError naming the row and the field.
var ErrRow = errs.Invalid("rows: row does not fit the schema")

// RowError is the error of a row a [Writer] could not take: Row is its
// number (from 0, counting the rows written before it), Path the dotted path
// of the field.
type RowError struct {
	Row  int64
	Path string
	Err  error
}

func (e *RowError) Error() string {
	if e.Path == "" {
		return fmt.Sprintf("row %d: %v", e.Row, e.Err)
	}
	return fmt.Sprintf("row %d: field %s: %v", e.Row, e.Path, e.Err)
}

func (e *RowError) Unwrap() error { return e.Err }

// DefaultWriteBatchRows is the number of rows a [Writer] buffers before it
// hands a batch of each column to the column writer.
const DefaultWriteBatchRows = 4096

// writeBatchBytes bounds the value bytes a Writer buffers before it hands
// its batches on, whatever the number of rows.
const writeBatchBytes = 4 << 20

// WriterOption configures a [Writer].
type WriterOption func(*writerOptions) error

type writerOptions struct {
	wopts     []writer.Option
	raw       bool
	batchRows int
	// scalarsAsText: WithScalarsAsText
	scalarsAsText bool
}

// WithWriterOptions passes options to the column writer (package writer):
// codec, page size, row-group size, dictionary, ...
func WithWriterOptions(opts ...writer.Option) WriterOption {
	return func(o *writerOptions) error {
		o.wopts = append(o.wopts, opts...)
		return nil
	}
}

// WithRawJSON makes [Writer.WriteJSON] read the physical forms of values
// that `pqcodec cat --raw` and [WithRaw] print (DATE, TIMESTAMP, DECIMAL as
// their stored integers, byte arrays and INT96 as hexadecimal) instead of
// the logical ones. Go values of [Writer.WriteRow] are taken in both forms
// always, since their Go types tell them apart.
func WithRawJSON() WriterOption {
	return func(o *writerOptions) error {
		o.raw = true
		return nil
	}
}

// WithScalarsAsText makes [Writer.WriteJSON] and [Writer.WriteValue] take
// a JSON number or boolean given for a STRING column as its text, for
// columns whose values mix kinds (pqcodec convert infers such columns as
// strings). Without it that is an error.
func WithScalarsAsText() WriterOption {
	return func(o *writerOptions) error {
		o.scalarsAsText = true
		return nil
	}
}

// WithBatchRows sets the number of rows buffered before a batch of each
// column goes to the column writer (DefaultWriteBatchRows by default); a
// batch is also handed on once its values pass a few MiB.
func WithBatchRows(n int) WriterOption {
	return func(o *writerOptions) error {
		if n <= 0 {
			return fmt.Errorf("%w: batch of %d rows", writer.ErrOption, n)
		}
		o.batchRows = n
		return nil
	}
}

// Writer writes rows to a Parquet file: the mirror of [Reader]. It takes
// each row as the Go values [Reader.ReadRow] returns (Group, []any lists,
// []KeyValue maps, leaves logical or physical), or as the JSON object
// [Reader.AppendRow] makes, shreds it into the definition and repetition
// levels and values of each leaf column, and hands bounded batches of each
// column to a writer.Writer.
//
// JSON text and flat rows of scalar tokens (CSV) have a typed path,
// [Writer.TryJSON] and [Writer.TryScalars], which converts each token
// straight into its column without building Go values, by the same rules
// as WriteValue; WriteJSON takes it first.
//
// A row that does not fit the schema is an error (*RowError wrapping
// ErrRow) naming the row and the field; nothing of it is written, and the
// Writer stays usable for the next row. Errors of the column writer leave it
// failed, as writer.Writer is.
type Writer struct {
	w      *writer.Writer
	fields []*field
	leaves []*wleaf // by column index
	rows   int64    // rows taken, the number of the next row
	batch  int      // rows buffered
	opts   writerOptions
	path   []string // of the field being shredded, for errors
	json   bool     // the row being shredded came from JSON
	// seen and scratch serve the typed path (TryJSON): the fields of the
	// objects being read that were given, and a string's unquoted bytes.
	seen    []bool
	scratch []byte
}

// NewWriter returns a Writer of files of the given schema to out.
func NewWriter(out io.Writer, schema *format.Schema, opts ...WriterOption) (*Writer, error) {
	o := writerOptions{batchRows: DefaultWriteBatchRows}
	for _, opt := range opts {
		if err := opt(&o); err != nil {
			return nil, err
		}
	}
	cw, err := writer.New(out, schema, o.wopts...)
	if err != nil {
		return nil, err
	}
	b := &builder{cursors: map[int]*cursor{}}
	var fields []*field
	for _, c := range schema.Root().Children {
		fields = append(fields, b.fieldOf(c))
	}
	w := &Writer{w: cw, fields: fields, opts: o}
	leaves := schema.Leaves()
	w.leaves = make([]*wleaf, len(leaves))
	for i, n := range leaves {
		w.leaves[i] = newWleaf(n, o.raw)
		w.leaves[i].scalarsAsText = o.scalarsAsText
	}
	// The fields' cursors carry each leaf's node; index them by column.
	for _, c := range b.cursors {
		c.wl = w.leaves[c.node.ColumnIndex]
	}
	return w, nil
}

// WriteRow writes one row: a Group of the top-level fields (matched by
// name; a field left out is null).
func (w *Writer) WriteRow(row Group) error {
	w.json = false
	return w.put(row)
}

// WriteJSON writes one row given as a JSON object, in the form
// [Reader.AppendRow] and `pqcodec cat` make (or, with WithRawJSON, `cat
// --raw`). It goes by [Writer.TryJSON] and, for a row that leaves, by
// encoding/json and WriteValue, whose error it returns. WriteJSON does not
// retain row.
func (w *Writer) WriteJSON(row []byte) error {
	if ok, err := w.TryJSON(row); ok || err != nil {
		return err
	}
	d := json.NewDecoder(bytes.NewReader(row))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return &RowError{Row: w.rows, Err: fmt.Errorf("%w: %v", ErrRow, err)}
	}
	if d.More() {
		return &RowError{Row: w.rows, Err: fmt.Errorf("%w: text after the JSON object", ErrRow)}
	}
	return w.WriteValue(v)
}

// WriteValue writes one row decoded from JSON (by encoding/json with
// UseNumber, so that numbers keep their digits): objects as map[string]any
// or Group, arrays as []any, leaves json.Number, string, bool or nil.
func (w *Writer) WriteValue(v any) error {
	w.json = true
	return w.put(v)
}

func (w *Writer) put(v any) error {
	w.markAll()
	w.path = w.path[:0]
	var err error
	switch g := v.(type) {
	case Group, map[string]any:
		err = w.putGroup(w.fields, g, 0)
	case nil:
		err = fmt.Errorf("%w: null row", ErrRow)
	default:
		err = fmt.Errorf("%w: row of %T, not an object", ErrRow, v)
	}
	if err != nil {
		w.rollbackAll()
		re := &RowError{Row: w.rows, Path: strings.Join(w.path, "."), Err: err}
		w.rows++
		return re
	}
	return w.taken()
}

// taken counts a row shredded into the leaves' batches and hands the
// batches on when they are full.
func (w *Writer) taken() error {
	w.rows++
	w.batch++
	if w.batch >= w.opts.batchRows || w.buffered() >= writeBatchBytes {
		return w.flushBatch()
	}
	return nil
}

func (w *Writer) buffered() int {
	n := 0
	for _, l := range w.leaves {
		n += l.size()
	}
	return n
}

// flushBatch hands the buffered rows of every column to the column writer.
func (w *Writer) flushBatch() error {
	if w.batch == 0 {
		return nil
	}
	for i, l := range w.leaves {
		var def, rep []int16
		if l.maxDef > 0 {
			def = l.def
		}
		if l.maxRep > 0 {
			rep = l.rep
		}
		if err := w.w.Write(i, &l.vals, def, rep); err != nil {
			return err
		}
		l.reset()
	}
	w.batch = 0
	return nil
}

// Flush writes the rows buffered and ends the current row group.
func (w *Writer) Flush() error {
	if err := w.flushBatch(); err != nil {
		return err
	}
	return w.w.Flush()
}

// Close writes the rows buffered, the last row group and the footer. It does
// not close the io.Writer.
func (w *Writer) Close() error {
	if err := w.flushBatch(); err != nil {
		return err
	}
	return w.w.Close()
}

// Rows returns the number of rows taken (written or buffered).
func (w *Writer) Rows() int64 { return w.rows }

// putGroup shreds the fields of a group value g (Group or map[string]any).
func (w *Writer) putGroup(fields []*field, g any, rep int) error {
	switch g := g.(type) {
	case Group:
		for i, f := range fields {
			var v any
			if i < len(g) && g[i].Name == f.name {
				v = g[i].Value
			} else if j := g.Index(f.name); j >= 0 {
				v = g[j].Value
			}
			if err := w.putField(f, v, rep); err != nil {
				return err
			}
		}
		if len(g) > len(fields) || !sameNames(fields, g) {
			for _, x := range g {
				if !hasField(fields, x.Name) {
					w.path = append(w.path, x.Name)
					return fmt.Errorf("%w: no such field in the schema", ErrRow)
				}
			}
		}
	case map[string]any:
		for _, f := range fields {
			if err := w.putField(f, g[f.name], rep); err != nil {
				return err
			}
		}
		if len(g) > len(fields) || len(g) > 0 {
			for name := range g {
				if !hasField(fields, name) {
					w.path = append(w.path, name)
					return fmt.Errorf("%w: no such field in the schema", ErrRow)
				}
			}
		}
	}
	return nil
}

func sameNames(fields []*field, g Group) bool {
	if len(g) != len(fields) {
		return false
	}
	for i := range g {
		if g[i].Name != fields[i].name {
			return false
		}
	}
	return true
}

func hasField(fields []*field, name string) bool {
	for _, f := range fields {
		if f.name == name {
			return true
		}
	}
	return false
}

// putField shreds value v of field f, whose first entry has repetition
// level rep.
func (w *Writer) putField(f *field, v any, rep int) error {
	w.path = append(w.path, f.name)
	if v == nil {
		if !f.nullable {
			return fmt.Errorf("%w: null in a required field", ErrRow)
		}
		w.nulls(f, rep, f.def-1)
		w.path = w.path[:len(w.path)-1]
		return nil
	}
	switch f.kind {
	case kindLeaf:
		l := f.leaf.wl
		if err := l.value(v, w.json); err != nil {
			return err
		}
		l.levels(rep, f.def)
	case kindGroup:
		switch v.(type) {
		case Group, map[string]any:
		default:
			return fmt.Errorf("%w: %T for a group", ErrRow, v)
		}
		if err := w.putGroup(f.children, v, rep); err != nil {
			return err
		}
	case kindList:
		list, ok := v.([]any)
		if !ok {
			return fmt.Errorf("%w: %T for a list", ErrRow, v)
		}
		if len(list) == 0 {
			w.nulls(f, rep, f.repDef-1)
			break
		}
		for i, e := range list {
			r := f.repRep
			if i == 0 {
				r = rep
			}
			if err := w.putField(f.children[0], e, r); err != nil {
				return err
			}
		}
	case kindMap:
		var n int
		switch m := v.(type) {
		case []KeyValue:
			n = len(m)
		case []any:
			n = len(m)
		default:
			return fmt.Errorf("%w: %T for a map", ErrRow, v)
		}
		if n == 0 {
			w.nulls(f, rep, f.repDef-1)
			break
		}
		for i := range n {
			r := f.repRep
			if i == 0 {
				r = rep
			}
			var key, value any
			switch m := v.(type) {
			case []KeyValue:
				key, value = m[i].Key, m[i].Value
			case []any:
				switch kv := m[i].(type) {
				case map[string]any:
					for k := range kv {
						if k != "key" && k != "value" {
							return fmt.Errorf("%w: map entry %d has field %q", ErrRow, i, k)
						}
					}
					key, value = kv["key"], kv["value"]
				case Group:
					for _, f := range kv {
						if f.Name != "key" && f.Name != "value" {
							return fmt.Errorf("%w: map entry %d has field %q", ErrRow, i, f.Name)
						}
					}
					key, _ = kv.Get("key")
					value, _ = kv.Get("value")
				default:
					return fmt.Errorf("%w: map entry %d is %T, not {\"key\": …, \"value\": …}", ErrRow, i, m[i])
				}
			}
			if err := w.putField(f.children[0], key, r); err != nil {
				return err
			}
			if f.children[1] == nil {
				if value != nil {
					return fmt.Errorf("%w: map entry %d has a value, the schema none", ErrRow, i)
				}
				continue
			}
			if err := w.putField(f.children[1], value, r); err != nil {
				return err
			}
		}
	}
	w.path = w.path[:len(w.path)-1]
	return nil
}

// nulls writes one entry of levels (rep, def) without a value to every
// column under f.
func (w *Writer) nulls(f *field, rep, def int) {
	for _, c := range f.leaves {
		c.wl.levels(rep, def)
	}
}

// wleaf buffers the levels and values of one column for a batch.
type wleaf struct {
	node           *format.Node
	maxDef, maxRep int
	conv           leafConv
	scalarsAsText  bool
	vals           column.Values
	def, rep       []int16
	// The lengths at the start of the row being shredded.
	mDef, mRep, mVals int
}

func newWleaf(n *format.Node, raw bool) *wleaf {
	l := &wleaf{node: n, maxDef: n.MaxDefinitionLevel, maxRep: n.MaxRepetitionLevel, conv: newLeafConv(n, raw)}
	l.vals.Reset(*n.Element.Type, l.conv.typeLength)
	return l
}

func (l *wleaf) levels(rep, def int) {
	if l.maxDef > 0 {
		l.def = append(l.def, int16(def))
	}
	if l.maxRep > 0 {
		l.rep = append(l.rep, int16(rep))
	}
}

func (l *wleaf) mark() {
	l.mDef, l.mRep, l.mVals = len(l.def), len(l.rep), l.vals.Len()
}

func (l *wleaf) rollback() {
	l.def, l.rep = l.def[:l.mDef], l.rep[:l.mRep]
	(*enctable.Values)(&l.vals).Truncate(l.mVals)
}

func (l *wleaf) reset() {
	l.def, l.rep = l.def[:0], l.rep[:0]
	l.vals.Reset(l.vals.Type, l.vals.TypeLength)
}

// size returns about the bytes buffered.
func (l *wleaf) size() int {
	return 2*(len(l.def)+len(l.rep)) + len(l.vals.Bytes) + 8*len(l.vals.Int64s) + 8*len(l.vals.Doubles) +
		4*len(l.vals.Int32s) + 4*len(l.vals.Floats) + 12*len(l.vals.Int96s) + len(l.vals.Booleans)
}

// appendBytes appends a byte-array value, copying b (which may alias a
// []byte of the caller: unsafecast.String).
func (l *wleaf) appendBytes(b string) error {
	v := &l.vals
	if v.Type == format.FixedLenByteArray {
		if len(b) != v.TypeLength {
			return fmt.Errorf("%w: %d bytes for a FIXED_LEN_BYTE_ARRAY(%d)", ErrRow, len(b), v.TypeLength)
		}
		v.Bytes = append(v.Bytes, b...)
		return nil
	}
	if len(v.Offsets) == 0 {
		v.Offsets = append(v.Offsets, int32(len(v.Bytes)))
	}
	if len(v.Bytes)+len(b) > 1<<31-1 {
		return fmt.Errorf("%w: byte arrays of a batch over 2 GiB", writer.ErrTooLarge)
	}
	v.Bytes = append(v.Bytes, b...)
	v.Offsets = append(v.Offsets, int32(len(v.Bytes)))
	return nil
}
