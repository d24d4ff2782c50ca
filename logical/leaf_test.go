package logical_test

import (
	"encoding/binary"
	"errors"
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/logical"
)

func ptr[T any](v T) *T { return &v }

// TestAppendTimestampMatchesTime compares AppendTimestamp with
// time.Time.Format on random values of every unit within the years Go
// formats as RFC 3339 (0000-9999).
func TestAppendTimestampMatchesTime(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	layouts := map[format.TimeUnit]string{
		format.Millis: "2006-01-02T15:04:05.000",
		format.Micros: "2006-01-02T15:04:05.000000",
		format.Nanos:  "2006-01-02T15:04:05.000000000",
	}
	minT := time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC)
	maxT := time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC)
	for u, layout := range layouts {
		per := map[format.TimeUnit]int64{format.Millis: 1e6, format.Micros: 1e3, format.Nanos: 1}[u]
		lo, hi := minT.UnixNano()/per, maxT.UnixNano()/per
		if u != format.Nanos {
			lo, hi = minT.Unix()*(1e9/per), maxT.Unix()*(1e9/per)
		}
		vals := []int64{0, -1, 1, lo, hi}
		for range 20000 {
			vals = append(vals, lo+rng.Int64N(hi-lo))
		}
		for _, v := range vals {
			want, err := logical.Timestamp(v, u)
			require.NoError(t, err)
			for _, utc := range []bool{false, true} {
				got, err := logical.AppendTimestamp(nil, v, u, utc)
				require.NoError(t, err)
				w := want.Format(layout)
				if utc {
					w += "Z"
				}
				if string(got) != w {
					t.Fatalf("%d %v utc=%v: got %s, want %s", v, u, utc, got, w)
				}
			}
		}
	}
}

func TestAppendDate(t *testing.T) {
	for _, c := range []struct {
		days int32
		want string
	}{
		{0, "1970-01-01"}, {-1, "1969-12-31"}, {19723, "2024-01-01"}, {11016, "2000-02-29"},
		{-719528, "0000-01-01"}, {-719529, "-0001-12-31"}, {2932897, "+10000-01-01"},
		{math.MaxInt32, "+5881580-07-11"}, {math.MinInt32, "-5877641-06-23"},
	} {
		assert.Equal(t, c.want, string(logical.AppendDate(nil, c.days)), "%d", c.days)
	}
	// Every day of years 0-9999 against package time.
	start := time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC).Unix() / 86400
	end := time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC).Unix() / 86400
	for d := start; d < end; d++ {
		want := logical.Date(int32(d)).Format("2006-01-02")
		if got := logical.AppendDate(nil, int32(d)); string(got) != want {
			t.Fatalf("day %d: got %s, want %s", d, got, want)
		}
	}
}

func TestAppendTimestampExtremes(t *testing.T) {
	got, err := logical.AppendTimestamp(nil, math.MinInt64, format.Nanos, true)
	require.NoError(t, err)
	assert.Equal(t, "1677-09-21T00:12:43.145224192Z", string(got))
	got, err = logical.AppendTimestamp(nil, math.MaxInt64, format.Millis, false)
	require.NoError(t, err)
	assert.Equal(t, "+292278994-08-17T07:12:55.807", string(got))
	_, err = logical.AppendTimestamp(nil, 0, format.TimeUnit(9), false)
	assert.ErrorIs(t, err, logical.ErrType)
}

func TestAppendInt96(t *testing.T) {
	var v [12]byte
	binary.LittleEndian.PutUint64(v[:], 60e9+5)
	binary.LittleEndian.PutUint32(v[8:], 2454833) // 2009-01-01
	assert.Equal(t, "2009-01-01T00:01:00.000000005", string(logical.AppendInt96(nil, v)))
	assert.Equal(t, logical.Int96Time(v).Format("2006-01-02T15:04:05.000000000"), string(logical.AppendInt96(nil, v)))
	// Nanoseconds past the day carry into the date, as Int96Time does.
	binary.LittleEndian.PutUint64(v[:], 86400e9+1)
	assert.Equal(t, "2009-01-02T00:00:00.000000001", string(logical.AppendInt96(nil, v)))
	binary.LittleEndian.PutUint64(v[:], uint64(1<<64-1)) // -1 ns
	assert.Equal(t, "2008-12-31T23:59:59.999999999", string(logical.AppendInt96(nil, v)))
}

