package rows

import (
	"cmp"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/logical"
)

// GenericWriter writes values of a struct type T as rows: the mirror of
// [GenericReader], with the same field names (the parquet tag's name, else
// the Go name, matched to the schema's exactly or else in any case; "-"
// skips a field) and the same Go shapes: pointers (nil is null), slices
// for lists ([]byte is a byte array), maps for maps (written in the order
// of their sorted keys, so the output does not depend on Go's map order),
// structs for groups, and for leaves the Go values a [Writer] takes
// (integers of any size, floats, bool, string, []byte, time.Time,
// time.Duration, logical.Decimal, logical.UUID, logical.Interval). A field
// of the schema that T lacks is written as null (an error for a required
// one); a field of T that names no field of the schema is an error
// wrapping [ErrRow] at the first row. It is not safe for concurrent use.
type GenericWriter[T any] struct {
	w   *Writer
	row Group
}

// NewGenericWriter returns a GenericWriter of rows of T, a struct type, to
// out under schema, with the options of [NewWriter].
func NewGenericWriter[T any](out io.Writer, schema *format.Schema, opts ...WriterOption) (*GenericWriter[T], error) {
	if t := reflect.TypeFor[T](); t.Kind() != reflect.Struct {
		return nil, fmt.Errorf("%w: NewGenericWriter of %v, not a struct type", ErrType, t)
	}
	w, err := NewWriter(out, schema, opts...)
	if err != nil {
		return nil, err
	}
	return &GenericWriter[T]{w: w}, nil
}

// Write writes rows and returns how many were written. A row that does not
// fit the schema stops it with the [Writer]'s *RowError (nothing of that
// row is written; the GenericWriter stays usable).
func (g *GenericWriter[T]) Write(rows []T) (int, error) {
	for i := range rows {
		g.row = structGroup(g.row[:0], reflect.ValueOf(&rows[i]).Elem(), g.w.fields)
		if err := g.w.WriteRow(g.row); err != nil {
			return i, err
		}
	}
	return len(rows), nil
}

// Flush is [Writer.Flush].
func (g *GenericWriter[T]) Flush() error { return g.w.Flush() }

// Close is [Writer.Close].
func (g *GenericWriter[T]) Close() error { return g.w.Close() }

// Writer returns the Writer g writes through.
func (g *GenericWriter[T]) Writer() *Writer { return g.w }

// structGroup appends to dst the fields of struct value v as a Group for
// the schema fields fields, named as the schema names them.
func structGroup(dst Group, v reflect.Value, fields []*field) Group {
	plan := planOf(v.Type())
	for k, name := range plan.names {
		f := matchField(name, fields)
		if f != nil {
			name = f.name
		}
		dst = append(dst, Field{Name: name, Value: goValue(v.Field(plan.index[k]), f)})
	}
	return dst
}

// matchField returns the field of fields named name, exactly or else in
// any case; nil when none is (the Writer then reports the name).
func matchField(name string, fields []*field) *field {
	for _, f := range fields {
		if f.name == name {
			return f
		}
	}
	for _, f := range fields {
		if strings.EqualFold(f.name, name) {
			return f
		}
	}
	return nil
}

var leafStructs = map[reflect.Type]bool{
	reflect.TypeFor[time.Time]():        true,
	reflect.TypeFor[logical.Decimal]():  true,
	reflect.TypeFor[logical.Interval](): true,
}

// goValue returns v as a Writer takes it, for schema field f (nil when the
// schema has none of that name).
func goValue(v reflect.Value, f *field) any {
	switch v.Kind() {
	case reflect.Invalid:
		return nil
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return nil
		}
		return goValue(v.Elem(), f)
	case reflect.Struct:
		if leafStructs[v.Type()] {
			return v.Interface()
		}
		var children []*field
		if f != nil {
			children = f.children
		}
		return structGroup(nil, v, children)
	case reflect.Slice:
		if v.IsNil() {
			return nil
		}
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return v.Bytes()
		}
		return goList(v, f)
	case reflect.Array:
		if v.Type() == reflect.TypeFor[logical.UUID]() {
			return v.Interface()
		}
		if v.Type().Elem().Kind() == reflect.Uint8 {
			b := make([]byte, v.Len())
			reflect.Copy(reflect.ValueOf(b), v)
			return b
		}
		return goList(v, f)
	case reflect.Map:
		if v.IsNil() {
			return nil
		}
		var key, value *field
		if f != nil && f.kind == kindMap && len(f.children) == 2 {
			key, value = f.children[0], f.children[1]
		}
		keys := v.MapKeys()
		slices.SortFunc(keys, compareKeys)
		m := make([]KeyValue, len(keys))
		for i, k := range keys {
			m[i] = KeyValue{Key: goValue(k, key), Value: goValue(v.MapIndex(k), value)}
		}
		return m
	case reflect.Bool:
		return v.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if v.Type() == reflect.TypeFor[time.Duration]() {
			return v.Interface()
		}
		return v.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return v.Uint()
	case reflect.Float32:
		return float32(v.Float())
	case reflect.Float64:
		return v.Float()
	case reflect.String:
		return v.String()
	}
	return v.Interface() // the Writer names the type it cannot take
}

// goList is goValue of a slice or array v (not of bytes): its elements,
// each as field f's element when f is a list.
func goList(v reflect.Value, f *field) []any {
	var elem *field
	if f != nil && f.kind == kindList && len(f.children) == 1 {
		elem = f.children[0]
	}
	list := make([]any, v.Len())
	for i := range list {
		list[i] = goValue(v.Index(i), elem)
	}
	return list
}

// compareKeys orders map keys: numbers by value, strings and everything
// else by their text.
func compareKeys(a, b reflect.Value) int {
	switch a.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return cmp.Compare(a.Int(), b.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return cmp.Compare(a.Uint(), b.Uint())
	case reflect.Float32, reflect.Float64:
		return cmp.Compare(a.Float(), b.Float())
	case reflect.String:
		return strings.Compare(a.String(), b.String())
	}
	return strings.Compare(fmt.Sprint(a.Interface()), fmt.Sprint(b.Interface()))
}
