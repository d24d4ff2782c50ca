// Package bench compares pqcodec with the other Go implementations of the
// Parquet compression codecs and encodings, on the same deterministic
// Parquet-shaped data, in one process. The benchmarks live in the package's
// test files; scripts/bench.sh runs them and writes BENCHMARKS.md with
// bench/cmd/benchtable.
//
// Benchmark names put the implementation last, as the sub-benchmark key
// impl=ours|native|parquetgo|arrowgo|klauspost|..., so that every
// implementation of one row shares the prefix and benchstat -col /impl (or
// benchtable) compares them.
//
// This is a separate module so that pqcodec's users never inherit the peer
// libraries.
package bench

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
)

// Seed is the fixed seed of every dataset: the same Seed gives the same bytes
// on every machine and Go version (math/rand/v2's PCG is specified).
const Seed = 0x7071636f646563 // "pqcodec"

// PageSizes are the page sizes the datasets are generated at, in bytes of
// PLAIN encoding.
var PageSizes = []PageSize{{"64KiB", 64 << 10}, {"1MiB", 1 << 20}}

// PageSize names a page size.
type PageSize struct {
	Name  string
	Bytes int
}

// ByteArrays holds BYTE_ARRAY values as one flat buffer and n+1 offsets:
// value i is Values[Offsets[i]:Offsets[i+1]].
type ByteArrays struct {
	Values  []byte
	Offsets []int32
}

// Len returns the number of values.
func (b ByteArrays) Len() int { return len(b.Offsets) - 1 }

// PlainSize returns the size of the PLAIN encoding of the values.
func (b ByteArrays) PlainSize() int { return 4*b.Len() + len(b.Values) }

// rng returns the generator of one dataset; name keeps datasets independent
// of one another and of the order they are generated in.
func rng(name string, size int) *rand.Rand {
	var h uint64 = 14695981039346656037
	for i := 0; i < len(name); i++ {
		h = (h ^ uint64(name[i])) * 1099511628211
	}
	return rand.New(rand.NewPCG(Seed, h^uint64(size)))
}

// Ints returns size/4 int32 values of a random walk with small steps, in
// [-32, 32): a sorted-ish id or counter column.
func Ints(size int) []int32 {
	r := rng("ints", size)
	out := make([]int32, size/4)
	v := int32(1_000_000)
	for i := range out {
		v += int32(r.IntN(64)) - 32
		out[i] = v
	}
	return out
}

// Timestamps returns size/8 increasing millisecond timestamps, starting in
// 2024, with gaps of 0 to 2 s: an event-time column.
func Timestamps(size int) []int64 {
	r := rng("ts", size)
	out := make([]int64, size/8)
	v := int64(1_704_067_200_000)
	for i := range out {
		v += int64(r.IntN(2000))
		out[i] = v
	}
	return out
}

// RandomInt64s returns size/8 uniformly random int64 values: the worst case
// of DELTA_BINARY_PACKED (64-bit wide miniblocks).
func RandomInt64s(size int) []int64 {
	r := rng("rand64", size)
	out := make([]int64, size/8)
	for i := range out {
		out[i] = int64(r.Uint64())
	}
	return out
}

// RandomDoubles returns size/8 normally distributed doubles with full
// random mantissas: nearly incompressible.
func RandomDoubles(size int) []float64 {
	r := rng("doubles", size)
	out := make([]float64, size/8)
	for i := range out {
		out[i] = r.NormFloat64() * 1000
	}
	return out
}

// SmoothDoubles returns size/8 doubles of a slowly varying sensor reading
// quantised to 1/64: neighbours share sign, exponent and high mantissa bytes,
// which BYTE_STREAM_SPLIT exposes to the compressor.
func SmoothDoubles(size int) []float64 {
	r := rng("smooth", size)
	out := make([]float64, size/8)
	for i := range out {
		v := 20 + 5*math.Sin(float64(i)/500) + r.NormFloat64()*0.05
		out[i] = math.Round(v*64) / 64
	}
	return out
}

