package recompress_test

import (
	"bytes"
	"testing"

	"github.com/pqcodec/pqcodec/codecfactory"
	"github.com/pqcodec/pqcodec/recompress"
)

// FuzzRewrite rewrites arbitrary bytes as a Parquet file: Rewrite must not
// panic, and whatever it writes without error must pass Verify against the
// input.
func FuzzRewrite(f *testing.F) {
	for _, name := range []string{"alltypes_plain.snappy.parquet", "datapage_v2.snappy.parquet",
		"data_index_bloom_encoding_stats.parquet", "alltypes_tiny_pages_plain.parquet", "nested_lists.snappy.parquet",
		"dict-page-offset-zero.parquet", "hadoop_lz4_compressed.parquet"} {
		b := readCorpus(f, name)
		if len(b) < 64<<10 {
			f.Add(b, uint8(codecfactory.Zstd))
		}
	}
	dec, err := codecfactory.New(codecfactory.WithMaxPageSize(16 << 20))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, src []byte, codec uint8) {
		c := codecfactory.Codec(codec % 8)
		if c == codecfactory.Lzo || c == codecfactory.Brotli {
			c = codecfactory.Zstd // slow or maybe unavailable; covered by TestCorpus
		}
		var out bytes.Buffer
		_, err := recompress.Rewrite(&out, bytes.NewReader(src), int64(len(src)),
			recompress.WithCodec(recompress.Target{Codec: c}), recompress.WithCodecs(dec), recompress.WithWorkers(2))
		if err != nil {
			return
		}
		if err := recompress.Verify(bytes.NewReader(src), int64(len(src)), bytes.NewReader(out.Bytes()), int64(out.Len()), dec); err != nil {
			t.Fatalf("output fails verification: %v", err)
		}
	})
}
