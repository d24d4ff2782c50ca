package rows

import (
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/internal/unsafecast"
	"github.com/pqcodec/pqcodec/logical"
)

// leafConv says how Go and JSON values convert to the physical values of
// one column: the inverse of Reader's conversions.
type leafConv struct {
	typ        format.Type
	typeLength int
	lg         logical.Leaf // the column's logical type, for Go values
	jlg        logical.Leaf // for JSON: physical but for strings under WithRawJSON
}

func newLeafConv(n *format.Node, raw bool) leafConv {
	c := leafConv{typ: *n.Element.Type, lg: logical.LeafOf(n.Element)}
	if n.Element.TypeLength != nil {
		c.typeLength = int(*n.Element.TypeLength)
	}
	c.jlg = c.lg
	if raw && c.lg.Kind != logical.KindString {
		c.jlg = logical.Leaf{Kind: logical.KindPhysical, Type: c.typ}
	}
	return c
}

// julianUnixEpoch is the Julian day of 1970-01-01, the day INT96 counts
// from.
const julianUnixEpoch = 2440588

// value appends v, a Go value (fromJSON false) or a leaf decoded by
// encoding/json with UseNumber.
func (l *wleaf) value(v any, fromJSON bool) error {
	c := &l.conv
	if fromJSON {
		switch x := v.(type) {
		case json.Number:
			return l.scalar(ScalarNumber, string(x))
		case string:
			return l.scalar(ScalarString, x)
		case bool:
			if x {
				return l.scalar(ScalarTrue, "")
			}
			return l.scalar(ScalarFalse, "")
		}
		return l.bad(v)
	}
	switch x := v.(type) {
	case bool:
		return l.boolean(x)
	case int8:
		return l.integer(int64(x))
	case int16:
		return l.integer(int64(x))
	case int32:
		return l.integer(int64(x))
	case int64:
		return l.integer(x)
	case int:
		return l.integer(int64(x))
	case uint8:
		return l.integer(int64(x))
	case uint16:
		return l.integer(int64(x))
	case uint32:
		return l.unsigned(uint64(x))
	case uint64:
		return l.unsigned(x)
	case uint:
		return l.unsigned(uint64(x))
	case float32:
		switch {
		case c.typ == format.Float:
			l.vals.Floats = append(l.vals.Floats, x)
			return nil
		case c.typ == format.Double:
			l.vals.Doubles = append(l.vals.Doubles, float64(x))
			return nil
		case c.lg.Kind == logical.KindFloat16:
			return l.float16(x)
		}
	case float64:
		return l.float(x, strconv.FormatFloat(x, 'g', -1, 64))
	case [12]byte:
		if c.typ == format.Int96 {
			l.vals.Int96s = append(l.vals.Int96s, x)
			return nil
		}
	case string:
		if c.typ == format.ByteArray || c.typ == format.FixedLenByteArray {
			return l.appendBytes(x)
		}
	case []byte:
		if c.typ == format.ByteArray || c.typ == format.FixedLenByteArray {
			return l.appendBytes(unsafecast.String(x))
		}
	case time.Time:
		return l.time(x)
	case time.Duration:
		if c.lg.Kind == logical.KindTime {
			return l.integer(int64(x) / unitNanos(c.lg.Unit))
		}
	case logical.Decimal:
		if c.lg.Kind == logical.KindDecimal && x.Unscaled != nil {
			return l.decimal(x.Unscaled, x.Scale)
		}
	case logical.UUID:
		if c.typ == format.FixedLenByteArray || c.typ == format.ByteArray {
			return l.appendBytes(unsafecast.String(x[:]))
		}
	case logical.Interval:
		if c.typ == format.FixedLenByteArray || c.typ == format.ByteArray {
			var b [12]byte
			binary.LittleEndian.PutUint32(b[0:], x.Months)
			binary.LittleEndian.PutUint32(b[4:], x.Days)
			binary.LittleEndian.PutUint32(b[8:], x.Millis)
			return l.appendBytes(unsafecast.String(b[:]))
		}
	}
	return l.bad(v)
}

