package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestCommittedOutputIsCurrent regenerates every binding's placeholder file
// in memory and fails when the committed one differs: run go generate in
// native/internal/nocgo after changing the generator.
func TestCommittedOutputIsCurrent(t *testing.T) {
	for _, b := range bindings {
		want, err := generate(b)
		if err != nil {
			t.Fatalf("%s: %v", b.Pkg, err)
		}
		path := filepath.Join("..", "..", "..", b.Pkg, b.File)
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is not what native/internal/nocgo/gen writes: run go generate in native/internal/nocgo", path)
		}
	}
}
