package rows

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"

	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/format"
)

// ErrType is wrapped by the errors of [NewGenericReader] for a struct
// field that matches no field of the schema or cannot hold its values,
// and of [GenericReader.Read] for a value that does not fit its Go field
// (an integer out of the field's range, bytes of another length than an
// array's).
var ErrType = errors.New("rows: Go type does not match the schema")

// GenericReader reads rows into values of a struct type T, as parquet-go's
// GenericReader[T] does: each exported field of T takes the top-level field
// of the schema named by its `parquet:"name"` tag (the part before a comma;
// "-" skips the field), else by its Go name, else by its Go name in any
// case. Only the columns of T's fields are read. Values go into fields as:
//
//	null                          the zero value (a nil pointer, slice or map)
//	BOOLEAN, integers, floats     any Go bool, integer or floating-point type that holds the value
//	STRING and other byte arrays  string or []byte; [N]byte when the value has N bytes
//	group                         a struct (fields matched the same way) or map[string]V
//	LIST, repeated field          a slice
//	MAP                           a map
//	anything                      a field of the value's own Go type (see the package
//	                              documentation: time.Time for DATE, TIMESTAMP and INT96,
//	                              time.Duration for TIME, logical.Decimal, logical.UUID or
//	                              [16]byte, logical.Interval, or with WithRaw the physical
//	                              values), or an interface such as any
//
// and pointers to any of these for optional values. It is not safe for
// concurrent use.
type GenericReader[T any] struct {
	r   *Reader
	row Group
}

// NewGenericReader returns a GenericReader of the rows of f into T, a
// struct type. opts are the [Reader]'s ([WithRange], [WithRowRanges]...;
// [WithColumns] adds columns to those of T's fields). A field of T that
// names no top-level field of the schema, or whose Go type cannot hold
// that field's shape (a struct for a list, a slice for a number), returns
// an error wrapping [ErrType] that names both.
func NewGenericReader[T any](f *column.File, opts ...Option) (*GenericReader[T], error) {
	t := reflect.TypeFor[T]()
	if t.Kind() != reflect.Struct {
		return nil, fmt.Errorf("%w: NewGenericReader of %v, not a struct type", ErrType, t)
	}
	plan := planOf(t)
	root := f.Schema().Root()
	var cols []string
	for i := range plan.names {
		name, ok := matchName(plan.names[i], root.Children)
		if !ok {
			return nil, fmt.Errorf("%w: field %s of %v: no top-level field %q in the schema (it has %s)",
				ErrType, t.Field(plan.index[i]).Name, t, plan.names[i], childNames(root))
		}
		plan.names[i] = name
		cols = append(cols, name)
	}
	r, err := NewReader(f, append([]Option{WithColumns(cols...)}, opts...)...)
	if err != nil {
		return nil, err
	}
	for _, fd := range r.fields {
		if i := plan.lookup(fd.name); i >= 0 {
			ft := t.Field(plan.index[i])
			if err := checkType(fd, ft.Type, ft.Name); err != nil {
				return nil, err
			}
		}
	}
	return &GenericReader[T]{r: r}, nil
}

// Read reads up to len(rows) rows into rows and returns how many; after
// the last row it returns io.EOF, with the rows read before it. Other
// errors are [Reader.ReadRow]'s, or wrap [ErrType] for a value that does
// not fit its field (the row is then partly set). A row's fields are
// overwritten; slices and maps are new.
func (g *GenericReader[T]) Read(rows []T) (int, error) {
	for i := range rows {
		var err error
		if g.row, err = g.r.ReadRow(g.row); err != nil {
			return i, err
		}
		if err := setGroup(reflect.ValueOf(&rows[i]).Elem(), g.row, ""); err != nil {
			return i, err
		}
	}
	return len(rows), nil
}

// ReadContext is Read under ctx, as [Reader.ReadRowContext].
func (g *GenericReader[T]) ReadContext(ctx context.Context, rows []T) (int, error) {
	defer g.r.withContext(ctx)()
	return g.Read(rows)
}

// SeekRow is [Reader.SeekRow].
func (g *GenericReader[T]) SeekRow(row int64) error { return g.r.SeekRow(row) }

// structPlan maps the names of a struct type's fields to their indices.
type structPlan struct {
	names []string // schema name of each mapped field
	index []int    // its index in the struct
}

func (p *structPlan) lookup(name string) int {
	for i, n := range p.names {
		if n == name {
			return i
		}
	}
	for i, n := range p.names {
		if strings.EqualFold(n, name) {
			return i
		}
	}
	return -1
}

var plans sync.Map // reflect.Type -> *structPlan