func TestAppendTime(t *testing.T) {
	for _, c := range []struct {
		v    int64
		u    format.TimeUnit
		utc  bool
		want string
	}{
		{0, format.Millis, false, "00:00:00.000"},
		{45296789, format.Millis, true, "12:34:56.789Z"},
		{45296789012, format.Micros, false, "12:34:56.789012"},
		{86399999999999, format.Nanos, false, "23:59:59.999999999"},
		{86400000, format.Millis, false, "86400000"},
		{-1, format.Micros, false, "-1"},
	} {
		got, err := logical.AppendTime(nil, c.v, c.u, c.utc)
		require.NoError(t, err)
		assert.Equal(t, c.want, string(got))
	}
}

func TestInterval(t *testing.T) {
	for _, c := range []struct {
		iv   logical.Interval
		want string
	}{
		{logical.Interval{}, "00:00:00"},
		{logical.Interval{Months: 16}, "1 year 4 months"},
		{logical.Interval{Months: 1, Days: 1}, "1 month 1 day"},
		{logical.Interval{Months: 24, Days: 3, Millis: 1500}, "2 years 3 days 00:00:01.5"},
		{logical.Interval{Millis: 27}, "00:00:00.027"},
		{logical.Interval{Millis: math.MaxUint32}, "1193:02:47.295"},
	} {
		assert.Equal(t, c.want, c.iv.String())
	}
	b := []byte{14, 0, 0, 0, 3, 0, 0, 0, 0xdc, 0x05, 0, 0}
	assert.Equal(t, logical.Interval{14, 3, 1500}, logical.IntervalOf(b))
}

func TestFloat16(t *testing.T) {
	for _, c := range []struct {
		bits uint16
		want float32
	}{
		{0x3c00, 1}, {0xc000, -2}, {0x7bff, 65504}, {0x0001, 1.0 / (1 << 24)}, {0x03ff, 1023.0 / (1 << 24)},
		{0x0400, 1.0 / (1 << 14)}, {0x3555, 0.333251953125}, {0x7c00, float32(math.Inf(1))},
		{0xfc00, float32(math.Inf(-1))},
	} {
		assert.Equal(t, c.want, logical.Float16Of(binary.LittleEndian.AppendUint16(nil, c.bits)), "%#04x", c.bits)
	}
	assert.True(t, math.IsNaN(float64(logical.Float16Of([]byte{0x00, 0x7e}))))
	negZero := logical.Float16Of([]byte{0x00, 0x80})
	assert.True(t, negZero == 0 && math.Signbit(float64(negZero)))
}

func TestUUID(t *testing.T) {
	u := logical.UUID{0x12, 0x3e, 0x45, 0x67, 0xe8, 0x9b, 0x12, 0xd3, 0xa4, 0x56, 0x42, 0x66, 0x14, 0x17, 0x40, 0x00}
	assert.Equal(t, "123e4567-e89b-12d3-a456-426614174000", u.String())
}

func TestAppendDecimal(t *testing.T) {
	for _, c := range []struct {
		v     int64
		scale int32
	}{
		{0, 0}, {0, 2}, {1230, 2}, {-1230, 2}, {5, 3}, {-5, 3}, {math.MinInt64, 18}, {math.MaxInt64, 10},
		{math.MinInt64, 0}, {7, 20}, {12, -2},
	} {
		want := logical.Decimal{Unscaled: big.NewInt(c.v), Scale: c.scale}.String()
		assert.Equal(t, want, string(logical.AppendDecimal(nil, c.v, c.scale)), "%d scale %d", c.v, c.scale)
	}
	assert.Equal(t, "-0.005", string(logical.AppendDecimal(nil, -5, 3)))
}

