package merge

import (
	"fmt"
	"strings"

	"github.com/pqcodec/pqcodec/format"
)

// SchemaError reports two inputs whose schemas differ: the first field (in
// schema order) at which they do, and how.
type SchemaError struct {
	First, Second string // names of the inputs
	Field         string // dotted path of the field; "" for the root
	Detail        string // what differs, "INT32 vs INT64"
}

func (e *SchemaError) Error() string {
	f := e.Field
	if f == "" {
		f = "(root)"
	}
	return fmt.Sprintf("%v: %s and %s differ at field %s: %s", ErrSchemaMismatch, e.First, e.Second, f, e.Detail)
}

// Unwrap returns [ErrSchemaMismatch].
func (e *SchemaError) Unwrap() error { return ErrSchemaMismatch }

// compareSchemas returns nil when a and b are the same schema (the root's
// name aside), and otherwise a *SchemaError naming the first field that
// differs, found by walking both trees depth first.
func compareSchemas(nameA string, a *format.Schema, nameB string, b *format.Schema) error {
	var walk func(x, y *format.Node) error
	walk = func(x, y *format.Node) error {
		path := strings.Join(x.Path(), ".")
		fail := func(format string, args ...any) error {
			return &SchemaError{First: nameA, Second: nameB, Field: path, Detail: fmt.Sprintf(format, args...)}
		}
		if x.Parent != nil {
			if dx, dy := describe(x.Element), describe(y.Element); dx != dy {
				return fail("%s vs %s", dx, dy)
			}
		}
		for i := range max(len(x.Children), len(y.Children)) {
			switch {
			case i >= len(x.Children):
				path = strings.Join(y.Children[i].Path(), ".")
				return fail("missing in the first, %s in the second", describe(y.Children[i].Element))
			case i >= len(y.Children):
				path = strings.Join(x.Children[i].Path(), ".")
				return fail("%s in the first, missing in the second", describe(x.Children[i].Element))
			case x.Children[i].Name() != y.Children[i].Name():
				path = strings.Join(x.Children[i].Path(), ".")
				return fail("field %q in the first where the second has %q", x.Children[i].Name(), y.Children[i].Name())
			}
			if err := walk(x.Children[i], y.Children[i]); err != nil {
				return err
			}
		}
		return nil
	}
	return walk(a.Root(), b.Root())
}

// describe is what must match of a schema element besides its name and
// children: "optional INT32 (DATE)", "required FIXED_LEN_BYTE_ARRAY(16)
// (UUID) id=3".
func describe(e *format.SchemaElement) string {
	var s strings.Builder
	if e.RepetitionType != nil {
		s.WriteString(strings.ToLower(e.RepetitionType.String()))
	}
	if e.Type != nil {
		fmt.Fprintf(&s, " %v", *e.Type)
		if *e.Type == format.FixedLenByteArray && e.TypeLength != nil {
			fmt.Fprintf(&s, "(%d)", *e.TypeLength)
		}
	} else {
		s.WriteString(" group")
	}
	if a := format.Annotation(e); a != "" {
		fmt.Fprintf(&s, " (%s)", a)
	}
	if e.FieldID != nil {
		fmt.Fprintf(&s, " id=%d", *e.FieldID)
	}
	return s.String()
}
