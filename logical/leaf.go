package logical

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"strconv"

	"github.com/pqcodec/pqcodec/format"
)

// Kind is what the values of a leaf column stand for, as [LeafOf] reads its
// schema element.
type Kind uint8

// Kinds of leaf columns. KindPhysical is every column whose annotation (if any)
// changes nothing or does not fit its physical type: its values stay as
// they are (KindPhysical).
const (
	KindPhysical  Kind = iota
	KindString         // BYTE_ARRAY annotated STRING, ENUM or JSON (UTF8, ENUM, JSON)
	KindDate           // INT32 annotated DATE
	KindTime           // INT32 (MILLIS) or INT64 (MICROS, NANOS) annotated TIME
	KindTimestamp      // INT64 annotated TIMESTAMP
	KindInt96          // INT96: a timestamp in nanoseconds, not adjusted to UTC
	KindDecimal        // INT32, INT64, BYTE_ARRAY or FIXED_LEN_BYTE_ARRAY annotated DECIMAL
	KindUUID           // FIXED_LEN_BYTE_ARRAY(16) annotated UUID
	KindInterval       // FIXED_LEN_BYTE_ARRAY(12) annotated INTERVAL
	KindFloat16        // FIXED_LEN_BYTE_ARRAY(2) annotated FLOAT16
	KindInteger        // INT32 or INT64 annotated INTEGER (INT_8 ... UINT_64)
)

var kindNames = [...]string{"Physical", "String", "Date", "Time", "Timestamp", "Int96", "Decimal", "UUID",
	"Interval", "Float16", "Integer"}

// String returns the name of k.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// Leaf says how the values of one leaf column convert to what they stand
// for. The zero Leaf (KindPhysical) converts nothing. Leaf is a small value,
// safe to copy and to use concurrently.
type Leaf struct {
	Kind Kind
	Type format.Type // the physical type
	// Unit and UTC are those of KindTime and KindTimestamp (KindInt96 has Nanos and
	// false: INT96 carries no zone, and DuckDB and arrow-cpp read it as a
	// timestamp without one).
	Unit format.TimeUnit
	UTC  bool
	// Precision and Scale are those of KindDecimal.
	Precision, Scale int32
	// BitWidth and Signed are those of KindInteger.
	BitWidth int8
	Signed   bool
}

// LeafOf returns the conversion of the values of leaf element e, from its
// logical type or, without one, its converted type. An annotation that does
// not fit the physical type (TIMESTAMP on an INT32, UUID on 8 bytes, an
// unknown time unit) gives KindPhysical, so that the value is still shown as
// it is stored.
func LeafOf(e *format.SchemaElement) Leaf {
	if e.Type == nil {
		return Leaf{}
	}
	l := Leaf{Type: *e.Type}
	length := int32(-1)
	if e.TypeLength != nil {
		length = *e.TypeLength
	}
	switch {
	case l.Type == format.Int96:
		return Leaf{Kind: KindInt96, Type: l.Type, Unit: format.Nanos}
	case isText(e):
		l.Kind = KindString
	case IsDate(e):
		l.Kind = KindDate
	}
	if info, ok := TimeOf(e); ok {
		l.Unit, l.UTC = info.Unit, info.IsAdjustedToUTC
		l.Kind = KindTime
		if info.Kind == format.LogicalTimestamp {
			l.Kind = KindTimestamp
		}
	}
	if info, ok := DecimalOf(e); ok {
		l.Kind, l.Precision, l.Scale = KindDecimal, info.Precision, info.Scale
	}
	if bits, signed, ok := IntegerOf(e); ok {
		l.Kind, l.BitWidth, l.Signed = KindInteger, bits, signed
	}
	if lt := e.LogicalType; lt != nil {
		switch lt.Kind {
		case format.LogicalUUID:
			l.Kind = KindUUID
		case format.LogicalFloat16:
			l.Kind = KindFloat16
		}
	}
	if e.ConvertedType != nil && *e.ConvertedType == format.ConvertedInterval {
		l.Kind = KindInterval
	}
	ok := false
	switch l.Kind {
	case KindString:
		ok = l.Type == format.ByteArray
	case KindDate:
		ok = l.Type == format.Int32
	case KindTime:
		ok = l.Unit == format.Millis && l.Type == format.Int32 ||
			(l.Unit == format.Micros || l.Unit == format.Nanos) && l.Type == format.Int64
	case KindTimestamp:
		ok = l.Type == format.Int64 && (l.Unit == format.Millis || l.Unit == format.Micros || l.Unit == format.Nanos)
	case KindDecimal:
		ok = l.Type == format.Int32 || l.Type == format.Int64 || l.Type == format.ByteArray ||
			l.Type == format.FixedLenByteArray
	case KindUUID:
		ok = l.Type == format.FixedLenByteArray && length == 16
	case KindInterval:
		ok = l.Type == format.FixedLenByteArray && length == 12
	case KindFloat16:
		ok = l.Type == format.FixedLenByteArray && length == 2
	case KindInteger:
		ok = l.Type == format.Int32 && l.BitWidth <= 32 && l.BitWidth > 0 || l.Type == format.Int64 && l.BitWidth == 64
	}
	if !ok {
		return Leaf{Type: l.Type}
	}
	return l
}