// TestAppendDecimalBytes compares the 128-bit path with big.Int on random
// two's complement values of 0 to 20 bytes, their extremes and sign-byte
// padding, at several scales.
func TestAppendDecimalBytes(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var cases [][]byte
	for n := 0; n <= 20; n++ {
		for range 300 {
			b := make([]byte, n)
			for i := range b {
				b[i] = byte(rng.Uint32())
			}
			cases = append(cases, b)
		}
		if n > 0 {
			lo := make([]byte, n)
			lo[0] = 0x80
			hi := make([]byte, n)
			for i := range hi {
				hi[i] = 0xff
			}
			hi[0] = 0x7f
			cases = append(cases, lo, hi, make([]byte, n), bytesOf(0xff, n))
		}
	}
	cases = append(cases, []byte{0xff, 0xff, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}) // -2^127, padded
	for _, b := range cases {
		for _, scale := range []int32{0, 1, 2, 10, 18, 19, 38, 45, -2} {
			want := logical.Decimal{Unscaled: logical.DecimalBigInt(nil, b), Scale: scale}.String()
			if got := string(logical.AppendDecimalBytes(nil, b, scale)); got != want {
				t.Fatalf("% x scale %d: got %s, want %s", b, scale, got, want)
			}
		}
	}
	allocs := testing.AllocsPerRun(100, func() {
		logical.AppendDecimalBytes(make([]byte, 0, 64), bytesOf(0x99, 16), 10)
	})
	assert.LessOrEqual(t, allocs, 1.0)
}

func bytesOf(c byte, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = c
	}
	return b
}

