package logical_test

import (
	"errors"
	"io"
	"math/big"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/internal/testcorpus"
	"github.com/pqcodec/pqcodec/logical"
)

// readColumn returns the schema element and every non-null value of the
// first column of a corpus file, as a Values of one page's worth appended
// over all pages.
func readColumn(t *testing.T, name string) (*format.SchemaElement, []any, [][]byte) {
	t.Helper()
	fh, err := os.Open(testcorpus.Data(t, name))
	require.NoError(t, err)
	defer fh.Close()
	st, err := fh.Stat()
	require.NoError(t, err)
	f, err := column.Open(fh, st.Size())
	require.NoError(t, err)
	var vals []any
	var raw [][]byte
	var p column.Page
	for rg := range f.NumRowGroups() {
		r, err := f.Column(rg, 0)
		require.NoError(t, err)
		for {
			err := r.ReadPage(&p)
			if errors.Is(err, io.EOF) {
				break
			}
			require.NoError(t, err)
			for i := range p.Values.Len() {
				vals = append(vals, p.Values.Value(i))
				if p.Values.Type == format.ByteArray || p.Values.Type == format.FixedLenByteArray {
					raw = append(raw, append([]byte(nil), p.Values.ByteArray(i)...))
				}
			}
		}
	}
	return f.Schema().Leaves()[0].Element, vals, raw
}

// TestDecimalCorpus reads the five DECIMAL files of parquet-testing, which
// hold 1.00 to 24.00 in INT32, INT64, FIXED_LEN_BYTE_ARRAY (two sizes) and
// BYTE_ARRAY.
func TestDecimalCorpus(t *testing.T) {
	for _, name := range []string{"int32_decimal.parquet", "int64_decimal.parquet", "fixed_length_decimal.parquet",
		"fixed_length_decimal_legacy.parquet", "byte_array_decimal.parquet"} {
		e, vals, raw := readColumn(t, name)
		info, ok := logical.DecimalOf(e)
		require.True(t, ok, name)
		assert.Equal(t, int32(2), info.Scale, name)
		require.Len(t, vals, 24, name)
		for i, v := range vals {
			d := logical.Decimal{Scale: info.Scale}
			switch v := v.(type) {
			case int32:
				d.Unscaled = big.NewInt(int64(v))
			case int64:
				d.Unscaled = big.NewInt(v)
			default:
				d.Unscaled = logical.DecimalBigInt(nil, raw[i])
				n, ok := logical.DecimalInt64(raw[i])
				require.True(t, ok)
				assert.Equal(t, d.Unscaled.Int64(), n)
			}
			assert.Equal(t, big.NewRat(int64(i+1), 1), d.Rat(), "%s value %d", name, i)
			assert.Equal(t, itoa(i+1)+".00", d.String(), "%s value %d", name, i)
		}
	}
}

func itoa(i int) string { return big.NewInt(int64(i)).String() }

// TestInt96Corpus checks the timestamps of int96_from_spark.parquet whose
// inputs carry an explicit zone (int96_from_spark.md), and the fraction
// of the first one.
func TestInt96Corpus(t *testing.T) {
	_, vals, _ := readColumn(t, "int96_from_spark.parquet")
	require.Len(t, vals, 5) // six rows, one null
	var got []time.Time
	for _, v := range vals {
		got = append(got, logical.Int96Time(v.([12]byte)))
	}
	assert.Equal(t, "2024-01-01T01:00:00Z", got[1].Format(time.RFC3339Nano))
	assert.Equal(t, "9999-12-31T03:00:00Z", got[2].Format(time.RFC3339Nano))
	assert.Equal(t, "2024-12-30T23:00:00Z", got[3].Format(time.RFC3339Nano))
	// The last input (year 290000) was written by Spark as a Julian day of
	// 4189105064 and negative nanoseconds; no reader agrees on it, so it is
	// not checked here.
	// The first value is a wall-clock time with microseconds.
	assert.Equal(t, "34:56.123456", got[0].Format("04:05.999999"))
}

