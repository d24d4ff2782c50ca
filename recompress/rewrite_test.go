package recompress_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/codecfactory"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/internal/testcorpus"
	"github.com/pqcodec/pqcodec/recompress"
)

func readCorpus(t testing.TB, name string) []byte {
	b, err := os.ReadFile(testcorpus.Data(t, name))
	require.NoError(t, err)
	return b
}

func rewrite(src []byte, opts ...recompress.Option) ([]byte, *recompress.Result, error) {
	var out bytes.Buffer
	res, err := recompress.Rewrite(&out, bytes.NewReader(src), int64(len(src)), opts...)
	return out.Bytes(), res, err
}

func zstd(level int) recompress.Option {
	return recompress.WithCodec(recompress.Target{Codec: codecfactory.Zstd, Level: level})
}

// TestWorkersDeterministic checks that the output bytes do not depend on
// the number of workers or the memory budget.
func TestWorkersDeterministic(t *testing.T) {
	for _, name := range []string{"alltypes_tiny_pages.parquet", "datapage_v2.snappy.parquet", "nested_structs.rust.parquet"} {
		src := readCorpus(t, name)
		want, res, err := rewrite(src, zstd(0), recompress.WithWorkers(1))
		require.NoError(t, err)
		require.Positive(t, res.Pages)
		for _, workers := range []int{2, 8} {
			for _, budget := range []int64{1, recompress.DefaultMaxMemory} {
				got, _, err := rewrite(src, zstd(0), recompress.WithWorkers(workers), recompress.WithMaxMemory(budget))
				require.NoError(t, err)
				require.True(t, bytes.Equal(want, got), "%s: %d workers, budget %d", name, workers, budget)
			}
		}
	}
}

// TestMetadataKept checks that everything but codecs, sizes and offsets is
// carried over to the footer.
func TestMetadataKept(t *testing.T) {
	for _, name := range []string{"data_index_bloom_encoding_stats.parquet", "alltypes_tiny_pages.parquet",
		"column_chunk_key_value_metadata.parquet", "sort_columns.parquet"} {
		src := readCorpus(t, name)
		out, _, err := rewrite(src, recompress.WithCodec(recompress.Target{Codec: codecfactory.Lz4Raw}))
		require.NoError(t, err)
		sm, err := format.ReadFooter(bytes.NewReader(src), int64(len(src)))
		require.NoError(t, err)
		om, err := format.ReadFooter(bytes.NewReader(out), int64(len(out)))
		require.NoError(t, err)
		require.Equal(t, sm.Schema, om.Schema)
		require.Equal(t, sm.KeyValueMetadata, om.KeyValueMetadata)
		require.Equal(t, sm.CreatedBy, om.CreatedBy)
		require.Equal(t, sm.ColumnOrders, om.ColumnOrders)
		require.Equal(t, sm.NumRows, om.NumRows)
		for i := range sm.RowGroups {
			sg, og := &sm.RowGroups[i], &om.RowGroups[i]
			require.Equal(t, sg.SortingColumns, og.SortingColumns)
			require.Equal(t, sg.NumRows, og.NumRows)
			for c := range sg.Columns {
				s, o := sg.Columns[c].MetaData, og.Columns[c].MetaData
				require.Equal(t, format.CompressionCodec(codecfactory.Lz4Raw), o.Codec)
				require.Equal(t, s.Statistics, o.Statistics)
				require.Equal(t, s.KeyValueMetadata, o.KeyValueMetadata)
				require.Equal(t, s.Encodings, o.Encodings)
				require.Equal(t, s.EncodingStats, o.EncodingStats)
				require.Equal(t, s.NumValues, o.NumValues)
				require.Equal(t, s.SizeStatistics, o.SizeStatistics)
				require.Equal(t, s.BloomFilterOffset != nil, o.BloomFilterOffset != nil)
				require.Equal(t, sg.Columns[c].OffsetIndexOffset != nil, og.Columns[c].OffsetIndexOffset != nil)
				require.Equal(t, sg.Columns[c].ColumnIndexOffset != nil, og.Columns[c].ColumnIndexOffset != nil)
				if s.BloomFilterOffset != nil {
					// The bloom filter bytes are copied unchanged.
					n := 64
					sb := src[*s.BloomFilterOffset:][:n]
					ob := out[*o.BloomFilterOffset:][:n]
					require.Equal(t, sb, ob)
				}
				if ci := sg.Columns[c].ColumnIndexOffset; ci != nil {
					n := *sg.Columns[c].ColumnIndexLength
					require.Equal(t, n, *og.Columns[c].ColumnIndexLength)
					require.Equal(t, src[*ci:*ci+int64(n)], out[*og.Columns[c].ColumnIndexOffset:][:n])
				}
			}
		}
	}
}

