package column

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/internal/testcorpus"
)

// digestFile reads every page of every chunk of f and returns a digest of
// the levels and values, page by page.
func digestFile(t *testing.T, f *File) []byte {
	t.Helper()
	h := sha256.New()
	var p Page
	var r Reader
	for rg := range f.NumRowGroups() {
		for col := range f.NumColumns() {
			require.NoError(t, f.ResetReader(&r, rg, col))
			for {
				err := r.ReadPage(&p)
				if err == io.EOF {
					break
				}
				require.NoError(t, err)
				fmt.Fprint(h, p.NumLevels, p.DefLevels, p.RepLevels, p.Values.Len())
				for i := range p.Values.Len() {
					fmt.Fprint(h, p.Values.Value(i))
				}
			}
		}
	}
	return h.Sum(nil)
}

// TestCompactedValues checks that compacting PLAIN BYTE_ARRAY dictionaries
// and pages in their decompressed buffer (used for pages of 1 MiB and more)
// gives the values the copying decoder gives, on every corpus file with
// compressed byte array columns.
func TestCompactedValues(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(testcorpus.Dir(t), "data", "*.parquet"))
	require.NoError(t, err)
	defer func(old int) { compactThreshold = old }(compactThreshold)
	compared := 0
	for _, path := range files {
		if strings.Contains(path, "large_string_map") {
			continue // 2 GiB of values: TestLargeStringMap
		}
		f, err := openFile(t, path)
		if err != nil {
			continue
		}
		compactThreshold = 1 << 20
		want, ok := tryDigest(t, f)
		if !ok {
			continue
		}
		compactThreshold = 0
		got, _ := tryDigest(t, f)
		require.Equal(t, want, got, filepath.Base(path))
		compared++
	}
	require.Greater(t, compared, 50)
}

// tryDigest is digestFile for files this package reads; ok is false for
// the others (unsupported features).
func tryDigest(t *testing.T, f *File) (d []byte, ok bool) {
	var p Page
	for rg := range f.NumRowGroups() {
		for col := range f.NumColumns() {
			r, err := f.Column(rg, col)
			if err != nil {
				return nil, false
			}
			for {
				err := r.ReadPage(&p)
				if err == io.EOF {
					break
				}
				if err != nil {
					return nil, false
				}
			}
		}
	}
	return digestFile(t, f), true
}

// TestMaxMemory checks that a Reader bounded by MaxMemory fails with
// ErrLimit, giving the numbers, when a file needs more, and reads it when
// the bound allows.
func TestMaxMemory(t *testing.T) {
	path := testcorpus.Data(t, "alltypes_tiny_pages.parquet")
	f, err := openFile(t, path, MaxMemory(4<<10))
	require.NoError(t, err)
	var p Page
	r, err := f.Column(0, 9) // string_col, dictionary-encoded
	require.NoError(t, err)
	for err == nil {
		err = r.ReadPage(&p)
	}
	require.ErrorIs(t, err, ErrLimit)
	require.Contains(t, err.Error(), "limit (MaxMemory) is 4096")
	f, err = openFile(t, path, MaxMemory(16<<20))
	require.NoError(t, err)
	require.NoError(t, readAll(f))
	_, err = openFile(t, path, MaxMemory(-1))
	require.Error(t, err)
}

// largeEnv enables TestLargeStringMap, which decodes 2 GiB of values.
const largeEnv = "PQCODEC_LARGE"

// TestLargeStringMap reads large_string_map.brotli.parquet (pages of 1
// GiB) in a child process limited to 4 GiB of address space (ulimit -v):
// it must decode, or fail with an error, never with Go's fatal out of
// memory. Set PQCODEC_LARGE=1 to run it (about a minute).
func TestLargeStringMap(t *testing.T) {
	path := filepath.Join(testcorpus.Dir(t), "data", "large_string_map.brotli.parquet")
	if os.Getenv(largeEnv+"_CHILD") != "" {
		f, err := openFile(t, path)
		require.NoError(t, err)
		err = readAll(f)
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		t.Logf("read: %v; %d MiB allocated in total, %d MiB from the OS", err, ms.TotalAlloc>>20, ms.Sys>>20)
		require.True(t, err == nil || errors.Is(err, ErrLimit), "%v", err)
		fmt.Println("LARGE_OK")
		return
	}
	if os.Getenv(largeEnv) == "" {
		t.Skip("set " + largeEnv + "=1 to read the 1 GiB pages of large_string_map.brotli.parquet")
	}
	if runtime.GOOS != "linux" {
		t.Skip("needs ulimit -v")
	}
	exe, err := os.Executable()
	require.NoError(t, err)
	cmd := exec.Command("bash", "-c", `ulimit -v 4194304 && exec "$0" -test.run='^TestLargeStringMap$' -test.v`, exe)
	cmd.Env = append(os.Environ(), largeEnv+"_CHILD=1")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err = cmd.Run()
	t.Logf("%s", out.String())
	require.NoError(t, err)
	require.NotContains(t, out.String(), "fatal error")
	require.Contains(t, out.String(), "LARGE_OK")
}