// RandomFloats returns size/4 random float32 values.
func RandomFloats(size int) []float32 {
	d := RandomDoubles(size * 2)
	out := make([]float32, size/4)
	for i := range out {
		out[i] = float32(d[i])
	}
	return out
}

// SmoothFloats returns size/4 float32 values of the SmoothDoubles shape.
func SmoothFloats(size int) []float32 {
	d := SmoothDoubles(size * 2)
	out := make([]float32, size/4)
	for i := range out {
		out[i] = float32(d[i])
	}
	return out
}

// Booleans returns size*8 booleans, true with probability 1/2: the PLAIN
// page of a BOOLEAN column holds size bytes.
func Booleans(size int) []bool {
	r := rng("bools", size)
	out := make([]bool, size*8)
	for i := 0; i < len(out); i += 64 {
		w := r.Uint64()
		for j := 0; j < 64 && i+j < len(out); j++ {
			out[i+j] = w>>j&1 != 0
		}
	}
	return out
}

// DefLevels returns size/4 definition levels of an optional column (width
// 1): mostly 1, with nulls (0) clustered in bursts, so both RLE and
// bit-packed runs occur.
func DefLevels(size int) []uint32 {
	r := rng("deflevels", size)
	out := make([]uint32, size/4)
	for i := 0; i < len(out); {
		run := 1 + r.IntN(200)
		for j := 0; j < run && i < len(out); j++ {
			out[i] = 1
			i++
		}
		// A burst of mixed values.
		burst := r.IntN(24)
		for j := 0; j < burst && i < len(out); j++ {
			out[i] = uint32(r.IntN(2))
			i++
		}
	}
	return out
}

// Indices returns size/4 dictionary indices of the given bit width: random
// values below 1<<width, with a run of one repeated index (8 to 64 long)
// starting at 1 value in 16, as sorted or clustered columns produce.
func Indices(size int, width uint) []uint32 {
	r := rng(fmt.Sprintf("indices%d", width), size)
	out := make([]uint32, size/4)
	limit := uint32(1) << width
	for i := 0; i < len(out); {
		v := r.Uint32N(limit)
		if r.IntN(16) == 0 {
			run := 8 + r.IntN(57)
			for j := 0; j < run && i < len(out); j++ {
				out[i] = v
				i++
			}
			continue
		}
		out[i] = v
		i++
	}
	return out
}

// fill appends values made by next until their PLAIN size reaches size.
func fill(size int, next func(dst []byte) []byte) ByteArrays {
	b := ByteArrays{Offsets: []int32{0}}
	for b.PlainSize() < size {
		b.Values = next(b.Values)
		b.Offsets = append(b.Offsets, int32(len(b.Values)))
	}
	return b
}

// LowCardStrings returns strings from a set of 20 category names, with
// PLAIN size of about size bytes.
func LowCardStrings(size int) ByteArrays {
	r := rng("lowcard", size)
	names := [...]string{"pending", "shipped", "delivered", "returned", "cancelled", "on_hold",
		"processing", "refunded", "lost", "damaged", "backordered", "partially_shipped",
		"awaiting_payment", "payment_failed", "fraud_review", "closed", "open", "draft",
		"archived", "unknown"}
	return fill(size, func(dst []byte) []byte {
		return append(dst, names[r.IntN(len(names))]...)
	})
}

// HighCardStrings returns mostly distinct strings of 12 to 40 bytes with
// shared prefixes (user names and paths), with PLAIN size about size bytes.
func HighCardStrings(size int) ByteArrays {
	r := rng("highcard", size)
	domains := [...]string{"example.com", "mail.example.org", "corp.internal", "users.example.net"}
	id := 100_000
	return fill(size, func(dst []byte) []byte {
		id += 1 + r.IntN(50)
		dst = fmt.Appendf(dst, "user%d.%x@", id, r.Uint32N(1<<(4*uint(r.IntN(6)))))
		return append(dst, domains[r.IntN(len(domains))]...)
	})
}