// isText reports whether e is annotated STRING, ENUM or JSON.
func isText(e *format.SchemaElement) bool {
	if lt := e.LogicalType; lt != nil {
		return lt.Kind == format.LogicalString || lt.Kind == format.LogicalEnum || lt.Kind == format.LogicalJSON
	}
	if e.ConvertedType != nil {
		switch *e.ConvertedType {
		case format.ConvertedUTF8, format.ConvertedEnum, format.ConvertedJSON:
			return true
		}
	}
	return false
}

// IsDate reports whether e is annotated DATE (logical or converted type).
func IsDate(e *format.SchemaElement) bool {
	if lt := e.LogicalType; lt != nil {
		return lt.Kind == format.LogicalDate
	}
	return e.ConvertedType != nil && *e.ConvertedType == format.ConvertedDate
}

// IntegerOf returns the bit width and signedness of an element annotated
// INTEGER, or INT_8 ... UINT_64; ok is false for other elements.
func IntegerOf(e *format.SchemaElement) (bitWidth int8, signed, ok bool) {
	if lt := e.LogicalType; lt != nil {
		if lt.Kind != format.LogicalInteger {
			return 0, false, false
		}
		return lt.BitWidth, lt.IsSigned, true
	}
	if e.ConvertedType == nil {
		return 0, false, false
	}
	switch c := *e.ConvertedType; c {
	case format.ConvertedInt8, format.ConvertedInt16, format.ConvertedInt32, format.ConvertedInt64:
		return 8 << (c - format.ConvertedInt8), true, true
	case format.ConvertedUint8, format.ConvertedUint16, format.ConvertedUint32, format.ConvertedUint64:
		return 8 << (c - format.ConvertedUint8), false, true
	}
	return 0, false, false
}

