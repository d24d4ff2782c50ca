package column

import (
	"errors"
	"io"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/internal/benchdata"
	"github.com/pqcodec/pqcodec/internal/enctable"
)

// readBenchFiles are the foreign writers' files of BenchmarkReadChunks.
var readBenchFiles = []string{
	"../testdata/foreign/arrow-go/default.parquet", "../testdata/foreign/arrow-rs/default.parquet",
	"../testdata/foreign/duckdb/default.parquet", "../testdata/foreign/polars/codec_snappy.parquet",
	"../testdata/foreign/parquet-go/default.parquet",
}

// readChunks reads every chunk of the files, each page with read, and
// returns the values read.
func readChunks(b *testing.B, files []*File, read func(r *Reader, p *Page, dst *Values) error) int {
	var r Reader
	var p Page
	var dst Values
	values := 0
	for _, f := range files {
		for rg := range f.NumRowGroups() {
			for col := range f.NumColumns() {
				if err := f.ResetReader(&r, rg, col); err != nil {
					b.Fatal(err)
				}
				dst.Reset(r.MetaData().Type, r.typeLength())
				for {
					if err := read(&r, &p, &dst); err != nil {
						if !errors.Is(err, io.EOF) {
							b.Fatal(err)
						}
						break
					}
					values += p.NumValues()
				}
			}
		}
	}
	return values
}

// benchReadChunks runs readChunks over readBenchFiles.
func benchReadChunks(b *testing.B, read func(r *Reader, p *Page, dst *Values) error) {
	var files []*File
	for _, path := range readBenchFiles {
		f, err := OpenFile(path)
		require.NoError(b, err)
		defer f.Close()
		files = append(files, f)
	}
	values := readChunks(b, files, read)
	b.ReportAllocs()
	cpu := benchdata.CPUTime()
	for b.Loop() {
		readChunks(b, files, read)
	}
	b.ReportMetric(float64(benchdata.CPUTime()-cpu)/float64(b.N), "cpu-ns/op")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*values), "ns/value")
}

// BenchmarkReadChunks reads every column chunk of foreign writers' files
// page by page with ReadPage, gathering each chunk's values into one
// Values (mode=copy: the values decoded into the page, then copied, as a
// caller filling its own buffers did before ReadPageDeferred); mode=page
// reads the pages alone.
func BenchmarkReadChunks(b *testing.B) {
	b.Run("mode=page", func(b *testing.B) {
		benchReadChunks(b, func(r *Reader, p *Page, dst *Values) error {
			return r.ReadPage(p)
		})
	})
	b.Run("mode=copy", func(b *testing.B) {
		benchReadChunks(b, func(r *Reader, p *Page, dst *Values) error {
			if err := r.ReadPage(p); err != nil {
				return err
			}
			if p.Dictionary == nil {
				(*enctable.Values)(dst).AppendRange((*enctable.Values)(&p.Values), 0, p.Values.Len())
			}
			return nil
		})
	})
}
