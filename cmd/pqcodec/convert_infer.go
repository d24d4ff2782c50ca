package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/rows"
	"github.com/pqcodec/pqcodec/writer"
)

// Schema inference for convert (documented in longHelp["convert"]).

type ikind uint8

const (
	iNull ikind = iota // no value seen yet
	iBool
	iInt
	iFloat
	iTime
	iString
	iObject
	iArray
)

// itype is the type inferred for one field.
type itype struct {
	kind     ikind
	nullable bool
	present  int // objects of the parent that have the field
	objects  int // values that are objects
	names    []string
	fields   map[string]*itype
	elem     *itype
}

// scalar merges a scalar of kind k into t.
func (t *itype) scalar(k ikind) error {
	switch {
	case t.kind == iNull || t.kind == k:
		t.kind = k
	case t.kind == iObject || t.kind == iArray:
		return errors.New("a scalar where other rows have an object or array")
	case (t.kind == iInt || t.kind == iFloat) && (k == iInt || k == iFloat):
		t.kind = iFloat
	default:
		// Mixed scalars: strings hold the text of each.
		t.kind = iString
	}
	return nil
}

func isRFC3339(s string) bool {
	if len(s) < 20 || s[4] != '-' || s[10] != 'T' {
		return false
	}
	_, err := time.Parse(time.RFC3339Nano, s)
	return err == nil
}

// merge merges JSON value v (as decodeJSON returns it) into t; path names
// t for errors.
func (t *itype) merge(v any, path string) error {
	var err error
	switch x := v.(type) {
	case nil:
		t.nullable = true
	case bool:
		err = t.scalar(iBool)
	case json.Number:
		k := iFloat
		if _, e := strconv.ParseInt(string(x), 10, 64); e == nil {
			k = iInt
		}
		err = t.scalar(k)
	case string:
		k := iString
		if isRFC3339(x) {
			k = iTime
		}
		err = t.scalar(k)
	case rows.Group:
		if t.kind != iNull && t.kind != iObject {
			return fmt.Errorf("%s: an object where other rows have %s values", path, kindName(t.kind))
		}
		t.kind = iObject
		if t.fields == nil {
			t.fields = map[string]*itype{}
		}
		t.objects++
		for _, f := range x {
			c := t.fields[f.Name]
			if c == nil {
				c = &itype{}
				t.fields[f.Name] = c
				t.names = append(t.names, f.Name)
			}
			c.present++
			if err := c.merge(f.Value, join(path, f.Name)); err != nil {
				return err
			}
		}
	case []any:
		if t.kind != iNull && t.kind != iArray {
			return fmt.Errorf("%s: an array where other rows have %s values", path, kindName(t.kind))
		}
		t.kind = iArray
		if t.elem == nil {
			t.elem = &itype{}
		}
		for _, e := range x {
			if err := t.elem.merge(e, join(path, "element")); err != nil {
				return err
			}
		}
	}
	if err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	return nil
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

func kindName(k ikind) string {
	return [...]string{"null", "boolean", "integer", "number", "timestamp", "string", "object", "array"}[k]
}

// field returns the schema field of t named name.
func (t *itype) field(name string, parentSeen int, path string) (writer.Field, error) {
	rep := format.Required
	if t.nullable || parentSeen >= 0 && t.present < parentSeen {
		rep = format.Optional
	}
	switch t.kind {
	case iBool:
		return writer.Leaf(name, rep, format.Boolean), nil
	case iInt:
		return writer.Leaf(name, rep, format.Int64), nil
	case iFloat:
		return writer.Leaf(name, rep, format.Double), nil
	case iTime:
		return writer.Leaf(name, rep, format.Int64).WithLogicalType(&format.LogicalType{Kind: format.LogicalTimestamp,
			IsAdjustedToUTC: true, Unit: format.Micros}), nil
	case iObject:
		children, err := t.children(path)
		if err != nil {
			return writer.Field{}, err
		}
		return writer.Group(name, rep, children...), nil
	case iArray:
		e := t.elem
		if e.kind == iNull {
			e.nullable = true
		}
		elem, err := e.field("element", -1, join(path, "element"))
		if err != nil {
			return writer.Field{}, err
		}
		return writer.List(name, rep, elem), nil
	}
	if t.kind == iNull {
		rep = format.Optional
	}
	return writer.String(name, rep), nil
}

func (t *itype) children(path string) ([]writer.Field, error) {
	if len(t.names) == 0 {
		return nil, fmt.Errorf("%s: only empty objects, which Parquet cannot hold as a group; give --schema", join(path, "{}"))
	}
	var out []writer.Field
	for _, n := range t.names {
		f, err := t.fields[n].field(n, t.objects, join(path, n))
		if err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, nil
}

// inferJSON reads up to n rows of j and infers their schema; it returns
// the rows read, to be written first.
func inferJSON(j *jsonSource, n int) ([]bufferedRow, *format.Schema, error) {
	root := &itype{}
	var buf []bufferedRow
	for len(buf) < n {
		row, line, err := j.next(nil)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, nil, err
		}
		if err := root.merge(row, ""); err != nil {
			return nil, nil, &inputError{file: j.name, line: line, err: fmt.Errorf("cannot infer a schema: %v (give --schema)", err)}
		}
		buf = append(buf, bufferedRow{row, line})
	}
	if len(buf) == 0 {
		return nil, nil, &inputError{file: j.name, line: 1, err: errors.New("empty input: no rows to infer a schema from (give --schema)")}
	}
	children, err := root.children("")
	if err != nil {
		return nil, nil, &inputError{file: j.name, line: 1, err: err}
	}
	s, err := writer.Message("schema", children...)
	if err != nil {
		return nil, nil, &inputError{file: j.name, line: 1, err: err}
	}
	return buf, s, nil
}

// infer reads up to n records of c and infers a flat schema of their
// columns; it returns the rows read, to be written first (converted once
// the schema is bound).
func (c *csvSource) infer(n int) ([]bufferedRow, *format.Schema, error) {
	types := make([]itype, len(c.names))
	var recs [][]string
	var lines []int64
	for len(recs) < n {
		rec, line, err := c.record()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, nil, err
		}
		for i, s := range rec {
			t := &types[i]
			switch {
			case s == "":
				t.nullable = true
			case s == "true" || s == "false":
				t.scalar(iBool)
			case isInt(s):
				t.scalar(iInt)
			case isFloat(s):
				t.scalar(iFloat)
			case isRFC3339(s):
				t.scalar(iTime)
			default:
				t.scalar(iString)
			}
		}
		recs, lines = append(recs, rec), append(lines, line)
	}
	var fields []writer.Field
	for i, name := range c.names {
		f, _ := types[i].field(name, -1, name)
		fields = append(fields, f)
	}
	s, err := writer.Message("schema", fields...)
	if err != nil {
		return nil, nil, &inputError{file: c.name, line: 1, err: err}
	}
	if err := c.bind(s); err != nil {
		return nil, nil, err
	}
	var buf []bufferedRow
	for i, rec := range recs {
		row, err := c.convert(rec, lines[i])
		if err != nil {
			return nil, nil, err
		}
		buf = append(buf, bufferedRow{row, lines[i]})
	}
	return buf, s, nil
}

func isInt(s string) bool {
	_, err := strconv.ParseInt(s, 10, 64)
	return err == nil
}

// isFloat accepts the decimal forms of JSON numbers only (not "inf" or
// hexadecimal floats).
func isFloat(s string) bool {
	if strings.Trim(s, "0123456789+-.eE") != "" {
		return false
	}
	_, err := strconv.ParseFloat(s, 64)
	return err == nil
}
