package format

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/pqcodec/pqcodec/internal/errs"
)

// ErrSyntax is wrapped by the errors of [ParseSchema] for text that is not a
// message type. It matches pqcodec.ErrInvalidInput.
var ErrSyntax = errs.Invalid("format: invalid message type")

// ParseSchema parses a schema from the message-type text that parquet-java
// prints (MessageType.toString) and parses (MessageTypeParser):
//
//	message m {
//	  required int64 id = 1;
//	  optional binary name (STRING);
//	  optional group tags (LIST) {
//	    repeated group list {
//	      optional binary element (UTF8);
//	    }
//	  }
//	  optional int64 ts (TIMESTAMP(MICROS,true));
//	  required fixed_len_byte_array(16) amount (DECIMAL(38,9));
//	}
//
// Annotations are the logical types as parquet-java prints them (STRING,
// ENUM, JSON, BSON, UUID, DATE, FLOAT16, LIST, MAP, VARIANT, UNKNOWN,
// DECIMAL(p,s), TIME(unit,adjusted), TIMESTAMP(unit,adjusted),
// INTEGER(bits,signed)) or the legacy converted types (UTF8, MAP_KEY_VALUE,
// INT_8 .. UINT_64, TIME_MILLIS, TIMESTAMP_MICROS, INTERVAL, ...). Each sets
// both the logical type and the converted type that parquet-java writes for
// it. "= N" sets the field id. Keywords are case-insensitive. Errors wrap
// [ErrSyntax] (and [ErrCorrupt] for a tree NewSchema rejects).
func ParseSchema(text string) (*Schema, error) {
	p := &schemaParser{toks: tokenize(text)}
	elems, err := p.message()
	if err != nil {
		return nil, err
	}
	return NewSchema(elems)
}

type schemaParser struct {
	toks  []string
	pos   int
	elems []SchemaElement
	depth int
}

func tokenize(s string) []string {
	var toks []string
	start := -1
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case ' ', '\t', '\n', '\r', '{', '}', '(', ')', ';', ',', '=':
			if start >= 0 {
				toks = append(toks, s[start:i])
				start = -1
			}
			if c > ' ' {
				toks = append(toks, s[i:i+1])
			}
		default:
			if start < 0 {
				start = i
			}
		}
	}
	if start >= 0 {
		toks = append(toks, s[start:])
	}
	return toks
}

func (p *schemaParser) errorf(format string, args ...any) error {
	return fmt.Errorf("%w: token %d: %s", ErrSyntax, p.pos, fmt.Sprintf(format, args...))
}

func (p *schemaParser) next() (string, error) {
	if p.pos >= len(p.toks) {
		return "", fmt.Errorf("%w: unexpected end of text", ErrSyntax)
	}
	p.pos++
	return p.toks[p.pos-1], nil
}

func (p *schemaParser) peek() string {
	if p.pos >= len(p.toks) {
		return ""
	}
	return p.toks[p.pos]
}

func (p *schemaParser) expect(tok string) error {
	t, err := p.next()
	if err != nil {
		return err
	}
	if t != tok {
		return p.errorf("%q where %q was expected", t, tok)
	}
	return nil
}

func (p *schemaParser) message() ([]SchemaElement, error) {
	t, err := p.next()
	if err != nil {
		return nil, err
	}
	if !strings.EqualFold(t, "message") {
		return nil, p.errorf("%q where \"message\" was expected", t)
	}
	name, err := p.next()
	if err != nil {
		return nil, err
	}
	if name == "{" { // an empty root name
		name = ""
		p.pos--
	}
	p.elems = append(p.elems, SchemaElement{Name: name})
	if err := p.children(0); err != nil {
		return nil, err
	}
	if p.peek() == ";" {
		p.pos++
	}
	if p.pos != len(p.toks) {
		return nil, p.errorf("%q after the message", p.peek())
	}
	return p.elems, nil
}

// children parses "{ field* }" into the children of element parent.
func (p *schemaParser) children(parent int) error {
	if p.depth++; p.depth > MaxSchemaDepth {
		return p.errorf("nesting deeper than %d", MaxSchemaDepth)
	}
	defer func() { p.depth-- }()
	if err := p.expect("{"); err != nil {
		return err
	}
	n := int32(0)
	for p.peek() != "}" {
		if err := p.field(); err != nil {
			return err
		}
		n++
	}
	p.pos++
	p.elems[parent].NumChildren = &n
	return nil
}

var primitiveTypes = map[string]Type{
	"boolean": Boolean, "int32": Int32, "int64": Int64, "int96": Int96, "float": Float,
	"double": Double, "binary": ByteArray, "fixed_len_byte_array": FixedLenByteArray,
}