// planOf returns the plan of struct type t: its exported fields and their
// names, from the parquet tag or the Go name. Each call gets its own copy.
func planOf(t reflect.Type) *structPlan {
	if p, ok := plans.Load(t); ok {
		c := *p.(*structPlan)
		c.names = append([]string(nil), c.names...)
		return &c
	}
	p := &structPlan{}
	for i := range t.NumField() {
		sf := t.Field(i)
		if !sf.IsExported() {
			continue
		}
		name := sf.Name
		if tag, ok := sf.Tag.Lookup("parquet"); ok {
			tag, _, _ = strings.Cut(tag, ",")
			if tag == "-" {
				continue
			}
			if tag != "" {
				name = tag
			}
		}
		p.names = append(p.names, name)
		p.index = append(p.index, i)
	}
	plans.Store(t, p)
	return planOf(t)
}

// matchName returns the name of the node of nodes named name, exactly or
// else in any case.
func matchName(name string, nodes []*format.Node) (string, bool) {
	for _, n := range nodes {
		if n.Name() == name {
			return name, true
		}
	}
	for _, n := range nodes {
		if strings.EqualFold(n.Name(), name) {
			return n.Name(), true
		}
	}
	return "", false
}

var (
	bytesType   = reflect.TypeFor[[]byte]()
	groupType   = reflect.TypeFor[Group]()
	anyListType = reflect.TypeFor[[]any]()
	kvListType  = reflect.TypeFor[[]KeyValue]()
)

// checkType reports whether Go type t can hold the values of field fd.
func checkType(fd *field, t reflect.Type, path string) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() == reflect.Interface {
		return nil
	}
	bad := func(what string) error {
		return fmt.Errorf("%w: field %s of Go type %v cannot hold the schema's %s %q", ErrType, path, t, what, fd.name)
	}
	switch fd.kind {
	case kindLeaf:
		switch t.Kind() {
		case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
			reflect.Float32, reflect.Float64, reflect.String, reflect.Struct:
			return nil // a struct: a value type such as time.Time, checked when set
		case reflect.Slice, reflect.Array:
			if t.Elem().Kind() == reflect.Uint8 {
				return nil
			}
		}
		return bad("primitive field")
	case kindGroup:
		switch t.Kind() {
		case reflect.Struct:
			plan := planOf(t)
			for _, c := range fd.children {
				if i := plan.lookup(c.name); i >= 0 {
					sf := t.Field(plan.index[i])
					if err := checkType(c, sf.Type, path+"."+sf.Name); err != nil {
						return err
					}
				}
			}
			for i, name := range plan.names {
				found := false
				for _, c := range fd.children {
					found = found || strings.EqualFold(c.name, name)
				}
				if !found {
					return fmt.Errorf("%w: field %s.%s of %v: no field %q in group %q", ErrType, path, t.Field(plan.index[i]).Name, t, name, fd.name)
				}
			}
			return nil
		case reflect.Map:
			if t.Key().Kind() == reflect.String {
				return nil
			}
		}
		if t == groupType {
			return nil
		}
		return bad("group")
	case kindList:
		if t.Kind() == reflect.Slice {
			return checkType(fd.children[0], t.Elem(), path+"[]")
		}
		return bad("list")
	case kindMap:
		if t.Kind() == reflect.Map {
			if err := checkType(fd.children[0], t.Key(), path+".key"); err != nil {
				return err
			}
			if len(fd.children) > 1 && fd.children[1] != nil {
				return checkType(fd.children[1], t.Elem(), path+".value")
			}
			return nil
		}
		if t == kvListType {
			return nil
		}
		return bad("map")
	}
	return bad("field")
}