// Value converts v, a physical value of l's column as [column.Values.Value]
// gives it (bool, int32, int64, [12]byte, float32, float64 or []byte; a
// string is taken for a []byte of a KindString column), to the Go value it
// stands for:
//
//	KindString     string
//	KindDate       time.Time, midnight UTC of the day
//	KindTime       time.Duration since midnight
//	KindTimestamp  time.Time in UTC (a timestamp not adjusted to UTC holds
//	               its wall-clock time as if it were UTC)
//	KindInt96      time.Time in UTC, the same way
//	KindDecimal    Decimal
//	KindUUID       UUID
//	KindInterval   Interval
//	KindFloat16    float32
//	KindInteger    int8, int16, int32, int64, uint8, uint16, uint32 or
//	               uint64 after its bit width and signedness
//	KindPhysical   v itself
//
// A value of another Go type than the column's physical type is an error
// wrapping [ErrType]. Byte slices in the result do not alias v.
func (l Leaf) Value(v any) (any, error) {
	bad := func() (any, error) {
		return nil, fmt.Errorf("%w: %T for a %v column of %v", ErrType, v, l.Kind, l.Type)
	}
	switch l.Kind {
	case KindPhysical:
		return v, nil
	case KindString:
		switch x := v.(type) {
		case []byte:
			return string(x), nil
		case string:
			return x, nil
		}
	case KindDate:
		if x, ok := v.(int32); ok {
			return Date(x), nil
		}
	case KindTime:
		switch x := v.(type) {
		case int32:
			return TimeOfDay(int64(x), l.Unit)
		case int64:
			return TimeOfDay(x, l.Unit)
		}
	case KindTimestamp:
		if x, ok := v.(int64); ok {
			return Timestamp(x, l.Unit)
		}
	case KindInt96:
		if x, ok := v.([12]byte); ok {
			return Int96Time(x), nil
		}
	case KindDecimal:
		switch x := v.(type) {
		case int32:
			return Decimal{Unscaled: big.NewInt(int64(x)), Scale: l.Scale}, nil
		case int64:
			return Decimal{Unscaled: big.NewInt(x), Scale: l.Scale}, nil
		case []byte:
			return Decimal{Unscaled: DecimalBigInt(nil, x), Scale: l.Scale}, nil
		}
	case KindUUID:
		if b, ok := v.([]byte); ok && len(b) == 16 {
			return UUID(b), nil
		}
	case KindInterval:
		if b, ok := v.([]byte); ok && len(b) == 12 {
			return IntervalOf(b), nil
		}
	case KindFloat16:
		if b, ok := v.([]byte); ok && len(b) == 2 {
			return Float16Of(b), nil
		}
	case KindInteger:
		switch x := v.(type) {
		case int32:
			return l.integer32(x), nil
		case int64:
			if l.Signed {
				return x, nil
			}
			return uint64(x), nil
		}
	}
	return bad()
}

// integer32 returns x as the Go integer of l's width and signedness.
func (l Leaf) integer32(x int32) any {
	switch {
	case l.Signed && l.BitWidth == 8:
		return int8(x)
	case l.Signed && l.BitWidth == 16:
		return int16(x)
	case l.Signed:
		return x
	case l.BitWidth == 8:
		return uint8(x)
	case l.BitWidth == 16:
		return uint16(x)
	}
	return uint32(x)
}

// UUID is the value of a UUID column, in the byte order of the file (RFC
// 9562 order: the 8-4-4-4-12 text reads the bytes in order).
type UUID [16]byte

// String formats u as 8-4-4-4-12 lowercase hexadecimal digits.
func (u UUID) String() string { return string(AppendUUID(nil, u[:])) }

// AppendUUID appends the 16 bytes b as 8-4-4-4-12 lowercase hexadecimal
// digits. It panics when len(b) is not 16.
func AppendUUID(dst, b []byte) []byte {
	_ = b[15]
	for i, c := range b[:16] {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			dst = append(dst, '-')
		}
		dst = append(dst, hexDigits[c>>4], hexDigits[c&15])
	}
	return dst
}

const hexDigits = "0123456789abcdef"

// Interval is the value of an INTERVAL column: three little-endian
// unsigned 32-bit counts of months, days and milliseconds.
type Interval struct {
	Months, Days, Millis uint32
}

// IntervalOf decodes the 12 bytes of an INTERVAL value. It panics when
// len(b) < 12.
func IntervalOf(b []byte) Interval {
	_ = b[11]
	return Interval{binary.LittleEndian.Uint32(b), binary.LittleEndian.Uint32(b[4:]), binary.LittleEndian.Uint32(b[8:])}
}

// String formats iv as DuckDB prints an INTERVAL: years and months
// ("1 year 2 months"), days ("3 days"), then the milliseconds as a time of
// day HH:MM:SS with the fraction's trailing zeros dropped ("00:00:01.5";
// hours may pass 24), leaving out the parts that are zero; the zero
// interval is "00:00:00".
func (iv Interval) String() string { return string(AppendInterval(nil, iv)) }

