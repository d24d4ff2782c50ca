package rows

import (
	"io"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/column"
)

func openRegress(t *testing.T, name string) *column.File {
	t.Helper()
	f, err := column.OpenFile(filepath.Join("..", "testdata", "regress", name))
	require.NoError(t, err)
	t.Cleanup(func() { f.Close() })
	return f
}

// allRows returns every row of r as JSON, and ReadRow's rows.
func allRows(t *testing.T, f *column.File, opts ...Option) []string {
	t.Helper()
	// Physical values, which appendJSON renders from ReadRow's.
	opts = append([]Option{WithRaw()}, opts...)
	r, err := NewReader(f, opts...)
	require.NoError(t, err)
	var out []string
	for {
		b, err := r.AppendRow(nil)
		if err == io.EOF {
			break
		}
		require.NoError(t, err)
		out = append(out, string(b))
	}
	r, err = NewReader(f, opts...)
	require.NoError(t, err)
	for i := 0; ; i++ {
		g, err := r.ReadRow(nil)
		if err == io.EOF {
			require.Equal(t, len(out), i, "ReadRow and AppendRow disagree on the row count")
			break
		}
		require.NoError(t, err)
		require.Equal(t, out[i], string(appendJSON(nil, g)))
	}
	return out
}

// TestNoColumns reads a file whose schema has no leaf columns and whose
// row group holds 2 rows (testdata/regress/no_columns.parquet, as
// fastparquet writes them): 2 empty records, where it read none.
func TestNoColumns(t *testing.T) {
	f := openRegress(t, "no_columns.parquet")
	require.Equal(t, []string{"{}", "{}"}, allRows(t, f))
	require.Equal(t, []string{"{}"}, allRows(t, f, WithRange(1, -1)))
	require.Equal(t, []string{"{}"}, allRows(t, f, WithRange(0, 1)))
	require.Empty(t, allRows(t, f, WithRange(2, -1)))
	r, err := NewReader(f)
	require.NoError(t, err)
	n, err := r.SkipRows(5)
	require.Equal(t, int64(2), n)
	require.ErrorIs(t, err, io.EOF)
}

// TestPlainTrailingBytes reads testdata/regress/plain_trailing_bytes.parquet:
// PLAIN BYTE_ARRAY pages with bytes after their last value (HVR 5.3).
func TestPlainTrailingBytes(t *testing.T) {
	f := openRegress(t, "plain_trailing_bytes.parquet")
	require.Equal(t, []string{
		`{"s":"ab","o":"x","d":"green"}`,
		`{"s":"cde","o":null,"d":"red"}`,
		`{"s":"f","o":"yz","d":"green"}`,
	}, allRows(t, f))
}
