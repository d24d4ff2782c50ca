package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
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

// pageTypes returns the page types of the file at path, as pages --json
// names them, each once.
func pageTypes(t *testing.T, path string) []string {
	t.Helper()
	stdout, stderr, status := runCmd("pages", "--json", path)
	require.Equal(t, exitOK, status, stderr)
	var pages []struct{ Type string }
	require.NoError(t, json.Unmarshal([]byte(stdout), &pages))
	var types []string
	for _, p := range pages {
		if !slices.Contains(types, p.Type) {
			types = append(types, p.Type)
		}
	}
	slices.Sort(types)
	return types
}

// TestRewriteReencodeDir re-encodes a directory: every file, the outputs
// already done with the same flags skipped, the others (other flags, a
// damaged output) done again.
func TestRewriteReencodeDir(t *testing.T) {
	dir := t.TempDir()
	in, out := filepath.Join(dir, "in"), filepath.Join(dir, "out")
	names := []string{"alltypes_plain.parquet", "a/b/datapage_v2.snappy.parquet", "a/nested_lists.snappy.parquet", "bad/datapage_v1-corrupt-checksum.parquet"}
	for _, n := range names {
		copyFile(t, testcorpus.Data(t, filepath.Base(n)), filepath.Join(in, n))
	}
	require.NoError(t, os.WriteFile(filepath.Join(in, "notes.txt"), []byte("not parquet"), 0o644))
	same := func(flags ...string) {
		t.Helper()
		for _, n := range names[:3] {
			want, stderr, status := runCmd("cat", "--raw", filepath.Join(in, n))
			require.Equal(t, exitOK, status, stderr)
			got, stderr, status := runCmd("cat", "--raw", filepath.Join(out, n))
			require.Equal(t, exitOK, status, stderr)
			assert.Equal(t, want, got, "%s %v", n, flags)
		}
	}
	v2 := []string{"--page-version", "2", "--dictionary=false", "--jobs", "3", "--max-memory", "4MiB"}
	stdout, stderr, status := runCmd(append([]string{"rewrite", in, out}, v2...)...)
	assert.Equal(t, exitError, status)
	assert.Contains(t, stdout, "4 files: 3 rewritten, 0 already done, 1 failed")
	assert.Contains(t, stdout, "column chunks re-encoded")
	assert.Contains(t, stderr, "FAILED "+filepath.Join(in, "bad/datapage_v1-corrupt-checksum.parquet"))
	same(v2...)
	for _, n := range names[:3] {
		assert.Equal(t, []string{"DATA_PAGE_V2"}, pageTypes(t, filepath.Join(out, n)), n)
	}
	_, err := os.Stat(filepath.Join(out, names[3]))
	assert.True(t, os.IsNotExist(err))
	noTemp(t, out)

	// A second run skips what is done, with the flags in another order.
	require.NoError(t, os.Remove(filepath.Join(in, names[3])))
	stdout, stderr, status = runCmd("rewrite", in, out, "--dictionary=false", "--page-version", "2")
	assert.Equal(t, exitOK, status, stderr)
	assert.Contains(t, stdout, "3 files: 0 rewritten, 3 already done, 0 failed")

	// Other flags, or none (recompression alone), are done again.
	for _, flags := range [][]string{
		{"--page-version", "1"},
		{"--page-version", "1", "--encoding", "id=DELTA_BINARY_PACKED"},
		{"--page-version", "1", "--bloom", "id"},
		{"--page-version", "1", "--bloom", "id:0.05"},
		{"--row-group-size", "1KiB"},
		{},
		{"--page-size", "100", "--statistics=false"},
	} {
		stdout, stderr, status = runCmd(append([]string{"rewrite", in, out}, flags...)...)
		if slices.Contains(flags, "id") || slices.Contains(flags, "id=DELTA_BINARY_PACKED") || slices.Contains(flags, "id:0.05") {
			// Only alltypes_plain has a column id.
			assert.Equal(t, exitError, status, "%v", flags)
			assert.Contains(t, stdout, "3 files: 1 rewritten, 0 already done, 2 failed", flags)
			assert.Contains(t, stderr, "no leaf column", flags)
		} else {
			assert.Equal(t, exitOK, status, "%v: %s", flags, stderr)
			assert.Contains(t, stdout, "3 files: 3 rewritten, 0 already done, 0 failed", flags)
			same(flags...)
		}
		stdout, _, _ = runCmd(append([]string{"rewrite", in, out}, flags...)...)
		assert.Regexp(t, `3 files: 0 rewritten, [13] already done`, stdout, flags)
	}
	for _, n := range names[:3] {
		assert.NotContains(t, pageTypes(t, filepath.Join(out, n)), "DATA_PAGE_V2", n)
	}

	// A damaged output is redone.
	require.NoError(t, os.WriteFile(filepath.Join(out, names[0]), []byte("PAR1 junk"), 0o644))
	stdout, stderr, status = runCmd("rewrite", in, out, "--page-size", "100", "--statistics=false")
	assert.Equal(t, exitOK, status, stderr)
	assert.Contains(t, stdout, "3 files: 1 rewritten, 2 already done, 0 failed")
	same()
	noTemp(t, out)
}
