package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/codecfactory"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/internal/testcorpus"
)

func copyFile(t *testing.T, src, dst string) {
	b, err := os.ReadFile(src)
	require.NoError(t, err)
	require.NoError(t, os.MkdirAll(filepath.Dir(dst), 0o755))
	require.NoError(t, os.WriteFile(dst, b, 0o644))
}

func codecs(t *testing.T, path string) []codecfactory.Codec {
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	m, err := format.ReadFooter(bytes.NewReader(b), int64(len(b)))
	require.NoError(t, err)
	var cs []codecfactory.Codec
	for _, rg := range m.RowGroups {
		for _, cc := range rg.Columns {
			cs = append(cs, codecfactory.Codec(cc.MetaData.Codec))
		}
	}
	return cs
}

// noTemp checks that dir holds no temporary file of the rewrite.
func noTemp(t *testing.T, dir string) {
	t.Helper()
	require.NoError(t, filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		require.NotContains(t, d.Name(), ".tmp-", "temporary file left: %s", p)
		return err
	}))
}

func TestRewriteFile(t *testing.T) {
	dir := t.TempDir()
	in := testcorpus.Data(t, "alltypes_tiny_pages.parquet")
	out := filepath.Join(dir, "out.parquet")
	stdout, stderr, status := runCmd("rewrite", in, out, "--codec", "gzip:9", "--workers", "2", "--columns", "id=snappy,bool_col=keep")
	require.Equal(t, exitOK, status, stderr)
	assert.Contains(t, stdout, "-> "+out)
	assert.Contains(t, stdout, "verified")
	assert.Contains(t, stdout, "pages")
	got := codecs(t, out)
	assert.Equal(t, codecfactory.Snappy, got[0]) // id
	assert.Equal(t, codecs(t, in)[1], got[1])    // bool_col, kept as in the source
	assert.Equal(t, codecfactory.Gzip, got[2])
	noTemp(t, dir)
	// The output reads back as the source does.
	want, _, _ := runCmd("cat", in)
	back, _, status := runCmd("cat", out)
	require.Equal(t, exitOK, status)
	require.Equal(t, want, back)

	// Refuses its input as output, also through another name.
	_, stderr, status = runCmd("rewrite", out, out)
	assert.Equal(t, exitUsage, status)
	assert.Contains(t, stderr, "refusing to overwrite the input")
	link := filepath.Join(dir, "link.parquet")
	require.NoError(t, os.Symlink(out, link))
	_, _, status = runCmd("rewrite", out, link)
	assert.Equal(t, exitUsage, status)

	for _, args := range [][]string{{"--codec", "nope"}, {"--codec", "zstd:0"}, {"--crc", "maybe"}, {"--columns", "id"}, {"--workers", "0"}} {
		_, _, status = runCmd(append([]string{"rewrite", in, out}, args...)...)
		assert.Equal(t, exitUsage, status, args)
	}
}

// TestRewriteErrorKeepsDestination checks that a failing rewrite leaves an
// existing destination as it was and no temporary file behind.
func TestRewriteErrorKeepsDestination(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out.parquet")
	require.NoError(t, os.WriteFile(out, []byte("previous"), 0o644))
	src, err := os.ReadFile(testcorpus.Data(t, "alltypes_plain.snappy.parquet"))
	require.NoError(t, err)
	cases := map[string][]byte{
		"truncated": src[:len(src)/2],
		"bad page": func() []byte {
			b := bytes.Clone(src)
			m, err := format.ReadFooter(bytes.NewReader(b), int64(len(b)))
			require.NoError(t, err)
			start := m.RowGroups[0].Columns[3].MetaData.DataPageOffset
			for i := start + 8; i < start+30; i++ {
				b[i] ^= 0x5a
			}
			return b
		}(),
		"checksum": func() []byte {
			b, err := os.ReadFile(testcorpus.Data(t, "datapage_v1-corrupt-checksum.parquet"))
			require.NoError(t, err)
			return b
		}(),
	}
	for name, b := range cases {
		in := filepath.Join(dir, name+".parquet")
		require.NoError(t, os.WriteFile(in, b, 0o644))
		_, stderr, status := runCmd("rewrite", in, out)
		assert.Equal(t, exitError, status, name)
		assert.Contains(t, stderr, in, name)
		got, err := os.ReadFile(out)
		require.NoError(t, err)
		assert.Equal(t, "previous", string(got), name)
		noTemp(t, dir)
	}
	// A missing destination directory: named in the error, not the
	// temporary file, and not created.
	missing := filepath.Join(dir, "missing")
	_, stderr, status := runCmd("rewrite", testcorpus.Data(t, "alltypes_plain.parquet"), filepath.Join(missing, "out.parquet"))
	assert.Equal(t, exitError, status)
	assert.Contains(t, stderr, missing+": no such directory for the output")
	assert.NotContains(t, stderr, ".tmp-")
	_, err = os.Stat(missing)
	assert.True(t, os.IsNotExist(err))
}

