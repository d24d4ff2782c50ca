package reencode_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"testing"

	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/internal/testcorpus"
	"github.com/pqcodec/pqcodec/reencode"
	"github.com/pqcodec/pqcodec/writer"
)

// TestRewriteHugePage: re-encoded columns are decoded under WithMaxMemory,
// so testcorpus.Huge (2 GB of strings in 4 KB) fails with column.ErrLimit
// instead of exhausting memory.
func TestRewriteHugePage(t *testing.T) {
	src, err := os.ReadFile(testcorpus.Data(t, testcorpus.Huge))
	if err != nil {
		t.Fatal(err)
	}
	_, err = reencode.Rewrite(context.Background(), io.Discard, bytes.NewReader(src), int64(len(src)),
		reencode.WithAll(writer.WithPageSize(1<<20)), reencode.WithMaxMemory(64<<20))
	if !errors.Is(err, column.ErrLimit) || errors.Is(err, reencode.ErrCorrupt) {
		t.Fatalf("got %v, want column.ErrLimit (and not ErrCorrupt)", err)
	}
	_, err = reencode.Rewrite(context.Background(), io.Discard, bytes.NewReader(src), int64(len(src)), reencode.WithMaxMemory(0))
	if !errors.Is(err, reencode.ErrOption) {
		t.Fatalf("WithMaxMemory(0): got %v, want ErrOption", err)
	}
}
