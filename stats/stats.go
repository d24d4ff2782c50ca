package stats

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"strconv"

	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/internal/errs"
)

// ErrCorrupt is wrapped by the errors of [Column.Decode] and by
// [Stats.BadMinMax] for statistics whose values do not fit their column's
// type or order. It matches pqcodec.ErrCorrupt.
var ErrCorrupt = errs.Corrupt("stats: corrupt statistics")

// Order is the sort order of a column's values, which decides how min and
// max were computed.
type Order uint8

// Sort orders.
const (
	Undefined Order = iota // no usable min/max (INT96, INTERVAL, nested and newer types)
	Signed                 // numbers by value, DECIMAL byte arrays as two's complement
	Unsigned               // UINT by value, byte arrays by unsigned lexicographic order
)

func (o Order) String() string {
	switch o {
	case Signed:
		return "SIGNED"
	case Unsigned:
		return "UNSIGNED"
	}
	return "UNDEFINED"
}

// comparison is how two values of a column compare.
type comparison uint8

const (
	cmpNone comparison = iota
	cmpBool
	cmpInt      // INT32 or INT64, signed
	cmpUint     // INT32 or INT64, unsigned
	cmpFloat    // FLOAT or DOUBLE
	cmpFloat16  // FIXED_LEN_BYTE_ARRAY(2) FLOAT16
	cmpBytes    // unsigned lexicographic
	cmpDecimal  // big-endian two's complement of any length
	cmpTotal    // FLOAT, DOUBLE or FLOAT16 by IEEE 754 total order
	cmpTotal16  // FLOAT16 by IEEE 754 total order
	cmpOrderEnd // keep last
)

// Column describes how the statistics of one leaf column are read and
// compared. Build it with [NewColumn]; the zero Column has [Undefined]
// order and yields no min/max.
type Column struct {
	Type       format.Type
	TypeLength int
	Order      Order
	// ColumnOrder is the file's column order for this column; 0 when the
	// file has no column_orders.
	ColumnOrder        format.ColumnOrderKind
	MaxDefinitionLevel int
	cmp                comparison
	legacyBytesBroken  bool // PARQUET-251: byte-array statistics are wrong
	decimalFLBABroken  bool // PARQUET-1655: DECIMAL FLBA statistics are wrong
	plainInts          bool // integers without a scale or unit (see Bound)
}

// OrderOf returns the sort order of a primitive schema element.
func OrderOf(e *format.SchemaElement) Order {
	if e.Type == nil {
		return Undefined
	}
	if lt := e.LogicalType; lt != nil {
		switch lt.Kind {
		case format.LogicalString, format.LogicalEnum, format.LogicalJSON, format.LogicalBSON, format.LogicalUUID:
			return Unsigned
		case format.LogicalDecimal, format.LogicalDate, format.LogicalTime, format.LogicalTimestamp, format.LogicalFloat16:
			return Signed
		case format.LogicalInteger:
			if lt.IsSigned {
				return Signed
			}
			return Unsigned
		default:
			return Undefined
		}
	}
	if ct := e.ConvertedType; ct != nil {
		switch *ct {
		case format.ConvertedUTF8, format.ConvertedEnum, format.ConvertedJSON, format.ConvertedBSON,
			format.ConvertedUint8, format.ConvertedUint16, format.ConvertedUint32, format.ConvertedUint64:
			return Unsigned
		case format.ConvertedDecimal, format.ConvertedDate, format.ConvertedTimeMillis, format.ConvertedTimeMicros,
			format.ConvertedTimestampMillis, format.ConvertedTimestampMicros,
			format.ConvertedInt8, format.ConvertedInt16, format.ConvertedInt32, format.ConvertedInt64:
			return Signed
		default:
			return Undefined
		}
	}
	switch *e.Type {
	case format.Boolean, format.Int32, format.Int64, format.Float, format.Double:
		return Signed
	case format.ByteArray, format.FixedLenByteArray:
		return Unsigned
	}
	return Undefined
}

