package writer

import (
	"fmt"
	"math"

	"github.com/pqcodec/pqcodec/format"
)

// Field is one node of a schema built in Go for [Message]: a leaf column
// (Leaf, String, Decimal) or a group (Group, List). Fields are values; the
// With methods return modified copies. format.ParseSchema builds the same
// schemas from parquet-java's message-type text.
type Field struct {
	elem     format.SchemaElement
	children []Field
}

// Leaf returns a leaf column of physical type t.
func Leaf(name string, rep format.FieldRepetitionType, t format.Type) Field {
	return Field{elem: format.SchemaElement{Name: name, RepetitionType: &rep, Type: &t}}
}

// String returns a BYTE_ARRAY leaf annotated STRING (converted type UTF8),
// as parquet-java writes strings.
func String(name string, rep format.FieldRepetitionType) Field {
	return Leaf(name, rep, format.ByteArray).WithLogicalType(&format.LogicalType{Kind: format.LogicalString})
}

// Decimal returns a FIXED_LEN_BYTE_ARRAY leaf of DECIMAL(precision, scale),
// in the fewest bytes that hold precision digits.
func Decimal(name string, rep format.FieldRepetitionType, precision, scale int32) Field {
	n := 1
	for math.Ldexp(1, 8*n-1) < pow10(precision) {
		n++
	}
	return Leaf(name, rep, format.FixedLenByteArray).WithTypeLength(int32(n)).
		WithLogicalType(&format.LogicalType{Kind: format.LogicalDecimal, Precision: precision, Scale: scale})
}

func pow10(n int32) float64 {
	x := 1.0
	for range n {
		x *= 10
	}
	return x
}

// Group returns a group of the given children.
func Group(name string, rep format.FieldRepetitionType, children ...Field) Field {
	return Field{elem: format.SchemaElement{Name: name, RepetitionType: &rep}, children: children}
}

// List returns a LIST of element in the three-level form the
// specification requires: a group name (LIST) holding a repeated group
// "list" holding element, renamed "element".
func List(name string, rep format.FieldRepetitionType, element Field) Field {
	element.elem.Name = "element"
	return Group(name, rep, Group("list", format.Repeated, element)).
		WithLogicalType(&format.LogicalType{Kind: format.LogicalList})
}

// WithLogicalType sets the field's logical type and the converted type
// parquet-java writes beside it (UTF8 for STRING, DECIMAL with its scale
// and precision, TIMESTAMP_MICROS for TIMESTAMP(MICROS, true), ...).
func (f Field) WithLogicalType(lt *format.LogicalType) Field {
	f.elem.LogicalType = lt
	f.elem.ConvertedType = nil
	ct, ok := convertedOf[lt.Kind]
	switch lt.Kind {
	case format.LogicalDecimal:
		ct, ok = format.ConvertedDecimal, true
		p, s := lt.Precision, lt.Scale
		f.elem.Precision, f.elem.Scale = &p, &s
	case format.LogicalTime, format.LogicalTimestamp:
		ok = lt.IsAdjustedToUTC && lt.Unit != format.Nanos
		ct = map[bool]map[format.TimeUnit]format.ConvertedType{
			false: {format.Millis: format.ConvertedTimeMillis, format.Micros: format.ConvertedTimeMicros},
			true:  {format.Millis: format.ConvertedTimestampMillis, format.Micros: format.ConvertedTimestampMicros},
		}[lt.Kind == format.LogicalTimestamp][lt.Unit]
	case format.LogicalInteger:
		ct, ok = map[int8]format.ConvertedType{8: format.ConvertedInt8, 16: format.ConvertedInt16,
			32: format.ConvertedInt32, 64: format.ConvertedInt64}[lt.BitWidth]
		if !lt.IsSigned {
			ct, ok = map[int8]format.ConvertedType{8: format.ConvertedUint8, 16: format.ConvertedUint16,
				32: format.ConvertedUint32, 64: format.ConvertedUint64}[lt.BitWidth]
		}
	}
	if ok {
		f.elem.ConvertedType = &ct
	}
	return f
}

// convertedOf is the converted type of the logical types that map to one
// without parameters.
var convertedOf = map[format.LogicalTypeKind]format.ConvertedType{
	format.LogicalString: format.ConvertedUTF8,
	format.LogicalMap:    format.ConvertedMap,
	format.LogicalList:   format.ConvertedList,
	format.LogicalEnum:   format.ConvertedEnum,
	format.LogicalDate:   format.ConvertedDate,
	format.LogicalJSON:   format.ConvertedJSON,
	format.LogicalBSON:   format.ConvertedBSON,
}

// WithTypeLength sets the length of a FIXED_LEN_BYTE_ARRAY leaf.
func (f Field) WithTypeLength(n int32) Field { f.elem.TypeLength = &n; return f }

// WithFieldID sets the field id.
func (f Field) WithFieldID(id int32) Field { f.elem.FieldID = &id; return f }

// Message returns the schema of a message of the given fields.
func Message(name string, fields ...Field) (*format.Schema, error) {
	elems := appendField(nil, Group(name, 0, fields...))
	elems[0].RepetitionType = nil
	s, err := format.NewSchema(elems)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrSchema, err)
	}
	return s, nil
}

func appendField(dst []format.SchemaElement, f Field) []format.SchemaElement {
	e := f.elem
	if e.Type == nil {
		n := int32(len(f.children))
		e.NumChildren = &n
	}
	dst = append(dst, e)
	for _, c := range f.children {
		dst = appendField(dst, c)
	}
	return dst
}
