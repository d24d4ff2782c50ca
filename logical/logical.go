// Package logical converts physical Parquet values to the Go values their
// logical types stand for (LogicalTypes.md,
// https://github.com/apache/parquet-format/blob/master/LogicalTypes.md):
// INT96 timestamps, DATE, TIME and TIMESTAMP in their units, and DECIMAL
// as an unscaled integer with its scale. Both the LogicalType union and the
// legacy ConvertedType annotations are understood.
//
// Timestamps that are not adjusted to UTC ("local" or wall-clock time) are
// returned as time.Time values in UTC holding that wall-clock time, the
// convention of arrow-go and parquet-java.
package logical

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/big"
	"time"

	"github.com/pqcodec/pqcodec/format"
)

// ErrType is wrapped by errors for a schema element that does not have the
// logical type asked for.
var ErrType = errors.New("logical: wrong type")

// julianUnixEpoch is the Julian day number of 1970-01-01.
const julianUnixEpoch = 2440588

// Int96Time converts an INT96 timestamp (little-endian nanoseconds within
// the day, then a little-endian unsigned Julian day number, as arrow-cpp
// reads it) to a time in UTC. Dates beyond the range of 64-bit nanoseconds
// since the epoch are still exact.
func Int96Time(v [12]byte) time.Time {
	nanos := int64(binary.LittleEndian.Uint64(v[:8]))
	day := int64(binary.LittleEndian.Uint32(v[8:]))
	return time.Unix((day-julianUnixEpoch)*86400, 0).UTC().Add(time.Duration(nanos))
}

// Date converts a DATE (days since 1970-01-01) to midnight UTC of that day.
func Date(days int32) time.Time {
	return time.Unix(int64(days)*86400, 0).UTC()
}

// unitNanos returns the nanoseconds in one unit.
func unitNanos(u format.TimeUnit) (int64, error) {
	switch u {
	case format.Millis:
		return 1e6, nil
	case format.Micros:
		return 1e3, nil
	case format.Nanos:
		return 1, nil
	}
	return 0, fmt.Errorf("%w: time unit %v", ErrType, u)
}

// Timestamp converts a TIMESTAMP value in unit u since the Unix epoch to a
// time in UTC.
func Timestamp(v int64, u format.TimeUnit) (time.Time, error) {
	n, err := unitNanos(u)
	if err != nil {
		return time.Time{}, err
	}
	per := int64(1e9) / n // units per second
	sec, rem := v/per, v%per
	if rem < 0 {
		sec, rem = sec-1, rem+per
	}
	return time.Unix(sec, rem*n).UTC(), nil
}

// TimeOfDay converts a TIME value in unit u (since midnight) to a
// duration.
func TimeOfDay(v int64, u format.TimeUnit) (time.Duration, error) {
	n, err := unitNanos(u)
	if err != nil {
		return 0, err
	}
	return time.Duration(v * n), nil
}

// TimeInfo is the kind, unit and UTC adjustment of a TIME or TIMESTAMP
// column.
type TimeInfo struct {
	// Kind is format.LogicalTime or format.LogicalTimestamp.
	Kind            format.LogicalTypeKind
	Unit            format.TimeUnit
	IsAdjustedToUTC bool
}

// TimeOf returns whether a schema element is a TIME or a TIMESTAMP, and
// its unit and UTC adjustment, from its logical type or its converted type
// (TIME_MILLIS, TIME_MICROS, TIMESTAMP_MILLIS, TIMESTAMP_MICROS, which are
// adjusted to UTC). ok is false for other elements. See [IsDate] for DATE.
func TimeOf(e *format.SchemaElement) (info TimeInfo, ok bool) {
	if lt := e.LogicalType; lt != nil {
		if lt.Kind == format.LogicalTime || lt.Kind == format.LogicalTimestamp {
			return TimeInfo{lt.Kind, lt.Unit, lt.IsAdjustedToUTC}, true
		}
		return info, false
	}
	if e.ConvertedType != nil {
		switch *e.ConvertedType {
		case format.ConvertedTimeMillis:
			return TimeInfo{format.LogicalTime, format.Millis, true}, true
		case format.ConvertedTimeMicros:
			return TimeInfo{format.LogicalTime, format.Micros, true}, true
		case format.ConvertedTimestampMillis:
			return TimeInfo{format.LogicalTimestamp, format.Millis, true}, true
		case format.ConvertedTimestampMicros:
			return TimeInfo{format.LogicalTimestamp, format.Micros, true}, true
		}
	}
	return info, false
}