func isDecimal(e *format.SchemaElement) bool {
	if e.LogicalType != nil {
		return e.LogicalType.Kind == format.LogicalDecimal
	}
	return e.ConvertedType != nil && *e.ConvertedType == format.ConvertedDecimal
}

func isFloat16(e *format.SchemaElement) bool {
	return e.LogicalType != nil && e.LogicalType.Kind == format.LogicalFloat16 &&
		e.TypeLength != nil && *e.TypeLength == 2
}

// NewColumn describes leaf column leaf of the file whose footer is meta.
func NewColumn(meta *format.FileMetaData, leaf *format.Node) *Column {
	e := leaf.Element
	c := &Column{Order: OrderOf(e), MaxDefinitionLevel: leaf.MaxDefinitionLevel}
	if e.Type == nil {
		c.Order = Undefined
		return c
	}
	c.Type = *e.Type
	c.plainInts = plainIntegers(e)
	if e.TypeLength != nil {
		c.TypeLength = int(*e.TypeLength)
	}
	if leaf.ColumnIndex >= 0 && leaf.ColumnIndex < len(meta.ColumnOrders) {
		c.ColumnOrder = meta.ColumnOrders[leaf.ColumnIndex].Kind
	}
	float := c.Type == format.Float || c.Type == format.Double
	f16 := c.Type == format.FixedLenByteArray && isFloat16(e)
	switch {
	case c.Order == Undefined:
	case c.ColumnOrder == format.IEEE754TotalOrder && float:
		c.cmp = cmpTotal
	case c.ColumnOrder == format.IEEE754TotalOrder && f16:
		c.cmp = cmpTotal16
	case c.ColumnOrder != 0 && c.ColumnOrder != format.TypeDefinedOrder:
		c.Order = Undefined // an order this package does not know
	case c.Type == format.Boolean:
		c.cmp = cmpBool
	case c.Type == format.Int32 || c.Type == format.Int64:
		c.cmp = cmpInt
		if c.Order == Unsigned {
			c.cmp = cmpUint
		}
	case float:
		c.cmp = cmpFloat
	case f16:
		c.cmp = cmpFloat16
	case (c.Type == format.ByteArray || c.Type == format.FixedLenByteArray) && isDecimal(e):
		c.cmp = cmpDecimal
	case c.Type == format.ByteArray || c.Type == format.FixedLenByteArray:
		c.cmp = cmpBytes
	default:
		c.Order = Undefined
	}
	if c.cmp == cmpNone {
		c.Order = Undefined
	}
	var createdBy string
	if meta.CreatedBy != nil {
		createdBy = *meta.CreatedBy
	}
	app, v := format.WriterVersion(createdBy)
	bytesType := c.Type == format.ByteArray || c.Type == format.FixedLenByteArray
	c.legacyBytesBroken = bytesType && app == "parquet-mr" && less(v, [3]int{1, 8, 0})
	c.decimalFLBABroken = c.Type == format.FixedLenByteArray && isDecimal(e) &&
		(app == "parquet-cpp" || app == "parquet-cpp-arrow" && less(v, [3]int{4, 0, 0}))
	return c
}

