package column

import (
	"bytes"
	"os"
	"testing"
	"time"

	"github.com/pqcodec/pqcodec/codecfactory"

	"github.com/pqcodec/pqcodec/internal/testcorpus"
)

// FuzzReadFile feeds arbitrary bytes to Open and to every column chunk
// reader: errors are expected, panics, hangs and huge allocations are bugs.
// Seeds are small real files of several writers, codecs and page versions.
func FuzzReadFile(f *testing.F) {
	dir, ok := testcorpus.Find()
	if ok {
		for _, name := range []string{
			"alltypes_plain.parquet",
			"alltypes_plain.snappy.parquet",
			"datapage_v2.snappy.parquet",
			"nested_lists.snappy.parquet",
			"delta_encoding_optional_column.parquet",
			"byte_stream_split.zstd.parquet",
			"hadoop_lz4_compressed.parquet",
			"rle_boolean_encoding.parquet",
		} {
			b, err := os.ReadFile(dir + "/data/" + name)
			if err == nil {
				f.Add(b)
			}
		}
	}
	f.Add([]byte("PAR1PAR1"))
	codecs, err := codecfactory.New(codecfactory.WithMaxPageSize(1 << 20))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		timer := time.AfterFunc(10*time.Second, func() { panic("FuzzReadFile: input takes over 10s") })
		defer timer.Stop()
		file, err := Open(bytes.NewReader(data), int64(len(data)), WithMaxPageValues(1<<20), WithCodecs(codecs))
		if err != nil {
			return
		}
		var p Page
		for rg := range file.NumRowGroups() {
			for col := range file.NumColumns() {
				r, err := file.Column(rg, col)
				if err != nil {
					continue
				}
				for r.ReadPage(&p) == nil {
				}
			}
		}
	})
}
