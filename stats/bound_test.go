package stats

import (
	"errors"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/format"
)

// TestBound checks every pair of column type (physical and logical) and
// bound type: converted where the conversion is exact, else an error
// wrapping ErrInvalidArgument. want is the converted value's type and
// String, or "" for an error.
func TestBound(t *testing.T) {
	conv := func(c format.ConvertedType) *format.ConvertedType { return &c }
	columns := map[string]format.SchemaElement{
		"BOOLEAN":         {Type: ptr(format.Boolean)},
		"INT32":           {Type: ptr(format.Int32)},
		"INT32 UINT_32":   {Type: ptr(format.Int32), ConvertedType: conv(format.ConvertedUint32)},
		"INT32 DATE":      {Type: ptr(format.Int32), ConvertedType: conv(format.ConvertedDate)},
		"INT64":           {Type: ptr(format.Int64)},
		"INT64 UINT_64":   {Type: ptr(format.Int64), ConvertedType: conv(format.ConvertedUint64)},
		"INT64 TS":        {Type: ptr(format.Int64), LogicalType: &format.LogicalType{Kind: format.LogicalTimestamp}},
		"INT64 DECIMAL":   {Type: ptr(format.Int64), ConvertedType: conv(format.ConvertedDecimal), Scale: ptr[int32](2), Precision: ptr[int32](18)},
		"FLOAT":           {Type: ptr(format.Float)},
		"DOUBLE":          {Type: ptr(format.Double)},
		"STRING":          {Type: ptr(format.ByteArray), ConvertedType: conv(format.ConvertedUTF8)},
		"FLBA(3)":         {Type: ptr(format.FixedLenByteArray), TypeLength: ptr[int32](3)},
		"FLBA(2) FLOAT16": {Type: ptr(format.FixedLenByteArray), TypeLength: ptr[int32](2), LogicalType: &format.LogicalType{Kind: format.LogicalFloat16}},
		"INT96":           {Type: ptr(format.Int96)},
	}
	bounds := map[string]Value{
		"true":         BooleanValue(true),
		"int32 5":      Int32Value(5),
		"int32 -5":     Int32Value(-5),
		"int64 5":      Int64Value(5),
		"int64 2^40":   Int64Value(1 << 40),
		"int64 2^60+1": Int64Value(1<<60 + 1),
		"float 2":      FloatValue(2),
		"float 2.5":    FloatValue(2.5),
		"double 2":     DoubleValue(2),
		"double 2.5":   DoubleValue(2.5),
		"double 0.1":   DoubleValue(0.1),
		"double 2^63":  DoubleValue(1 << 63),
		"double NaN":   DoubleValue(math.NaN()),
		"bytes ab":     BytesValue(format.ByteArray, []byte("ab")),
		"flba abc":     BytesValue(format.FixedLenByteArray, []byte("abc")),
		"flba 2":       BytesValue(format.FixedLenByteArray, []byte{0, 0x3c}),
		"int96":        BytesValue(format.Int96, make([]byte, 12)),
	}
	// want[column][bound]; a pair not listed is an error.
	want := map[string]map[string]string{
		"BOOLEAN": {"true": "BOOLEAN true"},
		"INT32": {"int32 5": "INT32 5", "int32 -5": "INT32 -5", "int64 5": "INT32 5",
			"float 2": "INT32 2", "double 2": "INT32 2"},
		"INT32 UINT_32": {"int32 5": "INT32 5", "int32 -5": "INT32 -5", "int64 5": "INT32 5",
			"float 2": "INT32 2", "double 2": "INT32 2"},
		"INT32 DATE": {"int32 5": "INT32 5", "int32 -5": "INT32 -5", "int64 5": "INT32 5"},
		"INT64": {"int32 5": "INT64 5", "int32 -5": "INT64 -5", "int64 5": "INT64 5", "int64 2^40": "INT64 1099511627776",
			"int64 2^60+1": "INT64 1152921504606846977", "float 2": "INT64 2", "double 2": "INT64 2"},
		"INT64 UINT_64": {"int32 5": "INT64 5", "int64 5": "INT64 5", "int64 2^40": "INT64 1099511627776",
			"int64 2^60+1": "INT64 1152921504606846977", "float 2": "INT64 2", "double 2": "INT64 2",
			"double 2^63": "INT64 -9223372036854775808"},
		"INT64 TS": {"int32 5": "INT64 5", "int32 -5": "INT64 -5", "int64 5": "INT64 5", "int64 2^40": "INT64 1099511627776",
			"int64 2^60+1": "INT64 1152921504606846977"},
		"INT64 DECIMAL": {"int32 5": "INT64 5", "int32 -5": "INT64 -5", "int64 5": "INT64 5", "int64 2^40": "INT64 1099511627776",
			"int64 2^60+1": "INT64 1152921504606846977"},
		"FLOAT": {"int32 5": "FLOAT 5", "int32 -5": "FLOAT -5", "int64 5": "FLOAT 5", "int64 2^40": "FLOAT 1.0995116e+12",
			"float 2": "FLOAT 2", "float 2.5": "FLOAT 2.5", "double 2": "FLOAT 2", "double 2.5": "FLOAT 2.5",
			"double 2^63": "FLOAT 9.223372e+18", "double NaN": "FLOAT NaN"},
		"DOUBLE": {"int32 5": "DOUBLE 5", "int32 -5": "DOUBLE -5", "int64 5": "DOUBLE 5", "int64 2^40": "DOUBLE 1.099511627776e+12",
			"float 2": "DOUBLE 2", "float 2.5": "DOUBLE 2.5", "double 2": "DOUBLE 2", "double 2.5": "DOUBLE 2.5",
			"double 0.1": "DOUBLE 0.1", "double 2^63": "DOUBLE 9.223372036854776e+18", "double NaN": "DOUBLE NaN"},
		"STRING":          {"bytes ab": `BYTE_ARRAY "ab"`, "flba abc": `BYTE_ARRAY "abc"`, "flba 2": `BYTE_ARRAY "\x00<"`},
		"FLBA(3)":         {"bytes ab": `FIXED_LEN_BYTE_ARRAY "ab"`, "flba abc": `FIXED_LEN_BYTE_ARRAY "abc"`, "flba 2": `FIXED_LEN_BYTE_ARRAY "\x00<"`},
		"FLBA(2) FLOAT16": {"bytes ab": `FIXED_LEN_BYTE_ARRAY "ab"`, "flba 2": `FIXED_LEN_BYTE_ARRAY "\x00<"`},
		"INT96":           {"int96": `INT96 "\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"`},
	}
	for cname, e := range columns {
		c := leaf(t, e, "", 0)
		for bname, b := range bounds {
			got, err := c.Bound(b)
			w := want[cname][bname]
			if w == "" {
				require.Error(t, err, "%s column, %s bound: got %v", cname, bname, got)
				require.True(t, errors.Is(err, ErrInvalidArgument), "%s column, %s bound: %v", cname, bname, err)
				continue
			}
			require.NoError(t, err, "%s column, %s bound", cname, bname)
			require.Equal(t, w, got.Type().String()+" "+got.String(), "%s column, %s bound", cname, bname)
		}
		// No bound stays no bound.
		got, err := c.Bound(Value{})
		require.NoError(t, err)
		require.False(t, got.Valid())
	}
}