func TestRewriteDir(t *testing.T) {
	dir := t.TempDir()
	in, out := filepath.Join(dir, "in"), filepath.Join(dir, "out")
	names := []string{"alltypes_plain.parquet", "a/b/datapage_v2.snappy.parquet", "a/nested_lists.snappy.parquet", "bad/datapage_v1-corrupt-checksum.parquet"}
	for _, n := range names {
		copyFile(t, testcorpus.Data(t, filepath.Base(n)), filepath.Join(in, n))
	}
	require.NoError(t, os.WriteFile(filepath.Join(in, "notes.txt"), []byte("not parquet"), 0o644))
	stdout, stderr, status := runCmd("rewrite", in, out, "--codec", "lz4_raw", "--jobs", "3")
	assert.Equal(t, exitError, status)
	assert.Contains(t, stdout, "4 files: 3 rewritten, 0 already done, 1 failed")
	assert.Contains(t, stderr, "FAILED "+filepath.Join(in, "bad/datapage_v1-corrupt-checksum.parquet"))
	for _, n := range names[:3] {
		for _, c := range codecs(t, filepath.Join(out, n)) {
			assert.Equal(t, codecfactory.Lz4Raw, c, n)
		}
	}
	_, err := os.Stat(filepath.Join(out, "notes.txt"))
	assert.True(t, os.IsNotExist(err))
	_, err = os.Stat(filepath.Join(out, names[3]))
	assert.True(t, os.IsNotExist(err))
	noTemp(t, out)

	// A second run skips what is done; a changed codec redoes everything.
	stdout, _, status = runCmd("rewrite", in, out, "--codec", "lz4_raw")
	assert.Equal(t, exitError, status)
	assert.Contains(t, stdout, "4 files: 0 rewritten, 3 already done, 1 failed")
	require.NoError(t, os.Remove(filepath.Join(in, names[3])))
	stdout, _, status = runCmd("rewrite", in, out, "--codec", "zstd")
	assert.Equal(t, exitOK, status)
	assert.Contains(t, stdout, "3 files: 3 rewritten, 0 already done, 0 failed")
	// A damaged output is redone.
	require.NoError(t, os.WriteFile(filepath.Join(out, names[0]), []byte("PAR1 junk"), 0o644))
	stdout, _, status = runCmd("rewrite", in, out, "--codec", "zstd")
	assert.Equal(t, exitOK, status)
	assert.Contains(t, stdout, "3 files: 1 rewritten, 2 already done, 0 failed")
	assert.True(t, strings.Contains(stdout, names[0]))

	// A temporary file a killed rewrite left beside an output that is done
	// goes too.
	stale := filepath.Join(out, ".alltypes_plain.parquet.tmp-77")
	require.NoError(t, os.WriteFile(stale, []byte("half"), 0o644))
	stdout, _, status = runCmd("rewrite", in, out, "--codec", "zstd")
	assert.Equal(t, exitOK, status)
	assert.Contains(t, stdout, "3 files: 0 rewritten, 3 already done, 0 failed")
	if canTellStale {
		noTemp(t, out)
	}

	// A changed level or checksum mode is not done (per-column targets
	// are recorded too: TestRewriteRecordsTarget).
	for _, args := range [][]string{{"--codec", "zstd:19"}, {"--codec", "zstd:19", "--crc", "add"}, {"--codec", "zstd:18", "--crc", "add"}} {
		stdout, _, status = runCmd(append([]string{"rewrite", in, out}, args...)...)
		assert.Equal(t, exitOK, status)
		assert.Contains(t, stdout, "3 files: 3 rewritten, 0 already done, 0 failed", args)
		stdout, _, status = runCmd(append([]string{"rewrite", in, out}, args...)...)
		assert.Equal(t, exitOK, status)
		assert.Contains(t, stdout, "3 files: 0 rewritten, 3 already done, 0 failed", args)
	}

	// IN may be a symbolic link to a directory, and OUT too; OUT inside IN
	// through a link is refused.
	link, linkOut := filepath.Join(dir, "link"), filepath.Join(dir, "linkout")
	require.NoError(t, os.Symlink(in, link))
	require.NoError(t, os.Mkdir(filepath.Join(dir, "out2"), 0o755))
	require.NoError(t, os.Symlink(filepath.Join(dir, "out2"), linkOut))
	stdout, stderr, status = runCmd("rewrite", link, linkOut, "--codec", "snappy")
	assert.Equal(t, exitOK, status, stderr)
	assert.Contains(t, stdout, "3 files: 3 rewritten, 0 already done, 0 failed")
	assert.Equal(t, []codecfactory.Codec{codecfactory.Snappy}, slices.Compact(codecs(t, filepath.Join(dir, "out2", names[0]))))
	_, _, status = runCmd("rewrite", link, filepath.Join(in, "sub"))
	assert.Equal(t, exitUsage, status)
	require.NoError(t, os.Symlink(filepath.Join(in, "a"), filepath.Join(dir, "insidelink")))
	_, _, status = runCmd("rewrite", in, filepath.Join(dir, "insidelink"))
	assert.Equal(t, exitUsage, status)

	_, _, status = runCmd("rewrite", in, filepath.Join(in, "sub"))
	assert.Equal(t, exitUsage, status)
}