// TestOffsetIndexMoved checks that every page location of the rewritten
// offset indexes points at a page header of the stated size whose type is a
// data page, in the same order as the source's.
func TestOffsetIndexMoved(t *testing.T) {
	for _, name := range []string{"alltypes_tiny_pages.parquet", "alltypes_tiny_pages_plain.parquet",
		"data_index_bloom_encoding_stats.parquet", "data_index_bloom_encoding_with_length.parquet"} {
		src := readCorpus(t, name)
		out, res, err := rewrite(src, zstd(9), recompress.WithChecksums(recompress.CRCAdd))
		require.NoError(t, err)
		require.Zero(t, res.DroppedPageIndexes)
		om, err := format.ReadFooter(bytes.NewReader(out), int64(len(out)))
		require.NoError(t, err)
		sm, err := format.ReadFooter(bytes.NewReader(src), int64(len(src)))
		require.NoError(t, err)
		checked := 0
		for i := range om.RowGroups {
			for c := range om.RowGroups[i].Columns {
				cc := &om.RowGroups[i].Columns[c]
				require.NotNil(t, cc.OffsetIndexOffset, "%s", name)
				oi, err := format.DecodeOffsetIndex(out[*cc.OffsetIndexOffset:][:*cc.OffsetIndexLength])
				require.NoError(t, err)
				sc := &sm.RowGroups[i].Columns[c]
				si, err := format.DecodeOffsetIndex(src[*sc.OffsetIndexOffset:][:*sc.OffsetIndexLength])
				require.NoError(t, err)
				require.Equal(t, len(si.PageLocations), len(oi.PageLocations))
				for k, l := range oi.PageLocations {
					require.Equal(t, si.PageLocations[k].FirstRowIndex, l.FirstRowIndex)
					var h format.PageHeader
					n, err := format.DecodePageHeader(out[l.Offset:], &h)
					require.NoError(t, err)
					require.EqualValues(t, l.CompressedPageSize, n+int(h.CompressedPageSize))
					require.Contains(t, []format.PageType{format.DataPage, format.DataPageV2}, h.Type)
					require.True(t, h.HasCRC)
					var sh format.PageHeader
					_, err = format.DecodePageHeader(src[si.PageLocations[k].Offset:], &sh)
					require.NoError(t, err)
					require.Equal(t, sh.UncompressedPageSize, h.UncompressedPageSize)
					checked++
				}
			}
		}
		require.Positive(t, checked)
	}
}

