package merge_test

import (
	"bytes"
	"errors"
	"os"
	"testing"

	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/internal/testcorpus"
	"github.com/pqcodec/pqcodec/merge"
)

// TestMergeHugePage: combining row groups decodes their pages under the
// memory budget. testcorpus.Huge holds 2 GB of strings in 4 KB: merging it
// with itself took more than 24 GB (and the OOM killer) before the column
// readers were bounded; now it fails at once with column.ErrLimit.
func TestMergeHugePage(t *testing.T) {
	src, err := os.ReadFile(testcorpus.Data(t, testcorpus.Huge))
	if err != nil {
		t.Fatal(err)
	}
	in := merge.Reader(testcorpus.Huge, bytes.NewReader(src), int64(len(src)))
	var out bytes.Buffer
	_, err = merge.Merge(&out, []merge.Input{in, in})
	if !errors.Is(err, column.ErrLimit) || errors.Is(err, merge.ErrCorrupt) {
		t.Fatalf("got %v, want column.ErrLimit (and not ErrCorrupt)", err)
	}
}
