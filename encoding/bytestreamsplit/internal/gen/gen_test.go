package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestCommittedOutputIsCurrent regenerates the assembly of package
// bytestreamsplit in memory and fails when a committed file differs: run
// `go generate` in encoding/bytestreamsplit after changing the generator.
func TestCommittedOutputIsCurrent(t *testing.T) {
	for name, want := range files() {
		got, err := os.ReadFile(filepath.Join("..", "..", name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("encoding/bytestreamsplit/%s is not what ./internal/gen writes: run go generate in encoding/bytestreamsplit", name)
		}
	}
}
