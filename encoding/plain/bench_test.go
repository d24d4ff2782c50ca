package plain

import (
	"math/rand/v2"
	"testing"

	"github.com/pqcodec/pqcodec/internal/benchdata"
)

var benchPages = []struct {
	name string
	size int
}{{"64KiB", 64 << 10}, {"1MiB", 1 << 20}}

func benchFixed[T Fixed](b *testing.B, name string, src []byte) {
	b.Run("decode/"+name, func(b *testing.B) {
		dst, err := Decode[T](nil, src)
		if err != nil || len(dst)*Size[T]() != len(src) {
			b.Fatal("wrong output", err)
		}
		b.SetBytes(int64(len(src)))
		b.ReportAllocs()
		for b.Loop() {
			dst, _ = Decode(dst[:0], src)
		}
	})
	vals, _ := Decode[T](nil, src)
	b.Run("encode/"+name, func(b *testing.B) {
		out := Encode(nil, vals)
		if string(out) != string(src) {
			b.Fatal("wrong output")
		}
		b.SetBytes(int64(len(src)))
		b.ReportAllocs()
		for b.Loop() {
			out = Encode(out[:0], vals)
		}
	})
}

func BenchmarkPlain(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, p := range benchPages {
		src := make([]byte, p.size)
		for i := range src {
			src[i] = byte(r.Uint32())
		}
		b.Run("copy/"+p.name, func(b *testing.B) {
			dst := make([]byte, len(src))
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				copy(dst, src)
			}
		})
		benchFixed[int32](b, "int32/"+p.name, src)
		benchFixed[int64](b, "int64/"+p.name, src)
		benchFixed[float64](b, "double/"+p.name, src)

		for _, kind := range benchdata.ByteArrayKinds {
			values, offsets := benchdata.ByteArrays(r, kind, p.size)
			page := EncodeByteArray(nil, values, offsets)
			b.Run("decode/byte_array_"+kind+"/"+p.name, func(b *testing.B) {
				v, o, err := DecodeByteArray(nil, nil, page)
				if err != nil || string(v) != string(values) || len(o) != len(offsets) {
					b.Fatal("wrong output", err)
				}
				b.SetBytes(int64(len(page)))
				b.ReportAllocs()
				for b.Loop() {
					v, o, _ = DecodeByteArray(v[:0], o[:0], page)
				}
			})
			b.Run("encode/byte_array_"+kind+"/"+p.name, func(b *testing.B) {
				out := EncodeByteArray(nil, values, offsets)
				if string(out) != string(page) {
					b.Fatal("wrong output")
				}
				b.SetBytes(int64(len(page)))
				b.ReportAllocs()
				for b.Loop() {
					out = EncodeByteArray(out[:0], values, offsets)
				}
			})
		}

		n := p.size
		bools := make([]bool, n)
		for i := range bools {
			bools[i] = r.IntN(2) == 0
		}
		bpage := EncodeBoolean(nil, bools)
		b.Run("decode/boolean/"+p.name, func(b *testing.B) {
			dst, err := DecodeBoolean(nil, bpage, n)
			if err != nil || dst[n-1] != bools[n-1] {
				b.Fatal("wrong output", err)
			}
			b.SetBytes(int64(n))
			b.ReportAllocs()
			for b.Loop() {
				dst, _ = DecodeBoolean(dst[:0], bpage, n)
			}
		})
		b.Run("encode/boolean/"+p.name, func(b *testing.B) {
			out := EncodeBoolean(nil, bools)
			if string(out) != string(bpage) {
				b.Fatal("wrong output")
			}
			b.SetBytes(int64(n))
			b.ReportAllocs()
			for b.Loop() {
				out = EncodeBoolean(out[:0], bools)
			}
		})
	}
}