func less(a, b [3]int) bool {
	for i := range a {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}

// Value is one typed statistics value. BOOLEAN, INT32, INT64, FLOAT and
// DOUBLE values are held inline; INT96, BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY
// values as bytes (aliasing their source). The zero Value is invalid.
type Value struct {
	typ   format.Type
	valid bool
	bits  uint64
	b     []byte
}

// BooleanValue, Int32Value, Int64Value, FloatValue, DoubleValue and
// BytesValue build values, for instance to compare with statistics.
func BooleanValue(v bool) Value {
	var b uint64
	if v {
		b = 1
	}
	return Value{typ: format.Boolean, valid: true, bits: b}
}

// Int32Value returns an INT32 value.
func Int32Value(v int32) Value { return Value{typ: format.Int32, valid: true, bits: uint64(int64(v))} }

// Int64Value returns an INT64 value.
func Int64Value(v int64) Value { return Value{typ: format.Int64, valid: true, bits: uint64(v)} }

// FloatValue returns a FLOAT value.
func FloatValue(v float32) Value {
	return Value{typ: format.Float, valid: true, bits: uint64(math.Float32bits(v))}
}

// DoubleValue returns a DOUBLE value.
func DoubleValue(v float64) Value {
	return Value{typ: format.Double, valid: true, bits: math.Float64bits(v)}
}

// BytesValue returns a BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY or INT96 value
// holding b (not copied).
func BytesValue(t format.Type, b []byte) Value { return Value{typ: t, valid: true, b: b} }

// Valid reports whether v holds a value.
func (v Value) Valid() bool { return v.valid }

// Type returns v's physical type.
func (v Value) Type() format.Type { return v.typ }

// Boolean returns a BOOLEAN value.
func (v Value) Boolean() bool { return v.bits != 0 }

// Int32 returns an INT32 value.
func (v Value) Int32() int32 { return int32(v.bits) }

// Int64 returns an INT64 value, or an INT32 value widened.
func (v Value) Int64() int64 {
	if v.typ == format.Int32 {
		return int64(int32(v.bits))
	}
	return int64(v.bits)
}

// Float32 returns a FLOAT value.
func (v Value) Float32() float32 { return math.Float32frombits(uint32(v.bits)) }

// Float64 returns a DOUBLE value, or a FLOAT value widened.
func (v Value) Float64() float64 {
	if v.typ == format.Float {
		return float64(v.Float32())
	}
	return math.Float64frombits(v.bits)
}

// Bytes returns the bytes of an INT96, BYTE_ARRAY or FIXED_LEN_BYTE_ARRAY
// value.
func (v Value) Bytes() []byte { return v.b }

// String formats v for humans: numbers in decimal, bytes quoted.
func (v Value) String() string {
	if !v.valid {
		return "<none>"
	}
	switch v.typ {
	case format.Boolean:
		return strconv.FormatBool(v.Boolean())
	case format.Int32, format.Int64:
		return strconv.FormatInt(v.Int64(), 10)
	case format.Float:
		return strconv.FormatFloat(v.Float64(), 'g', -1, 32)
	case format.Double:
		return strconv.FormatFloat(v.Float64(), 'g', -1, 64)
	}
	return strconv.Quote(string(v.b))
}

// Decode decodes one statistics value of c's type: PLAIN, except that a
// byte array has no length prefix.
func (c *Column) Decode(b []byte) (Value, error) {
	size := 0
	switch c.Type {
	case format.Boolean:
		size = 1
	case format.Int32, format.Float:
		size = 4
	case format.Int64, format.Double:
		size = 8
	case format.Int96:
		size = 12
	case format.FixedLenByteArray:
		size = -1 // checked below: truncated statistics may be shorter
	case format.ByteArray:
		return Value{typ: c.Type, valid: true, b: b}, nil
	default:
		return Value{}, fmt.Errorf("%w: physical type %v", ErrCorrupt, c.Type)
	}
	if size > 0 && len(b) != size {
		return Value{}, fmt.Errorf("%w: %v statistics value of %d bytes", ErrCorrupt, c.Type, len(b))
	}
	v := Value{typ: c.Type, valid: true}
	switch c.Type {
	case format.Boolean:
		if b[0] > 1 {
			return Value{}, fmt.Errorf("%w: BOOLEAN statistics value %d", ErrCorrupt, b[0])
		}
		v.bits = uint64(b[0])
	case format.Int32:
		v.bits = uint64(int64(int32(binary.LittleEndian.Uint32(b))))
	case format.Float:
		v.bits = uint64(binary.LittleEndian.Uint32(b))
	case format.Int64, format.Double:
		v.bits = binary.LittleEndian.Uint64(b)
	case format.FixedLenByteArray:
		if c.cmp == cmpFloat16 || c.cmp == cmpTotal16 || c.cmp == cmpDecimal {
			if len(b) != c.TypeLength {
				return Value{}, fmt.Errorf("%w: FIXED_LEN_BYTE_ARRAY(%d) statistics value of %d bytes", ErrCorrupt, c.TypeLength, len(b))
			}
		}
		v.b = b
	default:
		v.b = b
	}
	return v, nil
}

// Compare compares a and b, two values of c's type, in c's sort order: it
// returns -1, 0 or +1. Under TYPE_ORDER floating-point values compare by
// value (a NaN compares equal to everything, -0 equal to +0); under
// IEEE_754_TOTAL_ORDER by the total order. It returns 0 when c's order is
// Undefined.
func (c *Column) Compare(a, b Value) int {
	switch c.cmp {
	case cmpBool:
		return cmp3(a.bits, b.bits)
	case cmpInt:
		return cmp3(a.Int64(), b.Int64())
	case cmpUint:
		if c.Type == format.Int32 {
			return cmp3(uint32(a.bits), uint32(b.bits))
		}
		return cmp3(a.bits, b.bits)
	case cmpFloat:
		return cmp3(a.Float64(), b.Float64())
	case cmpFloat16:
		return cmp3(float64(Float16(a.b)), float64(Float16(b.b)))
	case cmpBytes:
		return bytes.Compare(a.b, b.b)
	case cmpDecimal:
		return compareDecimal(a.b, b.b)
	case cmpTotal:
		if c.Type == format.Float {
			return cmp3(totalKey32(uint32(a.bits)), totalKey32(uint32(b.bits)))
		}
		return cmp3(totalKey64(a.bits), totalKey64(b.bits))
	case cmpTotal16:
		return cmp3(totalKey16(a.b), totalKey16(b.b))
	}
	return 0
}

// cmp3 is a three-way comparison; a NaN compares equal to everything, as
// [Column.Compare] documents for TYPE_ORDER.
func cmp3[T int64 | uint64 | uint32 | uint16 | float64](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// totalKey maps IEEE 754 bits to an unsigned key with the total order.
func totalKey64(u uint64) uint64 {
	if u>>63 != 0 {
		return ^u
	}
	return u | 1<<63
}

func totalKey32(u uint32) uint32 {
	if u>>31 != 0 {
		return ^u
	}
	return u | 1<<31
}

func totalKey16(b []byte) uint16 {
	if len(b) != 2 {
		return 0
	}
	u := binary.LittleEndian.Uint16(b)
	if u>>15 != 0 {
		return ^u
	}
	return u | 1<<15
}

// Float16 converts the two little-endian bytes of a FLOAT16 value to a
// float32. It returns NaN when b is not 2 bytes long.
func Float16(b []byte) float32 {
	if len(b) != 2 {
		return float32(math.NaN())
	}
	h := binary.LittleEndian.Uint16(b)
	sign := uint32(h>>15) << 31
	exp := uint32(h>>10) & 0x1f
	frac := uint32(h) & 0x3ff
	switch {
	case exp == 0x1f: // Inf or NaN
		return math.Float32frombits(sign | 0xff<<23 | frac<<13)
	case exp == 0 && frac == 0:
		return math.Float32frombits(sign)
	case exp == 0: // subnormal: frac * 2^-24
		f := float32(frac) * (1.0 / (1 << 24))
		if sign != 0 {
			f = -f
		}
		return f
	}
	return math.Float32frombits(sign | (exp+127-15)<<23 | frac<<13)
}

// compareDecimal compares big-endian two's complement integers of any
// lengths (an empty one is 0).
func compareDecimal(a, b []byte) int {
	neg := func(x []byte) bool { return len(x) > 0 && x[0]&0x80 != 0 }
	na, nb := neg(a), neg(b)
	if na != nb {
		if na {
			return -1
		}
		return 1
	}
	// Same sign: sign-extend the shorter to the longer length, then compare
	// bytes unsigned (two's complement of equal length orders like unsigned
	// within one sign).
	ext := byte(0)
	if na {
		ext = 0xff
	}
	n := max(len(a), len(b))
	for i := range n {
		x, y := ext, ext
		if j := i - (n - len(a)); j >= 0 {
			x = a[j]
		}
		if j := i - (n - len(b)); j >= 0 {
			y = b[j]
		}
		if x != y {
			if x < y {
				return -1
			}
			return 1
		}
	}
	return 0
}

// Stats are the typed statistics of a column chunk or page. Min and Max
// are valid only when HasMinMax; they bound every non-null value (a
// truncated byte-array bound still does, inexactly: see MinExact).
type Stats struct {
	Min, Max  Value
	HasMinMax bool
	// MinExact and MaxExact report whether Min and Max are values of the
	// column rather than bounds (false when the writer truncated them or
	// did not say).
	MinExact, MaxExact bool

	NullCount     int64
	HasNullCount  bool
	DistinctCount int64
	HasDistinct   bool
	NaNCount      int64
	HasNaNCount   bool

	// AllNull reports a page that holds only nulls (a ColumnIndex null
	// page of a nullable column).
	AllNull bool

	// BadMinMax, when not nil, says why the min and max the file holds
	// were not used: a value of the wrong size for the column's type, or a
	// min above the max in the column's order (parquet-go v0.32 orders
	// DECIMAL FIXED_LEN_BYTE_ARRAY statistics as unsigned bytes, not as
	// the signed integers the specification asks for). It wraps
	// [ErrCorrupt]. HasMinMax is then false, so such statistics never
	// prune, and reading the column is not affected.
	BadMinMax error
}

// Chunk returns the typed form of s, the statistics of a column chunk of c
// (ColumnMetaData.statistics) or of a page header. s may be nil. A min or
// max that cannot be trusted is left out and reported in
// [Stats.BadMinMax]; the counts are kept.
func (c *Column) Chunk(s *format.Statistics) Stats {
	var out Stats
	if s == nil {
		return out
	}
	if s.HasNullCount && s.NullCount >= 0 {
		out.NullCount, out.HasNullCount = s.NullCount, true
	}
	if s.HasDistinctCount && s.DistinctCount >= 0 {
		out.DistinctCount, out.HasDistinct = s.DistinctCount, true
	}
	if s.HasNaNCount && s.NaNCount >= 0 {
		out.NaNCount, out.HasNaNCount = s.NaNCount, true
	}
	if c.Order == Undefined || c.decimalFLBABroken {
		return out
	}
	lo, hi, exact := s.MinValue, s.MaxValue, true
	if lo == nil || hi == nil {
		// The deprecated fields, in signed order.
		if c.Order != Signed || c.Type == format.ByteArray || c.Type == format.FixedLenByteArray || c.legacyBytesBroken {
			return out
		}
		if c.cmp == cmpTotal || c.cmp == cmpTotal16 {
			return out
		}
		lo, hi, exact = s.Min, s.Max, false
		if lo == nil || hi == nil {
			return out
		}
	}
	if err := c.setMinMax(&out, lo, hi); err != nil {
		out.BadMinMax = err
		return out
	}
	if exact {
		out.MinExact = s.HasIsMinExact && s.IsMinValueExact
		out.MaxExact = s.HasIsMaxExact && s.IsMaxValueExact
	}
	return out
}

// setMinMax decodes lo and hi into out, applying the NaN and signed-zero
// rules. It leaves out unchanged and returns an error wrapping ErrCorrupt
// when either value does not decode or lo is above hi.
func (c *Column) setMinMax(out *Stats, lo, hi []byte) error {
	mn, err := c.Decode(lo)
	if err != nil {
		return fmt.Errorf("min: %w", err)
	}
	mx, err := c.Decode(hi)
	if err != nil {
		return fmt.Errorf("max: %w", err)
	}
	switch c.cmp {
	case cmpFloat:
		a, b := mn.Float64(), mx.Float64()
		if math.IsNaN(a) || math.IsNaN(b) {
			return nil
		}
		if a == 0 && !math.Signbit(a) {
			mn = c.zero(true)
		}
		if b == 0 && math.Signbit(b) {
			mx = c.zero(false)
		}
	case cmpFloat16:
		a, b := Float16(mn.b), Float16(mx.b)
		if a != a || b != b {
			return nil
		}
		if a == 0 && !math.Signbit(float64(a)) {
			mn = Value{typ: c.Type, valid: true, b: []byte{0x00, 0x80}}
		}
		if b == 0 && math.Signbit(float64(b)) {
			mx = Value{typ: c.Type, valid: true, b: []byte{0x00, 0x00}}
		}
	}
	if c.Compare(mn, mx) > 0 {
		return fmt.Errorf("%w: min %v above max %v", ErrCorrupt, mn, mx)
	}
	out.Min, out.Max, out.HasMinMax = mn, mx, true
	return nil
}

// zero returns -0 (negative) or +0 of c's floating-point type.
func (c *Column) zero(negative bool) Value {
	z := 0.0
	if negative {
		z = math.Copysign(0, -1)
	}
	if c.Type == format.Float {
		return FloatValue(float32(z))
	}
	return DoubleValue(z)
}

// Pages returns the typed statistics of each data page from the column
// index ci of a chunk of c, appended to dst. A null page of a nullable
// column is AllNull with no min/max; a null page of a required column
// (parquet-mr 1.13 writes such pages, with null count -1, when it has no
// statistics) has neither. Negative null counts mean unknown. A page whose
// min or max cannot be trusted has no min/max and says why in
// [Stats.BadMinMax], as in [Column.Chunk].
func (c *Column) Pages(dst []Stats, ci *format.ColumnIndex) []Stats {
	for p := range ci.NumPages() {
		var s Stats
		if ci.NullCounts != nil && ci.NullCounts[p] >= 0 {
			s.NullCount, s.HasNullCount = ci.NullCounts[p], true
		}
		switch {
		case ci.NullPages[p]:
			s.AllNull = c.MaxDefinitionLevel > 0 && (!s.HasNullCount || s.NullCount > 0)
		case c.Order != Undefined && !c.decimalFLBABroken:
			if err := c.setMinMax(&s, ci.MinValues[p], ci.MaxValues[p]); err != nil {
				s.BadMinMax = fmt.Errorf("page %d: %w", p, err)
			}
		}
		dst = append(dst, s)
	}
	return dst
}

// MayContain reports whether the values that s describes may include one
// in [lo, hi] in c's order; an invalid lo or hi leaves that side
// unbounded. It is false for an AllNull page and when s's [Min, Max] does
// not meet [lo, hi], and true whenever s has no min/max (NaN values, which
// may lie outside [Min, Max], never match a range in TYPE_ORDER). Bounds
// are converted as [Column.Bound] converts them; a bound that does not fit
// c makes it true (nothing can be pruned by it): check bounds with Bound
// first to get the error.
func (c *Column) MayContain(s Stats, lo, hi Value) bool {
	if s.AllNull {
		return false
	}
	if !s.HasMinMax || c.Order == Undefined {
		return true
	}
	var err1, err2 error
	if lo, err1 = c.Bound(lo); err1 != nil {
		return true
	}
	if hi, err2 = c.Bound(hi); err2 != nil {
		return true
	}
	if hi.valid && c.Compare(s.Min, hi) > 0 {
		return false
	}
	if lo.valid && c.Compare(s.Max, lo) < 0 {
		return false
	}
	return true
}