func TestPerColumnCodec(t *testing.T) {
	src := readCorpus(t, "alltypes_plain.parquet")
	out, _, err := rewrite(src, zstd(0),
		recompress.WithColumnCodec("id", recompress.Target{Codec: codecfactory.Gzip, Level: 9}),
		recompress.WithColumnCodec("string_col", recompress.Target{Codec: codecfactory.Uncompressed}),
		recompress.WithColumnCodec("date_string_col", recompress.Target{Codec: codecfactory.Lz4Raw, Level: 9}),
		recompress.WithColumnCodec("timestamp_col", recompress.Target{Codec: codecfactory.Snappy, Level: 3}))
	require.NoError(t, err)
	om, err := format.ReadFooter(bytes.NewReader(out), int64(len(out)))
	require.NoError(t, err)
	for _, cc := range om.RowGroups[0].Columns {
		want := codecfactory.Zstd
		switch cc.MetaData.PathInSchema[0] {
		case "id":
			want = codecfactory.Gzip
		case "string_col":
			want = codecfactory.Uncompressed
		case "date_string_col":
			want = codecfactory.Lz4Raw
		case "timestamp_col":
			want = codecfactory.Snappy
		}
		require.Equal(t, format.CompressionCodec(want), cc.MetaData.Codec, cc.MetaData.PathInSchema)
	}
	require.NoError(t, recompress.Verify(bytes.NewReader(src), int64(len(src)), bytes.NewReader(out), int64(len(out)), nil))

	_, _, err = rewrite(src, recompress.WithColumnCodec("nope", recompress.Target{Codec: codecfactory.Gzip}))
	require.ErrorIs(t, err, recompress.ErrOption)
	_, _, err = rewrite(src, recompress.WithCodec(recompress.Target{Codec: codecfactory.Zstd, Level: 99}))
	require.ErrorIs(t, err, recompress.ErrOption)
	_, _, err = rewrite(src, recompress.WithCodec(recompress.Target{Codec: codecfactory.Snappy, Level: codecfactory.MaxSnappyLevel + 1}))
	require.ErrorIs(t, err, recompress.ErrOption)
	_, _, err = rewrite(src, recompress.WithCodec(recompress.Target{Codec: codecfactory.Lz4Raw, Level: codecfactory.MaxLz4Level + 1}))
	require.ErrorIs(t, err, recompress.ErrOption)
	_, _, err = rewrite(src, recompress.WithWorkers(0))
	require.ErrorIs(t, err, recompress.ErrOption)
}

func TestChecksumModes(t *testing.T) {
	src := readCorpus(t, "datapage_v1-snappy-compressed-checksum.parquet")
	count := func(b []byte) (with, without int) {
		m, err := format.ReadFooter(bytes.NewReader(b), int64(len(b)))
		require.NoError(t, err)
		for _, rg := range m.RowGroups {
			for i := range rg.Columns {
				rng, err := m.ColumnChunkRange(&rg.Columns[i], int64(len(b)))
				require.NoError(t, err)
				chunk, err := format.ReadColumnChunk(nil, bytes.NewReader(b), rng)
				require.NoError(t, err)
				w := format.NewPageWalker(chunk, rng)
				for w.Next() {
					if w.Header().HasCRC {
						with++
					} else {
						without++
					}
				}
				require.NoError(t, w.Err())
			}
		}
		return
	}
	sw, so := count(src)
	require.Positive(t, sw)
	for _, mode := range []recompress.CRCMode{recompress.CRCKeep, recompress.CRCAdd, recompress.CRCDrop} {
		out, _, err := rewrite(src, recompress.WithChecksums(mode))
		require.NoError(t, err)
		w, o := count(out)
		switch mode {
		case recompress.CRCKeep:
			require.Equal(t, [2]int{sw, so}, [2]int{w, o})
		case recompress.CRCAdd:
			require.Equal(t, [2]int{sw + so, 0}, [2]int{w, o})
		case recompress.CRCDrop:
			require.Equal(t, [2]int{0, sw + so}, [2]int{w, o})
		}
		// Verify checks every output CRC.
		require.NoError(t, recompress.Verify(bytes.NewReader(src), int64(len(src)), bytes.NewReader(out), int64(len(out)), nil))
	}
	bad := readCorpus(t, "datapage_v1-corrupt-checksum.parquet")
	_, _, err := rewrite(bad)
	require.ErrorIs(t, err, recompress.ErrChecksum)
	_, _, err = rewrite(bad, recompress.WithSourceChecksums(false))
	require.NoError(t, err)
}