func (l *wleaf) bad(v any) error {
	switch v.(type) {
	case map[string]any, Group:
		return fmt.Errorf("%w: an object for a %v column", ErrRow, l.conv.typ)
	case []any, []KeyValue:
		return fmt.Errorf("%w: an array for a %v column", ErrRow, l.conv.typ)
	}
	return fmt.Errorf("%w: %T for a %v column", ErrRow, v, l.describe())
}

func (l *wleaf) describe() string {
	if l.conv.lg.Kind == logical.KindPhysical {
		return l.conv.typ.String()
	}
	return strings.ToUpper(l.conv.lg.Kind.String()) + " (" + l.conv.typ.String() + ")"
}

func (l *wleaf) boolean(x bool) error {
	if l.conv.typ != format.Boolean {
		return l.bad(x)
	}
	l.vals.Booleans = append(l.vals.Booleans, x)
	return nil
}

// integer appends x to an integer (or floating-point) column.
func (l *wleaf) integer(x int64) error {
	c := &l.conv
	switch c.typ {
	case format.Int32:
		ok := x >= math.MinInt32 && x <= math.MaxInt32
		if !ok && c.lg.Kind == logical.KindInteger && !c.lg.Signed {
			ok = x >= 0 && x <= math.MaxUint32
		}
		if !ok {
			return fmt.Errorf("%w: %d out of the range of INT32", ErrRow, x)
		}
		l.vals.Int32s = append(l.vals.Int32s, int32(x))
		return nil
	case format.Int64:
		l.vals.Int64s = append(l.vals.Int64s, x)
		return nil
	case format.Float:
		l.vals.Floats = append(l.vals.Floats, float32(x))
		return nil
	case format.Double:
		l.vals.Doubles = append(l.vals.Doubles, float64(x))
		return nil
	}
	if c.lg.Kind == logical.KindDecimal {
		return l.decimal(big.NewInt(x), 0)
	}
	return l.bad(x)
}

func (l *wleaf) unsigned(x uint64) error {
	if x <= math.MaxInt64 {
		return l.integer(int64(x))
	}
	if l.conv.typ == format.Int64 && l.conv.lg.Kind == logical.KindInteger && !l.conv.lg.Signed {
		l.vals.Int64s = append(l.vals.Int64s, int64(x))
		return nil
	}
	return fmt.Errorf("%w: %d out of the range of %v", ErrRow, x, l.conv.typ)
}

// float appends x (whose text is s, for decimals) to a floating-point
// column.
func (l *wleaf) float(x float64, s string) error {
	c := &l.conv
	switch {
	case c.typ == format.Double:
		l.vals.Doubles = append(l.vals.Doubles, x)
		return nil
	case c.typ == format.Float:
		l.vals.Floats = append(l.vals.Floats, float32(x))
		return nil
	case c.lg.Kind == logical.KindFloat16:
		return l.float16(float32(x))
	case c.lg.Kind == logical.KindDecimal:
		return l.decimalText(s)
	}
	return l.bad(x)
}

func (l *wleaf) float16(x float32) error {
	if l.conv.typ != format.FixedLenByteArray || l.conv.typeLength != 2 {
		return l.bad(x)
	}
	var b [2]byte
	binary.LittleEndian.PutUint16(b[:], float16Bits(x))
	l.vals.Bytes = append(l.vals.Bytes, b[:]...)
	return nil
}

// float16Bits returns the IEEE 754 binary16 nearest to f (ties to even),
// keeping the payload bits of a NaN that Float16Of widened.
func float16Bits(f float32) uint16 {
	b := math.Float32bits(f)
	sign := uint16(b>>16) & 0x8000
	exp := int(b >> 23 & 0xff)
	frac := b & 0x7fffff
	if exp == 0xff {
		if frac == 0 {
			return sign | 0x7c00
		}
		p := uint16(frac >> 13)
		if p == 0 {
			p = 0x200
		}
		return sign | 0x7c00 | p
	}
	e := exp - 127 + 15
	if e >= 0x1f {
		return sign | 0x7c00
	}
	if e <= 0 {
		if e < -10 {
			return sign
		}
		m := frac | 0x800000
		shift := uint(14 - e)
		half := m >> shift
		rem := m & (1<<shift - 1)
		mid := uint32(1) << (shift - 1)
		if rem > mid || rem == mid && half&1 == 1 {
			half++
		}
		return sign | uint16(half)
	}
	half := uint32(e)<<10 | frac>>13
	rem := frac & 0x1fff
	if rem > 0x1000 || rem == 0x1000 && half&1 == 1 {
		half++
	}
	return sign | uint16(half)
}

