package rle

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/pqcodec/pqcodec/internal/benchdata"
)

// benchLevels is internal/benchdata's, shared with the peer comparison in
// interop/encoding_basic_test.go.
var benchLevels = benchdata.Levels

type benchSet struct {
	name  string
	width uint
	vals  []uint32
}

func benchSets(n int) []benchSet {
	r := rand.New(rand.NewPCG(1, 2))
	sets := []benchSet{{"levels_w1", 1, benchLevels(r, n)}}
	for _, w := range []uint{3, 8, 12, 20} {
		sets = append(sets, benchSet{fmt.Sprintf("indices_w%d", w), w, genRuns(r, n, w)})
	}
	return sets
}

var benchPages = []struct {
	name string
	size int
}{{"64KiB", 64 << 10}, {"1MiB", 1 << 20}}

func BenchmarkDecode(b *testing.B) {
	for _, p := range benchPages {
		n := p.size / 4
		for _, s := range benchSets(n) {
			enc, err := Encode(nil, s.vals, s.width)
			if err != nil {
				b.Fatal(err)
			}
			b.Run(s.name+"/"+p.name, func(b *testing.B) {
				dst, err := Decode(nil, enc, s.width, n)
				if err != nil || dst[n-1] != s.vals[n-1] || dst[n/2] != s.vals[n/2] {
					b.Fatal("wrong output", err)
				}
				b.SetBytes(int64(4 * n))
				b.ReportAllocs()
				for b.Loop() {
					dst, _ = Decode(dst[:0], enc, s.width, n)
				}
				b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds()/1e9, "Gvalues/s")
			})
		}
	}
}

// BenchmarkDecodeLevels decodes levels of width 1 into the types readers
// keep them in: uint8 (parquet-go) and int16 (package column).
func BenchmarkDecodeLevels(b *testing.B) {
	for _, p := range benchPages {
		n := p.size / 4
		vals := benchLevels(rand.New(rand.NewPCG(1, 2)), n)
		enc, err := Encode(nil, vals, 1)
		if err != nil {
			b.Fatal(err)
		}
		b.Run("uint8/"+p.name, func(b *testing.B) { benchDecodeLevels[uint8](b, enc, vals) })
		b.Run("int16/"+p.name, func(b *testing.B) { benchDecodeLevels[int16](b, enc, vals) })
	}
}

func benchDecodeLevels[T Level](b *testing.B, enc []byte, vals []uint32) {
	n := len(vals)
	dst, err := DecodeLevels([]T(nil), enc, 1, n)
	if err != nil {
		b.Fatal(err)
	}
	for i, v := range vals {
		if uint32(dst[i]) != v {
			b.Fatalf("value %d: got %d, want %d", i, dst[i], v)
		}
	}
	b.SetBytes(int64(n))
	b.ReportAllocs()
	for b.Loop() {
		dst, _ = DecodeLevels(dst[:0], enc, 1, n)
	}
}

func BenchmarkEncode(b *testing.B) {
	for _, p := range benchPages {
		n := p.size / 4
		for _, s := range benchSets(n) {
			b.Run(s.name+"/"+p.name, func(b *testing.B) {
				out, err := Encode(nil, s.vals, s.width)
				if err != nil {
					b.Fatal(err)
				}
				if back, err := Decode(nil, out, s.width, n); err != nil || back[n-1] != s.vals[n-1] {
					b.Fatal("wrong output", err)
				}
				b.SetBytes(int64(4 * n))
				b.ReportAllocs()
				for b.Loop() {
					out, _ = Encode(out[:0], s.vals, s.width)
				}
			})
		}
	}
}

func BenchmarkBoolean(b *testing.B) {
	for _, p := range benchPages {
		n := p.size
		lv := benchLevels(rand.New(rand.NewPCG(3, 4)), n)
		bools := make([]bool, n)
		for i, v := range lv {
			bools[i] = v == 1
		}
		enc := EncodeBoolean(nil, bools)
		b.Run("decode/"+p.name, func(b *testing.B) {
			dst, _, err := DecodeBoolean(nil, enc, n)
			if err != nil || dst[n-1] != bools[n-1] {
				b.Fatal("wrong output", err)
			}
			b.SetBytes(int64(n))
			b.ReportAllocs()
			for b.Loop() {
				dst, _, _ = DecodeBoolean(dst[:0], enc, n)
			}
		})
		b.Run("encode/"+p.name, func(b *testing.B) {
			out := EncodeBoolean(nil, bools)
			b.SetBytes(int64(n))
			b.ReportAllocs()
			for b.Loop() {
				out = EncodeBoolean(out[:0], bools)
			}
		})
	}
}
