package stats

import (
	"errors"
	"fmt"
	"math"

	"github.com/pqcodec/pqcodec/format"
)

// ErrInvalidArgument is wrapped by the errors of [Column.Bound]: a bound
// whose type does not fit the column, and that no exact conversion makes
// fit.
var ErrInvalidArgument = errors.New("stats: invalid argument")

// plainIntegers reports whether an integer column's values are plain
// integers (no logical type, or INT(n) / INT_n / UINT_n), so that a
// floating-point bound of an integral value means the same integer: not
// DECIMAL, DATE, TIME or TIMESTAMP, whose integers are scaled or counted
// in a unit a float bound does not say.
func plainIntegers(e *format.SchemaElement) bool {
	if lt := e.LogicalType; lt != nil {
		return lt.Kind == format.LogicalInteger
	}
	if ct := e.ConvertedType; ct != nil {
		switch *ct {
		case format.ConvertedInt8, format.ConvertedInt16, format.ConvertedInt32, format.ConvertedInt64,
			format.ConvertedUint8, format.ConvertedUint16, format.ConvertedUint32, format.ConvertedUint64:
			return true
		}
		return false
	}
	return true
}

// Bound returns v as a value of c's physical type, for [Column.MayContain]
// and [Column.Compare], or an error wrapping [ErrInvalidArgument] when v
// does not fit c. An invalid v (no bound) is returned as it is. A value of
// c's own physical type is returned as it is, except that a FIXED_LEN_BYTE_ARRAY
// FLOAT16 or DECIMAL bound must have the type length and an INT96 bound 12
// bytes. Other types are converted only where the conversion is exact:
//
//	column           bound                       converted when
//	INT32            INT64                       it fits the column's range
//	                                             (0..2^32-1 for UINT_32)
//	INT64            INT32                       it fits (not negative for UINT_64)
//	INT32, INT64     FLOAT, DOUBLE               it is an integer in the column's range
//	                                             and the column holds plain integers
//	                                             (not DECIMAL, DATE, TIME, TIMESTAMP)
//	FLOAT            DOUBLE                      float32 holds it exactly (NaN too)
//	FLOAT            INT32, INT64                float32 holds it exactly
//	DOUBLE           FLOAT                       always
//	DOUBLE           INT32, INT64                float64 holds it exactly
//	BYTE_ARRAY       FIXED_LEN_BYTE_ARRAY        always (the same bytes)
//	FIXED_LEN_BYTE_ARRAY  BYTE_ARRAY             always, except FLOAT16 and DECIMAL:
//	                                             the type length
//
// Everything else (a BOOLEAN and a number, a number and bytes) is an
// error: a bound of another type would compare as garbage and prune rows
// that match.
func (c *Column) Bound(v Value) (Value, error) {
	if !v.valid {
		return v, nil
	}
	mismatch := func() (Value, error) {
		return Value{}, fmt.Errorf("%w: %v bound %v for a %v column", ErrInvalidArgument, v.typ, v, c.Type)
	}
	unsigned := c.cmp == cmpUint
	switch c.Type {
	case format.Boolean:
		if v.typ == format.Boolean {
			return v, nil
		}
	case format.Int32, format.Int64:
		lo, hi := int64(math.MinInt32), int64(math.MaxInt32)
		if c.Type == format.Int64 {
			lo, hi = math.MinInt64, math.MaxInt64
		}
		if unsigned {
			lo = 0
			if c.Type == format.Int32 {
				hi = math.MaxUint32
			}
		}
		make := func(i int64) Value {
			if c.Type == format.Int32 {
				return Value{typ: format.Int32, valid: true, bits: uint64(int64(int32(uint32(i))))}
			}
			return Int64Value(i)
		}
		switch v.typ {
		case c.Type:
			return v, nil
		case format.Int32, format.Int64:
			i := v.Int64()
			if i < lo || i > hi {
				return Value{}, fmt.Errorf("%w: %v bound %d outside the range of a %v column", ErrInvalidArgument, v.typ, i, c.Type)
			}
			return make(i), nil
		case format.Float, format.Double:
			f := v.Float64()
			if !c.plainInts {
				return Value{}, fmt.Errorf("%w: %v bound %v for a %v column of scaled or temporal values: give the stored integer",
					ErrInvalidArgument, v.typ, v, c.Type)
			}
			if f != math.Trunc(f) { // NaN too
				return Value{}, fmt.Errorf("%w: %v bound %v is not an integer", ErrInvalidArgument, v.typ, v)
			}
			if unsigned && c.Type == format.Int64 {
				if f < 0 || f >= 1<<64 {
					return Value{}, fmt.Errorf("%w: %v bound %v outside the range of a %v column", ErrInvalidArgument, v.typ, v, c.Type)
				}
				return Value{typ: format.Int64, valid: true, bits: uint64(f)}, nil
			}
			// float64(math.MaxInt64) is 2^63, itself out of range.
			if f < float64(lo) || f > float64(hi) || f >= 1<<63 {
				return Value{}, fmt.Errorf("%w: %v bound %v outside the range of a %v column", ErrInvalidArgument, v.typ, v, c.Type)
			}
			return make(int64(f)), nil
		}
	case format.Float, format.Double:
		switch v.typ {
		case c.Type:
			return v, nil
		case format.Float: // into DOUBLE
			return DoubleValue(v.Float64()), nil
		case format.Double: // into FLOAT
			f := v.Float64()
			if float64(float32(f)) == f || math.IsNaN(f) {
				return FloatValue(float32(f)), nil
			}
			return Value{}, fmt.Errorf("%w: DOUBLE bound %v is not exactly a FLOAT", ErrInvalidArgument, v)
		case format.Int32, format.Int64:
			i := v.Int64()
			if c.Type == format.Float {
				if f := float32(i); float64(f) < 1<<63 && int64(f) == i {
					return FloatValue(f), nil
				}
			} else if f := float64(i); f < 1<<63 && int64(f) == i {
				return DoubleValue(f), nil
			}
			return Value{}, fmt.Errorf("%w: %v bound %d is not exactly a %v", ErrInvalidArgument, v.typ, i, c.Type)
		}
	case format.Int96:
		if v.typ == format.Int96 && len(v.b) == 12 {
			return v, nil
		}
	case format.ByteArray:
		if v.typ == format.ByteArray || v.typ == format.FixedLenByteArray {
			return Value{typ: c.Type, valid: true, b: v.b}, nil
		}
	case format.FixedLenByteArray:
		if v.typ == format.ByteArray || v.typ == format.FixedLenByteArray {
			if (c.cmp == cmpFloat16 || c.cmp == cmpTotal16 || c.cmp == cmpDecimal) && len(v.b) != c.TypeLength {
				return Value{}, fmt.Errorf("%w: bound of %d bytes for a FIXED_LEN_BYTE_ARRAY(%d) column", ErrInvalidArgument, len(v.b), c.TypeLength)
			}
			return Value{typ: c.Type, valid: true, b: v.b}, nil
		}
	}
	return mismatch()
}
