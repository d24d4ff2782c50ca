package arrowgo

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/pqcodec/pqcodec/internal/benchdata"
	"github.com/stretchr/testify/require"
)

// BenchmarkWriteTable writes the tables BenchmarkReadTable reads with
// pqarrow.FileWriter (impl=pqarrow, pqcodec's codecs registered, so only
// encoding differs) and with FileWriter (impl=pqcodec), under the same
// properties: snappy, dictionary on, 1 MiB pages, row groups of 1 Mi
// rows, statistics on, no page index. cpu-ns/op is the process CPU time,
// file-bytes the size written; both files read back equal to the
// table pqarrow wrote.
func BenchmarkWriteTable(b *testing.B) {
	type input struct {
		name string
		data []byte
	}
	var inputs []input
	for _, f := range benchFiles {
		data, err := os.ReadFile(filepath.Join("../../testdata/foreign", f))
		require.NoError(b, err)
		inputs = append(inputs, input{f, data})
	}
	inputs = append(inputs, input{"gen/1M_dict", generated(b, true)}, input{"gen/1M_plain", generated(b, false)})
	props := parquet.NewWriterProperties(parquet.WithCompression(compress.Codecs.Snappy),
		parquet.WithDictionaryDefault(true), parquet.WithDataPageSize(1<<20), parquet.WithMaxRowGroupLength(1<<20),
		parquet.WithStats(true))
	withAdapter(b, func() {
		for _, in := range inputs {
			tbl, err := oursTable(in.data, memory.DefaultAllocator)
			require.NoError(b, err)
			impls := []struct {
				name  string
				write func(*bytes.Buffer) error
			}{
				{"pqarrow", func(buf *bytes.Buffer) error {
					return pqarrow.WriteTable(tbl, buf, 1<<20, props, pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()))
				}},
				{"pqcodec", func(buf *bytes.Buffer) error {
					fw, err := NewFileWriter(tbl.Schema(), buf, WithWriterProperties(props))
					if err != nil {
						return err
					}
					if err := fw.WriteTable(tbl, 1<<20); err != nil {
						return err
					}
					return fw.Close()
				}},
			}
			var ref bytes.Buffer
			require.NoError(b, impls[0].write(&ref))
			want, err := oursTable(ref.Bytes(), memory.DefaultAllocator)
			require.NoError(b, err)
			for _, impl := range impls {
				b.Run("file="+in.name+"/impl="+impl.name, func(b *testing.B) {
					var buf bytes.Buffer
					require.NoError(b, impl.write(&buf))
					back, err := oursTable(buf.Bytes(), memory.DefaultAllocator)
					require.NoError(b, err)
					require.Empty(b, equalTablesLogical(want, back))
					back.Release()
					b.ReportAllocs()
					cpu := benchdata.CPUTime()
					for b.Loop() {
						buf.Reset()
						if err := impl.write(&buf); err != nil {
							b.Fatal(err)
						}
					}
					b.ReportMetric(float64(benchdata.CPUTime()-cpu)/float64(b.N), "cpu-ns/op")
					b.ReportMetric(float64(buf.Len()), "file-bytes")
				})
			}
			want.Release()
			tbl.Release()
		}
	})
}
