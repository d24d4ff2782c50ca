package arrowgo

import (
	"fmt"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/apache/arrow-go/v18/parquet/schema"

	"github.com/pqcodec/pqcodec/format"
)

// manifest derives the Arrow schema of a file the way pqarrow does, with
// pqarrow's own derivation (pqarrow.NewSchemaManifest): pqcodec's schema
// tree and key/value metadata are translated into arrow-go's parquet schema
// and metadata, so the stored ARROW:schema (time zones, large types,
// dictionaries, durations, decimal256, extension types) is honoured exactly
// as pqarrow honours it, and a file gives the same Arrow schema through both
// readers.
func manifest(md *format.FileMetaData, s *format.Schema, props *pqarrow.ArrowReadProperties) (*pqarrow.SchemaManifest, error) {
	sc, err := parquetSchema(s)
	if err != nil {
		return nil, err
	}
	kv := metadata.NewKeyValueMetadata()
	for _, e := range md.KeyValueMetadata {
		v := ""
		if e.Value != nil {
			v = *e.Value
		}
		if err := kv.Append(e.Key, v); err != nil {
			return nil, fmt.Errorf("arrowgo: key/value metadata: %w", err)
		}
	}
	if err := checkArrowSchema(md); err != nil {
		return nil, err
	}
	m, err := pqarrow.NewSchemaManifest(sc, kv, props)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrUnsupported, err)
	}
	return m, nil
}

// parquetSchema translates s into arrow-go's schema, node by node, as
// arrow-go's own footer reader builds it from the thrift elements: the
// logical type when present, else the converted type.
func parquetSchema(s *format.Schema) (sc *schema.Schema, err error) {
	// arrow-go's node constructors panic on a few invalid combinations
	// (a TIME unit it does not know); a hostile schema is an error here.
	defer func() {
		if r := recover(); r != nil {
			sc, err = nil, fmt.Errorf("%w: schema: %v", ErrUnsupported, r)
		}
	}()
	root := s.Root()
	fields, err := parquetFields(root)
	if err != nil {
		return nil, err
	}
	g, err := schema.NewGroupNode(root.Name(), parquet.Repetitions.Required, fields, -1)
	if err != nil {
		return nil, fmt.Errorf("%w: schema: %w", ErrUnsupported, err)
	}
	return schema.NewSchema(g), nil
}

func parquetFields(n *format.Node) (schema.FieldList, error) {
	out := make(schema.FieldList, 0, len(n.Children))
	for _, c := range n.Children {
		f, err := parquetNode(c)
		if err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, nil
}

func parquetNode(n *format.Node) (schema.Node, error) {
	e := n.Element
	id := int32(-1)
	if e.FieldID != nil {
		id = *e.FieldID
	}
	rep := parquet.Repetitions.Required
	if e.RepetitionType != nil {
		rep = parquet.Repetition(*e.RepetitionType)
	}
	var (
		node schema.Node
		err  error
	)
	if !n.Leaf() {
		fields, ferr := parquetFields(n)
		if ferr != nil {
			return nil, ferr
		}
		switch {
		case e.LogicalType != nil:
			node, err = schema.NewGroupNodeLogical(e.Name, rep, fields, logicalType(e.LogicalType), id)
		case e.ConvertedType != nil:
			node, err = schema.NewGroupNodeConverted(e.Name, rep, fields, schema.ConvertedType(*e.ConvertedType), id)
		default:
			node, err = schema.NewGroupNode(e.Name, rep, fields, id)
		}
	} else {
		typeLen := 0
		if e.TypeLength != nil {
			typeLen = int(*e.TypeLength)
		}
		phys := parquet.Type(*e.Type)
		switch {
		case e.LogicalType != nil:
			node, err = schema.NewPrimitiveNodeLogical(e.Name, rep, logicalType(e.LogicalType), phys, typeLen, id)
		case e.ConvertedType != nil:
			var precision, scale int
			if e.Precision != nil {
				precision = int(*e.Precision)
			}
			if e.Scale != nil {
				scale = int(*e.Scale)
			}
			node, err = schema.NewPrimitiveNodeConverted(e.Name, rep, phys, schema.ConvertedType(*e.ConvertedType), typeLen, precision, scale, id)
		default:
			node, err = schema.NewPrimitiveNodeLogical(e.Name, rep, schema.NoLogicalType{}, phys, typeLen, id)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("%w: schema node %q: %w", ErrUnsupported, e.Name, err)
	}
	return node, nil
}

func timeUnit(u format.TimeUnit) schema.TimeUnitType {
	switch u {
	case format.Millis:
		return schema.TimeUnitMillis
	case format.Micros:
		return schema.TimeUnitMicros
	case format.Nanos:
		return schema.TimeUnitNanos
	}
	panic(fmt.Sprintf("unknown time unit %d", u))
}

// logicalType is arrow-go's form of t. Members arrow-go does not know
// (vector, members unknown to pqcodec) read as no logical type: their values keep their physical type's Arrow type.
func logicalType(t *format.LogicalType) schema.LogicalType {
	switch t.Kind {
	case format.LogicalString:
		return schema.StringLogicalType{}
	case format.LogicalMap:
		return schema.MapLogicalType{}
	case format.LogicalList:
		return schema.NewListLogicalType()
	case format.LogicalEnum:
		return schema.EnumLogicalType{}
	case format.LogicalDecimal:
		return schema.NewDecimalLogicalType(t.Precision, t.Scale)
	case format.LogicalDate:
		return schema.DateLogicalType{}
	case format.LogicalTime:
		return schema.NewTimeLogicalType(t.IsAdjustedToUTC, timeUnit(t.Unit))
	case format.LogicalTimestamp:
		return schema.NewTimestampLogicalType(t.IsAdjustedToUTC, timeUnit(t.Unit))
	case format.LogicalInteger:
		return schema.NewIntLogicalType(t.BitWidth, t.IsSigned)
	case format.LogicalUnknown:
		return schema.NullLogicalType{}
	case format.LogicalJSON:
		return schema.JSONLogicalType{}
	case format.LogicalBSON:
		return schema.BSONLogicalType{}
	case format.LogicalUUID:
		return schema.UUIDLogicalType{}
	case format.LogicalFloat16:
		return schema.Float16LogicalType{}
	case format.LogicalVariant:
		return schema.VariantLogicalType{}
	case format.LogicalGeometry:
		g := schema.GeometryLogicalType{}
		if t.CRS != nil {
			g.Crs = *t.CRS
		}
		return g
	case format.LogicalGeography:
		g := schema.GeographyLogicalType{}
		if t.CRS != nil {
			g.Crs = *t.CRS
		}
		if t.Algorithm != nil {
			algs := [...]schema.GeographyEdgeInterpolationAlgorithm{schema.GeographyEdgeSpherical,
				schema.GeographyEdgeVincenty, schema.GeographyEdgeThomas, schema.GeographyEdgeAndoyer, schema.GeographyEdgeKarney}
			if a := int(*t.Algorithm); a >= 0 && a < len(algs) {
				g.Algorithm = algs[a]
			}
		}
		return g
	}
	return schema.NoLogicalType{}
}