func TestEncrypted(t *testing.T) {
	for _, name := range []string{"uniform_encryption.parquet.encrypted", "encrypt_columns_plaintext_footer.parquet.encrypted"} {
		src := readCorpus(t, name)
		_, _, err := rewrite(src)
		require.ErrorIs(t, err, recompress.ErrEncrypted, name)
		require.ErrorIs(t, err, format.ErrEncrypted, name)
	}
}

// TestTruncated cuts a file at every length and checks that Rewrite
// returns an error and never panics.
func TestTruncated(t *testing.T) {
	src := readCorpus(t, "alltypes_tiny_pages_plain.parquet")
	step := max(1, len(src)/500)
	for n := 0; n < len(src); n += step {
		_, _, err := rewrite(src[:n])
		require.ErrorIs(t, err, recompress.ErrCorrupt, "%d bytes", n)
	}
	// Cutting the pages but keeping the footer in place: the pages run
	// into zeros or out of their chunk.
	for _, name := range []string{"alltypes_plain.snappy.parquet", "datapage_v2.snappy.parquet", "hadoop_lz4_compressed.parquet"} {
		src := readCorpus(t, name)
		m, err := format.ReadFooter(bytes.NewReader(src), int64(len(src)))
		require.NoError(t, err)
		rng, err := m.ColumnChunkRange(&m.RowGroups[0].Columns[0], int64(len(src)))
		require.NoError(t, err)
		for cut := rng.Start; cut < rng.Start+rng.Length; cut++ {
			bad := bytes.Clone(src)
			clear(bad[cut : rng.Start+rng.Length])
			out, _, err := rewrite(bad, recompress.WithSourceChecksums(false))
			if err == nil { // zeros can be a valid empty page body: then it must verify
				require.NoError(t, recompress.Verify(bytes.NewReader(bad), int64(len(bad)), bytes.NewReader(out), int64(len(out)), nil))
				continue
			}
			require.ErrorIs(t, err, recompress.ErrCorrupt, "%s cut at %d", name, cut)
		}
	}
}

// TestFailingPage flips bytes of a compressed page body: Rewrite fails with
// ErrCorrupt wrapping the codec's error.
func TestFailingPage(t *testing.T) {
	src := readCorpus(t, "alltypes_plain.snappy.parquet")
	m, err := format.ReadFooter(bytes.NewReader(src), int64(len(src)))
	require.NoError(t, err)
	rng, err := m.ColumnChunkRange(&m.RowGroups[0].Columns[0], int64(len(src)))
	require.NoError(t, err)
	var h format.PageHeader
	n, err := format.DecodePageHeader(src[rng.Start:], &h)
	require.NoError(t, err)
	bad := bytes.Clone(src)
	body := bad[rng.Start+int64(n):][:h.CompressedPageSize]
	for i := range body {
		body[i] = 0xff
	}
	_, _, err = rewrite(bad, recompress.WithWorkers(2))
	require.ErrorIs(t, err, recompress.ErrCorrupt)
	require.ErrorIs(t, err, codecfactory.ErrCorrupt)
}

// failingWriter fails once more than n bytes have been written.
type failingWriter struct {
	n   int
	buf bytes.Buffer
}

var errDiskFull = errors.New("disk full")

func (w *failingWriter) Write(p []byte) (int, error) {
	if w.buf.Len()+len(p) > w.n {
		k := w.n - w.buf.Len()
		w.buf.Write(p[:k])
		return k, errDiskFull
	}
	return w.buf.Write(p)
}

func TestFailingWriter(t *testing.T) {
	src := readCorpus(t, "alltypes_tiny_pages.parquet")
	full, _, err := rewrite(src)
	require.NoError(t, err)
	for _, n := range []int{0, 3, 100, len(full) / 2, len(full) - 1} {
		for _, workers := range []int{1, 4} {
			w := &failingWriter{n: n}
			_, err := recompress.Rewrite(w, bytes.NewReader(src), int64(len(src)), recompress.WithWorkers(workers),
				recompress.WithMaxMemory(1<<16))
			require.ErrorIs(t, err, errDiskFull, fmt.Sprint(n))
		}
	}
}