// unitNanos returns the nanoseconds in one unit u (u is known; 1 for
// another).
func unitNanos(u format.TimeUnit) int64 {
	switch u {
	case format.Millis:
		return 1e6
	case format.Micros:
		return 1e3
	}
	return 1
}

func floorDiv(a, b int64) (q, r int64) {
	q, r = a/b, a%b
	if r < 0 {
		q, r = q-1, r+b
	}
	return q, r
}

// time appends t to a DATE, TIMESTAMP or INT96 column.
func (l *wleaf) time(t time.Time) error {
	c := &l.conv
	sec, nsec := t.Unix(), int64(t.Nanosecond())
	switch c.lg.Kind {
	case logical.KindDate:
		day, rem := floorDiv(sec, 86400)
		if rem != 0 || nsec != 0 {
			return fmt.Errorf("%w: %v is not midnight of a DATE", ErrRow, t)
		}
		return l.integer(day)
	case logical.KindTimestamp:
		n := unitNanos(c.lg.Unit)
		return l.integer(sec*(1e9/n) + nsec/n)
	case logical.KindInt96:
		day, rem := floorDiv(sec, 86400)
		return l.int96(day, rem*1e9+nsec)
	}
	return l.bad(t)
}

func (l *wleaf) int96(day, nanos int64) error {
	if l.conv.typ != format.Int96 {
		return fmt.Errorf("%w: a timestamp for a %v column", ErrRow, l.describe())
	}
	var b [12]byte
	binary.LittleEndian.PutUint64(b[:8], uint64(nanos))
	binary.LittleEndian.PutUint32(b[8:], uint32(day+julianUnixEpoch))
	l.vals.Int96s = append(l.vals.Int96s, b)
	return nil
}

var bigTen = big.NewInt(10)

// decimal appends unscaled × 10^-scale to a DECIMAL column, rescaled to
// the column's scale when that is exact.
func (l *wleaf) decimal(unscaled *big.Int, scale int32) error {
	c := &l.conv
	if c.lg.Kind != logical.KindDecimal {
		return fmt.Errorf("%w: a decimal for a %v column", ErrRow, l.describe())
	}
	x := unscaled
	if scale != c.lg.Scale {
		x = new(big.Int).Set(unscaled)
		if scale < c.lg.Scale {
			x.Mul(x, new(big.Int).Exp(bigTen, big.NewInt(int64(c.lg.Scale-scale)), nil))
		} else {
			q, r := new(big.Int).QuoRem(x, new(big.Int).Exp(bigTen, big.NewInt(int64(scale-c.lg.Scale)), nil), new(big.Int))
			if r.Sign() != 0 {
				return fmt.Errorf("%w: decimal of scale %d does not fit scale %d", ErrRow, scale, c.lg.Scale)
			}
			x = q
		}
	}
	switch c.typ {
	case format.Int32, format.Int64:
		if !x.IsInt64() {
			return fmt.Errorf("%w: decimal out of the range of %v", ErrRow, c.typ)
		}
		return l.integer(x.Int64())
	}
	bits := x.BitLen() + 1
	if x.Sign() < 0 {
		bits = new(big.Int).Not(x).BitLen() + 1
	}
	n := (bits + 7) / 8
	if c.typ == format.FixedLenByteArray {
		if n > c.typeLength {
			return fmt.Errorf("%w: decimal does not fit %d bytes", ErrRow, c.typeLength)
		}
		n = c.typeLength
	}
	t := new(big.Int).Set(x)
	if x.Sign() < 0 {
		t.Add(t, new(big.Int).Lsh(big.NewInt(1), uint(8*n)))
	}
	return l.appendBytes(unsafecast.String(t.FillBytes(make([]byte, n))))
}