// TestMayContainMismatchedBounds is the wrong answer without an error of
// issue 28: DOUBLE bounds on an INT64 column compared their bits as
// integers and pruned every page. Exact bounds are converted; others
// prune nothing.
func TestMayContainMismatchedBounds(t *testing.T) {
	c := leaf(t, format.SchemaElement{Type: ptr(format.Int64)}, "", 0)
	s := Stats{HasMinMax: true, Min: Int64Value(10), Max: Int64Value(20)}
	require.True(t, c.MayContain(s, DoubleValue(15), DoubleValue(16)))
	require.True(t, c.MayContain(s, DoubleValue(0), DoubleValue(10)))
	require.False(t, c.MayContain(s, DoubleValue(21), DoubleValue(30)))
	require.False(t, c.MayContain(s, Int32Value(0), Int32Value(9)))
	require.True(t, c.MayContain(s, Int32Value(0), Int32Value(10)))
	// Not exact, or not a number: nothing can be pruned.
	require.True(t, c.MayContain(s, DoubleValue(21.5), DoubleValue(30)))
	require.True(t, c.MayContain(s, BytesValue(format.ByteArray, []byte("zz")), Value{}))

	str := leaf(t, format.SchemaElement{Type: ptr(format.ByteArray)}, "", 0)
	ss := Stats{HasMinMax: true, Min: BytesValue(format.ByteArray, []byte("b")), Max: BytesValue(format.ByteArray, []byte("d"))}
	require.True(t, str.MayContain(ss, Int64Value(1), Int64Value(2)))
	require.False(t, str.MayContain(ss, BytesValue(format.FixedLenByteArray, []byte("e")), Value{}))
}