// TestRewriteRecordsTarget checks the key-value entry that tells a later
// run which options an output was written with.
func TestRewriteRecordsTarget(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out.parquet")
	_, stderr, status := runCmd("rewrite", testcorpus.Data(t, "alltypes_plain.parquet"), out, "--codec", "gzip:9",
		"--columns", "string_col=keep, id=zstd:5", "--crc", "add")
	require.Equal(t, exitOK, status, stderr)
	b, err := os.ReadFile(out)
	require.NoError(t, err)
	m, err := format.ReadFooter(bytes.NewReader(b), int64(len(b)))
	require.NoError(t, err)
	v, ok := keyValue(m, targetKey)
	require.True(t, ok)
	assert.Equal(t, "codec=GZIP:9 columns=id=ZSTD:5,string_col=keep crc=add", v)
}

// TestRewriteRemovesStaleTemp leaves the temporary files a killed rewrite
// leaves, one of a rewrite still running (a file this test holds locked),
// and one of another destination, and checks that the next rewrite of the
// destination removes only the first kind.
func TestRewriteRemovesStaleTemp(t *testing.T) {
	if !canTellStale {
		t.Skip("no file locks on this system")
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "out.parquet")
	stale := []string{filepath.Join(dir, ".out.parquet.tmp-1234"), filepath.Join(dir, ".out.parquet.tmp-99-5678")}
	for _, p := range stale {
		require.NoError(t, os.WriteFile(p, []byte("half a file"), 0o644))
	}
	running := filepath.Join(dir, ".out.parquet.tmp-4242")
	require.NoError(t, os.WriteFile(running, []byte("being written"), 0o644))
	held, err := os.Open(running)
	require.NoError(t, err)
	defer held.Close()
	require.NoError(t, lockTemp(held))
	other := filepath.Join(dir, ".other.parquet.tmp-1")
	require.NoError(t, os.WriteFile(other, nil, 0o644))

	_, stderr, status := runCmd("rewrite", testcorpus.Data(t, "alltypes_plain.parquet"), out)
	require.Equal(t, exitOK, status, stderr)
	for _, p := range stale {
		_, err := os.Stat(p)
		assert.True(t, os.IsNotExist(err), "stale %s kept", p)
	}
	for _, p := range []string{running, other} {
		_, err := os.Stat(p)
		assert.NoError(t, err, "%s removed", p)
	}
}