// TestLeafOf checks the kind found for each annotation on each physical
// type, and that an annotation that does not fit stays physical.
func TestLeafOf(t *testing.T) {
	leaf := func(typ format.Type, length int32, lt *format.LogicalType, ct *format.ConvertedType) *format.SchemaElement {
		e := &format.SchemaElement{Name: "x", Type: &typ, LogicalType: lt, ConvertedType: ct}
		if length > 0 {
			e.TypeLength = &length
		}
		return e
	}
	ts := func(u format.TimeUnit, utc bool) *format.LogicalType {
		return &format.LogicalType{Kind: format.LogicalTimestamp, Unit: u, IsAdjustedToUTC: utc}
	}
	for _, c := range []struct {
		e    *format.SchemaElement
		want logical.Leaf
	}{
		{leaf(format.Int64, 0, ts(format.Micros, true), nil),
			logical.Leaf{Kind: logical.KindTimestamp, Type: format.Int64, Unit: format.Micros, UTC: true}},
		{leaf(format.Int64, 0, nil, ptr(format.ConvertedTimestampMillis)),
			logical.Leaf{Kind: logical.KindTimestamp, Type: format.Int64, Unit: format.Millis, UTC: true}},
		{leaf(format.Int32, 0, ts(format.Millis, true), nil), logical.Leaf{Type: format.Int32}},
		{leaf(format.Int32, 0, nil, ptr(format.ConvertedTimeMillis)),
			logical.Leaf{Kind: logical.KindTime, Type: format.Int32, Unit: format.Millis, UTC: true}},
		{leaf(format.Int32, 0, &format.LogicalType{Kind: format.LogicalTime, Unit: format.Micros}, nil), logical.Leaf{Type: format.Int32}},
		{leaf(format.Int32, 0, &format.LogicalType{Kind: format.LogicalDate}, nil), logical.Leaf{Kind: logical.KindDate, Type: format.Int32}},
		{leaf(format.Int64, 0, nil, ptr(format.ConvertedDate)), logical.Leaf{Type: format.Int64}},
		{leaf(format.Int96, 0, nil, nil), logical.Leaf{Kind: logical.KindInt96, Type: format.Int96, Unit: format.Nanos}},
		{leaf(format.FixedLenByteArray, 16, &format.LogicalType{Kind: format.LogicalUUID}, nil),
			logical.Leaf{Kind: logical.KindUUID, Type: format.FixedLenByteArray}},
		{leaf(format.FixedLenByteArray, 8, &format.LogicalType{Kind: format.LogicalUUID}, nil), logical.Leaf{Type: format.FixedLenByteArray}},
		{leaf(format.FixedLenByteArray, 12, nil, ptr(format.ConvertedInterval)),
			logical.Leaf{Kind: logical.KindInterval, Type: format.FixedLenByteArray}},
		{leaf(format.FixedLenByteArray, 2, &format.LogicalType{Kind: format.LogicalFloat16}, nil),
			logical.Leaf{Kind: logical.KindFloat16, Type: format.FixedLenByteArray}},
		{leaf(format.FixedLenByteArray, 9, &format.LogicalType{Kind: format.LogicalDecimal, Precision: 20, Scale: 3}, nil),
			logical.Leaf{Kind: logical.KindDecimal, Type: format.FixedLenByteArray, Precision: 20, Scale: 3}},
		{leaf(format.Int32, 0, &format.LogicalType{Kind: format.LogicalInteger, BitWidth: 8}, nil),
			logical.Leaf{Kind: logical.KindInteger, Type: format.Int32, BitWidth: 8}},
		{leaf(format.Int64, 0, nil, ptr(format.ConvertedUint64)),
			logical.Leaf{Kind: logical.KindInteger, Type: format.Int64, BitWidth: 64}},
		{leaf(format.Int32, 0, nil, ptr(format.ConvertedUint64)), logical.Leaf{Type: format.Int32}},
		{leaf(format.ByteArray, 0, &format.LogicalType{Kind: format.LogicalJSON}, nil), logical.Leaf{Kind: logical.KindString, Type: format.ByteArray}},
		{leaf(format.ByteArray, 0, &format.LogicalType{Kind: format.LogicalBSON}, nil), logical.Leaf{Type: format.ByteArray}},
		{leaf(format.Double, 0, nil, nil), logical.Leaf{Type: format.Double}},
	} {
		assert.Equal(t, c.want, logical.LeafOf(c.e), "%+v %+v", c.e, c.e.LogicalType)
	}
}

func TestLeafValue(t *testing.T) {
	utc := logical.Leaf{Kind: logical.KindTimestamp, Type: format.Int64, Unit: format.Millis, UTC: true}
	v, err := utc.Value(int64(1704067200123))
	require.NoError(t, err)
	assert.Equal(t, time.Date(2024, 1, 1, 0, 0, 0, 123e6, time.UTC), v)
	_, err = utc.Value(int32(1))
	assert.True(t, errors.Is(err, logical.ErrType))

	dec := logical.Leaf{Kind: logical.KindDecimal, Type: format.FixedLenByteArray, Precision: 30, Scale: 2}
	v, err = dec.Value([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x85})
	require.NoError(t, err)
	assert.Equal(t, "-1.23", v.(logical.Decimal).String())

	for _, c := range []struct {
		l    logical.Leaf
		in   any
		want any
	}{
		{logical.Leaf{Kind: logical.KindInteger, Type: format.Int32, BitWidth: 8}, int32(-1), uint8(255)},
		{logical.Leaf{Kind: logical.KindInteger, Type: format.Int32, BitWidth: 16, Signed: true}, int32(-2), int16(-2)},
		{logical.Leaf{Kind: logical.KindInteger, Type: format.Int32, BitWidth: 32}, int32(-1), uint32(math.MaxUint32)},
		{logical.Leaf{Kind: logical.KindInteger, Type: format.Int64, BitWidth: 64}, int64(-1), uint64(math.MaxUint64)},
		{logical.Leaf{Kind: logical.KindDate, Type: format.Int32}, int32(1), time.Date(1970, 1, 2, 0, 0, 0, 0, time.UTC)},
		{logical.Leaf{Kind: logical.KindTime, Type: format.Int64, Unit: format.Nanos}, int64(1500), 1500 * time.Nanosecond},
		{logical.Leaf{Kind: logical.KindString, Type: format.ByteArray}, []byte("hé"), "hé"},
		{logical.Leaf{Kind: logical.KindFloat16, Type: format.FixedLenByteArray}, []byte{0, 0x3c}, float32(1)},
		{logical.Leaf{Kind: logical.KindUUID, Type: format.FixedLenByteArray}, make([]byte, 16), logical.UUID{}},
		{logical.Leaf{Kind: logical.KindInterval, Type: format.FixedLenByteArray}, make([]byte, 12), logical.Interval{}},
		{logical.Leaf{Type: format.Double}, 1.5, 1.5},
	} {
		got, err := c.l.Value(c.in)
		require.NoError(t, err)
		assert.Equal(t, c.want, got)
	}
	_, err = logical.Leaf{Kind: logical.KindUUID, Type: format.FixedLenByteArray}.Value([]byte{1})
	assert.ErrorIs(t, err, logical.ErrType)
	assert.True(t, strings.HasPrefix(logical.KindUUID.String(), "UUID"))
}

