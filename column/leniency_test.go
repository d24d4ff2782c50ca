package column

import (
	"bytes"
	"io"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/internal/testfile"
)

func ptr[T any](v T) *T { return &v }

// emptySchema is a root with one optional INT32 and one required
// BYTE_ARRAY column.
func emptySchema() []format.SchemaElement {
	return []format.SchemaElement{
		{Name: "root", NumChildren: ptr[int32](2)},
		{Name: "a", Type: ptr(format.Int32), RepetitionType: ptr(format.Optional)},
		{Name: "b", Type: ptr(format.ByteArray), RepetitionType: ptr(format.Required)},
	}
}

// TestZeroRowGroupsListType0 opens a file without row groups whose empty
// row_groups list has element type 0, as a JavaScript writer writes it
// (DuckDB, parquet-java, arrow-cpp and arrow-rs read it): zero rows.
func TestZeroRowGroupsListType0(t *testing.T) {
	data := testfile.File(emptySchema(), 0, nil, testfile.EmptyListType0)
	f, err := Open(bytes.NewReader(data), int64(len(data)))
	require.NoError(t, err)
	require.Equal(t, 0, f.NumRowGroups())
	require.Equal(t, 2, f.NumColumns())
	require.Zero(t, f.MetaData().NumRows)
	_, err = f.Column(0, 0)
	require.Error(t, err)
}

// openBytes opens a file built in memory.
func openBytes(t *testing.T, data []byte) *File {
	t.Helper()
	f, err := Open(bytes.NewReader(data), int64(len(data)))
	require.NoError(t, err)
	return f
}

// readPages reads every data page of chunk (0, col).
func readPages(t *testing.T, f *File, col int) ([]Page, error) {
	t.Helper()
	r, err := f.Column(0, col)
	require.NoError(t, err)
	var pages []Page
	for {
		var p Page
		if err := r.ReadPage(&p); err == io.EOF {
			return pages, nil
		} else if err != nil {
			return pages, err
		}
		pages = append(pages, p)
	}
}
