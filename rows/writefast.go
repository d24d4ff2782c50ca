package rows

import (
	"fmt"
	"strconv"
	"unicode/utf8"

	"github.com/pqcodec/pqcodec/internal/unsafecast"
	"github.com/pqcodec/pqcodec/logical"
)

// The typed path of a Writer: rows given as JSON text or as scalar tokens
// go straight into their columns, each token converted to the leaf's
// physical value as it is read and the levels built on the way, without
// the Go values (Group, []any, json.Number) WriteValue shreds. The
// conversion of a scalar is wleaf.scalar, the one WriteValue uses, so the
// two paths write the same values; a row the typed path does not take
// (bad, or of a form it leaves alone) is rolled back uncounted and the
// caller writes it by the general path, which gives its error.

// Scalar is the kind of a JSON scalar given to [Writer.TryScalars].
type Scalar uint8

const (
	ScalarNull   Scalar = iota // null: the text is ignored
	ScalarNumber               // a number: the text is its digits, as json.Number holds them
	ScalarString               // a string: the text is its value, unquoted
	ScalarTrue                 // true: the text is ignored
	ScalarFalse                // false: the text is ignored
)

// scalar appends a JSON scalar of kind k (not ScalarNull) and text s, as
// value does for the json.Number, string or bool encoding/json decodes it
// to. s is not retained: it may alias a buffer the caller reuses.
func (l *wleaf) scalar(k Scalar, s string) error {
	c := &l.conv
	switch k {
	case ScalarNumber:
		if c.jlg.Kind == logical.KindString && l.scalarsAsText {
			return l.appendBytes(s)
		}
		return l.number(s)
	case ScalarString:
		return l.text(s)
	case ScalarTrue, ScalarFalse:
		if c.jlg.Kind == logical.KindString && l.scalarsAsText {
			return l.appendBytes(strconv.FormatBool(k == ScalarTrue))
		}
		return l.boolean(k == ScalarTrue)
	}
	return fmt.Errorf("%w: scalar of kind %d", ErrRow, k)
}

// TryJSON writes one row given as a JSON object, as WriteJSON and
// WriteValue(ParseJSON(row)) do, but without building Go values: each
// token goes into its column as it is read, which takes about half the
// CPU. It takes the common forms only. It reports false, having written
// and counted nothing, for a row that is not valid JSON or does not fit
// the schema, and for the forms it leaves to the general path (a field
// named twice, a key with escapes, a MAP column); the caller then writes
// that row with WriteJSON or WriteValue, which write it or give its error.
// err is an error of the column writer, for a row taken, which leaves the
// Writer failed as WriteValue's do. TryJSON does not retain row: the
// caller may reuse it once TryJSON returns. Not safe for concurrent use.
func (w *Writer) TryJSON(row []byte) (ok bool, err error) {
	w.markAll()
	w.seen = w.seen[:0]
	p := jsonParser{b: row}
	ok = w.fastGroup(&p, w.fields, 0)
	if ok {
		p.space()
		ok = p.i == len(p.b)
	}
	if !ok {
		w.rollbackAll()
		return false, nil
	}
	return true, w.taken()
}

// TryScalars writes one row of a schema whose top-level fields are all
// leaves (not lists, maps or groups), given as one JSON scalar per field in
// the schema's order: kinds[i] and texts[i] are the i-th field's. The
// values convert as WriteValue converts the json.Number, string, bool or
// nil of the same scalar (and WithScalarsAsText applies alike). It reports
// false, having written and counted nothing, for a row that does not fit
// the schema, a schema with a field that is not a leaf, or kinds and texts
// not of one entry per field; WriteValue then gives the row's error. err
// is an error of the column writer, for a row taken. texts are not
// retained. Not safe for concurrent use.
func (w *Writer) TryScalars(kinds []Scalar, texts []string) (ok bool, err error) {
	if len(kinds) != len(w.fields) || len(texts) != len(kinds) {
		return false, nil
	}
	w.markAll()
	for i, f := range w.fields {
		if f.kind != kindLeaf {
			w.rollbackAll()
			return false, nil
		}
		if kinds[i] == ScalarNull {
			if !f.nullable {
				w.rollbackAll()
				return false, nil
			}
			w.nulls(f, 0, f.def-1)
			continue
		}
		l := f.leaf.wl
		if l.scalar(kinds[i], texts[i]) != nil {
			w.rollbackAll()
			return false, nil
		}
		l.levels(0, f.def)
	}
	return true, w.taken()
}