func TestKeepAndParseTarget(t *testing.T) {
	for s, want := range map[string]recompress.Target{
		"zstd": {Codec: codecfactory.Zstd}, "ZSTD:19": {Codec: codecfactory.Zstd, Level: 19},
		"gzip:9": {Codec: codecfactory.Gzip, Level: 9}, "lz4_raw": {Codec: codecfactory.Lz4Raw},
		"keep": {Codec: recompress.Keep}, "none": {Codec: codecfactory.Uncompressed},
		"lz4_raw:9": {Codec: codecfactory.Lz4Raw, Level: 9}, "lz4:1": {Codec: codecfactory.Lz4, Level: 1},
		"snappy:2": {Codec: codecfactory.Snappy, Level: 2},
	} {
		got, err := recompress.ParseTarget(s)
		require.NoError(t, err, s)
		require.Equal(t, want, got, s)
	}
	for _, s := range []string{"zstd:0", "zstd:x", "none:2", "keep:1", "bogus", ""} {
		_, err := recompress.ParseTarget(s)
		require.ErrorIs(t, err, recompress.ErrOption, s)
	}
	src := readCorpus(t, "alltypes_plain.snappy.parquet")
	out, _, err := rewrite(src, zstd(0), recompress.WithColumnCodec("id", recompress.Target{Codec: recompress.Keep}))
	require.NoError(t, err)
	om, err := format.ReadFooter(bytes.NewReader(out), int64(len(out)))
	require.NoError(t, err)
	for _, cc := range om.RowGroups[0].Columns {
		want := format.CompressionCodec(codecfactory.Zstd)
		if cc.MetaData.PathInSchema[0] == "id" {
			want = format.CompressionCodec(codecfactory.Snappy)
		}
		require.Equal(t, want, cc.MetaData.Codec)
	}
	require.NoError(t, recompress.Verify(bytes.NewReader(src), int64(len(src)), bytes.NewReader(out), int64(len(out)), nil))
	// Everything kept: the pages are the same bytes.
	all, res, err := rewrite(src, recompress.WithCodec(recompress.Target{Codec: recompress.Keep}))
	require.NoError(t, err)
	require.Equal(t, res.PageBytesIn, res.PageBytesOut)
	require.NoError(t, recompress.Verify(bytes.NewReader(src), int64(len(src)), bytes.NewReader(all), int64(len(all)), nil))
}

// withFooter returns src with its footer replaced by m.
func withFooter(t *testing.T, src []byte, edit func(*format.FileMetaData)) []byte {
	m, err := format.ReadFooter(bytes.NewReader(src), int64(len(src)))
	require.NoError(t, err)
	raw, err := format.ReadFooterBytes(bytes.NewReader(src), int64(len(src)))
	require.NoError(t, err)
	edit(m)
	b := bytes.Clone(src[:len(src)-8-len(raw)])
	footer := format.AppendFileMetaData(nil, m)
	b = append(b, footer...)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(footer)))
	return append(b, "PAR1"...)
}

func TestUnsupportedAndDropped(t *testing.T) {
	src := readCorpus(t, "alltypes_plain.parquet")
	ext := withFooter(t, src, func(m *format.FileMetaData) {
		p := "other.parquet"
		m.RowGroups[0].Columns[1].FilePath = &p
	})
	_, _, err := rewrite(ext)
	require.ErrorIs(t, err, recompress.ErrUnsupported)

	// An offset index that names no page of its chunk is dropped, with the
	// column index; a bloom filter outside the file too.
	pi := readCorpus(t, "data_index_bloom_encoding_stats.parquet")
	bad := withFooter(t, pi, func(m *format.FileMetaData) {
		cc := &m.RowGroups[0].Columns[0]
		*cc.OffsetIndexOffset = *cc.ColumnIndexOffset // a column index is no offset index
		off := int64(len(pi) * 2)
		cc.MetaData.BloomFilterOffset = &off
	})
	out, res, err := rewrite(bad)
	require.NoError(t, err)
	require.Equal(t, 1, res.DroppedPageIndexes)
	require.Equal(t, 1, res.DroppedBloomFilters)
	om, err := format.ReadFooter(bytes.NewReader(out), int64(len(out)))
	require.NoError(t, err)
	cc := &om.RowGroups[0].Columns[0]
	require.Nil(t, cc.OffsetIndexOffset)
	require.Nil(t, cc.ColumnIndexOffset)
	require.Nil(t, cc.MetaData.BloomFilterOffset)
}

