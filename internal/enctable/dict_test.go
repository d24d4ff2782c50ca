package enctable

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/encoding/dictionary"
	"github.com/pqcodec/pqcodec/format"
)

// TestDictRoundTrip encodes a page of every type the dictionary rows take
// through the rows' DictEncoder and resolves it through Dict, which must
// give the values back and show the dictionary through its Values.
func TestDictRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, typ := range allTypes[1:] { // every type but BOOLEAN, which has no dictionary row
		v := randomValues(r, typ, 200)
		row := Lookup(format.RLEDictionary, v.Type)
		require.NotNil(t, row, "%v", v.Type)
		e := row.NewDictEncoder(0, v.TypeLength)
		n, err := e.Put(v, 0, v.Len())
		require.NoError(t, err)
		require.Equal(t, v.Len(), n)
		dictPage, indexPage := e.AppendDictionaryPage(nil), e.AppendIndexPage(nil)

		var d Dict
		dv := &Values{Type: v.Type, TypeLength: v.TypeLength}
		require.NoError(t, d.Reset(dv, dictPage, e.Len()), "%v", v.Type)
		require.Equal(t, e.Len(), dv.Len(), "%v", v.Type)
		require.NotZero(t, d.MemSize())

		got := &Values{Type: v.Type, TypeLength: v.TypeLength}
		require.NoError(t, d.Decode(got, indexPage, v.Len()), "%v", v.Type)
		require.Equal(t, v.Len(), got.Len(), "%v", v.Type)
		want, err := encodePlain(nil, v)
		require.NoError(t, err)
		have, err := encodePlain(nil, got)
		require.NoError(t, err)
		require.True(t, bytes.Equal(want, have), "%v", v.Type)

		// An index past the dictionary (of at most 200 values): one RLE
		// run of index 255 at width 8.
		require.ErrorIs(t, d.Decode(got, []byte{8, 2, 0xff}, 1), dictionary.ErrCorrupt, "%v", v.Type)
	}
}

// TestDictBudget checks that the budget is asked before byte array
// lookups grow their values, and that its error stops the decode with the
// values appended so far dropped.
func TestDictBudget(t *testing.T) {
	long := bytes.Repeat([]byte("0123456789"), 100)
	v := &Values{Type: format.ByteArray, Bytes: long, Offsets: []int32{0, int32(len(long))}}
	for range 299 {
		v.Offsets = append(v.Offsets, int32(len(long)))
	}
	e := Lookup(format.RLEDictionary, format.ByteArray).NewDictEncoder(0, 0)
	_, err := e.Put(v, 0, 1) // one value: the long one
	require.NoError(t, err)
	_, err = e.Put(&Values{Type: format.ByteArray, Bytes: long, Offsets: v.Offsets[:301]}, 0, 300)
	require.NoError(t, err)
	count := e.NumIndices()
	dictPage, indexPage := e.AppendDictionaryPage(nil), e.AppendIndexPage(nil)

	var d Dict
	dv := &Values{Type: format.ByteArray}
	require.NoError(t, d.Reset(dv, dictPage, e.Len()))
	errBudget := errors.New("over budget")
	asked := 0
	d.SetBudget(func(size int) error {
		asked = max(asked, size)
		return errBudget
	})
	got := &Values{Type: format.ByteArray, Bytes: []byte("head"), Offsets: []int32{0, 4}}
	require.ErrorIs(t, d.Decode(got, indexPage, count), errBudget)
	require.Greater(t, asked, len(long))
	require.Equal(t, 1, got.Len())
	require.Equal(t, "head", string(got.Bytes))

	asked = 0
	d.SetBudget(func(size int) error { asked = max(asked, size); return nil })
	require.NoError(t, d.Decode(got, indexPage, count))
	require.Equal(t, 1+count, got.Len())
	require.GreaterOrEqual(t, asked, 2*len(long))
}
