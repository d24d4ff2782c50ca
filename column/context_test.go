package column

import (
	"context"
	"encoding/binary"
	"errors"
	"io"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/format"
)

// countdownCtx is a context whose Err turns to Canceled after left calls:
// it shows where a reader checks it.
type countdownCtx struct {
	context.Context
	left int
}

func (c *countdownCtx) Err() error {
	if c.left <= 0 {
		return context.Canceled
	}
	c.left--
	return nil
}

func (c *countdownCtx) Done() <-chan struct{} { return nil }
func (c *countdownCtx) Deadline() (time.Time, bool) {
	return time.Time{}, false
}

// pagesFile is one required INT32 column of n v1 pages of 2 values each
// (2i, 2i+1), without a page index.
func pagesFile(t *testing.T, n int) *File {
	t.Helper()
	var pages [][]byte
	for i := range n {
		body := binary.LittleEndian.AppendUint32(nil, uint32(2*i))
		body = binary.LittleEndian.AppendUint32(body, uint32(2*i+1))
		pages = append(pages, v1Page(2, format.Plain, body))
	}
	return oneColumn(t, reqInt32, int64(2*n), false, pages...)
}

// TestReadPageContext stops between pages once its context is cancelled,
// and goes on with a live one.
func TestReadPageContext(t *testing.T) {
	f := pagesFile(t, 10)
	r, err := f.Column(0, 0)
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	var p Page
	require.NoError(t, r.ReadPageContext(ctx, &p))
	require.Equal(t, []int32{0, 1}, p.Values.Int32s)
	cancel()
	err = r.ReadPageContext(ctx, &p)
	require.ErrorIs(t, err, context.Canceled)
	var pe *PageError
	require.True(t, errors.As(err, &pe), "%T", err)
	require.NoError(t, r.ReadPageContext(context.Background(), &p))
	require.Equal(t, []int32{2, 3}, p.Values.Int32s)
	for {
		if err := r.ReadPageContext(context.Background(), &p); err == io.EOF {
			break
		} else {
			require.NoError(t, err)
		}
	}
}

// TestSeekRowContext checks the context before each page header a seek
// without an offset index walks past.
func TestSeekRowContext(t *testing.T) {
	f := pagesFile(t, 100)
	r, err := f.Column(0, 0)
	require.NoError(t, err)
	ctx := &countdownCtx{Context: context.Background(), left: 10}
	err = r.SeekRowContext(ctx, 150)
	require.ErrorIs(t, err, context.Canceled)
	require.Zero(t, ctx.left)
	// A live context seeks, forward and back.
	var p Page
	for _, row := range []int64{150, 3} {
		require.NoError(t, r.SeekRowContext(context.Background(), row))
		require.NoError(t, r.ReadPage(&p))
		require.Equal(t, int32(row), p.Values.Int32s[0])
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	require.ErrorIs(t, r.SeekRowContext(cancelled, 10), context.Canceled)
}
