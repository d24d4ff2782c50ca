package main

import (
	"encoding/binary"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/internal/testexec"
)

// TestMain runs the command itself when the test binary is started by
// runSubprocess, so a test can signal a real pqcodec process.
func TestMain(m *testing.M) {
	if os.Getenv("PQCODEC_TEST_RUN_MAIN") == "1" {
		main()
	}
	os.Exit(m.Run())
}

// subprocess returns the test binary started as `pqcodec args...`; it skips
// t where the binary cannot be executed (see testexec).
func subprocess(t *testing.T, args ...string) *exec.Cmd {
	cmd := exec.Command(testexec.Executable(t), args...)
	cmd.Env = append(os.Environ(), "PQCODEC_TEST_RUN_MAIN=1")
	return cmd
}

// writeLargeFile writes a Parquet file of one required INT64 column in
// uncompressed PLAIN pages of perPage values, with a writer of this test
// (pqcodec has no file writer).
func writeLargeFile(t *testing.T, path string, pages, perPage int) {
	magic := []byte("PAR1")
	b := append([]byte(nil), magic...)
	body := make([]byte, 8*perPage)
	x := uint64(0x9e3779b97f4a7c15)
	start := int64(len(b))
	for range pages {
		for i := range perPage {
			// Random values: the output grows about as fast as the input is read.
			x ^= x << 13
			x ^= x >> 7
			x ^= x << 17
			binary.LittleEndian.PutUint64(body[8*i:], x)
		}
		h := format.PageHeader{
			Type: format.DataPage, UncompressedPageSize: int32(len(body)), CompressedPageSize: int32(len(body)),
			HasDataPageHeader: true,
			DataPageHeader:    format.DataPageHeader{NumValues: int32(perPage), Encoding: format.Plain, DefinitionLevelEncoding: format.RLE, RepetitionLevelEncoding: format.RLE},
		}
		b = format.AppendPageHeader(b, &h)
		b = append(b, body...)
	}
	size := int64(len(b)) - start
	typ, req, children := format.Int64, format.Required, int32(1)
	rows := int64(pages * perPage)
	m := &format.FileMetaData{
		Version: 1,
		Schema: []format.SchemaElement{
			{Name: "schema", NumChildren: &children},
			{Name: "v", Type: &typ, RepetitionType: &req},
		},
		NumRows: rows,
		RowGroups: []format.RowGroup{{
			Columns: []format.ColumnChunk{{FileOffset: start, MetaData: &format.ColumnMetaData{
				Type: format.Int64, Encodings: []format.Encoding{format.Plain}, PathInSchema: []string{"v"},
				Codec: format.Uncompressed, NumValues: rows, TotalUncompressedSize: size, TotalCompressedSize: size,
				DataPageOffset: start,
			}}},
			TotalByteSize: size, NumRows: rows,
		}},
	}
	footer := format.AppendFileMetaData(nil, m)
	b = append(b, footer...)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(footer)))
	b = append(b, magic...)
	require.NoError(t, os.WriteFile(path, b, 0o644))
}

