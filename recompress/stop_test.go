package recompress

import (
	"bytes"
	"context"
	"errors"
	"os"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/internal/testcorpus"
)

// TestWorkerPanic checks that a panic while a page is rewritten is an
// error wrapping ErrInternal for the rewrite, on every worker count, and
// that the next rewrite works: the host process survives a bug below
// recompress (defence in depth, as column's File.ReadRowGroup has).
func TestWorkerPanic(t *testing.T) {
	src, err := os.ReadFile(testcorpus.Data(t, "alltypes_tiny_pages.parquet"))
	require.NoError(t, err)
	for _, workers := range []int{1, 2} {
		var pages atomic.Int32
		testPageHook = func(int64) {
			if pages.Add(1) == 7 {
				panic("injected")
			}
		}
		var out bytes.Buffer
		_, err := Rewrite(&out, bytes.NewReader(src), int64(len(src)), WithWorkers(workers))
		testPageHook = nil
		require.Error(t, err)
		require.True(t, errors.Is(err, ErrInternal), "%v", err)
		require.Contains(t, err.Error(), "injected")

		out.Reset()
		_, err = Rewrite(&out, bytes.NewReader(src), int64(len(src)), WithWorkers(workers))
		require.NoError(t, err)
	}
}

// TestRewriteContext checks that a rewrite stops between pages once its
// context is cancelled, with an error wrapping context.Canceled, and that a
// context cancelled before the call writes nothing.
func TestRewriteContext(t *testing.T) {
	src, err := os.ReadFile(testcorpus.Data(t, "alltypes_tiny_pages.parquet"))
	require.NoError(t, err)
	var out bytes.Buffer
	full, err := Rewrite(&out, bytes.NewReader(src), int64(len(src)), WithWorkers(1))
	require.NoError(t, err)
	require.Greater(t, full.Pages, 20)

	ctx, cancel := context.WithCancel(context.Background())
	var pages atomic.Int32
	testPageHook = func(int64) {
		if pages.Add(1) == 5 {
			cancel()
		}
	}
	defer func() { testPageHook = nil }()
	out.Reset()
	_, err = RewriteContext(ctx, &out, bytes.NewReader(src), int64(len(src)), WithWorkers(1))
	require.ErrorIs(t, err, context.Canceled)
	require.GreaterOrEqual(t, int(pages.Load()), 5)
	require.Less(t, int(pages.Load()), full.Pages/2, "pages rewritten after the cancel (of %d)", full.Pages)

	out.Reset()
	_, err = RewriteContext(ctx, &out, bytes.NewReader(src), int64(len(src)))
	require.ErrorIs(t, err, context.Canceled)
	require.Zero(t, out.Len())
}