// AppendInterval appends iv formatted as [Interval.String] does.
func AppendInterval(dst []byte, iv Interval) []byte {
	start := len(dst)
	part := func(n uint32, unit string) {
		if n == 0 {
			return
		}
		if len(dst) > start {
			dst = append(dst, ' ')
		}
		dst = strconv.AppendUint(dst, uint64(n), 10)
		dst = append(dst, ' ')
		dst = append(dst, unit...)
		if n != 1 {
			dst = append(dst, 's')
		}
	}
	part(iv.Months/12, "year")
	part(iv.Months%12, "month")
	part(iv.Days, "day")
	if iv.Millis != 0 || len(dst) == start {
		if len(dst) > start {
			dst = append(dst, ' ')
		}
		ms := uint64(iv.Millis)
		h, m, s := ms/3600000, ms/60000%60, ms/1000%60
		if h < 10 {
			dst = append(dst, '0')
		}
		dst = strconv.AppendUint(dst, h, 10)
		dst = append(dst, ':', byte('0'+m/10), byte('0'+m%10), ':', byte('0'+s/10), byte('0'+s%10))
		dst = appendFraction(dst, ms%1000, 3, true)
	}
	return dst
}

// appendFraction appends "." and frac as digits decimal digits, dropping
// trailing zeros when trim is set (and then nothing for 0).
func appendFraction(dst []byte, frac uint64, digits int, trim bool) []byte {
	if trim {
		if frac == 0 {
			return dst
		}
		for frac%10 == 0 {
			frac /= 10
			digits--
		}
	}
	if digits == 0 {
		return dst
	}
	dst = append(dst, '.')
	n := len(dst)
	for range digits {
		dst = append(dst, '0')
	}
	for i := len(dst) - 1; i >= n; i-- {
		dst[i] = byte('0' + frac%10)
		frac /= 10
	}
	return dst
}

// Float16Of decodes an IEEE 754 binary16 value stored little-endian in
// b[0:2] (FLOAT16). Every half value is exact as a float32. It panics
// when len(b) < 2.
func Float16Of(b []byte) float32 {
	h := uint32(binary.LittleEndian.Uint16(b))
	sign := h >> 15 << 31
	exp := h >> 10 & 0x1f
	frac := h & 0x3ff
	switch {
	case exp == 0x1f: // infinity or NaN
		return math.Float32frombits(sign | 0xff<<23 | frac<<13)
	case exp != 0:
		return math.Float32frombits(sign | (exp+127-15)<<23 | frac<<13)
	}
	// Zero or subnormal: frac × 2^-24.
	f := float32(frac) * (1.0 / (1 << 24))
	if sign != 0 {
		f = -f
	}
	return f
}

// unitDigits returns the fraction digits of a second in unit u.
func unitDigits(u format.TimeUnit) int {
	n, _ := unitNanos(u) // 0 for an unknown unit: 9 digits
	digits := 9
	for ; n > 1; n /= 10 {
		digits--
	}
	return digits
}

// AppendDate appends the DATE days (since 1970-01-01) as YYYY-MM-DD in the
// proleptic Gregorian calendar. Years outside 0000-9999 (which RFC 3339
// cannot write) take ISO 8601's expanded form: a sign and at least four
// digits ("+10000-01-01", "-0001-12-31", where year 0 is 1 BC).
func AppendDate(dst []byte, days int32) []byte {
	return appendCivil(dst, int64(days))
}

