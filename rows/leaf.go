package rows

import (
	"fmt"
	"strconv"

	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/logical"
)

// leafFormat is how a column's values are written.
type leafFormat uint8

const (
	formatBoolean leafFormat = iota
	formatInt32
	formatInt64
	formatInt96
	formatFloat
	formatDouble
	formatString // BYTE_ARRAY annotated STRING, ENUM or JSON
	formatHex    // other BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY
	// formatLogical is every logical conversion (not with WithRaw);
	// cursor.leaf has its parameters.
	formatLogical
)

// physicalFormats is the format of the values of each physical type that
// has its own; BYTE_ARRAY's depends on its logical type.
var physicalFormats = map[format.Type]leafFormat{
	format.Boolean: formatBoolean,
	format.Int32:   formatInt32,
	format.Int64:   formatInt64,
	format.Int96:   formatInt96,
	format.Float:   formatFloat,
	format.Double:  formatDouble,
}

// appendValue appends the next value of c.
func (c *cursor) appendValue(dst []byte) ([]byte, error) {
	if c.val >= c.nvals {
		return dst, c.corrupt("page holds %d values, its levels need more", c.nvals)
	}
	v, i := c.next()
	switch c.format {
	case formatBoolean:
		return strconv.AppendBool(dst, v.Booleans[i]), nil
	case formatInt32:
		return strconv.AppendInt(dst, int64(v.Int32s[i]), 10), nil
	case formatInt64:
		return strconv.AppendInt(dst, v.Int64s[i], 10), nil
	case formatInt96:
		return AppendHex(dst, v.Int96s[i][:]), nil
	case formatFloat:
		return AppendFloat(dst, float64(v.Floats[i]), 32), nil
	case formatDouble:
		return AppendFloat(dst, v.Doubles[i], 64), nil
	case formatString:
		return AppendString(dst, v.ByteArray(i)), nil
	case formatLogical:
		return c.appendLogical(dst, v, i)
	}
	return AppendHex(dst, v.ByteArray(i)), nil
}

// valueBytes returns the bytes the next value of c copies (strings, byte
// slices), checked before the copy; 0 for other types or past the page.
func (c *cursor) valueBytes() int64 {
	if c.val >= c.nvals {
		return 0
	}
	switch c.format {
	case formatString, formatHex:
		if d := c.page.Dictionary; d != nil {
			return int64(len(d.ByteArray(int(c.page.Indices[c.val]))))
		}
		return int64(len(c.page.Values.ByteArray(c.val)))
	}
	return 0
}

// appendLogical appends value i of v (the page's values or its
// dictionary) as its logical type's JSON (see the package documentation).
func (c *cursor) appendLogical(dst []byte, v *column.Values, i int) ([]byte, error) {
	l := &c.leaf
	var err error
	switch l.Kind {
	case logical.KindDate:
		dst = append(dst, '"')
		dst = logical.AppendDate(dst, v.Int32s[i])
		return append(dst, '"'), nil
	case logical.KindTime:
		var x int64
		if l.Type == format.Int32 {
			x = int64(v.Int32s[i])
		} else {
			x = v.Int64s[i]
		}
		if x < 0 || x >= 86400e9/unitNanos(l.Unit) {
			// No clock shows it: the count of units, as a number.
			return strconv.AppendInt(dst, x, 10), nil
		}
		dst = append(dst, '"')
		dst, err = logical.AppendTime(dst, x, l.Unit, l.UTC)
		return append(dst, '"'), err
	case logical.KindTimestamp:
		dst = append(dst, '"')
		dst, err = logical.AppendTimestamp(dst, v.Int64s[i], l.Unit, l.UTC)
		return append(dst, '"'), err
	case logical.KindInt96:
		dst = append(dst, '"')
		dst = logical.AppendInt96(dst, v.Int96s[i])
		return append(dst, '"'), nil
	case logical.KindDecimal:
		switch l.Type {
		case format.Int32:
			return logical.AppendDecimal(dst, int64(v.Int32s[i]), l.Scale), nil
		case format.Int64:
			return logical.AppendDecimal(dst, v.Int64s[i], l.Scale), nil
		}
		return logical.AppendDecimalBytes(dst, v.ByteArray(i), l.Scale), nil
	case logical.KindUUID:
		dst = append(dst, '"')
		dst = logical.AppendUUID(dst, v.ByteArray(i))
		return append(dst, '"'), nil
	case logical.KindInterval:
		dst = append(dst, '"')
		dst = logical.AppendInterval(dst, logical.IntervalOf(v.ByteArray(i)))
		return append(dst, '"'), nil
	case logical.KindFloat16:
		return AppendFloat(dst, float64(logical.Float16Of(v.ByteArray(i))), 32), nil
	case logical.KindInteger:
		switch {
		case l.Signed && l.Type == format.Int32:
			x := v.Int32s[i]
			switch l.BitWidth {
			case 8:
				x = int32(int8(x))
			case 16:
				x = int32(int16(x))
			}
			return strconv.AppendInt(dst, int64(x), 10), nil
		case l.Signed:
			return strconv.AppendInt(dst, v.Int64s[i], 10), nil
		case l.Type == format.Int32:
			return strconv.AppendUint(dst, uint64(uint32(v.Int32s[i])&uint32(1<<l.BitWidth-1)), 10), nil
		}
		return strconv.AppendUint(dst, uint64(v.Int64s[i]), 10), nil
	}
	return dst, fmt.Errorf("rows: no JSON form for %v", l.Kind)
}

// value returns the next value of c as a Go value (see the package
// documentation).
func (c *cursor) value() (any, error) {
	if c.val >= c.nvals {
		return nil, c.corrupt("page holds %d values, its levels need more", c.nvals)
	}
	v, i := c.next()
	switch c.format {
	case formatBoolean, formatInt32, formatInt64, formatInt96, formatFloat, formatDouble:
		return v.Value(i), nil
	case formatString:
		return string(v.ByteArray(i)), nil
	case formatLogical:
		return c.leaf.Value(v.Value(i))
	}
	return append([]byte(nil), v.ByteArray(i)...), nil
}
