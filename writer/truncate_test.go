package writer_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/writer"
)

// TestStatisticsTruncate checks the exactness flags of chunk and page
// header statistics, exact by default and for other types, and the
// truncation of byte-array bounds under WithStatisticsTruncate.
func TestStatisticsTruncate(t *testing.T) {
	long := strings.Repeat("a", 40)
	v := strs(long+"z", long+"b", "m", "\xff\xff")
	s, err := format.ParseSchema("message m { required binary x (STRING); required int64 y; }")
	require.NoError(t, err)
	for _, trunc := range []int{0, 16} {
		var buf bytes.Buffer
		w, err := writer.New(&buf, s, writer.WithStatisticsTruncate(trunc), writer.WithDictionary(false))
		require.NoError(t, err)
		require.NoError(t, w.Write(0, v, nil, nil))
		require.NoError(t, w.Write(1, int64s(5, -3, 7, 1), nil, nil))
		require.NoError(t, w.Close())
		b := buf.Bytes()
		f, err := column.Open(bytes.NewReader(b), int64(len(b)))
		require.NoError(t, err)
		for i := range 2 {
			md := f.MetaData().RowGroups[0].Columns[i].MetaData
			var h format.PageHeader
			_, err := format.DecodePageHeader(b[md.DataPageOffset:], &h)
			require.NoError(t, err)
			for _, st := range []*format.Statistics{md.Statistics, &h.DataPageHeader.Statistics} {
				require.True(t, st.HasIsMinExact && st.HasIsMaxExact)
				require.True(t, st.IsMaxValueExact, "the max \\xff\\xff cannot be rounded up: kept whole")
				if i == 1 {
					require.True(t, st.IsMinValueExact)
					require.Equal(t, []byte{0xfd, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, st.MinValue)
					continue
				}
				require.Equal(t, "\xff\xff", string(st.MaxValue))
				if trunc == 0 {
					require.True(t, st.IsMinValueExact)
					require.Equal(t, long+"b", string(st.MinValue))
				} else {
					require.False(t, st.IsMinValueExact)
					require.Equal(t, long[:16], string(st.MinValue))
				}
			}
		}
	}
	// A max that can be rounded up is, and marked inexact.
	md, _ := writeOne(t, "message m { required binary x (STRING); }", strs(long+"z", "b"), nil, writer.WithStatisticsTruncate(8))
	require.Equal(t, "b", string(md.Statistics.MaxValue))
	require.True(t, md.Statistics.IsMaxValueExact)
	md, _ = writeOne(t, "message m { required binary x (STRING); }", strs(long+"z", "b"+long), nil, writer.WithStatisticsTruncate(8))
	require.Equal(t, "baaaaaab", string(md.Statistics.MaxValue))
	require.False(t, md.Statistics.IsMaxValueExact)
	require.Equal(t, long[:8], string(md.Statistics.MinValue))
	require.False(t, md.Statistics.IsMinValueExact)
	_, err = writer.New(&bytes.Buffer{}, s, writer.WithStatisticsTruncate(-1))
	require.ErrorIs(t, err, writer.ErrOption)
}
