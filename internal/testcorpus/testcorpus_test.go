package testcorpus

import (
	"os"
	"path/filepath"
	"testing"
)

// TestFindVendored checks that without PQCODEC_TESTDATA the corpus is the
// copy vendored under testdata/parquet-testing, and that the variable
// overrides it.
func TestFindVendored(t *testing.T) {
	t.Setenv("PQCODEC_TESTDATA", "")
	dir, ok := Find()
	if !ok {
		t.Fatal("vendored corpus not found")
	}
	root, _ := moduleRoot()
	if want := filepath.Join(root, "testdata", "parquet-testing"); dir != want {
		t.Fatalf("corpus at %s, want the vendored %s", dir, want)
	}
	for _, name := range []string{"LICENSE.txt", "NOTICE", "data/alltypes_plain.parquet", "bad_data/PARQUET-1481.parquet"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Error(err)
		}
	}

	other := t.TempDir()
	t.Setenv("PQCODEC_TESTDATA", other)
	if dir, ok := Find(); ok || dir != other {
		t.Fatalf("PQCODEC_TESTDATA without data/: Find = %s, %v; want %s, false", dir, ok, other)
	}
	if err := os.Mkdir(filepath.Join(other, "data"), 0o755); err != nil {
		t.Fatal(err)
	}
	if dir, ok := Find(); !ok || dir != other {
		t.Fatalf("PQCODEC_TESTDATA override: Find = %s, %v; want %s, true", dir, ok, other)
	}
}