// appendCivil appends the date of day d (days since 1970-01-01).
func appendCivil(dst []byte, d int64) []byte {
	// The civil-from-days conversion of Howard Hinnant's "chrono-compatible
	// low-level date algorithms" (public domain), on 400-year eras.
	z := d + 719468
	era := z / 146097
	if z < 0 && z%146097 != 0 {
		era--
	}
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	y := yoe + era*400
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	day := doy - (153*mp+2)/5 + 1
	month := mp + 3
	if mp >= 10 {
		month = mp - 9
	}
	if month <= 2 {
		y++
	}
	switch {
	case y < 0:
		dst = append(dst, '-')
		dst = appendPadded(dst, uint64(-y), 4)
	case y > 9999:
		dst = append(dst, '+')
		dst = strconv.AppendInt(dst, y, 10)
	default:
		dst = appendPadded(dst, uint64(y), 4)
	}
	return append(dst, '-', byte('0'+month/10), byte('0'+month%10), '-', byte('0'+day/10), byte('0'+day%10))
}

// appendPadded appends v with at least n digits.
func appendPadded(dst []byte, v uint64, n int) []byte {
	var buf [20]byte
	s := strconv.AppendUint(buf[:0], v, 10)
	for i := len(s); i < n; i++ {
		dst = append(dst, '0')
	}
	return append(dst, s...)
}

// appendClock appends HH:MM:SS and the fraction of a second in unit u
// (all its digits) for nanos nanoseconds into the day (0 <= nanos < 24h).
func appendClock(dst []byte, nanos int64, u format.TimeUnit) []byte {
	sec := nanos / 1e9
	h, m, s := sec/3600, sec/60%60, sec%60
	dst = append(dst, byte('0'+h/10), byte('0'+h%10), ':', byte('0'+m/10), byte('0'+m%10), ':',
		byte('0'+s/10), byte('0'+s%10))
	digits := unitDigits(u)
	frac := uint64(nanos % 1e9)
	for range 9 - digits {
		frac /= 10
	}
	return appendFraction(dst, frac, digits, false)
}

// AppendTimestamp appends the TIMESTAMP v (units u since the Unix epoch)
// in RFC 3339 form, "2024-01-02T03:04:05.123Z": as many fraction digits
// as the unit has (3, 6 or 9), a "Z" when the timestamp is adjusted to UTC
// and no zone when it is not (a wall-clock time). Dates outside years
// 0000-9999 are written as [AppendDate] does. An unknown unit is an error
// wrapping [ErrType].
func AppendTimestamp(dst []byte, v int64, u format.TimeUnit, utc bool) ([]byte, error) {
	n, err := unitNanos(u)
	if err != nil {
		return dst, err
	}
	perDay := 86400 * (1e9 / n)
	day, rem := v/perDay, v%perDay
	if rem < 0 {
		day, rem = day-1, rem+perDay
	}
	return appendDateTime(dst, day, rem*n, u, utc), nil
}

func appendDateTime(dst []byte, day, nanos int64, u format.TimeUnit, utc bool) []byte {
	dst = appendCivil(dst, day)
	dst = append(dst, 'T')
	dst = appendClock(dst, nanos, u)
	if utc {
		dst = append(dst, 'Z')
	}
	return dst
}

// AppendInt96 appends the INT96 timestamp v as [AppendTimestamp] writes a
// TIMESTAMP(NANOS) not adjusted to UTC ("2009-01-01T00:01:00.000000000"),
// the way DuckDB and arrow-cpp read INT96: as a timestamp without a zone.
// Nanoseconds outside the day move the date, as in [Int96Time].
func AppendInt96(dst []byte, v [12]byte) []byte {
	nanos := int64(binary.LittleEndian.Uint64(v[:8]))
	day := int64(binary.LittleEndian.Uint32(v[8:])) - julianUnixEpoch
	const perDay = 86400 * 1e9
	day += nanos / perDay
	nanos %= perDay
	if nanos < 0 {
		day, nanos = day-1, nanos+perDay
	}
	return appendDateTime(dst, day, nanos, format.Nanos, false)
}

