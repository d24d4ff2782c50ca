package cgotest

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/codecfactory"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/internal/testcorpus"
	"github.com/pqcodec/pqcodec/recompress"
)

// arrowCodecs are the codecs arrow-go reads, so the ones its reading of a
// rewritten file can check.
var arrowCodecs = []codecfactory.Codec{codecfactory.Uncompressed, codecfactory.Snappy, codecfactory.Gzip,
	codecfactory.Brotli, codecfactory.Zstd, codecfactory.Lz4Raw}

func rewriteBytes(t *testing.T, src []byte, opts ...recompress.Option) []byte {
	t.Helper()
	var out bytes.Buffer
	_, err := recompress.Rewrite(&out, bytes.NewReader(src), int64(len(src)), opts...)
	require.NoError(t, err)
	require.NoError(t, recompress.Verify(bytes.NewReader(src), int64(len(src)), bytes.NewReader(out.Bytes()), int64(out.Len()), nil))
	return out.Bytes()
}

// sourceCodecs returns the codecs of the column chunks of the file in b.
func sourceCodecs(t *testing.T, b []byte) map[codecfactory.Codec]bool {
	m, err := format.ReadFooter(bytes.NewReader(b), int64(len(b)))
	require.NoError(t, err)
	cs := map[codecfactory.Codec]bool{}
	for _, rg := range m.RowGroups {
		for _, cc := range rg.Columns {
			cs[codecfactory.Codec(cc.MetaData.Codec)] = true
		}
	}
	return cs
}

// TestRewriteReadByPeers rewrites every non-encrypted parquet-testing file
// to ZSTD and to one more codec arrow-go reads (every one with
// PQCODEC_LONG set), and reads the outputs with arrow-go and parquet-go:
// wherever a peer reads the source, it must read the output to the same
// values and levels; the files whose codec arrow-go cannot read (LZO,
// Hadoop-framed LZ4) must be readable by plain arrow-go once rewritten, to
// the values pqcodec reads from the source.
//
// parquet-go is not asked to read LZ4_RAW outputs: for a page that does not
// compress (compressed size above a third of the page), its lz4 Codec.Decode
// returns a new slice that Column.decompress drops when its length is the
// declared size (parquet-go v0.32 column.go, Column.decompress), so it
// decodes a stale buffer; arrow-go and pqcodec read those pages.
func TestRewriteReadByPeers(t *testing.T) {
	dataDir := filepath.Join(testcorpus.Dir(t), "data")
	long := os.Getenv("PQCODEC_LONG") != ""
	for i, rel := range listParquet(t, dataDir) {
		if strings.HasSuffix(rel, ".encrypted") || rel == largeFile {
			continue
		}
		t.Run(rel, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join(dataDir, rel))
			require.NoError(t, err)
			ours, _, oursErr := safeReadOurs(src)
			arrowSrc, arrowErr := readArrow(src)
			pgSrc, pgErr := readParquetGo(src)
			codecs := arrowCodecs
			if !long {
				codecs = []codecfactory.Codec{codecfactory.Zstd, arrowCodecs[i%len(arrowCodecs)]}
			}
			sc := sourceCodecs(t, src)
			foreign := sc[codecfactory.Lzo] || sc[codecfactory.Lz4]
			for _, c := range codecs {
				out := rewriteBytes(t, src, recompress.WithCodec(recompress.Target{Codec: c}), recompress.WithSourceChecksums(false))
				arrowOut, err := readArrow(out)
				switch {
				case arrowErr == nil:
					require.NoError(t, err, "%v: arrow-go reads the source, not the output", c)
					require.Empty(t, diffFiles(arrowOut, arrowSrc), "%v: arrow-go", c)
				case foreign && oursErr == nil:
					require.NoError(t, err, "%v: arrow-go cannot read the %v source, must read the output", c, sc)
					require.Empty(t, diffFiles(arrowOut, ours), "%v: arrow-go on the output vs pqcodec on the source", c)
				case err == nil && oursErr == nil:
					require.Empty(t, diffFiles(arrowOut, ours), "%v: arrow-go on the output vs pqcodec on the source", c)
					t.Logf("%v: arrow-go fails on the source (%v), reads the output as pqcodec reads the source", c, arrowErr)
				default:
					t.Logf("arrow-go reads neither source (%v) nor output (%v)", arrowErr, err)
				}
				if pgErr == nil && c != codecfactory.Lz4Raw {
					pgOut, err := readParquetGo(out)
					require.NoError(t, err, "%v: parquet-go reads the source, not the output", c)
					// parquet-go misreads some sources (the byte arrays of
					// lz4_raw_compressed_larger.parquet): then its reading
					// of the output must be pqcodec's of the source.
					if d := diffFiles(pgOut, pgSrc); d != "" {
						require.NoError(t, oursErr)
						require.Empty(t, diffFiles(pgOut, ours), "%v: parquet-go differs from its reading of the source: %s", c, d)
						t.Logf("%v: parquet-go misreads the source (%s), reads the output as pqcodec reads the source", c, d)
					}
				}
			}
		})
	}
}