// TestWithKeyValue sets key-value metadata in the output: a new key is
// added after the source's entries, an existing one replaced in place of
// all its entries, the last value of a key given twice wins, and nothing
// else of the footer's metadata changes.
func TestWithKeyValue(t *testing.T) {
	src := readCorpus(t, "alltypes_tiny_pages.parquet")
	sm, err := format.ReadFooter(bytes.NewReader(src), int64(len(src)))
	require.NoError(t, err)
	require.NotEmpty(t, sm.KeyValueMetadata)
	first := sm.KeyValueMetadata[0].Key
	out, _, err := rewrite(src, zstd(1), recompress.WithKeyValue("pqcodec.test", "a"), recompress.WithKeyValue("pqcodec.test", "b"),
		recompress.WithKeyValue(first, "replaced"))
	require.NoError(t, err)
	om, err := format.ReadFooter(bytes.NewReader(out), int64(len(out)))
	require.NoError(t, err)
	var want []string
	for _, kv := range sm.KeyValueMetadata[1:] {
		want = append(want, kv.Key+"="+*kv.Value)
	}
	want = append(want, "pqcodec.test=b", first+"=replaced")
	var got []string
	for _, kv := range om.KeyValueMetadata {
		got = append(got, kv.Key+"="+*kv.Value)
	}
	require.Equal(t, want, got)
	require.NoError(t, recompress.Verify(bytes.NewReader(src), int64(len(src)), bytes.NewReader(out), int64(len(out)), nil))
	_, _, err = rewrite(src, recompress.WithKeyValue("", "x"))
	require.ErrorIs(t, err, recompress.ErrOption)
}

// TestVerifyFindsDamage checks that Verify reports an output page whose
// body was changed after the rewrite: by its checksum when it has one, by
// its content when not.
func TestVerifyFindsDamage(t *testing.T) {
	src := readCorpus(t, "datapage_v1-snappy-compressed-checksum.parquet")
	for _, mode := range []recompress.CRCMode{recompress.CRCAdd, recompress.CRCDrop} {
		out, _, err := rewrite(src, recompress.WithChecksums(mode), recompress.WithCodec(recompress.Target{Codec: codecfactory.Uncompressed}))
		require.NoError(t, err)
		require.NoError(t, recompress.Verify(bytes.NewReader(src), int64(len(src)), bytes.NewReader(out), int64(len(out)), nil))
		m, err := format.ReadFooter(bytes.NewReader(out), int64(len(out)))
		require.NoError(t, err)
		off := m.RowGroups[0].Columns[0].MetaData.DataPageOffset
		var h format.PageHeader
		n, err := format.DecodePageHeader(out[off:], &h)
		require.NoError(t, err)
		require.Equal(t, mode == recompress.CRCAdd, h.HasCRC)
		bad := bytes.Clone(out)
		bad[int(off)+n+int(h.CompressedPageSize)-1] ^= 0x55 // a value byte of the first page
		err = recompress.Verify(bytes.NewReader(src), int64(len(src)), bytes.NewReader(bad), int64(len(bad)), nil)
		require.ErrorIs(t, err, recompress.ErrMismatch, "mode %v", mode)
		if mode == recompress.CRCAdd {
			require.ErrorContains(t, err, "crc32")
		} else {
			require.ErrorContains(t, err, "page content differs")
		}
	}
}