// TestRewriteInterrupted signals a running `pqcodec rewrite` once its
// temporary file exists (SIGINT) and once it holds pages (SIGTERM), and
// checks that the destination is left as it was and the temporary file is
// removed.
func TestRewriteInterrupted(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "large.parquet")
	// 32 MiB in pages of 64 KiB that BROTLI at level 11 on one worker takes
	// many seconds to compress: the signal always arrives mid-rewrite.
	writeLargeFile(t, in, 512, 1<<13)
	_, stderr, status := runCmd("inspect", in)
	require.Equal(t, exitOK, status, "the generated file reads: %s", stderr)
	out := filepath.Join(dir, "out.parquet")
	for _, c := range []struct {
		sig     syscall.Signal
		written bool
	}{{syscall.SIGINT, false}, {syscall.SIGTERM, true}} {
		sig := c.sig
		t.Run(sig.String(), func(t *testing.T) {
			require.NoError(t, os.WriteFile(out, []byte("previous"), 0o644))
			cmd := subprocess(t, "rewrite", in, out, "--codec", "brotli:11", "--workers", "1")
			var errOut strings.Builder
			cmd.Stderr = &errOut
			require.NoError(t, cmd.Start())
			tmp, err := waitForTemp(dir, c.written, 2*time.Minute)
			if err != nil {
				cmd.Process.Kill()
				cmd.Wait()
				t.Fatal(err)
			}
			require.NoError(t, cmd.Process.Signal(sig))
			err = cmd.Wait()
			var exit *exec.ExitError
			require.ErrorAs(t, err, &exit, "pqcodec finished before the signal: %s", errOut.String())
			assert.Equal(t, 128+int(sig), exit.ExitCode(), errOut.String())
			got, err := os.ReadFile(out)
			require.NoError(t, err)
			assert.Equal(t, "previous", string(got))
			_, err = os.Stat(tmp)
			assert.True(t, os.IsNotExist(err), "temporary file %s left", tmp)
			noTemp(t, dir)
		})
	}
}

// TestRewriteKilled kills a running `pqcodec rewrite` with SIGKILL, which
// leaves its temporary file behind, then runs a rewrite of the same
// destination while a second rewrite of it runs: the stale file is removed,
// the running rewrite's is not (it completes), and no temporary file is
// left at the end.
func TestRewriteKilled(t *testing.T) {
	if !canTellStale {
		t.Skip("no file locks on this system")
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "large.parquet")
	writeLargeFile(t, in, 128, 1<<13)
	out := filepath.Join(dir, "out.parquet")
	cmd := subprocess(t, "rewrite", in, out, "--codec", "brotli:11", "--workers", "1")
	require.NoError(t, cmd.Start())
	stale, err := waitForTemp(dir, true, 2*time.Minute)
	if err != nil {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatal(err)
	}
	require.NoError(t, cmd.Process.Kill())
	cmd.Wait()
	_, err = os.Stat(stale)
	require.NoError(t, err, "SIGKILL leaves the temporary file")

	// A slow rewrite of the same destination, running when the next one
	// starts: its temporary file is locked.
	slow := subprocess(t, "rewrite", in, out, "--codec", "brotli:11", "--workers", "1")
	var slowErr strings.Builder
	slow.Stderr = &slowErr
	require.NoError(t, slow.Start())
	var running string
	for deadline := time.Now().Add(2 * time.Minute); running == "" && time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		tmps, _ := filepath.Glob(filepath.Join(dir, ".out.parquet.tmp-*"))
		for _, p := range tmps {
			if p != stale {
				running = p
			}
		}
	}
	if running == "" {
		slow.Process.Kill()
		slow.Wait()
		t.Fatal("the second rewrite made no temporary file")
	}
	_, stderr, status := runCmd("rewrite", in, out, "--codec", "lz4_raw")
	require.Equal(t, exitOK, status, stderr)
	_, err = os.Stat(stale)
	assert.True(t, os.IsNotExist(err), "stale temporary file %s kept", stale)
	_, err = os.Stat(running)
	assert.NoError(t, err, "the running rewrite's temporary file was removed")
	require.NoError(t, slow.Wait(), slowErr.String())
	noTemp(t, dir)
}

// waitForTemp returns the temporary file of a rewrite in dir once it
// exists (it is created after the command's signal handler is installed)
// or, if written, once it has bytes in it.
func waitForTemp(dir string, written bool, limit time.Duration) (string, error) {
	for deadline := time.Now().Add(limit); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		tmps, _ := filepath.Glob(filepath.Join(dir, ".out.parquet.tmp-*"))
		for _, p := range tmps {
			if st, err := os.Stat(p); err == nil && (!written || st.Size() > 0) {
				return p, nil
			}
		}
	}
	return "", errors.New("no temporary file appeared")
}