func (p *schemaParser) field() error {
	t, err := p.next()
	if err != nil {
		return err
	}
	var rep FieldRepetitionType
	switch strings.ToLower(t) {
	case "required":
		rep = Required
	case "optional":
		rep = Optional
	case "repeated":
		rep = Repeated
	default:
		return p.errorf("%q where a repetition (required, optional, repeated) was expected", t)
	}
	kind, err := p.next()
	if err != nil {
		return err
	}
	e := SchemaElement{RepetitionType: &rep}
	group := strings.EqualFold(kind, "group")
	if !group {
		typ, ok := primitiveTypes[strings.ToLower(kind)]
		if !ok {
			return p.errorf("unknown type %q", kind)
		}
		e.Type = &typ
		if typ == FixedLenByteArray {
			if err := p.expect("("); err != nil {
				return err
			}
			n, err := p.int32()
			if err != nil {
				return err
			}
			if err := p.expect(")"); err != nil {
				return err
			}
			e.TypeLength = &n
		}
	}
	if e.Name, err = p.next(); err != nil {
		return err
	}
	if isDelim(e.Name) {
		return p.errorf("%q where a name was expected", e.Name)
	}
	if p.peek() == "(" {
		p.pos++
		if err := p.annotation(&e); err != nil {
			return err
		}
		if err := p.expect(")"); err != nil {
			return err
		}
	}
	if p.peek() == "=" {
		p.pos++
		id, err := p.int32()
		if err != nil {
			return err
		}
		e.FieldID = &id
	}
	p.elems = append(p.elems, e)
	if group {
		return p.children(len(p.elems) - 1)
	}
	return p.expect(";")
}

func isDelim(t string) bool { return len(t) == 1 && strings.Contains("{}();,=", t) }

func (p *schemaParser) int32() (int32, error) {
	t, err := p.next()
	if err != nil {
		return 0, err
	}
	n, err := strconv.ParseInt(t, 10, 32)
	if err != nil {
		return 0, p.errorf("%q is not a 32-bit integer", t)
	}
	return int32(n), nil
}

// args parses "(a,b,...)" after an annotation name, if present.
func (p *schemaParser) args() ([]string, error) {
	if p.peek() != "(" {
		return nil, nil
	}
	p.pos++
	var out []string
	for {
		t, err := p.next()
		if err != nil {
			return nil, err
		}
		if t == ")" && len(out) == 0 {
			return out, nil
		}
		out = append(out, t)
		if t, err = p.next(); err != nil {
			return nil, err
		}
		if t == ")" {
			return out, nil
		}
		if t != "," {
			return nil, p.errorf("%q in annotation arguments", t)
		}
	}
}

var simpleConverted = map[string]ConvertedType{
	"MAP_KEY_VALUE": ConvertedMapKeyValue, "INTERVAL": ConvertedInterval,
}

var intConverted = map[string]struct {
	bits   int8
	signed bool
	ct     ConvertedType
}{
	"INT_8": {8, true, ConvertedInt8}, "INT_16": {16, true, ConvertedInt16}, "INT_32": {32, true, ConvertedInt32},
	"INT_64": {64, true, ConvertedInt64}, "UINT_8": {8, false, ConvertedUint8}, "UINT_16": {16, false, ConvertedUint16},
	"UINT_32": {32, false, ConvertedUint32}, "UINT_64": {64, false, ConvertedUint64},
}

func newPtr[T any](v T) *T { return &v }

func timeUnit(s string) (TimeUnit, bool) {
	switch strings.ToUpper(s) {
	case "MILLIS":
		return Millis, true
	case "MICROS":
		return Micros, true
	case "NANOS":
		return Nanos, true
	}
	return 0, false
}

