package dictionary

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

func BenchmarkDecode(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, size := range []int{64 << 10, 1 << 20} {
		n := size / 8
		for _, card := range []int{8, 4096, 1 << 20} {
			vals := make([]int64, n)
			for i := range vals {
				vals[i] = int64(r.IntN(card)) * 1_000_003
			}
			e := NewEncoder[int64](0)
			if _, err := e.Put(vals); err != nil {
				b.Fatal(err)
			}
			var d Dict[int64]
			if err := d.Reset(e.AppendDictionaryPage(nil), e.Len()); err != nil {
				b.Fatal(err)
			}
			idx := e.AppendIndexPage(nil)
			b.Run(fmt.Sprintf("int64_card%d/%dKiB", card, size>>10), func(b *testing.B) {
				out, err := d.Decode(nil, idx, n)
				if err != nil || out[n-1] != vals[n-1] {
					b.Fatal("wrong output", err)
				}
				b.SetBytes(int64(8 * n))
				b.ReportAllocs()
				for b.Loop() {
					out, _ = d.Decode(out[:0], idx, n)
				}
			})
		}
	}
}

func BenchmarkEncode(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	n := (64 << 10) / 8
	for _, card := range []int{8, 4096} {
		vals := make([]int64, n)
		for i := range vals {
			vals[i] = int64(r.IntN(card)) * 1_000_003
		}
		b.Run(fmt.Sprintf("int64_card%d/64KiB", card), func(b *testing.B) {
			e := NewEncoder[int64](0)
			out := make([]byte, 0, 8*n)
			b.SetBytes(int64(8 * n))
			b.ReportAllocs()
			for b.Loop() {
				e.Reset()
				if _, err := e.Put(vals); err != nil {
					b.Fatal(err)
				}
				out = e.AppendIndexPage(out[:0])
			}
		})
	}
}

// BenchmarkPut times Put on the columns of the writer benchmarks' shapes:
// smooth doubles (about 700 distinct) and low-cardinality strings (20).
func BenchmarkPut(b *testing.B) {
	r := rand.New(rand.NewPCG(9, 10))
	dbl := make([]float64, 1<<17)
	for i := range dbl {
		v := 20 + 5*math.Sin(float64(i)/500) + r.NormFloat64()*0.05
		dbl[i] = math.Round(v*64) / 64
	}
	b.Run("smooth-doubles", func(b *testing.B) {
		e := NewEncoder[float64](0)
		b.SetBytes(int64(8 * len(dbl)))
		b.ReportAllocs()
		for b.Loop() {
			e.Reset()
			if _, err := e.Put(dbl); err != nil {
				b.Fatal(err)
			}
		}
	})
	names := []string{"pending", "shipped", "delivered", "returned", "cancelled", "on_hold",
		"processing", "refunded", "lost", "damaged", "backordered", "partially_shipped",
		"awaiting_payment", "payment_failed", "fraud_review", "closed", "open", "draft",
		"archived", "unknown"}
	var vals []byte
	offs := []int32{0}
	for range 1 << 17 {
		vals = append(vals, names[r.IntN(len(names))]...)
		offs = append(offs, int32(len(vals)))
	}
	b.Run("lowcard-strings", func(b *testing.B) {
		e := NewBytesEncoder(0)
		b.SetBytes(int64(len(vals)))
		b.ReportAllocs()
		for b.Loop() {
			e.Reset()
			if _, err := e.Put(vals, offs); err != nil {
				b.Fatal(err)
			}
		}
	})
}