func TestTimes(t *testing.T) {
	assert.Equal(t, "1970-01-01", logical.Date(0).Format(time.DateOnly))
	assert.Equal(t, "1969-12-31", logical.Date(-1).Format(time.DateOnly))
	assert.Equal(t, "2009-03-01", logical.Date(14304).Format(time.DateOnly))
	for _, c := range []struct {
		v    int64
		u    format.TimeUnit
		want string
	}{
		{1, format.Millis, "1970-01-01T00:00:00.001Z"},
		{-1, format.Micros, "1969-12-31T23:59:59.999999Z"},
		{1_700_000_000_123_456_789, format.Nanos, "2023-11-14T22:13:20.123456789Z"},
		{-62135596800000, format.Millis, "0001-01-01T00:00:00Z"},
	} {
		ts, err := logical.Timestamp(c.v, c.u)
		require.NoError(t, err)
		assert.Equal(t, c.want, ts.Format(time.RFC3339Nano))
	}
	_, err := logical.Timestamp(1, format.TimeUnit(9))
	assert.ErrorIs(t, err, logical.ErrType)
	d, err := logical.TimeOfDay(3_600_000_001, format.Micros)
	require.NoError(t, err)
	assert.Equal(t, time.Hour+time.Microsecond, d)
	ct := format.ConvertedTimestampMillis
	info, ok := logical.TimeOf(&format.SchemaElement{ConvertedType: &ct})
	assert.True(t, ok)
	assert.Equal(t, logical.TimeInfo{Kind: format.LogicalTimestamp, Unit: format.Millis, IsAdjustedToUTC: true}, info)
	info, ok = logical.TimeOf(&format.SchemaElement{LogicalType: &format.LogicalType{Kind: format.LogicalTime, Unit: format.Nanos}})
	assert.True(t, ok)
	assert.Equal(t, format.Nanos, info.Unit)
	assert.Equal(t, format.LogicalTime, info.Kind)
	ct = format.ConvertedTimeMicros
	info, _ = logical.TimeOf(&format.SchemaElement{ConvertedType: &ct})
	assert.Equal(t, logical.TimeInfo{Kind: format.LogicalTime, Unit: format.Micros, IsAdjustedToUTC: true}, info)
	_, ok = logical.TimeOf(&format.SchemaElement{})
	assert.False(t, ok)
}

func TestDecimalBytes(t *testing.T) {
	for _, c := range []struct {
		b    []byte
		want string
		fits bool
	}{
		{nil, "0", true},
		{[]byte{0xff}, "-1", true},
		{[]byte{0x00, 0x80}, "128", true},
		{[]byte{0xff, 0x7f}, "-129", true},
		{[]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe}, "-2", true},
		{[]byte{0x00, 0x80, 0, 0, 0, 0, 0, 0, 0}, "9223372036854775808", false},
		{[]byte{0xff, 0x80, 0, 0, 0, 0, 0, 0, 0}, "-9223372036854775808", true},
	} {
		b := logical.DecimalBigInt(nil, c.b)
		assert.Equal(t, c.want, b.String(), "%x", c.b)
		n, ok := logical.DecimalInt64(c.b)
		assert.Equal(t, c.fits, ok, "%x", c.b)
		if ok {
			assert.Equal(t, c.want, big.NewInt(n).String())
		}
	}
	assert.Equal(t, "-0.05", logical.Decimal{Unscaled: big.NewInt(-5), Scale: 2}.String())
	assert.Equal(t, "12.345", logical.Decimal{Unscaled: big.NewInt(12345), Scale: 3}.String())
	assert.Equal(t, "1200", logical.Decimal{Unscaled: big.NewInt(12), Scale: -2}.String())
	prec := int32(9)
	ct := format.ConvertedDecimal
	info, ok := logical.DecimalOf(&format.SchemaElement{ConvertedType: &ct, Precision: &prec})
	assert.True(t, ok)
	assert.Equal(t, logical.DecimalInfo{Precision: 9}, info)
}