// annotation parses a logical or converted type annotation into e.
func (p *schemaParser) annotation(e *SchemaElement) error {
	name, err := p.next()
	if err != nil {
		return err
	}
	args, err := p.args()
	if err != nil {
		return err
	}
	up := strings.ToUpper(name)
	nargs := func(n int) error {
		if len(args) != n {
			return p.errorf("%s takes %d arguments, has %d", up, n, len(args))
		}
		return nil
	}
	simple := map[string]struct {
		k  LogicalTypeKind
		ct *ConvertedType
	}{
		"STRING": {LogicalString, newPtr(ConvertedUTF8)}, "UTF8": {LogicalString, newPtr(ConvertedUTF8)},
		"MAP": {LogicalMap, newPtr(ConvertedMap)}, "LIST": {LogicalList, newPtr(ConvertedList)},
		"ENUM": {LogicalEnum, newPtr(ConvertedEnum)}, "DATE": {LogicalDate, newPtr(ConvertedDate)},
		"JSON": {LogicalJSON, newPtr(ConvertedJSON)}, "BSON": {LogicalBSON, newPtr(ConvertedBSON)},
		"UUID": {LogicalUUID, nil}, "FLOAT16": {LogicalFloat16, nil}, "UNKNOWN": {LogicalUnknown, nil},
	}
	if s, ok := simple[up]; ok {
		if err := nargs(0); err != nil {
			return err
		}
		e.LogicalType, e.ConvertedType = &LogicalType{Kind: s.k}, s.ct
		return nil
	}
	if ct, ok := simpleConverted[up]; ok {
		if err := nargs(0); err != nil {
			return err
		}
		e.ConvertedType = &ct
		return nil
	}
	if ic, ok := intConverted[up]; ok {
		if err := nargs(0); err != nil {
			return err
		}
		e.LogicalType = &LogicalType{Kind: LogicalInteger, BitWidth: ic.bits, IsSigned: ic.signed}
		e.ConvertedType = newPtr(ic.ct)
		return nil
	}
	switch up {
	case "TIME_MILLIS", "TIME_MICROS", "TIMESTAMP_MILLIS", "TIMESTAMP_MICROS":
		if err := nargs(0); err != nil {
			return err
		}
		lt := &LogicalType{Kind: LogicalTime, IsAdjustedToUTC: true, Unit: Millis}
		if strings.HasPrefix(up, "TIMESTAMP") {
			lt.Kind = LogicalTimestamp
		}
		if strings.HasSuffix(up, "MICROS") {
			lt.Unit = Micros
		}
		e.LogicalType = lt
		e.ConvertedType = newPtr(map[string]ConvertedType{"TIME_MILLIS": ConvertedTimeMillis, "TIME_MICROS": ConvertedTimeMicros,
			"TIMESTAMP_MILLIS": ConvertedTimestampMillis, "TIMESTAMP_MICROS": ConvertedTimestampMicros}[up])
		return nil
	case "DECIMAL":
		if err := nargs(2); err != nil {
			return err
		}
		prec, err1 := strconv.ParseInt(args[0], 10, 32)
		scale, err2 := strconv.ParseInt(args[1], 10, 32)
		if err1 != nil || err2 != nil {
			return p.errorf("DECIMAL(%s,%s)", args[0], args[1])
		}
		e.LogicalType = &LogicalType{Kind: LogicalDecimal, Precision: int32(prec), Scale: int32(scale)}
		e.ConvertedType, e.Precision, e.Scale = newPtr(ConvertedDecimal), newPtr(int32(prec)), newPtr(int32(scale))
		return nil
	case "TIME", "TIMESTAMP":
		if err := nargs(2); err != nil {
			return err
		}
		unit, ok := timeUnit(args[0])
		adj, err := strconv.ParseBool(args[1])
		if !ok || err != nil {
			return p.errorf("%s(%s,%s)", up, args[0], args[1])
		}
		lt := &LogicalType{Kind: LogicalTime, Unit: unit, IsAdjustedToUTC: adj}
		if up == "TIMESTAMP" {
			lt.Kind = LogicalTimestamp
		}
		e.LogicalType = lt
		if adj && unit != Nanos {
			ct := map[bool]map[TimeUnit]ConvertedType{
				false: {Millis: ConvertedTimeMillis, Micros: ConvertedTimeMicros},
				true:  {Millis: ConvertedTimestampMillis, Micros: ConvertedTimestampMicros},
			}[up == "TIMESTAMP"][unit]
			e.ConvertedType = &ct
		}
		return nil
	case "INTEGER":
		if err := nargs(2); err != nil {
			return err
		}
		bits, err1 := strconv.Atoi(args[0])
		signed, err2 := strconv.ParseBool(args[1])
		ic, ok := intConverted[fmt.Sprintf("%sINT_%d", map[bool]string{true: "", false: "U"}[signed], bits)]
		if err1 != nil || err2 != nil || !ok {
			return p.errorf("INTEGER(%s,%s)", args[0], args[1])
		}
		e.LogicalType = &LogicalType{Kind: LogicalInteger, BitWidth: int8(bits), IsSigned: signed}
		e.ConvertedType = newPtr(ic.ct)
		return nil
	case "VARIANT":
		lt := &LogicalType{Kind: LogicalVariant}
		if len(args) == 1 {
			v, err := strconv.ParseInt(args[0], 10, 8)
			if err != nil {
				return p.errorf("VARIANT(%s)", args[0])
			}
			lt.SpecificationVersion, lt.HasSpecificationVersion = int8(v), true
		} else if err := nargs(0); err != nil {
			return err
		}
		e.LogicalType = lt
		return nil
	case "GEOMETRY":
		lt := &LogicalType{Kind: LogicalGeometry}
		if len(args) == 1 {
			lt.CRS = &args[0]
		} else if err := nargs(0); err != nil {
			return err
		}
		e.LogicalType = lt
		return nil
	case "GEOGRAPHY":
		// GEOGRAPHY or GEOGRAPHY(crs,algorithm), as Schema.String prints it.
		lt := &LogicalType{Kind: LogicalGeography}
		if len(args) == 2 {
			lt.CRS = &args[0]
			algo, ok := edgeAlgorithms[strings.ToUpper(args[1])]
			if !ok {
				return p.errorf("GEOGRAPHY edge interpolation %q", args[1])
			}
			lt.Algorithm = &algo
		} else if err := nargs(0); err != nil {
			return err
		}
		e.LogicalType = lt
		return nil
	}
	return p.errorf("unknown annotation %q", name)
}

// edgeAlgorithms maps the names EdgeInterpolationAlgorithm.String gives to
// their values.
var edgeAlgorithms = map[string]EdgeInterpolationAlgorithm{
	Spherical.String(): Spherical, Vincenty.String(): Vincenty, Thomas.String(): Thomas,
	Andoyer.String(): Andoyer, Karney.String(): Karney,
}