// decimalText appends the decimal number s ("12.30", "-1e3").
func (l *wleaf) decimalText(s string) error {
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		return fmt.Errorf("%w: %q is not a decimal number", ErrRow, s)
	}
	scale := l.conv.lg.Scale
	r.Mul(r, new(big.Rat).SetInt(new(big.Int).Exp(bigTen, big.NewInt(int64(max(scale, 0))), nil)))
	if scale < 0 {
		r.Quo(r, new(big.Rat).SetInt(new(big.Int).Exp(bigTen, big.NewInt(int64(-scale)), nil)))
	}
	if !r.IsInt() {
		return fmt.Errorf("%w: %s has more digits than scale %d", ErrRow, s, scale)
	}
	return l.decimal(r.Num(), scale)
}

// number appends a JSON number.
func (l *wleaf) number(s string) error {
	c := &l.conv
	switch c.jlg.Kind {
	case logical.KindDecimal:
		return l.decimalText(s)
	case logical.KindFloat16:
		f, err := strconv.ParseFloat(s, 32)
		if err != nil {
			return fmt.Errorf("%w: %v", ErrRow, err)
		}
		return l.float16(float32(f))
	}
	switch c.typ {
	case format.Int32, format.Int64:
		if x, ok := parseSimpleInt(s); ok {
			return l.integer(x)
		}
		if x, err := strconv.ParseInt(s, 10, 64); err == nil {
			return l.integer(x)
		}
		if x, err := strconv.ParseUint(s, 10, 64); err == nil {
			return l.unsigned(x)
		}
		return fmt.Errorf("%w: %s is not an integer", ErrRow, s)
	case format.Float, format.Double:
		bits := 64
		if c.typ == format.Float {
			bits = 32
		} else if f, ok := parseSimpleFloat(s); ok {
			return l.float(f, s)
		}
		f, err := strconv.ParseFloat(s, bits)
		if err != nil {
			return fmt.Errorf("%w: %v", ErrRow, err)
		}
		return l.float(f, s)
	}
	return fmt.Errorf("%w: a number for a %v column", ErrRow, l.describe())
}

// parseSimpleInt parses the common integer, -?[0-9]{1,18}, which cannot
// overflow, several times faster than strconv.ParseInt; it reports false
// for any other text, which strconv then parses.
func parseSimpleInt(s string) (int64, bool) {
	neg := len(s) > 0 && s[0] == '-'
	d := s
	if neg {
		d = s[1:]
	}
	if len(d) == 0 || len(d) > 18 {
		return 0, false
	}
	var x int64
	for i := 0; i < len(d); i++ {
		c := d[i] - '0'
		if c > 9 {
			return 0, false
		}
		x = x*10 + int64(c)
	}
	if neg {
		x = -x
	}
	return x, true
}

// parseInt10 is strconv.ParseInt(s, 10, 64), by parseSimpleInt when it
// can.
func parseInt10(s string) (int64, error) {
	if x, ok := parseSimpleInt(s); ok {
		return x, nil
	}
	return strconv.ParseInt(s, 10, 64)
}

// atoi2 is strconv.Atoi of the two bytes of a date or time field, without
// its generality for the common two digits.
func atoi2(s string) (int, error) {
	if len(s) == 2 && s[0]-'0' <= 9 && s[1]-'0' <= 9 {
		return int(s[0]-'0')*10 + int(s[1]-'0'), nil
	}
	return strconv.Atoi(s)
}

// pow10 holds the powers of ten a float64 holds exactly.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
	1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// parseSimpleFloat parses -?[0-9]+(\.[0-9]+)? whose digits, the point
// left out, make an integer m below 2^53 with at most 22 digits after the
// point: m and the power of ten are then exact float64s, so their one
// division rounds correctly and gives strconv.ParseFloat's result (whose
// own exact path this is) without its general scanning. It reports false
// for any other text.
func parseSimpleFloat(s string) (float64, bool) {
	neg := len(s) > 0 && s[0] == '-'
	i := 0
	if neg {
		i = 1
	}
	var m uint64
	digits, frac, point := 0, 0, false
	for ; i < len(s); i++ {
		c := s[i]
		if c == '.' && !point && digits > 0 {
			point = true
			continue
		}
		if c-'0' > 9 {
			return 0, false
		}
		m = m*10 + uint64(c-'0')
		digits++
		if point {
			frac++
		}
		if digits > 19 {
			return 0, false
		}
	}
	if digits == 0 || point && frac == 0 || m >= 1<<53 || frac >= len(pow10) {
		return 0, false
	}
	f := float64(m) / pow10[frac]
	if neg {
		f = -f
	}
	return f, true
}

