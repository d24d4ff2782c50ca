package writer_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/codecfactory"
	"github.com/pqcodec/pqcodec/writer"
)

// TestWriteForReaders writes every corpus file column reads, under a few
// option sets, into $PQCODEC_READBACK_DIR with a manifest.tsv, for readers
// outside Go: scripts/difftest/readback.mjs (make readback) checks that
// DuckDB, arrow-rs, Polars and hyparquet read each copy as they read its
// source. Skipped when the variable is not set.
func TestWriteForReaders(t *testing.T) {
	dir := os.Getenv("PQCODEC_READBACK_DIR")
	if dir == "" {
		t.Skip("PQCODEC_READBACK_DIR not set")
	}
	require.NoError(t, os.MkdirAll(dir, 0o755))
	codecs, err := codecfactory.New()
	require.NoError(t, err)
	sets := optionSets(codecs)
	var manifest strings.Builder
	for i, path := range corpusInputs(t) {
		if strings.HasSuffix(path, "large_string_map.brotli.parquet") {
			continue
		}
		b, err := os.ReadFile(path)
		require.NoError(t, err)
		src, err := readFile(b)
		if err != nil {
			continue
		}
		abs, err := filepath.Abs(path)
		require.NoError(t, err)
		for _, set := range sets {
			if set.name != "default" && set.name != "v2-snappy-nodict" && set.name != "v1-gzip-fallback-delta" {
				continue
			}
			opts := append(slices.Clone(set.opts), writer.WithCodecs(codecs))
			for k, leaf := range src.schema.Leaves() {
				opts = append(opts, writer.WithColumn(strings.Join(leaf.Path(), "."), writer.WithEncoding(set.enc(*leaf.Element.Type, k))))
			}
			out, err := writeFile(src, set.window(src.numRows()), opts...)
			require.NoError(t, err)
			name := filepath.Join(dir, fmt.Sprintf("%03d-%s-%s", i, set.name, filepath.Base(path)))
			require.NoError(t, os.WriteFile(name, out, 0o644))
			fmt.Fprintf(&manifest, "%s\t%s\t%s\n", abs, name, set.name)
		}
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, "manifest.tsv"), []byte(manifest.String()), 0o644))
}
