package arrowgo

import (
	"bytes"
	"testing"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/writer"
)

// TestWriterSortingColumns writes a file with writer.WithSortingColumns and
// reads each row group's sort order back with arrow-go's reader.
func TestWriterSortingColumns(t *testing.T) {
	s, err := format.ParseSchema(`message m { required int64 id; optional binary name (STRING); required double x; }`)
	require.NoError(t, err)
	var buf bytes.Buffer
	w, err := writer.New(&buf, s, writer.WithSortingColumns(
		writer.SortingColumn{Path: "x", Descending: true, NullsFirst: true},
		writer.SortingColumn{Path: "id"}))
	require.NoError(t, err)
	for g := range 2 {
		require.NoError(t, w.Write(0, &column.Values{Type: format.Int64, Int64s: []int64{int64(g), int64(g) + 1}}, nil, nil))
		require.NoError(t, w.Write(1, &column.Values{Type: format.ByteArray, Bytes: []byte("a"), Offsets: []int32{0, 1}}, []int16{1, 0}, nil))
		require.NoError(t, w.Write(2, &column.Values{Type: format.Double, Doubles: []float64{2, 1}}, nil, nil))
		require.NoError(t, w.Flush())
	}
	require.NoError(t, w.Close())

	rdr, err := file.NewParquetReader(bytes.NewReader(buf.Bytes()))
	require.NoError(t, err)
	defer rdr.Close()
	require.Equal(t, 2, rdr.NumRowGroups())
	want := []parquet.SortingColumn{
		{ColumnIdx: 2, Descending: true, NullsFirst: true},
		{ColumnIdx: 0, Descending: false, NullsFirst: false},
	}
	for g := range rdr.NumRowGroups() {
		got := rdr.MetaData().RowGroup(g).SortingColumns()
		require.Len(t, got, len(want))
		for i := range want {
			require.Equal(t, want[i].ColumnIdx, got[i].ColumnIdx, "row group %d, sorting column %d", g, i)
			require.Equal(t, want[i].Descending, got[i].Descending, "row group %d, sorting column %d", g, i)
			require.Equal(t, want[i].NullsFirst, got[i].NullsFirst, "row group %d, sorting column %d", g, i)
		}
	}
}
