package bitpacked

import (
	"math/rand/v2"
	"testing"
)

func BenchmarkDecode(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	const n = 16 << 10
	for _, width := range []uint{1, 3} {
		vals := make([]uint32, n)
		for i := range vals {
			vals[i] = r.Uint32() & (1<<width - 1)
		}
		enc, err := Encode(nil, vals, width)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(string(rune('0'+width)), func(b *testing.B) {
			dst, _, err := Decode(nil, enc, width, n)
			if err != nil || dst[n-1] != vals[n-1] {
				b.Fatal("wrong output", err)
			}
			b.SetBytes(4 * n)
			b.ReportAllocs()
			for b.Loop() {
				dst, _, _ = Decode(dst[:0], enc, width, n)
			}
		})
	}
}
