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

// keepOutput writes output n, of source under combination name, into dir
// and its line into manifest.
func keepOutput(t *testing.T, manifest *os.File, dir, source, name string, n int, output []byte) {
	t.Helper()
	src, err := filepath.Abs(source)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, fmt.Sprintf("%04d-%s", n, filepath.Base(source)))
	if out, err = filepath.Abs(out); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(out, output, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := fmt.Fprintf(manifest, "%s\t%s\t%s\n", src, out, name); err != nil {
		t.Fatal(err)
	}
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
// testdata/foreign under every combination and compares the rows. With
// $PQCODEC_REENCODE_DIR set it also keeps each output there and lists it in
// DIR/manifest.tsv ("source<TAB>output<TAB>combination", absolute paths), for
// DuckDB to read them back (make reencode-check, scripts/difftest/readback.mjs).
func TestCorpus(t *testing.T) {
	files := testcorpus.Files(t, "data", ".parquet")
	foreign, _ := filepath.Glob(filepath.Join("..", "testdata", "foreign", "*", "*.parquet"))
	files = append(files, foreign...)
	var manifest *os.File
	keepDir := os.Getenv("PQCODEC_REENCODE_DIR")
	if keepDir != "" {
		if err := os.MkdirAll(keepDir, 0o755); err != nil {
			t.Fatal(err)
		}
		var err error
		if manifest, err = os.Create(filepath.Join(keepDir, "manifest.tsv")); err != nil {
			t.Fatal(err)
		}
		defer manifest.Close()
	}
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
			if errors.Is(err, column.ErrChecksum) && strings.Contains(path, "corrupt-checksum") {
				continue // WithSourceChecksums: TestSourceChecksums
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
			if manifest != nil {
				keepOutput(t, manifest, keepDir, path, c.name, done, out.Bytes())
			}
			done++
		}
	}
	t.Logf("%d rewrites compared, %d files skipped", done, skipped)
	if done == 0 {
		t.Fatal(fmt.Sprint("no file rewritten"))
	}
}

// TestSourceChecksums checks that a page whose CRC32 does not match is not
// re-encoded, unless WithSourceChecksums(false).
func TestSourceChecksums(t *testing.T) {
	src, err := os.ReadFile(testcorpus.Data(t, "datapage_v1-corrupt-checksum.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	all := reencode.WithAll(writer.WithPageVersion(2))
	_, err = reencode.Rewrite(context.Background(), io.Discard, bytes.NewReader(src), int64(len(src)), all)
	if !errors.Is(err, column.ErrChecksum) || !errors.Is(err, reencode.ErrCorrupt) {
		t.Fatalf("got %v, want column.ErrChecksum", err)
	}
	var out bytes.Buffer
	if _, err := reencode.Rewrite(context.Background(), &out, bytes.NewReader(src), int64(len(src)), all, reencode.WithSourceChecksums(false)); err != nil {
		t.Fatal(err)
	}
	if err := reencode.Verify(context.Background(), bytes.NewReader(src), int64(len(src)), bytes.NewReader(out.Bytes()), int64(out.Len())); err != nil {
		t.Fatal(err)
	}
}
