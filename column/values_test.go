package column

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/pqcodec/pqcodec/format"
)

// TestAppendFromByteArrays checks the dictionary gather of byte arrays and
// fixed-length byte arrays against a value-by-value copy, with values
// shorter and longer than the block move32 moves, dictionaries without
// spare capacity (the last values cannot move as a block) and a Values that
// already holds some.
func TestAppendFromByteArrays(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, maxLen := range []int{0, 1, 7, 31, 32, 33, 100} {
		var dict Values
		dict.Reset(format.ByteArray, 0)
		dict.Offsets = append(dict.Offsets, 0)
		for range 50 {
			for range rng.IntN(maxLen + 1) {
				dict.Bytes = append(dict.Bytes, byte(rng.Uint32()))
			}
			dict.Offsets = append(dict.Offsets, int32(len(dict.Bytes)))
		}
		dict.Bytes = dict.Bytes[:len(dict.Bytes):len(dict.Bytes)]
		idx := make([]uint32, 1000)
		for i := range idx {
			idx[i] = uint32(rng.IntN(dict.Len()))
		}
		var v Values
		v.Reset(format.ByteArray, 0)
		v.Bytes = append(v.Bytes, "head"...)
		v.Offsets = append(v.Offsets, 0, 4)
		if err := v.appendFrom(&dict, idx); err != nil {
			t.Fatal(err)
		}
		if v.Len() != len(idx)+1 || string(v.ByteArray(0)) != "head" {
			t.Fatalf("maxLen %d: %d values, first %q", maxLen, v.Len(), v.ByteArray(0))
		}
		for i, x := range idx {
			if got, want := v.ByteArray(i+1), dict.ByteArray(int(x)); !bytes.Equal(got, want) {
				t.Fatalf("maxLen %d: value %d is %x, want %x", maxLen, i, got, want)
			}
		}
	}
	for _, k := range []int{1, 5, 16, 32, 33} {
		var dict Values
		dict.Reset(format.FixedLenByteArray, k)
		for range 20 * k {
			dict.Bytes = append(dict.Bytes, byte(rng.Uint32()))
		}
		dict.Bytes = dict.Bytes[:len(dict.Bytes):len(dict.Bytes)]
		idx := make([]uint32, 500)
		for i := range idx {
			idx[i] = uint32(rng.IntN(20))
		}
		var v Values
		v.Reset(format.FixedLenByteArray, k)
		if err := v.appendFrom(&dict, idx); err != nil {
			t.Fatal(err)
		}
		if v.Len() != len(idx) {
			t.Fatalf("k %d: %d values", k, v.Len())
		}
		for i, x := range idx {
			if got, want := v.ByteArray(i), dict.ByteArray(int(x)); !bytes.Equal(got, want) {
				t.Fatalf("k %d: value %d is %x, want %x", k, i, got, want)
			}
		}
	}
}

func TestGather(t *testing.T) {
	dict := []int64{10, 11, 12, 13, 14}
	for n := range 11 {
		idx := make([]uint32, n)
		for i := range idx {
			idx[i] = uint32((i * 3) % len(dict))
		}
		got := gather([]int64{-1}, dict, idx)
		if len(got) != n+1 || got[0] != -1 {
			t.Fatalf("n %d: %v", n, got)
		}
		for i, x := range idx {
			if got[i+1] != dict[x] {
				t.Fatalf("n %d: value %d is %d, want %d", n, i, got[i+1], dict[x])
			}
		}
	}
}

// TestAppendFromGrows looks up, many times, the one long value of a
// dictionary of empty ones: far past the output sized from the mean length.
func TestAppendFromGrows(t *testing.T) {
	var dict Values
	dict.Reset(format.ByteArray, 0)
	dict.Offsets = make([]int32, 101)
	long := bytes.Repeat([]byte("0123456789"), 100)
	dict.Bytes = append(dict.Bytes, long...)
	for i := 1; i < len(dict.Offsets); i++ {
		dict.Offsets[i] = int32(len(long))
	}
	idx := make([]uint32, 300)
	for i := range idx {
		idx[i] = uint32(i % 3 * 49) // 0: the long value; 49, 98: empty
	}
	var v Values
	v.Reset(format.ByteArray, 0)
	if err := v.appendFrom(&dict, idx); err != nil {
		t.Fatal(err)
	}
	for i, x := range idx {
		if got, want := v.ByteArray(i), dict.ByteArray(int(x)); !bytes.Equal(got, want) {
			t.Fatalf("value %d is %d bytes, want %d", i, len(got), len(want))
		}
	}
}