// AppendTime appends the TIME v (units u since midnight) as HH:MM:SS with
// the unit's fraction digits, and a "Z" when it is adjusted to UTC. A value
// outside the day (negative, or 24:00:00 and more) is written as a signed
// count of the unit instead, since no clock shows it. An unknown unit is an
// error wrapping [ErrType].
func AppendTime(dst []byte, v int64, u format.TimeUnit, utc bool) ([]byte, error) {
	n, err := unitNanos(u)
	if err != nil {
		return dst, err
	}
	if v < 0 || v >= 86400*(1e9/n) {
		return strconv.AppendInt(dst, v, 10), nil
	}
	dst = appendClock(dst, v*n, u)
	if utc {
		dst = append(dst, 'Z')
	}
	return dst, nil
}

// AppendDecimal appends unscaled × 10^-scale in plain decimal notation, as
// [Decimal.String] does, without allocating.
func AppendDecimal(dst []byte, unscaled int64, scale int32) []byte {
	u := uint64(unscaled)
	if unscaled < 0 {
		u = -u
	}
	var buf [20]byte
	return appendScaled(dst, unscaled < 0, strconv.AppendUint(buf[:0], u, 10), scale)
}

// AppendDecimalBytes appends the DECIMAL stored in b (big-endian two's
// complement, as in a BYTE_ARRAY or FIXED_LEN_BYTE_ARRAY; empty is 0) at
// scale in plain decimal notation, as [Decimal.String] does. Values that
// fit in 128 bits (DECIMAL(38) and below) are formatted without
// allocating.
func AppendDecimalBytes(dst, b []byte, scale int32) []byte {
	// Drop redundant sign bytes.
	for len(b) > 1 && (b[0] == 0 && b[1]&0x80 == 0 || b[0] == 0xff && b[1]&0x80 != 0) {
		b = b[1:]
	}
	if len(b) > 16 {
		return append(dst, Decimal{Unscaled: DecimalBigInt(nil, b), Scale: scale}.String()...)
	}
	var hi, lo uint64
	if len(b) > 0 && b[0]&0x80 != 0 {
		hi, lo = ^uint64(0), ^uint64(0)
	}
	for _, c := range b {
		hi = hi<<8 | lo>>56
		lo = lo<<8 | uint64(c)
	}
	neg := hi>>63 != 0
	if neg {
		lo, hi = -lo, ^hi
		if lo == 0 {
			hi++
		}
	}
	// Digits from the right, 19 at a time while the high word is set.
	var buf [40]byte
	i := len(buf)
	for hi != 0 {
		var r uint64
		hi, r = hi/1e19, hi%1e19
		lo, r = bits.Div64(r, lo, 1e19)
		for range 19 {
			i--
			buf[i] = byte('0' + r%10)
			r /= 10
		}
	}
	var lbuf [20]byte
	digits := strconv.AppendUint(lbuf[:0], lo, 10)
	if i < len(buf) {
		// lo holds the leading digits of a longer number.
		i -= len(digits)
		copy(buf[i:], digits)
		digits = buf[i:]
	}
	return appendScaled(dst, neg, digits, scale)
}

// appendScaled appends the magnitude digits (no leading zeros, "0" for
// zero) with a decimal point scale digits from the right, and a minus sign
// when neg.
func appendScaled(dst []byte, neg bool, digits []byte, scale int32) []byte {
	if neg {
		dst = append(dst, '-')
	}
	if scale <= 0 {
		dst = append(dst, digits...)
		if scale < 0 && !(len(digits) == 1 && digits[0] == '0') {
			for range -scale {
				dst = append(dst, '0')
			}
		}
		return dst
	}
	if len(digits) <= int(scale) {
		dst = append(dst, '0', '.')
		for i := len(digits); i < int(scale); i++ {
			dst = append(dst, '0')
		}
		return append(dst, digits...)
	}
	cut := len(digits) - int(scale)
	dst = append(dst, digits[:cut]...)
	dst = append(dst, '.')
	return append(dst, digits[cut:]...)
}

