package enctable

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/format"
)

func TestAppendRange(t *testing.T) {
	src := &Values{Type: format.ByteArray, Bytes: []byte("abcdefgh"), Offsets: []int32{0, 1, 3, 3, 8}}
	dst := &Values{Type: format.ByteArray}
	dst.AppendRange(src, 2, 2) // empty: only the leading offset
	require.Equal(t, []int32{0}, dst.Offsets)
	dst.AppendRange(src, 1, 4)
	dst.AppendRange(src, 0, 1)
	require.Equal(t, "bcdefgha", string(dst.Bytes))
	require.Equal(t, []int32{0, 2, 2, 7, 8}, dst.Offsets)
	require.Equal(t, 4, dst.Len())

	flba := &Values{Type: format.FixedLenByteArray, TypeLength: 2, Bytes: []byte("aabbccdd")}
	out := &Values{Type: format.FixedLenByteArray, TypeLength: 2, Bytes: []byte("zz")}
	out.AppendRange(flba, 1, 3)
	require.Equal(t, "zzbbcc", string(out.Bytes))

	ints := &Values{Type: format.Int64, Int64s: []int64{1, 2, 3, 4}}
	got := &Values{Type: format.Int64}
	got.AppendRange(ints, 3, 4)
	got.AppendRange(ints, 0, 2)
	require.Equal(t, []int64{4, 1, 2}, got.Int64s)
}
