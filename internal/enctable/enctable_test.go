package enctable

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/format"
)

// TestApplies pins which pairs are rows: the specification's table.
func TestApplies(t *testing.T) {
	want := map[format.Encoding][]format.Type{
		format.Plain: {format.Boolean, format.Int32, format.Int64, format.Int96, format.Float, format.Double,
			format.ByteArray, format.FixedLenByteArray},
		format.RLEDictionary: {format.Int32, format.Int64, format.Int96, format.Float, format.Double,
			format.ByteArray, format.FixedLenByteArray},
		format.RLE:                  {format.Boolean},
		format.DeltaBinaryPacked:    {format.Int32, format.Int64},
		format.DeltaLengthByteArray: {format.ByteArray},
		format.DeltaByteArray:       {format.ByteArray, format.FixedLenByteArray},
		format.ByteStreamSplit:      {format.Int32, format.Int64, format.Float, format.Double, format.FixedLenByteArray},
	}
	for e, types := range want {
		for _, tp := range allTypes {
			require.Equal(t, contains(types, tp), Lookup(e, tp) != nil, "%v %v", e, tp)
		}
	}
	require.Nil(t, Lookup(format.BitPacked, format.Int32))
	require.Nil(t, Lookup(-1, format.Int32))
	require.Nil(t, Lookup(format.Plain, 99))
}

func contains(l []format.Type, t format.Type) bool {
	for _, x := range l {
		if x == t {
			return true
		}
	}
	return false
}

func randomValues(r *rand.Rand, t format.Type, n int) *Values {
	v := &Values{Type: t}
	if t == format.FixedLenByteArray {
		v.TypeLength = 1 + r.IntN(20)
	}
	v.Offsets = []int32{0}
	for range n {
		switch t {
		case format.Boolean:
			v.Booleans = append(v.Booleans, r.IntN(3) == 0)
		case format.Int32:
			v.Int32s = append(v.Int32s, int32(r.Uint32()>>r.IntN(32)))
		case format.Int64:
			v.Int64s = append(v.Int64s, int64(r.Uint64()>>r.IntN(64)))
		case format.Int96:
			var x [12]byte
			x[r.IntN(12)] = byte(r.Uint32())
			v.Int96s = append(v.Int96s, x)
		case format.Float:
			v.Floats = append(v.Floats, float32(r.NormFloat64()))
		case format.Double:
			v.Doubles = append(v.Doubles, r.NormFloat64())
		case format.ByteArray:
			v.Bytes = fmt.Appendf(v.Bytes, "%x", r.Uint64()>>r.IntN(64))
			v.Offsets = append(v.Offsets, int32(len(v.Bytes)))
		case format.FixedLenByteArray:
			for range v.TypeLength {
				v.Bytes = append(v.Bytes, byte(r.IntN(4)))
			}
		}
	}
	if t != format.ByteArray {
		v.Offsets = nil
	}
	return v
}

// TestRowsRoundTrip encodes random values with every row and decodes them
// with the same row.
func TestRowsRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, row := range Rows() {
		if row.Encode == nil {
			require.NotNil(t, row.NewDictEncoder, "%v %v", row.Encoding, row.Type)
			continue
		}
		for _, n := range []int{0, 1, 7, 1000} {
			v := randomValues(r, row.Type, n)
			enc, err := row.Encode(nil, v)
			require.NoError(t, err)
			got := &Values{Type: row.Type, TypeLength: v.TypeLength}
			require.NoError(t, row.Decode(got, enc, n, n), "%v %v n=%d", row.Encoding, row.Type, n)
			require.Equal(t, n, got.Len())
			if n > 0 {
				if row.Type == format.ByteArray {
					require.Equal(t, v.Offsets, got.Offsets)
				}
				require.Equal(t, v, got, "%v %v", row.Encoding, row.Type)
			}
		}
	}
}

// TestDictEncoders checks that every dictionary row builds a dictionary
// whose size grows with its distinct values.
func TestDictEncoders(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, row := range Rows() {
		if row.NewDictEncoder == nil {
			continue
		}
		v := randomValues(r, row.Type, 100)
		d := row.NewDictEncoder(0, v.TypeLength)
		n, err := d.Put(v, 0, 100)
		require.NoError(t, err)
		require.Equal(t, 100, n)
		require.Equal(t, 100, d.NumIndices())
		require.Positive(t, d.Len())
		require.NotEmpty(t, d.AppendDictionaryPage(nil))
		require.NotEmpty(t, d.AppendIndexPage(nil))
		require.Zero(t, d.NumIndices())
		d.Reset()
		require.Zero(t, d.Len())
	}
}

func TestCorruptErrors(t *testing.T) {
	err := Lookup(format.Plain, format.Int32).Decode(&Values{Type: format.Int32}, []byte{1, 2}, 1, 1)
	require.ErrorIs(t, err, ErrCorrupt)
	require.Equal(t, "1 PLAIN INT32 values need 4 bytes, have 2", err.Error())
}
