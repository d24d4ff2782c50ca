// Package benchdata generates the benchmark value sets that the encoding
// packages' own benchmarks and the peer comparisons in interop share, so
// that both time the same data. Every set is deterministic: fixed PCG
// seeds, drawn in a fixed order.
package benchdata

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
)

// Int32s returns the INT32 value sets of a page of size PLAIN bytes:
// "small-deltas", a random walk of steps in [-16, 48).
func Int32s(size int) map[string][]int32 {
	r := rand.New(rand.NewPCG(1, 2))
	v := make([]int32, size/4)
	acc := int32(0)
	for i := range v {
		acc += int32(r.IntN(64)) - 16
		v[i] = acc
	}
	return map[string][]int32{"small-deltas": v}
}

// Int64s returns the INT64 value sets of a page of size PLAIN bytes:
// "ms-timestamps" (millisecond timestamps up to 2 s apart) and "random".
func Int64s(size int) map[string][]int64 {
	r := rand.New(rand.NewPCG(3, 4))
	ts := make([]int64, size/8)
	rnd := make([]int64, size/8)
	t := int64(1_700_000_000_000)
	for i := range ts {
		t += int64(r.IntN(2000))
		ts[i] = t
		rnd[i] = int64(r.Uint64())
	}
	return map[string][]int64{"ms-timestamps": ts, "random": rnd}
}

// StringKinds are the names of the sets of [Strings], in the order they
// are drawn.
var StringKinds = []string{"low-card", "uuid", "1KiB"}

// Strings returns the string sets of a page of about size PLAIN bytes:
// "low-card" (8 colour names), "uuid" (formatted UUIDs) and "1KiB" (random
// lowercase strings of 1 KiB).
func Strings(size int) map[string][]string {
	r := rand.New(rand.NewPCG(5, 6))
	colors := []string{"red", "green", "blue", "yellow", "cyan", "magenta", "black", "white"}
	gens := map[string]func() string{
		"low-card": func() string { return colors[r.IntN(len(colors))] },
		"uuid": func() string {
			return fmt.Sprintf("%08x-%04x-%04x-%04x-%012x", r.Uint32(), r.Uint32()&0xffff, r.Uint32()&0xffff,
				r.Uint32()&0xffff, r.Uint64()&0xffffffffffff)
		},
		"1KiB": func() string {
			b := make([]byte, 1024)
			for i := range b {
				b[i] = byte('a' + r.IntN(26))
			}
			return string(b)
		},
	}
	sets := map[string][]string{}
	for _, name := range StringKinds {
		var strs []string
		for total := 0; total < size; {
			s := gens[name]()
			strs = append(strs, s)
			total += 4 + len(s) // PLAIN size
		}
		sets[name] = strs
	}
	return sets
}

// ByteArrayKinds are the kinds [ByteArrays] generates.
var ByteArrayKinds = []string{"lowcard", "words", "uuid", "1KiB"}

// ByteArrays draws byte array values of kind ("lowcard": "category-N" for
// N below 20, "words": random lowercase strings of 4-24 bytes, as names and
// words have, "uuid": hex UUID-like text, "1KiB": random lowercase strings
// of 1 KiB; any other kind is taken as "1KiB") from r until their PLAIN
// size reaches size, and returns them flat with their offsets (value i is
// values[offsets[i]:offsets[i+1]]).
func ByteArrays(r *rand.Rand, kind string, size int) (values []byte, offsets []int32) {
	offsets = []int32{0}
	for len(values)+4*len(offsets) < size {
		switch kind {
		case "lowcard":
			values = append(values, fmt.Sprintf("category-%d", r.IntN(20))...)
		case "words":
			for range 4 + r.IntN(21) {
				values = append(values, 'a'+byte(r.IntN(26)))
			}
		case "uuid":
			var u [16]byte
			binary.LittleEndian.PutUint64(u[:], r.Uint64())
			binary.LittleEndian.PutUint64(u[8:], r.Uint64())
			values = append(values, fmt.Sprintf("%x-%x-%x-%x-%x", u[0:4], u[4:6], u[6:8], u[8:10], u[10:])...)
		default:
			s := make([]byte, 1024)
			for i := range s {
				s[i] = 'a' + byte(r.IntN(26))
			}
			values = append(values, s...)
		}
		offsets = append(offsets, int32(len(values)))
	}
	return values, offsets
}

// Levels draws n definition levels of width 1 from r: mostly ones, with
// runs of nulls and short noisy stretches.
func Levels(r *rand.Rand, n int) []uint32 {
	out := make([]uint32, 0, n)
	for len(out) < n {
		switch k := r.IntN(10); {
		case k < 6:
			for range min(n-len(out), 50+r.IntN(500)) {
				out = append(out, 1)
			}
		case k < 8:
			for range min(n-len(out), 1+r.IntN(40)) {
				out = append(out, 0)
			}
		default:
			for range min(n-len(out), 1+r.IntN(60)) {
				out = append(out, uint32(r.IntN(2)))
			}
		}
	}
	return out
}

// Flat packs strs into flat values and len(strs)+1 offsets, the byte array
// form of the encoding packages.
func Flat(strs []string) (values []byte, offsets []int32) {
	values, offsets = []byte{}, []int32{0}
	for _, s := range strs {
		values = append(values, s...)
		offsets = append(offsets, int32(len(values)))
	}
	return values, offsets
}
