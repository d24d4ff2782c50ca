package delta

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// Page sizes are the benchmarked plain (uncompressed) sizes of a page.
var pageSizes = []int{64 << 10, 1 << 20}

// benchInt32 and benchInt64 return the benchmarked value shapes for a page of
// size bytes.
func benchInt32(size int) map[string][]int32 {
	r := rand.New(rand.NewPCG(1, 2))
	v := make([]int32, size/4)
	acc := int32(0)
	for i := range v {
		acc += int32(r.IntN(64)) - 16
		v[i] = acc
	}
	return map[string][]int32{"small-deltas": v}
}

func benchInt64(size int) map[string][]int64 {
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

func benchStrings(size int) map[string][]string {
	r := rand.New(rand.NewPCG(5, 6))
	sets := map[string][]string{}
	colors := []string{"red", "green", "blue", "yellow", "cyan", "magenta", "black", "white"}
	for name, gen := range map[string]func() string{
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
	} {
		var strs []string
		for total := 0; total < size; {
			s := gen()
			strs = append(strs, s)
			total += 4 + len(s) // PLAIN size
		}
		sets[name] = strs
	}
	return sets
}

func mvalues(b *testing.B, n int) {
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mvalues/s")
}

func BenchmarkBinaryPacked(b *testing.B) {
	for _, size := range pageSizes {
		for name, v := range benchInt32(size) {
			enc := EncodeInt32(nil, v)
			b.Run(fmt.Sprintf("decode/int32/%s/%dKiB", name, size>>10), func(b *testing.B) {
				dst, err := DecodeInt32(nil, enc)
				if err != nil || len(dst) != len(v) || dst[len(v)-1] != v[len(v)-1] {
					b.Fatal("bad decode", err)
				}
				b.SetBytes(int64(4 * len(v)))
				b.ReportAllocs()
				for b.Loop() {
					dst, _ = DecodeInt32(dst[:0], enc)
				}
				mvalues(b, len(v))
			})
			b.Run(fmt.Sprintf("encode/int32/%s/%dKiB", name, size>>10), func(b *testing.B) {
				out := EncodeInt32(nil, v)
				b.SetBytes(int64(4 * len(v)))
				b.ReportAllocs()
				for b.Loop() {
					out = EncodeInt32(out[:0], v)
				}
				mvalues(b, len(v))
			})
		}
		for name, v := range benchInt64(size) {
			enc := EncodeInt64(nil, v)
			b.Run(fmt.Sprintf("decode/int64/%s/%dKiB", name, size>>10), func(b *testing.B) {
				dst, err := DecodeInt64(nil, enc)
				if err != nil || len(dst) != len(v) || dst[len(v)-1] != v[len(v)-1] {
					b.Fatal("bad decode", err)
				}
				b.SetBytes(int64(8 * len(v)))
				b.ReportAllocs()
				for b.Loop() {
					dst, _ = DecodeInt64(dst[:0], enc)
				}
				mvalues(b, len(v))
			})
			b.Run(fmt.Sprintf("encode/int64/%s/%dKiB", name, size>>10), func(b *testing.B) {
				out := EncodeInt64(nil, v)
				b.SetBytes(int64(8 * len(v)))
				b.ReportAllocs()
				for b.Loop() {
					out = EncodeInt64(out[:0], v)
				}
				mvalues(b, len(v))
			})
		}
	}
}

func BenchmarkByteArray(b *testing.B) {
	for _, size := range pageSizes {
		for name, strs := range benchStrings(size) {
			values, offsets := flat(strs)
			for _, c := range []struct {
				name string
				enc  func([]byte, []byte, []int32) ([]byte, error)
				dec  func([]byte, []int32, []byte) ([]byte, []int32, error)
			}{{"DLBA", EncodeLengthByteArray, DecodeLengthByteArray}, {"DBA", EncodeByteArray, DecodeByteArray}} {
				page, err := c.enc(nil, values, offsets)
				if err != nil {
					b.Fatal(err)
				}
				b.Run(fmt.Sprintf("decode/%s/%s/%dKiB", c.name, name, size>>10), func(b *testing.B) {
					v, o, err := c.dec(nil, nil, page)
					if err != nil || string(v) != string(values) || len(o) != len(offsets) {
						b.Fatal("bad decode", err)
					}
					b.SetBytes(int64(len(values)))
					b.ReportAllocs()
					for b.Loop() {
						v, o, _ = c.dec(v[:0], o[:0], page)
					}
					mvalues(b, len(strs))
				})
				b.Run(fmt.Sprintf("encode/%s/%s/%dKiB", c.name, name, size>>10), func(b *testing.B) {
					out := make([]byte, 0, 2*len(page))
					b.SetBytes(int64(len(values)))
					b.ReportAllocs()
					for b.Loop() {
						out, _ = c.enc(out[:0], values, offsets)
					}
					mvalues(b, len(strs))
				})
			}
		}
	}
}