// fastGroup shreds the JSON object at p.i into fields, as putGroup does a
// Group, and reports false where putGroup fails or the typed path leaves
// the row to it.
func (w *Writer) fastGroup(p *jsonParser, fields []*field, rep int) bool {
	if !p.skip('{') {
		return false
	}
	// w.seen[base+j] tells whether fields[j] was given.
	base := len(w.seen)
	for range fields {
		w.seen = append(w.seen, false)
	}
	if !p.skip('}') {
		next := 0
		for {
			p.space()
			if p.i >= len(p.b) || p.b[p.i] != '"' {
				return false
			}
			key, plain, err := p.scanStr()
			if err != nil || !plain {
				return false
			}
			j := lookup(fields, key, next)
			if j < 0 || w.seen[base+j] || !utf8.Valid(key) {
				return false
			}
			w.seen[base+j] = true
			next = j + 1
			if !p.skip(':') {
				return false
			}
			if !w.fastField(p, fields[j], rep) {
				return false
			}
			switch p.sep('}') {
			case ',':
				continue
			case 0:
				return false
			}
			break // at the '}'
		}
	}
	for j, f := range fields {
		if !w.seen[base+j] {
			if !f.nullable {
				return false
			}
			w.nulls(f, rep, f.def-1)
		}
	}
	w.seen = w.seen[:base]
	return true
}

// lookup returns the index of the field named key, looking first at
// fields[next] (fields usually come in the schema's order), or -1.
func lookup(fields []*field, key []byte, next int) int {
	if next < len(fields) && fields[next].name == string(key) {
		return next
	}
	for j, f := range fields {
		if f.name == string(key) {
			return j
		}
	}
	return -1
}

// fastField shreds the JSON value at p.i as field f, whose first entry has
// repetition level rep, as putField does.
func (w *Writer) fastField(p *jsonParser, f *field, rep int) bool {
	p.space()
	if p.i >= len(p.b) {
		return false
	}
	c := p.b[p.i]
	if c == 'n' {
		if p.literal("null") != nil || !f.nullable {
			return false
		}
		w.nulls(f, rep, f.def-1)
		return true
	}
	switch f.kind {
	case kindLeaf:
		l := f.leaf.wl
		if !w.fastScalar(p, l) {
			return false
		}
		l.levels(rep, f.def)
		return true
	case kindGroup:
		return c == '{' && w.fastGroup(p, f.children, rep)
	case kindList:
		if c != '[' {
			return false
		}
		p.i++
		if p.skip(']') {
			w.nulls(f, rep, f.repDef-1)
			return true
		}
		for r := rep; ; r = f.repRep {
			if !w.fastField(p, f.children[0], r) {
				return false
			}
			switch p.sep(']') {
			case ',':
				continue
			case ']':
				return true
			}
			return false
		}
	}
	return false // kindMap: the general path
}

// fastScalar appends the JSON scalar at p.i (not null) to l.
func (w *Writer) fastScalar(p *jsonParser, l *wleaf) bool {
	var err error
	switch c := p.b[p.i]; {
	case c == '"':
		body, plain, e := p.scanStr()
		if e != nil {
			return false
		}
		if !plain || !utf8.Valid(body) {
			var ok bool
			if w.scratch, ok = appendUnquoted(w.scratch[:0], body); !ok {
				return false
			}
			body = w.scratch
		}
		err = l.scalar(ScalarString, unsafecast.String(body))
	case c == 't':
		if p.literal("true") != nil {
			return false
		}
		err = l.scalar(ScalarTrue, "")
	case c == 'f':
		if p.literal("false") != nil {
			return false
		}
		err = l.scalar(ScalarFalse, "")
	case c == '-' || c >= '0' && c <= '9':
		n, e := p.number()
		if e != nil {
			return false
		}
		err = l.scalar(ScalarNumber, unsafecast.String(n))
	default: // an object or array for a leaf, or not JSON
		return false
	}
	return err == nil
}

func (w *Writer) markAll() {
	for _, l := range w.leaves {
		l.mark()
	}
}

func (w *Writer) rollbackAll() {
	for _, l := range w.leaves {
		l.rollback()
	}
}
