package writer_test

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/writer"
)

// TestSortingColumns declares a sort order and reads it back from every
// row group's footer entry through column.File.
func TestSortingColumns(t *testing.T) {
	var buf bytes.Buffer
	w, err := writer.New(&buf, testSchema(t), writer.WithSortingColumns(
		writer.SortingColumn{Path: "name", Descending: true},
		writer.SortingColumn{Path: "id", NullsFirst: true},
		writer.SortingColumn{Path: "tags.list.element"}))
	require.NoError(t, err)
	for g := range 3 {
		require.NoError(t, w.Write(0, int64s(int64(g)), nil, nil))
		require.NoError(t, w.Write(1, strs("x"), []int16{1}, nil))
		require.NoError(t, w.Write(2, strs(), []int16{0}, []int16{0}))
		require.NoError(t, w.Write(3, &column.Values{Type: format.FixedLenByteArray, TypeLength: 2, Bytes: []byte{0, 0x3c}}, nil, nil))
		require.NoError(t, w.Flush())
	}
	require.NoError(t, w.Close())
	f, err := column.Open(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	require.NoError(t, err)
	require.Equal(t, 3, f.NumRowGroups())
	want := []format.SortingColumn{{ColumnIdx: 1, Descending: true}, {ColumnIdx: 0, NullsFirst: true}, {ColumnIdx: 2}}
	for g := range 3 {
		require.Equal(t, want, f.MetaData().RowGroups[g].SortingColumns, "row group %d", g)
	}

	// Without the option, no sorting_columns field.
	buf.Reset()
	writeSample(t, &buf, 1)
	f, err = column.Open(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	require.NoError(t, err)
	require.Nil(t, f.MetaData().RowGroups[0].SortingColumns)
}

func TestSortingColumnsInvalid(t *testing.T) {
	for name, opt := range map[string]writer.Option{
		"no such column":    writer.WithSortingColumns(writer.SortingColumn{Path: "nope"}),
		"group, not leaf":   writer.WithSortingColumns(writer.SortingColumn{Path: "tags"}),
		"twice":             writer.WithSortingColumns(writer.SortingColumn{Path: "id"}, writer.SortingColumn{Path: "id", Descending: true}),
		"inside WithColumn": writer.WithColumn("id", writer.WithSortingColumns(writer.SortingColumn{Path: "id"})),
	} {
		t.Run(name, func(t *testing.T) {
			_, err := writer.New(&bytes.Buffer{}, testSchema(t), opt)
			require.ErrorIs(t, err, writer.ErrOption)
		})
	}
}