// AppendText appends the text of v, a physical value of l's column as
// [Leaf.Value] takes it, in the forms `pqcodec cat` prints (without JSON's
// quotes): [AppendDate], [AppendTime], [AppendTimestamp], [AppendInt96],
// [AppendDecimal], [AppendUUID], [AppendInterval], FLOAT16 and floats as
// the shortest decimal that reads back as the same float32 or float64
// (NaN, Infinity and -Infinity as those words),
// unsigned integers unsigned, strings as they are, and the bytes of a
// KindPhysical byte array (or of a value too short for its kind, such as a
// truncated statistics bound) as lowercase hexadecimal digits. Errors are
// those of [Leaf.Value].
func (l Leaf) AppendText(dst []byte, v any) ([]byte, error) {
	if b, ok := v.([]byte); ok {
		short := l.Kind == KindUUID && len(b) != 16 || l.Kind == KindInterval && len(b) != 12 ||
			l.Kind == KindFloat16 && len(b) != 2
		if l.Kind == KindPhysical || short {
			for _, c := range b {
				dst = append(dst, hexDigits[c>>4], hexDigits[c&15])
			}
			return dst, nil
		}
	}
	switch x := v.(type) {
	case bool:
		return strconv.AppendBool(dst, x), nil
	case float32:
		return appendFloat(dst, float64(x), 32), nil
	case float64:
		return appendFloat(dst, x, 64), nil
	}
	var err error
	switch l.Kind {
	case KindPhysical:
		switch x := v.(type) {
		case int32:
			return strconv.AppendInt(dst, int64(x), 10), nil
		case int64:
			return strconv.AppendInt(dst, x, 10), nil
		case [12]byte:
			for _, c := range x {
				dst = append(dst, hexDigits[c>>4], hexDigits[c&15])
			}
			return dst, nil
		}
	case KindDate:
		if x, ok := v.(int32); ok {
			return AppendDate(dst, x), nil
		}
	case KindTime:
		switch x := v.(type) {
		case int32:
			return AppendTime(dst, int64(x), l.Unit, l.UTC)
		case int64:
			return AppendTime(dst, x, l.Unit, l.UTC)
		}
	case KindTimestamp:
		if x, ok := v.(int64); ok {
			return AppendTimestamp(dst, x, l.Unit, l.UTC)
		}
	case KindInt96:
		if x, ok := v.([12]byte); ok {
			return AppendInt96(dst, x), nil
		}
	case KindDecimal:
		switch x := v.(type) {
		case int32:
			return AppendDecimal(dst, int64(x), l.Scale), nil
		case int64:
			return AppendDecimal(dst, x, l.Scale), nil
		case []byte:
			return AppendDecimalBytes(dst, x, l.Scale), nil
		}
	case KindUUID:
		if x, ok := v.([]byte); ok {
			return AppendUUID(dst, x), nil
		}
	case KindInterval:
		if x, ok := v.([]byte); ok {
			return AppendInterval(dst, IntervalOf(x)), nil
		}
	case KindFloat16:
		if x, ok := v.([]byte); ok {
			return appendFloat(dst, float64(Float16Of(x)), 32), nil
		}
	case KindString:
		switch x := v.(type) {
		case []byte:
			return append(dst, x...), nil
		case string:
			return append(dst, x...), nil
		}
	case KindInteger:
		var y any
		if y, err = l.Value(v); err != nil {
			return dst, err
		}
		return fmt.Append(dst, y), nil
	}
	_, err = l.Value(v)
	if err == nil {
		err = fmt.Errorf("%w: %T for a %v column of %v", ErrType, v, l.Kind, l.Type)
	}
	return dst, err
}

// appendFloat appends f as the shortest decimal that reads back as the same
// float of bitSize bits, and NaN, Infinity, -Infinity as words (the strings
// cat prints for them).
func appendFloat(dst []byte, f float64, bitSize int) []byte {
	switch {
	case math.IsNaN(f):
		return append(dst, "NaN"...)
	case math.IsInf(f, 1):
		return append(dst, "Infinity"...)
	case math.IsInf(f, -1):
		return append(dst, "-Infinity"...)
	}
	return strconv.AppendFloat(dst, f, 'g', -1, bitSize)
}
