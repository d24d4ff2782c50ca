package bytestreamsplit

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// pageSizes are the benchmarked page sizes in bytes.
var pageSizes = []int{64 << 10, 1 << 20}

// smooth returns n samples of a slowly varying signal, like sensor data.
func smooth(n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = 20 + 5*math.Sin(float64(i)/1000) + float64(i%7)/100
	}
	return v
}

func random(n int) []float64 {
	r := rand.New(rand.NewPCG(1, 2))
	v := make([]float64, n)
	for i := range v {
		v[i] = math.Float64frombits(r.Uint64())
	}
	return v
}

func benchDecode[T Value](b *testing.B, vals []T) {
	page := Encode(nil, vals)
	dst, err := Decode(make([]T, 0, len(vals)), page)
	if err != nil || len(dst) != len(vals) || string(Encode(nil, dst)) != string(page) {
		b.Fatal("decode mismatch", err)
	}
	b.SetBytes(int64(len(page)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		dst, _ = Decode(dst[:0], page)
	}
	b.ReportMetric(float64(len(vals))*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mvalues/s")
}

func benchEncode[T Value](b *testing.B, vals []T) {
	page := Encode(nil, vals)
	b.SetBytes(int64(len(page)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		page = Encode(page[:0], vals)
	}
	b.ReportMetric(float64(len(vals))*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mvalues/s")
}

func to32(v []float64) []float32 {
	out := make([]float32, len(v))
	for i, x := range v {
		out[i] = float32(x)
	}
	return out
}

func BenchmarkBSS(b *testing.B) {
	for _, size := range pageSizes {
		for _, data := range []struct {
			name string
			gen  func(int) []float64
		}{{"smooth", smooth}, {"random", random}} {
			f64 := data.gen(size / 8)
			f32 := to32(data.gen(size / 4))
			name := fmt.Sprintf("%s/%dKiB", data.name, size>>10)
			b.Run("decode/float32/"+name, func(b *testing.B) { benchDecode(b, f32) })
			b.Run("decode/float64/"+name, func(b *testing.B) { benchDecode(b, f64) })
			b.Run("encode/float32/"+name, func(b *testing.B) { benchEncode(b, f32) })
			b.Run("encode/float64/"+name, func(b *testing.B) { benchEncode(b, f64) })
		}
	}
}

// naiveFixed is the byte-at-a-time FIXED_LEN_BYTE_ARRAY decoder the block
// transposition replaced, kept as the baseline of BenchmarkFixed.
func naiveFixed(out, src []byte, n, k int) {
	for j := range k {
		stream := src[j*n : j*n+n]
		for i, b := range stream {
			out[i*k+j] = b
		}
	}
}

// BenchmarkFixed times the FIXED_LEN_BYTE_ARRAY coders on 64 KiB pages,
// with naiveFixed as the decoding baseline.
func BenchmarkFixed(b *testing.B) {
	const size = 64 << 10
	src := randomBits(rand.New(rand.NewPCG(1, 2)), size)
	for _, k := range []int{2, 4, 8, 12, 16} {
		src := src[:size/k*k]
		page, _ := EncodeFixedLenByteArray(nil, src, k)
		out := make([]byte, len(src))
		naiveFixed(out, page, len(src)/k, k)
		if got, err := DecodeFixedLenByteArray(nil, page, k); err != nil || string(got) != string(src) || string(out) != string(src) {
			b.Fatal("decode mismatch", err)
		}
		run := func(name string, f func()) {
			b.Run(fmt.Sprintf("%s/k=%d", name, k), func(b *testing.B) {
				b.SetBytes(int64(len(src)))
				b.ReportAllocs()
				for b.Loop() {
					f()
				}
			})
		}
		run("decode", func() { out, _ = DecodeFixedLenByteArray(out[:0], page, k) })
		run("decode-naive", func() { naiveFixed(out[:len(src)], page, len(src)/k, k) })
		run("encode", func() { out, _ = EncodeFixedLenByteArray(out[:0], src, k) })
	}
}
