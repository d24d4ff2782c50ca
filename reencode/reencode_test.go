package reencode_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/internal/testcorpus"
	"github.com/pqcodec/pqcodec/reencode"
	"github.com/pqcodec/pqcodec/rows"
	"github.com/pqcodec/pqcodec/writer"
)

// rawRows returns the rows of file as cat --raw prints them, or an error.
func rawRows(file []byte) ([]string, error) {
	f, err := column.Open(bytes.NewReader(file), int64(len(file)))
	if err != nil {
		return nil, err
	}
	r, err := rows.NewReader(f, rows.WithRaw())
	if err != nil {
		return nil, err
	}
	var out []string
	for {
		line, err := r.AppendRow(nil)
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		out = append(out, string(line))
	}
}

// valueEncoding returns an encoding other than PLAIN that the leaf's type
// allows, or PLAIN.
func valueEncoding(t format.Type) format.Encoding {
	switch t {
	case format.Int32, format.Int64:
		return format.DeltaBinaryPacked
	case format.ByteArray:
		return format.DeltaByteArray
	case format.Float, format.Double, format.FixedLenByteArray:
		return format.ByteStreamSplit
	case format.Boolean:
		return format.RLE
	}
	return format.Plain
}

type combo struct {
	name string
	opts func(leaves []*format.Node) []reencode.Option
}

// combos are the rewrite flags one at a time and together.
var combos = []combo{
	{"page-version=2,page-size=1KiB", func([]*format.Node) []reencode.Option {
		return []reencode.Option{reencode.WithAll(writer.WithPageVersion(2), writer.WithPageSize(1024))}
	}},
	{"dictionary=false,encoding", func(leaves []*format.Node) []reencode.Option {
		opts := []reencode.Option{reencode.WithAll(writer.WithDictionary(false))}
		for _, l := range leaves {
			if l.Element.Type != nil {
				opts = append(opts, reencode.WithColumn(strings.Join(l.Path(), "."), writer.WithEncoding(valueEncoding(*l.Element.Type))))
			}
		}
		return opts
	}},
	{"encoding-first-column", func(leaves []*format.Node) []reencode.Option {
		return []reencode.Option{reencode.WithColumn(strings.Join(leaves[0].Path(), "."), writer.WithDictionary(false), writer.WithEncoding(valueEncoding(*leaves[0].Element.Type)))}
	}},
	{"bloom-last-column,page-index", func(leaves []*format.Node) []reencode.Option {
		return []reencode.Option{reencode.WithColumn(strings.Join(leaves[len(leaves)-1].Path(), "."), writer.WithBloomFilter(1000, 0.01), writer.WithPageIndex(true))}
	}},
	{"statistics=false,page-index=false,dictionary=true", func([]*format.Node) []reencode.Option {
		return []reencode.Option{reencode.WithAll(writer.WithStatistics(false), writer.WithPageIndex(false), writer.WithDictionary(true))}
	}},
	{"row-group-size=4KiB,page-version=2,bloom", func([]*format.Node) []reencode.Option {
		return []reencode.Option{reencode.WithRowGroupSize(4096), reencode.WithAll(writer.WithPageVersion(2), writer.WithBloomFilter(100, 0.05))}
	}},
}

// TestCorpus re-encodes every readable file of parquet-testing and
// testdata/foreign under every combination and compares the rows.
func TestCorpus(t *testing.T) {
	files := testcorpus.Files(t, "data", ".parquet")
	foreign, _ := filepath.Glob(filepath.Join("..", "testdata", "foreign", "*", "*.parquet"))
	files = append(files, foreign...)
	var done, skipped int
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if testing.Short() && len(src) > 64<<10 || filepath.Base(path) == testcorpus.Huge {
			continue
		}
		want, err := rawRows(src)
		if err != nil {
			skipped++ // encrypted, or not readable: covered by the readers' tests
			continue
		}
		f, _ := column.Open(bytes.NewReader(src), int64(len(src)))
		leaves := f.Schema().Leaves()
		if len(leaves) == 0 {
			continue
		}
		for _, c := range combos {
			var out bytes.Buffer
			_, err := reencode.Rewrite(context.Background(), &out, bytes.NewReader(src), int64(len(src)), c.opts(leaves)...)
			if errors.Is(err, reencode.ErrOption) && errors.Is(err, writer.ErrOption) {
				continue // an encoding the column's type does not take
			}
			if err != nil {
				t.Errorf("%s %s: %v", filepath.Base(path), c.name, err)
				continue
			}
			got, err := rawRows(out.Bytes())
			if err != nil {
				t.Errorf("%s %s: reading the output: %v", filepath.Base(path), c.name, err)
				continue
			}
			if len(got) != len(want) {
				t.Errorf("%s %s: %d rows, want %d", filepath.Base(path), c.name, len(got), len(want))
				continue
			}
			for i := range want {
				if got[i] != want[i] {
					t.Errorf("%s %s: row %d: %s, want %s", filepath.Base(path), c.name, i, got[i], want[i])
					break
				}
			}
			done++
		}
	}
	t.Logf("%d rewrites compared, %d files skipped", done, skipped)
	if done == 0 {
		t.Fatal(fmt.Sprint("no file rewritten"))
	}
}
