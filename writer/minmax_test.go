package writer_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/writer"
)

// writeOne writes one column batch in a file of schema text and returns the
// file's footer and its first chunk's column index.
func writeOne(t *testing.T, text string, v *column.Values, def []int16, opts ...writer.Option) (*format.ColumnMetaData, *format.ColumnIndex) {
	t.Helper()
	s, err := format.ParseSchema(text)
	require.NoError(t, err)
	var buf bytes.Buffer
	w, err := writer.New(&buf, s, opts...)
	require.NoError(t, err)
	require.NoError(t, w.Write(0, v, def, nil))
	require.NoError(t, w.Close())
	f, err := column.Open(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	require.NoError(t, err)
	ci, _, err := f.PageIndex(0, 0)
	require.NoError(t, err)
	return f.MetaData().RowGroups[0].Columns[0].MetaData, ci
}

func f64(b []byte) float64 { return math.Float64frombits(binary.LittleEndian.Uint64(b)) }

func TestStatisticsFloats(t *testing.T) {
	nan := math.NaN()
	md, ci := writeOne(t, "message m { required double x; }",
		&column.Values{Type: format.Double, Doubles: []float64{nan, 0, 2, nan, -1, math.Copysign(0, -1)}}, nil)
	st := md.Statistics
	require.Equal(t, -1.0, f64(st.MinValue))
	require.Equal(t, 2.0, f64(st.MaxValue))
	require.NotNil(t, ci)

	// Zeros: a min of zero is -0, a max of zero +0.
	md, _ = writeOne(t, "message m { required double x; }", &column.Values{Type: format.Double, Doubles: []float64{0, 0}}, nil)
	require.True(t, math.Signbit(f64(md.Statistics.MinValue)))
	require.False(t, math.Signbit(f64(md.Statistics.MaxValue)))

	// Only NaNs: no min or max, and no column index (a page without
	// bounds cannot be described).
	md, ci = writeOne(t, "message m { required double x; }", &column.Values{Type: format.Double, Doubles: []float64{nan, nan}}, nil)
	require.Nil(t, md.Statistics.MinValue)
	require.Nil(t, md.Statistics.MaxValue)
	require.Nil(t, ci)
}

func TestStatisticsOrders(t *testing.T) {
	// UINT_32: unsigned order.
	md, _ := writeOne(t, "message m { required int32 x (INTEGER(32,false)); }",
		&column.Values{Type: format.Int32, Int32s: []int32{-1, 5, 7}}, nil)
	require.Equal(t, uint32(5), binary.LittleEndian.Uint32(md.Statistics.MinValue))
	require.Equal(t, uint32(math.MaxUint32), binary.LittleEndian.Uint32(md.Statistics.MaxValue))
	require.Nil(t, md.Statistics.Min, "no signed legacy min for an unsigned column")

	// Signed INT32: also the deprecated min and max.
	md, _ = writeOne(t, "message m { required int32 x; }", &column.Values{Type: format.Int32, Int32s: []int32{-1, 5, 7}}, nil)
	require.Equal(t, int32(-1), int32(binary.LittleEndian.Uint32(md.Statistics.Min)))

	// DECIMAL in FIXED_LEN_BYTE_ARRAY: two's complement.
	md, _ = writeOne(t, "message m { required fixed_len_byte_array(2) x (DECIMAL(4,2)); }",
		&column.Values{Type: format.FixedLenByteArray, TypeLength: 2, Bytes: []byte{0xff, 0xfe, 0x00, 0x01, 0x7f, 0x00}}, nil)
	require.Equal(t, []byte{0xff, 0xfe}, md.Statistics.MinValue)
	require.Equal(t, []byte{0x7f, 0x00}, md.Statistics.MaxValue)

	// INT96: undefined order, no min or max, no column index.
	md, ci := writeOne(t, "message m { required int96 x; }", &column.Values{Type: format.Int96, Int96s: [][12]byte{{1}, {2}}}, nil)
	require.Nil(t, md.Statistics.MinValue)
	require.True(t, md.Statistics.HasNullCount)
	require.Nil(t, ci)
}

func TestColumnIndexTruncation(t *testing.T) {
	long := strings.Repeat("a", 100)
	v := &column.Values{Type: format.ByteArray, Offsets: []int32{0}}
	for _, s := range []string{long + "z", long + "b", "\xff" + strings.Repeat("\xff", 99)} {
		v.Bytes = append(v.Bytes, s...)
		v.Offsets = append(v.Offsets, int32(len(v.Bytes)))
	}
	md, ci := writeOne(t, "message m { optional binary x (STRING); }", v, []int16{1, 0, 1, 1})
	// The chunk statistics are exact; the column index bounds truncated
	// to 64 bytes, the max of all-0xFF bytes kept whole.
	require.Equal(t, long+"b", string(md.Statistics.MinValue))
	require.Len(t, ci.MinValues[0], 64)
	require.Equal(t, strings.Repeat("a", 64), string(ci.MinValues[0]))
	require.Len(t, ci.MaxValues[0], 100)
	require.Equal(t, []int64{1}, ci.NullCounts)

	v2 := &column.Values{Type: format.ByteArray, Offsets: []int32{0, 101}, Bytes: []byte(long + "z")}
	_, ci = writeOne(t, "message m { required binary x (STRING); }", v2, nil)
	require.Equal(t, strings.Repeat("a", 63)+"b", string(ci.MaxValues[0]), "max rounded up at its last byte")
}

// TestStatisticsByteArrayBounds checks the min and max of byte arrays
// against a sort of the values, for values of 0 to 12 bytes drawn from
// bytes 0, 1 and 0xff (so a shorter value is often a prefix of a longer one,
// or equal to it in its first 8 bytes), over many batches.
func TestStatisticsByteArrayBounds(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for round := range 200 {
		var v column.Values
		v.Type, v.Offsets = format.ByteArray, []int32{0}
		lo, hi := []byte(nil), []byte(nil)
		for i := range 1 + r.IntN(40) {
			start := len(v.Bytes)
			for range r.IntN(13) {
				v.Bytes = append(v.Bytes, []byte{0, 1, 0xff}[r.IntN(3)])
			}
			v.Offsets = append(v.Offsets, int32(len(v.Bytes)))
			b := v.Bytes[start:]
			if i == 0 || bytes.Compare(b, lo) < 0 {
				lo = b
			}
			if i == 0 || bytes.Compare(b, hi) > 0 {
				hi = b
			}
		}
		md, _ := writeOne(t, "message m { required binary x; }", &v, nil)
		require.NotNil(t, md.Statistics.MinValue, "round %d", round)
		require.Equal(t, string(lo), string(md.Statistics.MinValue), "round %d", round)
		require.Equal(t, string(hi), string(md.Statistics.MaxValue), "round %d", round)
	}
}

// TestDictionaryPageStatistics checks that dictionary-encoded pages, whose
// min and max come from their distinct dictionary values, get the same page
// and chunk bounds as PLAIN pages, for doubles with NaNs and zeros and for
// byte arrays, over pages of few and of many distinct values (where the
// writer goes back to a per-value min and max) and a dictionary that falls
// back mid-chunk.
func TestDictionaryPageStatistics(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	dbl := make([]float64, 30_000)
	for i := range dbl {
		switch {
		case i < 10_000:
			dbl[i] = float64(r.IntN(50)) - 25
		case i < 11_000:
			dbl[i] = []float64{math.NaN(), 0, math.Copysign(0, -1)}[r.IntN(3)]
		default:
			dbl[i] = r.NormFloat64()
		}
	}
	var strs column.Values
	strs.Type, strs.Offsets = format.ByteArray, []int32{0}
	for i := range 30_000 {
		if i < 15_000 {
			strs.Bytes = fmt.Appendf(strs.Bytes, "v%d", r.IntN(30))
		} else {
			strs.Bytes = fmt.Appendf(strs.Bytes, "w%d", r.Uint64())
		}
		strs.Offsets = append(strs.Offsets, int32(len(strs.Bytes)))
	}
	for _, tc := range []struct {
		schema string
		v      *column.Values
	}{
		{"message m { required double x; }", &column.Values{Type: format.Double, Doubles: dbl}},
		{"message m { required binary x; }", &strs},
	} {
		for _, limit := range []int{1 << 20, 4 << 10} {
			opts := []writer.Option{writer.WithPageRows(1000), writer.WithDictionaryLimit(limit)}
			mdDict, ciDict := writeOne(t, tc.schema, tc.v, nil, opts...)
			mdPlain, ciPlain := writeOne(t, tc.schema, tc.v, nil, append(opts, writer.WithDictionary(false))...)
			require.Contains(t, mdDict.Encodings, format.RLEDictionary)
			require.Equal(t, mdPlain.Statistics.MinValue, mdDict.Statistics.MinValue)
			require.Equal(t, mdPlain.Statistics.MaxValue, mdDict.Statistics.MaxValue)
			require.Equal(t, ciPlain.MinValues, ciDict.MinValues, "%s limit %d", tc.schema, limit)
			require.Equal(t, ciPlain.MaxValues, ciDict.MaxValues, "%s limit %d", tc.schema, limit)
		}
	}
}