// DecimalInfo is the precision and scale of a DECIMAL column.
type DecimalInfo struct {
	Precision, Scale int32
}

// DecimalOf returns the precision and scale of a DECIMAL schema element,
// from its logical type or its converted type and scale/precision fields.
// ok is false for other elements.
func DecimalOf(e *format.SchemaElement) (info DecimalInfo, ok bool) {
	if lt := e.LogicalType; lt != nil {
		if lt.Kind != format.LogicalDecimal {
			return info, false
		}
		return DecimalInfo{lt.Precision, lt.Scale}, true
	}
	if e.ConvertedType == nil || *e.ConvertedType != format.ConvertedDecimal {
		return info, false
	}
	if e.Precision != nil {
		info.Precision = *e.Precision
	}
	if e.Scale != nil {
		info.Scale = *e.Scale
	}
	return info, true
}

// DecimalBigInt returns the unscaled value of a DECIMAL stored in a
// BYTE_ARRAY or FIXED_LEN_BYTE_ARRAY: big-endian two's complement (an
// empty array is 0). dst is reused when not nil.
func DecimalBigInt(dst *big.Int, b []byte) *big.Int {
	if dst == nil {
		dst = new(big.Int)
	}
	dst.SetBytes(b)
	if len(b) > 0 && b[0]&0x80 != 0 {
		// Negative: subtract 2^(8·len).
		var m big.Int
		m.Lsh(big.NewInt(1), uint(8*len(b)))
		dst.Sub(dst, &m)
	}
	return dst
}

// DecimalInt64 returns the unscaled value of a DECIMAL byte array as an
// int64; ok is false when it does not fit.
func DecimalInt64(b []byte) (v int64, ok bool) {
	// Drop redundant sign bytes, then sign-extend what is left.
	for len(b) > 8 {
		if b[0] == 0 && b[1]&0x80 == 0 || b[0] == 0xff && b[1]&0x80 != 0 {
			b = b[1:]
			continue
		}
		return 0, false
	}
	if len(b) == 0 {
		return 0, true
	}
	var u uint64
	if b[0]&0x80 != 0 {
		u = ^uint64(0)
	}
	for _, c := range b {
		u = u<<8 | uint64(c)
	}
	return int64(u), true
}

// Decimal is a decimal number: Unscaled × 10^-Scale.
type Decimal struct {
	Unscaled *big.Int
	Scale    int32
}

// String formats d in plain decimal notation ("-12.30" for unscaled -1230
// at scale 2; scale 0 or negative scales print an integer).
func (d Decimal) String() string {
	s := d.Unscaled.String()
	if d.Scale <= 0 {
		if d.Scale < 0 && d.Unscaled.Sign() != 0 {
			for range -d.Scale {
				s += "0"
			}
		}
		return s
	}
	neg := s[0] == '-'
	if neg {
		s = s[1:]
	}
	for len(s) <= int(d.Scale) {
		s = "0" + s
	}
	s = s[:len(s)-int(d.Scale)] + "." + s[len(s)-int(d.Scale):]
	if neg {
		s = "-" + s
	}
	return s
}

// Rat returns d as an exact rational.
func (d Decimal) Rat() *big.Rat {
	r := new(big.Rat).SetInt(d.Unscaled)
	if d.Scale == 0 {
		return r
	}
	p := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(abs(d.Scale))), nil)
	if d.Scale > 0 {
		return r.Quo(r, new(big.Rat).SetInt(p))
	}
	return r.Mul(r, new(big.Rat).SetInt(p))
}

func abs(v int32) int32 {
	if v < 0 {
		return -v
	}
	return v
}