// UUIDs returns random version-4 UUIDs in their 36-character text form.
func UUIDs(size int) ByteArrays {
	r := rng("uuid", size)
	const hex = "0123456789abcdef"
	return fill(size, func(dst []byte) []byte {
		var u [16]byte
		binary.LittleEndian.PutUint64(u[:8], r.Uint64())
		binary.LittleEndian.PutUint64(u[8:], r.Uint64())
		u[6] = u[6]&0x0f | 0x40
		u[8] = u[8]&0x3f | 0x80
		for i, c := range u {
			if i == 4 || i == 6 || i == 8 || i == 10 {
				dst = append(dst, '-')
			}
			dst = append(dst, hex[c>>4], hex[c&15])
		}
		return dst
	})
}

// KiBStrings returns text values of 1 KiB (976 to 1072 bytes) made of words
// from a 256-word vocabulary: log lines or JSON documents.
func KiBStrings(size int) ByteArrays {
	r := rng("kib", size)
	words := make([]string, 256)
	for i := range words {
		n := 2 + r.IntN(9)
		w := make([]byte, n)
		for j := range w {
			w[j] = byte('a' + r.IntN(26))
		}
		words[i] = string(w)
	}
	return fill(size, func(dst []byte) []byte {
		target := len(dst) + 976 + r.IntN(97)
		for len(dst) < target {
			dst = append(dst, words[r.IntN(len(words))]...)
			dst = append(dst, ' ')
		}
		return dst[:target]
	})
}

// PlainInt32s returns the PLAIN (little-endian) bytes of v.
func PlainInt32s(v []int32) []byte {
	out := make([]byte, 0, 4*len(v))
	for _, x := range v {
		out = binary.LittleEndian.AppendUint32(out, uint32(x))
	}
	return out
}

// PlainInt64s returns the PLAIN (little-endian) bytes of v.
func PlainInt64s(v []int64) []byte {
	out := make([]byte, 0, 8*len(v))
	for _, x := range v {
		out = binary.LittleEndian.AppendUint64(out, uint64(x))
	}
	return out
}

// PlainDoubles returns the PLAIN (little-endian IEEE 754) bytes of v.
func PlainDoubles(v []float64) []byte {
	out := make([]byte, 0, 8*len(v))
	for _, x := range v {
		out = binary.LittleEndian.AppendUint64(out, math.Float64bits(x))
	}
	return out
}

// PlainByteArrays returns the PLAIN bytes of b: each value preceded by its
// 4-byte little-endian length.
func PlainByteArrays(b ByteArrays) []byte {
	out := make([]byte, 0, b.PlainSize())
	for i := 0; i < b.Len(); i++ {
		v := b.Values[b.Offsets[i]:b.Offsets[i+1]]
		out = binary.LittleEndian.AppendUint32(out, uint32(len(v)))
		out = append(out, v...)
	}
	return out
}

// CodecDataset is one page of bytes a compression codec is measured on.
type CodecDataset struct {
	Name string
	// Page returns the PLAIN page of about size bytes.
	Page func(size int) []byte
}

// CodecDatasets are the pages the codec benchmarks compress: small-delta
// ints, millisecond timestamps, random doubles (nearly incompressible) and
// high-cardinality strings.
var CodecDatasets = []CodecDataset{
	{"ints", func(n int) []byte { return PlainInt32s(Ints(n)) }},
	{"ts", func(n int) []byte { return PlainInt64s(Timestamps(n)) }},
	{"doubles", func(n int) []byte { return PlainDoubles(RandomDoubles(n)) }},
	{"strings", func(n int) []byte { return PlainByteArrays(HighCardStrings(n)) }},
}
