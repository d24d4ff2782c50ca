package format

import (
	"strconv"
	"strings"
)

// String returns the schema as parquet-java's MessageType.toString prints
// it (the text `parquet-cli schema`, `parquet-tools schema` and Spark's
// logs show), for example:
//
//	message schema {
//	  required int64 id = 1;
//	  optional group tags (LIST) {
//	    repeated group list {
//	      optional binary element (STRING);
//	    }
//	  }
//	  optional fixed_len_byte_array(16) uuid (UUID);
//	  optional int64 ts (TIMESTAMP(MILLIS,true));
//	}
//
// The message is named after the root element. Each field shows its
// repetition in lowercase, "group" or its physical type in lowercase
// (INT96 as "int96", BYTE_ARRAY as "binary", a FIXED_LEN_BYTE_ARRAY with its
// length), its name, its annotation in parentheses and its field id after
// " = "; leaves end with ";". The annotation is [Annotation]'s. The text ends
// with a newline. A field without a repetition type prints as required, and
// a leaf whose type this package does not know prints that type numerically
// ("type(9)"), where parquet-java would refuse the schema.
func (s *Schema) String() string {
	var b strings.Builder
	root := s.root
	b.WriteString("message ")
	b.WriteString(root.Element.Name)
	if a := Annotation(root.Element); a != "" {
		b.WriteString(" (" + a + ")")
	}
	b.WriteString(" {\n")
	writeFields(&b, root, "  ")
	b.WriteString("}\n")
	return b.String()
}

// writeFields writes the children of n, one per line, at indent.
func writeFields(b *strings.Builder, n *Node, indent string) {
	for _, c := range n.Children {
		e := c.Element
		b.WriteString(indent)
		rep := Required
		if e.RepetitionType != nil {
			rep = *e.RepetitionType
		}
		b.WriteString(repetitionText(rep))
		if c.Leaf() {
			b.WriteString(" ")
			b.WriteString(typeText(e))
		} else {
			b.WriteString(" group")
		}
		b.WriteString(" ")
		b.WriteString(e.Name)
		if a := Annotation(e); a != "" {
			b.WriteString(" (" + a + ")")
		}
		if e.FieldID != nil {
			b.WriteString(" = " + strconv.Itoa(int(*e.FieldID)))
		}
		if c.Leaf() {
			b.WriteString(";\n")
			continue
		}
		b.WriteString(" {\n")
		writeFields(b, c, indent+"  ")
		b.WriteString(indent + "}\n")
	}
}

func repetitionText(r FieldRepetitionType) string {
	switch r {
	case Required:
		return "required"
	case Optional:
		return "optional"
	case Repeated:
		return "repeated"
	}
	return strings.ToLower(r.String())
}

// typeText returns the physical type of leaf element e as parquet-java
// names it.
func typeText(e *SchemaElement) string {
	switch *e.Type {
	case ByteArray:
		return "binary"
	case FixedLenByteArray:
		n := int32(0)
		if e.TypeLength != nil {
			n = *e.TypeLength
		}
		return "fixed_len_byte_array(" + strconv.Itoa(int(n)) + ")"
	}
	return strings.ToLower(e.Type.String())
}

// Annotation returns the logical type annotation of e as parquet-java
// prints it in a schema (LogicalTypeAnnotation.toString), without the
// parentheses around it: "STRING", "DECIMAL(9,2)" (precision, then scale),
// "TIMESTAMP(MILLIS,true)" (unit, then isAdjustedToUTC), "INTEGER(8,false)"
// (bit width, then signedness), "MAP_KEY_VALUE", "INTERVAL", or "" for an
// element without one.
//
// The annotation is parquet-java's reading of the element: the LogicalType
// when it is one parquet-java knows (a member it does not know, such as
// VECTOR, gives none), unless the element also has a ConvertedType that
// stands for something else, which then wins (a MAP_KEY_VALUE group with a
// MAP logical type prints MAP_KEY_VALUE). A ConvertedType alone is read as
// parquet-java reads it: TIME_MILLIS as TIME(MILLIS,true), UTF8 as STRING,
// INT_8 as INTEGER(8,true), DECIMAL with the element's precision and scale
// (0 when absent).
func Annotation(e *SchemaElement) string {
	var fromLogical string
	var logicalOriginal ConvertedType = -1
	if lt := e.LogicalType; lt != nil {
		fromLogical, logicalOriginal = logicalText(lt)
	}
	if e.ConvertedType != nil && *e.ConvertedType != logicalOriginal {
		if s := convertedText(e); s != "" {
			return s
		}
	}
	return fromLogical
}

