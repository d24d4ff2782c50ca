package merge_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/internal/testcorpus"
	"github.com/pqcodec/pqcodec/merge"
	"github.com/pqcodec/pqcodec/rows"
)

// corpusRows returns the rows of file as cat --raw prints them, or false
// when pqcodec does not read it (encrypted, damaged).
func corpusRows(file []byte) ([]string, bool) {
	f, err := column.Open(bytes.NewReader(file), int64(len(file)))
	if err != nil {
		return nil, false
	}
	r, err := rows.NewReader(f, rows.WithRaw())
	if err != nil {
		return nil, false
	}
	var out []string
	for {
		line, err := r.AppendRow(nil)
		if err != nil {
			return out, err.Error() == "EOF"
		}
		out = append(out, string(line))
	}
}

// TestMergeCorpus merges every readable file of parquet-testing and
// testdata/foreign with itself, copied and combined, and compares the rows
// (twice the file's), as cat --raw prints them, and Verify.
func TestMergeCorpus(t *testing.T) {
	files := testcorpus.Files(t, "data", ".parquet")
	foreign, _ := filepath.Glob(filepath.Join("..", "testdata", "foreign", "*", "*.parquet"))
	files = append(files, foreign...)
	var merged int
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if testing.Short() && len(src) > 64<<10 || filepath.Base(path) == testcorpus.Huge {
			continue
		}
		want, ok := corpusRows(src)
		if !ok {
			continue
		}
		want = slices.Concat(want, want)
		in := merge.Reader(filepath.Base(path), bytes.NewReader(src), int64(len(src)))
		inputs := []merge.Input{in, in}
		for _, min := range []int64{0, 1 << 40} {
			var out bytes.Buffer
			res, err := merge.Merge(&out, inputs, merge.WithMinRowGroupSize(min))
			if err != nil {
				t.Errorf("%s (min %d): %v", path, min, err)
				continue
			}
			got, ok := corpusRows(out.Bytes())
			if !ok || !slices.Equal(got, want) {
				t.Errorf("%s (min %d): rows differ (read: %v)", path, min, ok)
				continue
			}
			if err := merge.Verify(context.Background(), bytes.NewReader(out.Bytes()), int64(out.Len()), inputs, res); err != nil {
				t.Errorf("%s (min %d): %v", path, min, err)
			}
			merged++
		}
	}
	t.Logf("%d merges compared", merged)
}
