package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/internal/testcorpus"
)

// TestMergeCommand merges files and a directory of files of one schema,
// copying and combining, and compares cat of the output with cat of every
// input in order.
func TestMergeCommand(t *testing.T) {
	dir := t.TempDir()
	names := []string{"alltypes_plain.parquet", "alltypes_plain.snappy.parquet", "alltypes_dictionary.parquet"}
	a := filepath.Join(dir, "a.parquet")
	copyFile(t, testcorpus.Data(t, names[0]), a)
	// The directory's files in lexical order of their paths.
	copyFile(t, testcorpus.Data(t, names[1]), filepath.Join(dir, "in", "1.parquet"))
	copyFile(t, testcorpus.Data(t, names[2]), filepath.Join(dir, "in", "sub", "2.parquet"))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "in", "notes.txt"), []byte("not parquet"), 0o644))
	var want strings.Builder
	for _, p := range []string{a, filepath.Join(dir, "in", "1.parquet"), filepath.Join(dir, "in", "sub", "2.parquet")} {
		out, stderr, status := runCmd("cat", p)
		require.Equal(t, exitOK, status, stderr)
		want.WriteString(out)
	}
	for _, min := range []string{"0", "8MiB", "1KB"} {
		out := filepath.Join(dir, "out-"+min+".parquet")
		stdout, stderr, status := runCmd("merge", out, a, filepath.Join(dir, "in"), "--min-row-group-size", min, "--workers", "2")
		require.Equal(t, exitOK, status, stderr)
		assert.Contains(t, stdout, "3 files -> "+out)
		assert.Contains(t, stdout, "verified")
		got, stderr, status := runCmd("cat", out)
		require.Equal(t, exitOK, status, stderr)
		assert.Equal(t, want.String(), got, min)
	}
	noTemp(t, dir)
}

// TestMergeCommandErrors: a schema mismatch names both files and the
// field; a broken input fails; neither leaves anything under OUT, and an
// existing OUT stays as it was.
func TestMergeCommandErrors(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out.parquet")
	require.NoError(t, os.WriteFile(out, []byte("old"), 0o644))
	a, b := testcorpus.Data(t, "alltypes_plain.parquet"), testcorpus.Data(t, "nested_lists.snappy.parquet")
	_, stderr, status := runCmd("merge", out, a, b)
	assert.Equal(t, exitError, status)
	assert.Contains(t, stderr, "schemas differ")
	assert.Contains(t, stderr, a)
	assert.Contains(t, stderr, b)
	assert.Contains(t, stderr, "field id")

	bad := filepath.Join(dir, "bad.parquet")
	good, err := os.ReadFile(a)
	require.NoError(t, err)
	good[len(good)/2] ^= 0xff // inside the footer or a page
	good[20] ^= 0xff
	require.NoError(t, os.WriteFile(bad, good[:len(good)-9], 0o644))
	_, stderr, status = runCmd("merge", out, a, bad)
	assert.Equal(t, exitError, status, stderr)
	assert.Contains(t, stderr, bad)

	_, _, status = runCmd("merge", out)
	assert.Equal(t, exitUsage, status)
	_, _, status = runCmd("merge", a, a)
	assert.Equal(t, exitUsage, status)
	got, err := os.ReadFile(out)
	require.NoError(t, err)
	assert.Equal(t, "old", string(got))
	noTemp(t, dir)
}
