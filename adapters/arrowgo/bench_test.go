package arrowgo

import (
	"bytes"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/codecfactory"
)

// BenchmarkArrowGo times arrow-go writing and reading (pqarrow, whole table)
// a 200 000-row file with its built-in ZSTD and BROTLI codecs
// (impl=builtin) and with pqcodec's (impl=pqcodec), interleaved in one run.
// Compare with benchstat on the impl key.
func BenchmarkArrowGo(b *testing.B) {
	rec := testRecord(200_000)
	defer rec.Release()
	for _, c := range []codecfactory.Codec{codecfactory.Zstd, codecfactory.Brotli} {
		builtin, err := compress.GetCodec(compress.Compression(c))
		require.NoError(b, err)
		ours, err := NewCodec(c)
		require.NoError(b, err)
		impls := []struct {
			name  string
			codec compress.Codec
		}{{"builtin", builtin}, {"pqcodec", ours}}
		for _, impl := range impls {
			use := func() { compress.RegisterCodec(compress.Compression(c), impl.codec) }
			use()
			data := writeArrow(b, compress.Compression(c), rec)
			compress.RegisterCodec(compress.Compression(c), builtin)
			b.Run("op=write/codec="+c.String()+"/impl="+impl.name, func(b *testing.B) {
				use()
				defer compress.RegisterCodec(compress.Compression(c), builtin)
				b.SetBytes(int64(len(data)))
				b.ReportAllocs()
				for b.Loop() {
					writeArrow(b, compress.Compression(c), rec)
				}
			})
			b.Run("op=read/codec="+c.String()+"/impl="+impl.name, func(b *testing.B) {
				use()
				defer compress.RegisterCodec(compress.Compression(c), builtin)
				b.SetBytes(int64(len(data)))
				b.ReportAllocs()
				for b.Loop() {
					tbl, err := pqarrow.ReadTable(b.Context(), bytes.NewReader(data), nil, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
					if err != nil {
						b.Fatal(err)
					}
					if tbl.NumRows() != rec.NumRows() {
						b.Fatalf("%d rows", tbl.NumRows())
					}
					tbl.Release()
				}
			})
		}
	}
}