// text appends a JSON string.
func (l *wleaf) text(s string) error {
	c := &l.conv
	if c.typ == format.Float || c.typ == format.Double || c.jlg.Kind == logical.KindFloat16 {
		var f float64
		switch s {
		case "NaN":
			f = math.NaN()
		case "Infinity":
			f = math.Inf(1)
		case "-Infinity":
			f = math.Inf(-1)
		default:
			if c.jlg.Kind != logical.KindFloat16 {
				return fmt.Errorf("%w: string %q for a %v column", ErrRow, s, l.describe())
			}
			goto physical
		}
		if c.jlg.Kind == logical.KindFloat16 {
			return l.float16(float32(f))
		}
		return l.float(f, s)
	}
	switch c.jlg.Kind {
	case logical.KindString:
		return l.appendBytes(s)
	case logical.KindDate:
		day, rest, err := parseCivil(s)
		if err != nil || rest != "" {
			return fmt.Errorf("%w: %q is not a date", ErrRow, s)
		}
		return l.integer(day)
	case logical.KindTime:
		t := strings.TrimSuffix(s, "Z")
		nanos, rest, err := parseClock(t, false)
		if err != nil || rest != "" {
			return fmt.Errorf("%w: %q is not a time of day", ErrRow, s)
		}
		return l.integer(nanos / unitNanos(c.lg.Unit))
	case logical.KindTimestamp, logical.KindInt96:
		day, nanos, err := parseDateTime(s)
		if err != nil {
			return err
		}
		if c.jlg.Kind == logical.KindInt96 {
			return l.int96(day, nanos)
		}
		n := unitNanos(c.lg.Unit)
		return l.integer(day*(86400e9/n) + nanos/n)
	case logical.KindUUID:
		b, err := hex.DecodeString(strings.ReplaceAll(s, "-", ""))
		if err != nil || len(s) != 36 {
			return fmt.Errorf("%w: %q is not a UUID", ErrRow, s)
		}
		return l.appendBytes(unsafecast.String(b))
	case logical.KindInterval:
		iv, err := parseInterval(s)
		if err != nil {
			return err
		}
		return l.value(iv, false)
	}
physical:
	switch c.typ {
	case format.ByteArray, format.FixedLenByteArray, format.Int96:
		b, err := hex.DecodeString(s)
		if err != nil {
			return fmt.Errorf("%w: %q is not hexadecimal bytes", ErrRow, s)
		}
		if c.typ == format.Int96 {
			if len(b) != 12 {
				return fmt.Errorf("%w: %d bytes for an INT96", ErrRow, len(b))
			}
			l.vals.Int96s = append(l.vals.Int96s, [12]byte(b))
			return nil
		}
		return l.appendBytes(unsafecast.String(b))
	}
	return fmt.Errorf("%w: string %q for a %v column", ErrRow, s, l.describe())
}

// parseDateTime parses "YYYY-MM-DDTHH:MM:SS[.fraction][Z]" (with the
// expanded years of AppendTimestamp) into days since 1970-01-01 and
// nanoseconds of the day. A zone other than Z is taken as an offset.
func parseDateTime(s string) (day, nanos int64, err error) {
	// The error is made only when needed: fmt.Errorf on every call was
	// a seventh of convert's CPU on timestamp columns.
	bad := func() error { return fmt.Errorf("%w: %q is not a timestamp", ErrRow, s) }
	day, rest, err := parseCivil(s)
	if err != nil || len(rest) == 0 || rest[0] != 'T' && rest[0] != ' ' {
		return 0, 0, bad()
	}
	nanos, rest, err = parseClock(rest[1:], false)
	if err != nil {
		return 0, 0, bad()
	}
	switch {
	case rest == "" || rest == "Z":
	case len(rest) == 6 && (rest[0] == '+' || rest[0] == '-') && rest[3] == ':':
		h, e1 := atoi2(rest[1:3])
		m, e2 := atoi2(rest[4:6])
		if e1 != nil || e2 != nil {
			return 0, 0, bad()
		}
		off := int64(h*3600+m*60) * 1e9
		if rest[0] == '+' {
			off = -off
		}
		d, r := floorDiv(nanos+off, 86400e9)
		day, nanos = day+d, r
	default:
		return 0, 0, bad()
	}
	return day, nanos, nil
}