// TestRewritePageIndexArrow rewrites the corpus files with page indexes
// and checks, through arrow-go's page index reader, that the output's
// offset index points at the output's data pages (header size plus body
// equal to the location's size, in order, first rows unchanged) and that
// its column index is the source's.
func TestRewritePageIndexArrow(t *testing.T) {
	for _, name := range []string{"alltypes_tiny_pages.parquet", "alltypes_tiny_pages_plain.parquet",
		"data_index_bloom_encoding_stats.parquet", "data_index_bloom_encoding_with_length.parquet"} {
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(testcorpus.Data(t, name))
			require.NoError(t, err)
			out := rewriteBytes(t, src, recompress.WithCodec(recompress.Target{Codec: codecfactory.Zstd, Level: 5}))
			sr, err := file.NewParquetReader(bytes.NewReader(src))
			require.NoError(t, err)
			or, err := file.NewParquetReader(bytes.NewReader(out))
			require.NoError(t, err)
			pages := 0
			for rg := range or.NumRowGroups() {
				srg, err := sr.GetPageIndexReader().RowGroup(rg)
				require.NoError(t, err)
				org, err := or.GetPageIndexReader().RowGroup(rg)
				require.NoError(t, err)
				require.NotNil(t, org)
				for col := range or.MetaData().Schema.NumColumns() {
					soi, err := srg.GetOffsetIndex(col)
					require.NoError(t, err)
					ooi, err := org.GetOffsetIndex(col)
					require.NoError(t, err)
					require.NotNil(t, ooi, "row group %d column %d: no offset index", rg, col)
					sl, ol := soi.GetPageLocations(), ooi.GetPageLocations()
					require.Len(t, ol, len(sl))
					prev := int64(0)
					for k, l := range ol {
						require.Equal(t, sl[k].FirstRowIndex, l.FirstRowIndex)
						require.Greater(t, l.Offset, prev)
						prev = l.Offset
						var h format.PageHeader
						n, err := format.DecodePageHeader(out[l.Offset:], &h)
						require.NoError(t, err)
						require.EqualValues(t, l.CompressedPageSize, n+int(h.CompressedPageSize), "page %d", k)
						require.Contains(t, []format.PageType{format.DataPage, format.DataPageV2}, h.Type)
						var sh format.PageHeader
						_, err = format.DecodePageHeader(src[sl[k].Offset:], &sh)
						require.NoError(t, err)
						require.Equal(t, sh.UncompressedPageSize, h.UncompressedPageSize)
						require.Equal(t, sh.DataPageHeader.NumValues, h.DataPageHeader.NumValues)
						pages++
					}
					sci, err := srg.GetColumnIndex(col)
					require.NoError(t, err)
					oci, err := org.GetColumnIndex(col)
					require.NoError(t, err)
					if sci != nil {
						require.NotNil(t, oci)
						require.Equal(t, sci.GetMinValues(), oci.GetMinValues())
						require.Equal(t, sci.GetMaxValues(), oci.GetMaxValues())
						require.Equal(t, sci.GetNullPages(), oci.GetNullPages())
					}
				}
			}
			require.Positive(t, pages)
			// And arrow-go reads every value of the output as of the source.
			a, err := readArrow(src)
			require.NoError(t, err)
			b, err := readArrow(out)
			require.NoError(t, err)
			require.Empty(t, diffFiles(b, a))
			t.Log(fmt.Sprintf("%d page locations checked", pages))
		})
	}
}

// TestRewriteFromLzo writes corpus files as LZO and as Hadoop-framed LZ4
// (with pqcodec, the only Go writer of either), checks that arrow-go
// cannot read the LZO ones, then rewrites them to ZSTD and checks that
// plain arrow-go reads the result to the values it reads from the original.
func TestRewriteFromLzo(t *testing.T) {
	f, err := codecfactory.New()
	require.NoError(t, err)
	for _, c := range []codecfactory.Codec{codecfactory.Lzo, codecfactory.Lz4} {
		if lib, _ := f.Implementation(c); lib == "unavailable" {
			t.Logf("%v compression unavailable in this build", c)
			continue
		}
		for _, name := range []string{"alltypes_plain.parquet", "datapage_v2.snappy.parquet", "nested_structs.rust.parquet",
			"alltypes_tiny_pages.parquet", "nulls.snappy.parquet"} {
			src, err := os.ReadFile(testcorpus.Data(t, name))
			require.NoError(t, err)
			want, err := readArrow(src)
			require.NoError(t, err)
			legacy := rewriteBytes(t, src, recompress.WithCodec(recompress.Target{Codec: c}))
			if c == codecfactory.Lzo {
				_, err = readArrow(legacy)
				require.Error(t, err, "arrow-go reads LZO now: %s", name)
			}
			out := rewriteBytes(t, legacy, recompress.WithCodec(recompress.Target{Codec: codecfactory.Zstd}))
			got, err := readArrow(out)
			require.NoError(t, err, "%v %s", c, name)
			require.Empty(t, diffFiles(got, want), "%v %s", c, name)
		}
	}
}
