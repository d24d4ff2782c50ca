package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// pendingRegressions are regression files whose fix is on another branch:
// until it is merged, cat must fail on them with exactly this error; once it
// reads them, the test fails until the entry is removed.
var pendingRegressions = map[string]string{}

// TestDifftestRegressions runs cat --raw (the physical values DuckDB's rows
// are rendered as) on the minimized files in which the
// differential test (make difftest) found pqcodec wrong, and compares its
// rows with the rows DuckDB read (testdata/difftest/README.md).
func TestDifftestRegressions(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "testdata", "difftest", "*.parquet"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			want, err := os.ReadFile(path + ".jsonl")
			require.NoError(t, err)
			out, errOut, status := runCmd("cat", "--raw", path)
			if msg, ok := pendingRegressions[filepath.Base(path)]; ok {
				require.NotEqual(t, exitOK, status, "cat reads it now: remove it from pendingRegressions")
				assert.Contains(t, errOut, msg)
				return
			}
			require.Equal(t, exitOK, status, strings.TrimSpace(errOut))
			assert.Equal(t, string(want), out)
		})
	}
}
