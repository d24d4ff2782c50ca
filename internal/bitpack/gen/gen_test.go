package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestCommittedOutputIsCurrent regenerates every file of package bitpack in
// memory and fails when a committed file differs: run `go generate` in
// internal/bitpack after changing the generator.
func TestCommittedOutputIsCurrent(t *testing.T) {
	for _, f := range families {
		for name, want := range f.files() {
			got, err := os.ReadFile(filepath.Join("..", name))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("internal/bitpack/%s is not what ./gen writes: run go generate in internal/bitpack", name)
			}
		}
	}
}
