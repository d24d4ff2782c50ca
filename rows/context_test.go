package rows

import (
	"bytes"
	"context"
	"io"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/internal/testcorpus"
)

// TestReadRowContext reads alltypes_tiny_pages.parquet (pages of a few
// rows) under a context cancelled after 100 rows: the rows already in
// pages still come, and the first row needing a new page fails with
// context.Canceled. A cancelled context fails every method before their
// first page.
func TestReadRowContext(t *testing.T) {
	f, err := column.OpenFile(testcorpus.Data(t, "alltypes_tiny_pages.parquet"))
	require.NoError(t, err)
	defer f.Close()
	r, err := NewReader(f)
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	var row Group
	for range 100 {
		row, err = r.ReadRowContext(ctx, row)
		require.NoError(t, err)
	}
	cancel()
	more := 0
	for ; ; more++ {
		row, err = r.ReadRowContext(ctx, row)
		if err != nil {
			break
		}
	}
	require.ErrorIs(t, err, context.Canceled)
	require.Less(t, more, 100, "rows read after the cancel: pages hold a few rows")

	for name, read := range map[string]func(*Reader) error{
		"ReadRow":   func(r *Reader) error { _, err := r.ReadRowContext(ctx, nil); return err },
		"AppendRow": func(r *Reader) error { _, err := r.AppendRowContext(ctx, nil); return err },
		"WriteRow":  func(r *Reader) error { return r.WriteRowContext(ctx, io.Discard) },
		"SkipRows":  func(r *Reader) error { _, err := r.SkipRowsContext(ctx, 10); return err },
		"WithRange": func(r *Reader) error { _, err := r.ReadRowContext(ctx, nil); return err },
	} {
		opts := []Option{}
		if name == "WithRange" {
			opts = append(opts, WithRange(3000, 10)) // a seek inside a row group
		}
		r, err := NewReader(f, opts...)
		require.NoError(t, err)
		require.ErrorIs(t, read(r), context.Canceled, name)
	}

	// A live context reads what the plain methods read.
	var a, b bytes.Buffer
	r1, _ := NewReader(f, WithRange(1000, 50))
	r2, _ := NewReader(f, WithRange(1000, 50))
	for {
		err1 := r1.WriteRow(&a)
		err2 := r2.WriteRowContext(context.Background(), &b)
		require.Equal(t, err1, err2)
		if err1 != nil {
			require.ErrorIs(t, err1, io.EOF)
			break
		}
	}
	require.Equal(t, a.String(), b.String())
	require.Equal(t, 50, bytes.Count(a.Bytes(), []byte("\n")))
}
