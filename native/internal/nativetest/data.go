// Package nativetest holds the test data and the conformance suite shared by
// the native codec bindings under native/. It is imported only by tests.
package nativetest

import (
	"encoding/binary"
	"math/rand/v2"
)

// Sizes are the uncompressed sizes every binding is round-tripped at.
var Sizes = []int{0, 1, 31, 64 << 10, 1 << 20, 8 << 20}

// Kind names a family of generated inputs.
type Kind string

// The kinds of generated input.
const (
	Random  Kind = "random"
	Zero    Kind = "zero"
	Parquet Kind = "parquet"
)

// Kinds lists every Kind.
var Kinds = []Kind{Random, Zero, Parquet}

// Gen returns n bytes of the given kind, deterministic for a (kind, n, seed).
func Gen(kind Kind, n int, seed uint64) []byte {
	switch kind {
	case Random:
		return RandomBytes(n, seed)
	case Zero:
		return make([]byte, n)
	default:
		return ParquetPage(n, seed)
	}
}

// RandomBytes returns n incompressible bytes.
func RandomBytes(n int, seed uint64) []byte {
	r := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	b := make([]byte, n)
	for i := 0; i+8 <= n; i += 8 {
		binary.LittleEndian.PutUint64(b[i:], r.Uint64())
	}
	for i := n &^ 7; i < n; i++ {
		b[i] = byte(r.Uint32())
	}
	return b
}

// ParquetPage returns n bytes shaped like the data pages of a Parquet file:
// runs of PLAIN int64 timestamps with small deltas, RLE/bit-packed
// dictionary indices, and PLAIN BYTE_ARRAY values (4-byte length prefix) drawn
// from a small vocabulary, so it compresses like real column data (roughly
// 3-6x) rather than like zeros or noise.
func ParquetPage(n int, seed uint64) []byte {
	r := rand.New(rand.NewPCG(seed, 0x243f6a8885a308d3))
	words := []string{"alpha", "bravo", "charlie", "delta", "echo", "foxtrot",
		"golf", "hotel", "india", "juliett", "kilo", "lima", "mike", "november"}
	b := make([]byte, 0, n+64)
	ts := int64(1_700_000_000_000) + int64(r.IntN(1<<20))
	for len(b) < n {
		switch r.IntN(3) {
		case 0: // PLAIN int64 timestamps
			for range 64 + r.IntN(256) {
				ts += int64(r.IntN(1000))
				b = binary.LittleEndian.AppendUint64(b, uint64(ts))
			}
		case 1: // RLE run header, then bit-packed 5-bit indices
			b = binary.AppendUvarint(b, uint64(r.IntN(64))<<1|1)
			for range 32 + r.IntN(128) {
				b = append(b, byte(r.IntN(32)), byte(r.IntN(8)))
			}
		default: // PLAIN BYTE_ARRAY
			for range 16 + r.IntN(64) {
				w := words[r.IntN(len(words))]
				if r.IntN(4) == 0 {
					w += words[r.IntN(len(words))]
				}
				b = binary.LittleEndian.AppendUint32(b, uint32(len(w)))
				b = append(b, w...)
			}
		}
	}
	return b[:n:n]
}

// OracleSizes are the sizes cross-decoded with pure-Go peer libraries:
// Sizes without 8 MiB under the race detector, which slows pure-Go
// codecs tenfold.
func OracleSizes() []int {
	if RaceEnabled {
		return Sizes[:len(Sizes)-1]
	}
	return Sizes
}
