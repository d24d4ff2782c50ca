package main

import (
	"bytes"
	"os"
	"testing"
)

// TestCommittedOutputIsCurrent regenerates page_amd64.s in memory and fails
// when the committed file differs: run `go generate` in encoding/rle after
// changing the generator or its template.
func TestCommittedOutputIsCurrent(t *testing.T) {
	want, err := generate()
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("../../page_amd64.s")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Error("encoding/rle/page_amd64.s is not what ./internal/gen writes: run go generate in encoding/rle")
	}
}