// logicalText returns parquet-java's text of lt and the ConvertedType its
// toOriginalType gives (-1 for none).
func logicalText(lt *LogicalType) (string, ConvertedType) {
	none := ConvertedType(-1)
	switch lt.Kind {
	case LogicalString:
		return "STRING", ConvertedUTF8
	case LogicalMap:
		return "MAP", ConvertedMap
	case LogicalList:
		return "LIST", ConvertedList
	case LogicalEnum:
		return "ENUM", ConvertedEnum
	case LogicalDecimal:
		return "DECIMAL(" + strconv.Itoa(int(lt.Precision)) + "," + strconv.Itoa(int(lt.Scale)) + ")", ConvertedDecimal
	case LogicalDate:
		return "DATE", ConvertedDate
	case LogicalTime, LogicalTimestamp:
		s := lt.Kind.String() + "(" + lt.Unit.String() + "," + strconv.FormatBool(lt.IsAdjustedToUTC) + ")"
		orig := none
		switch {
		case lt.Kind == LogicalTime && lt.Unit == Millis:
			orig = ConvertedTimeMillis
		case lt.Kind == LogicalTime && lt.Unit == Micros:
			orig = ConvertedTimeMicros
		case lt.Kind == LogicalTimestamp && lt.Unit == Millis:
			orig = ConvertedTimestampMillis
		case lt.Kind == LogicalTimestamp && lt.Unit == Micros:
			orig = ConvertedTimestampMicros
		}
		return s, orig
	case LogicalInteger:
		s := "INTEGER(" + strconv.Itoa(int(lt.BitWidth)) + "," + strconv.FormatBool(lt.IsSigned) + ")"
		return s, integerConverted(lt.BitWidth, lt.IsSigned)
	case LogicalUnknown:
		return "UNKNOWN", none
	case LogicalJSON:
		return "JSON", ConvertedJSON
	case LogicalBSON:
		return "BSON", ConvertedBSON
	case LogicalUUID:
		return "UUID", none
	case LogicalFloat16:
		return "FLOAT16", none
	case LogicalVariant:
		return "VARIANT(" + strconv.Itoa(int(lt.SpecificationVersion)) + ")", none
	case LogicalGeometry:
		if lt.CRS == nil || *lt.CRS == "" {
			return "GEOMETRY", none
		}
		return "GEOMETRY(" + *lt.CRS + ")", none
	case LogicalGeography:
		hasCRS := lt.CRS != nil && *lt.CRS != ""
		if !hasCRS && lt.Algorithm == nil {
			return "GEOGRAPHY", none
		}
		crs, algo := "OGC:CRS84", Spherical.String()
		if hasCRS {
			crs = *lt.CRS
		}
		if lt.Algorithm != nil {
			algo = lt.Algorithm.String()
		}
		return "GEOGRAPHY(" + crs + "," + algo + ")", none
	}
	return "", none
}

// integerConverted returns the INT_n or UINT_n ConvertedType of an INTEGER
// logical type, or -1.
func integerConverted(bits int8, signed bool) ConvertedType {
	var c ConvertedType
	switch bits {
	case 8:
		c = ConvertedUint8
	case 16:
		c = ConvertedUint16
	case 32:
		c = ConvertedUint32
	case 64:
		c = ConvertedUint64
	default:
		return -1
	}
	if signed {
		c += ConvertedInt8 - ConvertedUint8
	}
	return c
}

// convertedText returns parquet-java's text of e's ConvertedType, or ""
// for values it does not know.
func convertedText(e *SchemaElement) string {
	switch c := *e.ConvertedType; c {
	case ConvertedUTF8:
		return "STRING"
	case ConvertedDecimal:
		var p, s int32
		if e.Precision != nil {
			p = *e.Precision
		}
		if e.Scale != nil {
			s = *e.Scale
		}
		return "DECIMAL(" + strconv.Itoa(int(p)) + "," + strconv.Itoa(int(s)) + ")"
	case ConvertedDate:
		return "DATE"
	case ConvertedTimeMillis:
		return "TIME(MILLIS,true)"
	case ConvertedTimeMicros:
		return "TIME(MICROS,true)"
	case ConvertedTimestampMillis:
		return "TIMESTAMP(MILLIS,true)"
	case ConvertedTimestampMicros:
		return "TIMESTAMP(MICROS,true)"
	case ConvertedUint8, ConvertedUint16, ConvertedUint32, ConvertedUint64:
		return "INTEGER(" + strconv.Itoa(8<<(c-ConvertedUint8)) + ",false)"
	case ConvertedInt8, ConvertedInt16, ConvertedInt32, ConvertedInt64:
		return "INTEGER(" + strconv.Itoa(8<<(c-ConvertedInt8)) + ",true)"
	case ConvertedMap, ConvertedMapKeyValue, ConvertedList, ConvertedEnum, ConvertedJSON, ConvertedBSON,
		ConvertedInterval:
		return c.String() // the thrift name
	}
	return ""
}