func TestLeafAppendText(t *testing.T) {
	for _, c := range []struct {
		l    logical.Leaf
		v    any
		want string
	}{
		{logical.Leaf{Kind: logical.KindTimestamp, Type: format.Int64, Unit: format.Micros, UTC: true}, int64(1), "1970-01-01T00:00:00.000001Z"},
		{logical.Leaf{Kind: logical.KindDate, Type: format.Int32}, int32(-1), "1969-12-31"},
		{logical.Leaf{Kind: logical.KindTime, Type: format.Int32, Unit: format.Millis}, int32(1), "00:00:00.001"},
		{logical.Leaf{Kind: logical.KindDecimal, Type: format.ByteArray, Scale: 1}, []byte{0x85}, "-12.3"},
		{logical.Leaf{Kind: logical.KindDecimal, Type: format.Int64, Scale: 2}, int64(5), "0.05"},
		{logical.Leaf{Kind: logical.KindUUID, Type: format.FixedLenByteArray}, make([]byte, 16), "00000000-0000-0000-0000-000000000000"},
		{logical.Leaf{Kind: logical.KindUUID, Type: format.FixedLenByteArray}, []byte{0xab}, "ab"},
		{logical.Leaf{Kind: logical.KindInteger, Type: format.Int32, BitWidth: 16}, int32(-1), "65535"},
		{logical.Leaf{Kind: logical.KindFloat16, Type: format.FixedLenByteArray}, []byte{0x66, 0x2e}, "0.099975586"},
		{logical.Leaf{Kind: logical.KindString, Type: format.ByteArray}, []byte("é"), "é"},
		{logical.Leaf{Type: format.ByteArray}, []byte{1, 2}, "0102"},
		{logical.Leaf{Type: format.Int96}, [12]byte{1}, "010000000000000000000000"},
		{logical.Leaf{Type: format.Double}, 0.1, "0.1"},
		{logical.Leaf{Type: format.Boolean}, true, "true"},
		{logical.Leaf{Type: format.Float}, float32(math.Inf(-1)), "-Infinity"},
		{logical.Leaf{Type: format.Double}, math.NaN(), "NaN"},
	} {
		got, err := c.l.AppendText(nil, c.v)
		require.NoError(t, err)
		assert.Equal(t, c.want, string(got))
	}
	_, err := logical.Leaf{Kind: logical.KindDate, Type: format.Int32}.AppendText(nil, int64(1))
	assert.ErrorIs(t, err, logical.ErrType)
}