// parseCivil parses a proleptic Gregorian date "YYYY-MM-DD" (or
// "+YYYYY-MM-DD", "-YYYY-MM-DD") at the start of s into days since
// 1970-01-01, and returns the rest of s.
func parseCivil(s string) (int64, string, error) {
	neg := false
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	j := i
	for j < len(s) && s[j] >= '0' && s[j] <= '9' {
		j++
	}
	if j-i < 4 || j-i > 9 || len(s) < j+6 || s[j] != '-' || s[j+3] != '-' {
		return 0, s, ErrRow
	}
	y, _ := parseInt10(s[i:j])
	if neg {
		y = -y
	}
	m, e1 := atoi2(s[j+1 : j+3])
	d, e2 := atoi2(s[j+4 : j+6])
	if e1 != nil || e2 != nil || m < 1 || m > 12 || d < 1 || d > 31 {
		return 0, s, ErrRow
	}
	return daysFromCivil(y, int64(m), int64(d)), s[j+6:], nil
}

// daysFromCivil is the inverse of logical's civil-from-days (Howard
// Hinnant's public-domain algorithm).
func daysFromCivil(y, m, d int64) int64 {
	if m <= 2 {
		y--
	}
	era, _ := floorDiv(y, 400)
	yoe := y - era*400
	mp := m - 3
	if m <= 2 {
		mp = m + 9
	}
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468
}

// parseClock parses "HH:MM:SS[.fraction]" at the start of s into
// nanoseconds; hours may pass 23 when long is set.
func parseClock(s string, long bool) (int64, string, error) {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i < 2 || len(s) < i+6 || s[i] != ':' || s[i+3] != ':' {
		return 0, s, ErrRow
	}
	h, e0 := parseInt10(s[:i])
	m, e1 := atoi2(s[i+1 : i+3])
	sec, e2 := atoi2(s[i+4 : i+6])
	if e0 != nil || e1 != nil || e2 != nil || m > 59 || sec > 59 || !long && h > 23 {
		return 0, s, ErrRow
	}
	nanos := (h*3600 + int64(m)*60 + int64(sec)) * 1e9
	rest := s[i+6:]
	if len(rest) > 0 && rest[0] == '.' {
		j := 1
		var frac int64
		for j < len(rest) && rest[j] >= '0' && rest[j] <= '9' {
			if j > 9 {
				return 0, s, ErrRow
			}
			frac = frac*10 + int64(rest[j]-'0')
			j++
		}
		if j == 1 {
			return 0, s, ErrRow
		}
		for k := j; k <= 9; k++ {
			frac *= 10
		}
		nanos += frac
		rest = rest[j:]
	}
	return nanos, rest, nil
}

// parseInterval parses an INTERVAL as logical.AppendInterval writes it
// ("1 year 2 months 3 days 00:00:01.5").
func parseInterval(s string) (logical.Interval, error) {
	var iv logical.Interval
	bad := fmt.Errorf("%w: %q is not an interval", ErrRow, s)
	f := strings.Fields(s)
	for i := 0; i < len(f); i++ {
		if strings.Contains(f[i], ":") {
			nanos, rest, err := parseClock(f[i], true)
			if err != nil || rest != "" || nanos%1e6 != 0 || nanos/1e6 > math.MaxUint32 {
				return iv, bad
			}
			iv.Millis = uint32(nanos / 1e6)
			continue
		}
		if i+1 >= len(f) {
			return iv, bad
		}
		n, err := strconv.ParseUint(f[i], 10, 32)
		if err != nil {
			return iv, bad
		}
		switch strings.TrimSuffix(f[i+1], "s") {
		case "year":
			iv.Months += uint32(n) * 12
		case "month":
			iv.Months += uint32(n)
		case "day":
			iv.Days = uint32(n)
		default:
			return iv, bad
		}
		i++
	}
	return iv, nil
}
