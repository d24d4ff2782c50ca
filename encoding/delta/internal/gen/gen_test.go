package main

import (
	"bytes"
	"os"
	"testing"
)

// TestCommittedOutputIsCurrent regenerates unpack_gen.go in memory and fails
// when the committed file differs: run `go generate` in encoding/delta after
// changing the generator.
func TestCommittedOutputIsCurrent(t *testing.T) {
	got, err := os.ReadFile("../../unpack_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, generate()) {
		t.Error("encoding/delta/unpack_gen.go is not what ./internal/gen writes: run go generate in encoding/delta")
	}
}
