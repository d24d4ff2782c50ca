package delta

import (
	"fmt"
	"testing"

	"github.com/pqcodec/pqcodec/internal/benchdata"
)

// Page sizes are the benchmarked plain (uncompressed) sizes of a page.
var pageSizes = []int{64 << 10, 1 << 20}

// The value sets are internal/benchdata's, shared with the peer comparison
// in interop/encoding_delta_test.go.
var (
	benchInt32   = benchdata.Int32s
	benchInt64   = benchdata.Int64s
	benchStrings = benchdata.Strings
)

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
