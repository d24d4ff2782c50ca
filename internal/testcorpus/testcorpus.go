// Package testcorpus locates the apache/parquet-testing corpus for tests.
//
// The corpus is looked up, in order, at $PQCODEC_TESTDATA (an override, for a
// newer checkout) and at testdata/parquet-testing below the module root (the
// directory that holds the root go.mod, found by walking up from the working
// directory, so tests in nested modules find it too), the copy vendored in
// the repository at a pinned commit (testdata/parquet-testing/NOTICE), so a
// fresh clone tests without network. Outside CI a missing corpus skips the
// calling test with a message saying how to get it; under CI (CI=true) it
// fails the test, so a broken checkout can never pass by skipping.
package testcorpus

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// modulePath is the root module's path, used to recognise its go.mod.
const modulePath = "module github.com/pqcodec/pqcodec\n"

// Dir returns the corpus root (the directory holding data/ and bad_data/),
// or skips (fails under CI) the test when it cannot be found.
func Dir(tb testing.TB) string {
	tb.Helper()
	if dir, ok := Find(); ok {
		return dir
	}
	msg := "parquet-testing corpus not found: testdata/parquet-testing of the repository " +
		"is missing, or PQCODEC_TESTDATA names a directory without data/"
	if os.Getenv("CI") == "true" {
		tb.Fatal(msg)
	}
	tb.Skip(msg)
	return ""
}

// Data returns the path of name inside the corpus data/ directory.
func Data(tb testing.TB, name string) string {
	tb.Helper()
	return filepath.Join(Dir(tb), "data", name)
}

// BadData returns the path of name inside the corpus bad_data/ directory.
func BadData(tb testing.TB, name string) string {
	tb.Helper()
	return filepath.Join(Dir(tb), "bad_data", name)
}

// Files lists the files below the corpus directory sub ("data",
// "bad_data") whose names end in one of suffixes (".parquet" when none is
// given), in lexical order. It fails tb when there is none, and skips it
// like [Dir] when the corpus is missing. It is the one corpus listing of
// the tests.
func Files(tb testing.TB, sub string, suffixes ...string) []string {
	tb.Helper()
	if len(suffixes) == 0 {
		suffixes = []string{".parquet"}
	}
	var files []string
	err := filepath.WalkDir(filepath.Join(Dir(tb), sub), func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		for _, s := range suffixes {
			if strings.HasSuffix(p, s) {
				files = append(files, p)
				break
			}
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	if len(files) == 0 {
		tb.Fatalf("no %v files in the corpus directory %s", suffixes, sub)
	}
	return files
}

// Find reports the corpus root without a testing.TB, for commands and
// benchmarks.
func Find() (string, bool) {
	if dir := os.Getenv("PQCODEC_TESTDATA"); dir != "" {
		return dir, isCorpus(dir)
	}
	root, ok := moduleRoot()
	if !ok {
		return "", false
	}
	dir := filepath.Join(root, "testdata", "parquet-testing")
	return dir, isCorpus(dir)
}

func isCorpus(dir string) bool {
	st, err := os.Stat(filepath.Join(dir, "data"))
	return err == nil && st.IsDir()
}

// moduleRoot walks up from the working directory to the root module's go.mod.
func moduleRoot() (string, bool) {
	dir, err := os.Getwd()
	if err != nil {
		return "", false
	}
	for {
		b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && len(b) >= len(modulePath) && string(b[:len(modulePath)]) == modulePath {
			return dir, true
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false
		}
		dir = parent
	}
}

// Huge is the corpus file whose 4 KB decode to gigabytes (strings of a map
// far larger than the page that holds them): tests that keep a whole
// file's rows in memory skip it; the memory tests use it on purpose.
const Huge = "large_string_map.brotli.parquet"