// setGroup sets struct or map dst from g.
func setGroup(dst reflect.Value, g Group, path string) error {
	switch dst.Kind() {
	case reflect.Struct:
		plan := planOf(dst.Type())
		for _, f := range g {
			if i := plan.lookup(f.Name); i >= 0 {
				if err := set(dst.Field(plan.index[i]), f.Value, join(path, dst.Type().Field(plan.index[i]).Name)); err != nil {
					return err
				}
			}
		}
		return nil
	case reflect.Map:
		m := reflect.MakeMapWithSize(dst.Type(), len(g))
		for _, f := range g {
			v := reflect.New(dst.Type().Elem()).Elem()
			if err := set(v, f.Value, join(path, f.Name)); err != nil {
				return err
			}
			m.SetMapIndex(reflect.ValueOf(f.Name).Convert(dst.Type().Key()), v)
		}
		dst.Set(m)
		return nil
	}
	return fmt.Errorf("%w: field %s: cannot store a group in %v", ErrType, path, dst.Type())
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// set stores value v, as ReadRow returns it, in dst.
func set(dst reflect.Value, v any, path string) error {
	if v == nil {
		dst.SetZero()
		return nil
	}
	t := dst.Type()
	switch t.Kind() {
	case reflect.Pointer:
		p := reflect.New(t.Elem())
		if err := set(p.Elem(), v, path); err != nil {
			return err
		}
		dst.Set(p)
		return nil
	case reflect.Interface:
		if rv := reflect.ValueOf(v); rv.Type().AssignableTo(t) {
			dst.Set(rv)
			return nil
		}
	}
	switch v := v.(type) {
	case Group:
		if t == groupType {
			dst.Set(reflect.ValueOf(v))
			return nil
		}
		return setGroup(dst, v, path)
	case []any:
		if t.Kind() != reflect.Slice || t == anyListType {
			break
		}
		s := reflect.MakeSlice(t, len(v), len(v))
		for i, e := range v {
			if err := set(s.Index(i), e, fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
		dst.Set(s)
		return nil
	case []KeyValue:
		if t.Kind() != reflect.Map {
			break
		}
		m := reflect.MakeMapWithSize(t, len(v))
		for _, kv := range v {
			k, e := reflect.New(t.Key()).Elem(), reflect.New(t.Elem()).Elem()
			if err := set(k, kv.Key, path+".key"); err != nil {
				return err
			}
			if err := set(e, kv.Value, path+".value"); err != nil {
				return err
			}
			m.SetMapIndex(k, e)
		}
		dst.Set(m)
		return nil
	}
	rv := reflect.ValueOf(v)
	if rv.Type().AssignableTo(t) {
		dst.Set(rv)
		return nil
	}
	if setScalar(dst, rv) {
		return nil
	}
	return fmt.Errorf("%w: field %s: cannot store %v of type %T in %v", ErrType, path, v, v, t)
}

// setScalar converts a number, string or byte value into dst when dst
// holds it exactly.
func setScalar(dst, rv reflect.Value) bool {
	t := dst.Type()
	switch {
	case isInt(rv.Kind()) && isInt(t.Kind()):
		i := rv.Int()
		if dst.OverflowInt(i) {
			return false
		}
		dst.SetInt(i)
	case isInt(rv.Kind()) && isUint(t.Kind()):
		i := rv.Int()
		if i < 0 || dst.OverflowUint(uint64(i)) {
			return false
		}
		dst.SetUint(uint64(i))
	case isUint(rv.Kind()) && isUint(t.Kind()):
		u := rv.Uint()
		if dst.OverflowUint(u) {
			return false
		}
		dst.SetUint(u)
	case isUint(rv.Kind()) && isInt(t.Kind()):
		u := rv.Uint()
		if u > 1<<63-1 || dst.OverflowInt(int64(u)) {
			return false
		}
		dst.SetInt(int64(u))
	case isFloat(rv.Kind()) && isFloat(t.Kind()):
		f := rv.Float()
		if t.Kind() == reflect.Float32 && float64(float32(f)) != f && f == f {
			return false
		}
		dst.SetFloat(f)
	case (isInt(rv.Kind()) || isUint(rv.Kind())) && isFloat(t.Kind()):
		var f float64
		if isInt(rv.Kind()) {
			f = float64(rv.Int())
			if int64(f) != rv.Int() {
				return false
			}
		} else {
			f = float64(rv.Uint())
			if f >= 1<<64 || uint64(f) != rv.Uint() {
				return false
			}
		}
		if t.Kind() == reflect.Float32 && float64(float32(f)) != f {
			return false
		}
		dst.SetFloat(f)
	case rv.Kind() == reflect.String && t.Kind() == reflect.String:
		dst.SetString(rv.String())
	case rv.Kind() == reflect.String && t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8:
		dst.SetBytes([]byte(rv.String()))
	case rv.Type() == bytesType && t.Kind() == reflect.String:
		dst.SetString(string(rv.Bytes()))
	case rv.Type() == bytesType && t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8:
		dst.SetBytes(rv.Bytes())
	case (rv.Type() == bytesType || rv.Kind() == reflect.Array && rv.Type().Elem().Kind() == reflect.Uint8) &&
		t.Kind() == reflect.Array && t.Elem().Kind() == reflect.Uint8:
		if rv.Len() != t.Len() {
			return false
		}
		reflect.Copy(dst, rv)
	case rv.Kind() == reflect.Bool && t.Kind() == reflect.Bool:
		dst.SetBool(rv.Bool())
	default:
		return false
	}
	return true
}

func isInt(k reflect.Kind) bool { return k >= reflect.Int && k <= reflect.Int64 }
func isUint(k reflect.Kind) bool {
	return k >= reflect.Uint && k <= reflect.Uintptr
}
func isFloat(k reflect.Kind) bool { return k == reflect.Float32 || k == reflect.Float64 }
