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

// TestCommittedAsmIsCurrent does the same for deltas_amd64.s.
func TestCommittedAsmIsCurrent(t *testing.T) {
	want, err := generateAsm()
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("../../deltas_amd64.s")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Error("encoding/delta/deltas_amd64.s is not what ./internal/gen writes: run go generate in encoding/delta")
	}
}
