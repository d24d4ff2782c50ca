package main

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/internal/testcorpus"
)

// TestRewriteReencode runs rewrite with each re-encoding flag, and all of
// them together, and compares cat --raw of the output with the input's.
func TestRewriteReencode(t *testing.T) {
	dir := t.TempDir()
	columns := map[string][2]string{ // --encoding and --bloom of each file
		"alltypes_plain.parquet":      {"id=DELTA_BINARY_PACKED,string_col=DELTA_LENGTH_BYTE_ARRAY,double_col=BYTE_STREAM_SPLIT", "id:0.05,string_col"},
		"nested_lists.snappy.parquet": {"a.list.element.list.element.list.element=DELTA_BYTE_ARRAY,b=PLAIN", "b"},
		"datapage_v2.snappy.parquet":  {"a=RLE_DICTIONARY,b=DELTA_BINARY_PACKED,e.list.element=PLAIN", "a:0.1,e.list.element"},
		"list_columns.parquet":        {"int64_list.list.item=DELTA_BINARY_PACKED,utf8_list.list.item=DELTA_BYTE_ARRAY", "utf8_list.list.item"},
	}
	for name, cols := range columns {
		in := testcorpus.Data(t, name)
		want, stderr, status := runCmd("cat", "--raw", in)
		require.Equal(t, exitOK, status, stderr)
		for _, flags := range [][]string{
			{"--encoding", cols[0]},
			{"--page-size", "1KiB"},
			{"--page-version", "2", "--codec", "gzip:9"},
			{"--dictionary=false", "--codec", "keep"},
			{"--statistics=false"},
			{"--page-index=true"},
			{"--bloom", cols[1]},
			{"--encoding", cols[0], "--bloom", cols[1], "--page-index=true", "--codec", "keep"},
			{"--row-group-size", "2KiB"},
			{"--page-version", "1", "--page-size", "512", "--dictionary", "--statistics", "--page-index", "--row-group-size", "1MiB", "--codec", "snappy"},
		} {
			out := filepath.Join(dir, name)
			args := append([]string{"rewrite", in, out}, flags...)
			stdout, stderr, status := runCmd(args...)
			require.Equal(t, exitOK, status, "%s %v: %s", name, flags, stderr)
			assert.Contains(t, stdout, "verified")
			got, stderr, status := runCmd("cat", "--raw", out)
			require.Equal(t, exitOK, status, stderr)
			assert.Equal(t, want, got, "%s %v", name, flags)
		}
	}
	noTemp(t, dir)
}
