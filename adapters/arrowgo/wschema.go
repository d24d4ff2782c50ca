package arrowgo

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/apache/arrow-go/v18/parquet/schema"

	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/writer"
)

// writeSchema converts an Arrow schema to the Parquet schema pqarrow
// writes for it (pqarrow.ToParquet makes the choices: physical and logical
// types, the three-level lists, MAP groups, coerced time units), as a
// schema of package writer.
//
// Durations, which pqarrow.ToParquet refuses, are stored as arrow-cpp
// stores them: INT64 columns without a logical type, ARROW:schema naming
// the duration, which pqarrow's reader (and FileReader) honour.
func writeSchema(sc *arrow.Schema, props *parquet.WriterProperties, aprops pqarrow.ArrowWriterProperties) (*format.Schema, error) {
	fields := make([]arrow.Field, sc.NumFields())
	for i, f := range sc.Fields() {
		fields[i] = durationsAsInt64(f)
	}
	meta := sc.Metadata()
	ps, err := pqarrow.ToParquet(arrow.NewSchema(fields, &meta), props, aprops)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrUnsupported, err)
	}
	root := ps.Root()
	wfields := make([]writer.Field, root.NumFields())
	for i := range wfields {
		if wfields[i], err = writeField(root.Field(i)); err != nil {
			return nil, err
		}
	}
	s, err := writer.Message(root.Name(), wfields...)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrUnsupported, err)
	}
	return s, nil
}

func writeField(n schema.Node) (writer.Field, error) {
	rep := format.FieldRepetitionType(n.RepetitionType())
	var f writer.Field
	switch n := n.(type) {
	case *schema.GroupNode:
		children := make([]writer.Field, n.NumFields())
		for i := range children {
			c, err := writeField(n.Field(i))
			if err != nil {
				return f, err
			}
			children[i] = c
		}
		f = writer.Group(n.Name(), rep, children...)
	case *schema.PrimitiveNode:
		f = writer.Leaf(n.Name(), rep, format.Type(n.PhysicalType()))
		if n.PhysicalType() == parquet.Types.FixedLenByteArray {
			f = f.WithTypeLength(int32(n.TypeLength()))
		}
	default:
		return f, fmt.Errorf("%w: schema node %T", ErrUnsupported, n)
	}
	if lt := formatLogical(n.LogicalType()); lt != nil {
		f = f.WithLogicalType(lt)
	}
	if id := n.FieldID(); id >= 0 {
		f = f.WithFieldID(id)
	}
	return f, nil
}

func formatUnit(u schema.TimeUnitType) format.TimeUnit {
	switch u {
	case schema.TimeUnitMillis:
		return format.Millis
	case schema.TimeUnitMicros:
		return format.Micros
	}
	return format.Nanos
}

// formatLogical is the inverse of logicalType for the types pqarrow
// writes; nil for none.
func formatLogical(t schema.LogicalType) *format.LogicalType {
	switch t := t.(type) {
	case schema.StringLogicalType:
		return &format.LogicalType{Kind: format.LogicalString}
	case schema.MapLogicalType:
		return &format.LogicalType{Kind: format.LogicalMap}
	case *schema.ListLogicalType:
		return &format.LogicalType{Kind: format.LogicalList}
	case schema.ListLogicalType:
		return &format.LogicalType{Kind: format.LogicalList}
	case schema.EnumLogicalType:
		return &format.LogicalType{Kind: format.LogicalEnum}
	case *schema.DecimalLogicalType:
		return formatLogical(*t)
	case schema.DecimalLogicalType:
		return &format.LogicalType{Kind: format.LogicalDecimal, Precision: t.Precision(), Scale: t.Scale()}
	case schema.DateLogicalType:
		return &format.LogicalType{Kind: format.LogicalDate}
	case *schema.TimeLogicalType:
		return formatLogical(*t)
	case *schema.TimestampLogicalType:
		return formatLogical(*t)
	case *schema.IntLogicalType:
		return formatLogical(*t)
	case schema.TimeLogicalType:
		return &format.LogicalType{Kind: format.LogicalTime, IsAdjustedToUTC: t.IsAdjustedToUTC(), Unit: formatUnit(t.TimeUnit())}
	case schema.TimestampLogicalType:
		return &format.LogicalType{Kind: format.LogicalTimestamp, IsAdjustedToUTC: t.IsAdjustedToUTC(), Unit: formatUnit(t.TimeUnit())}
	case schema.IntLogicalType:
		return &format.LogicalType{Kind: format.LogicalInteger, BitWidth: int8(t.BitWidth()), IsSigned: t.IsSigned()}
	case schema.NullLogicalType:
		return &format.LogicalType{Kind: format.LogicalUnknown}
	case schema.JSONLogicalType:
		return &format.LogicalType{Kind: format.LogicalJSON}
	case schema.BSONLogicalType:
		return &format.LogicalType{Kind: format.LogicalBSON}
	case schema.UUIDLogicalType:
		return &format.LogicalType{Kind: format.LogicalUUID}
	case schema.Float16LogicalType:
		return &format.LogicalType{Kind: format.LogicalFloat16}
	}
	return nil
}

// normalizeListNames returns f with every list element named "element",
// the name of the Parquet column, as pqarrow stores ARROW:schema.
func normalizeListNames(f arrow.Field) arrow.Field {
	switch t := f.Type.(type) {
	case *arrow.ListType:
		e := normalizeListNames(t.ElemField())
		e.Name = "element"
		f.Type = arrow.ListOfField(e)
	case *arrow.LargeListType:
		e := normalizeListNames(t.ElemField())
		e.Name = "element"
		f.Type = arrow.LargeListOfField(e)
	case *arrow.FixedSizeListType:
		e := normalizeListNames(t.ElemField())
		e.Name = "element"
		f.Type = arrow.FixedSizeListOfField(t.Len(), e)
	case *arrow.MapType:
		f.Type = arrow.MapOfFields(normalizeListNames(t.KeyField()), normalizeListNames(t.ItemField()))
	case *arrow.StructType:
		fs := make([]arrow.Field, t.NumFields())
		for i := range fs {
			fs[i] = normalizeListNames(t.Field(i))
		}
		f.Type = arrow.StructOf(fs...)
	}
	return f
}

// durationsAsInt64 returns f with every duration, at any depth, an int64.
func durationsAsInt64(f arrow.Field) arrow.Field {
	switch t := f.Type.(type) {
	case *arrow.DurationType:
		f.Type = arrow.PrimitiveTypes.Int64
	case *arrow.ListType:
		f.Type = arrow.ListOfField(durationsAsInt64(t.ElemField()))
	case *arrow.LargeListType:
		f.Type = arrow.LargeListOfField(durationsAsInt64(t.ElemField()))
	case *arrow.FixedSizeListType:
		f.Type = arrow.FixedSizeListOfField(t.Len(), durationsAsInt64(t.ElemField()))
	case *arrow.MapType:
		m := arrow.MapOfFields(durationsAsInt64(t.KeyField()), durationsAsInt64(t.ItemField()))
		m.KeysSorted = t.KeysSorted
		f.Type = m
	case *arrow.StructType:
		fs := make([]arrow.Field, t.NumFields())
		for i := range fs {
			fs[i] = durationsAsInt64(t.Field(i))
		}
		f.Type = arrow.StructOf(fs...)
	}
	return f
}
