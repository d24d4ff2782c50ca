package writer_test

import (
	"io"
	"testing"

	"github.com/pqcodec/pqcodec/codecfactory"
	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/writer"
)

// BenchmarkWriteNullableInt32 writes 1 Mi rows of an optional INT32
// column (a random walk, one null in ten) with the default options but
// SNAPPY: levels, dictionary, pages, statistics. bench/ compares writers.
func BenchmarkWriteNullableInt32(b *testing.B) {
	const n = 1 << 20
	def := make([]int16, n)
	v := column.Values{Type: format.Int32}
	x := int32(1_000_000)
	for i := range def {
		x += int32(i*7919%64) - 32
		if i%10 != 3 {
			def[i] = 1
			v.Int32s = append(v.Int32s, x)
		}
	}
	s, err := writer.Message("m", writer.Leaf("v", format.Optional, format.Int32))
	if err != nil {
		b.Fatal(err)
	}
	codecs, err := codecfactory.New()
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(4 * n)
	b.ReportAllocs()
	for b.Loop() {
		w, err := writer.New(io.Discard, s, writer.WithCodecs(codecs), writer.WithCodec(codecfactory.Snappy))
		if err != nil {
			b.Fatal(err)
		}
		if err := w.Write(0, &v, def, nil); err != nil {
			b.Fatal(err)
		}
		if err := w.Close(); err != nil {
			b.Fatal(err)
		}
	}
}
