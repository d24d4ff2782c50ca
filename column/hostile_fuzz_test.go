package column_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/pqcodec/pqcodec/codecfactory"
	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/internal/testcorpus"
	"github.com/pqcodec/pqcodec/rows"
	"github.com/pqcodec/pqcodec/stats"
)

// hostileFile is a real file the page-header and page-index fuzzers mutate.
type hostileFile struct {
	name  string
	data  []byte
	sites []pageSite // every page header of every chunk
	index []indexSite
}

// pageSite is a page header at off, n bytes long, in chunk (rg, col).
type pageSite struct{ off, n, rg, col int }

// indexSite is the column index (ci) or offset index of chunk (rg, col).
type indexSite struct {
	rg, col int
	ci      bool
	bytes   []byte
}

// hostileFiles lists, in a fixed order, the files of testdata/foreign of
// every codec the writers there use (UNCOMPRESSED, SNAPPY, GZIP, BROTLI,
// LZ4 as arrow-rs and parquet-go write it, ZSTD, LZ4_RAW) and of page
// indexes, then parquet-testing's Hadoop and raw LZ4 files and page index
// files when the corpus is present. A fuzz input names a file by its
// index in the list, so the in-repo files come first and keep theirs.
var hostileFiles = sync.OnceValue(func() []hostileFile {
	var paths []string
	for _, w := range []string{"arrow-go", "arrow-rs", "duckdb", "hyparquet", "parquet-go", "polars"} {
		for _, n := range []string{"codec_brotli", "codec_gzip", "codec_lz4", "codec_lz4_raw", "codec_snappy", "codec_zstd",
			"codec_uncompressed", "uncompressed", "v2", "nested", "page_index_bloom", "small_pages", "small_pages_v2", "dict_fallback"} {
			paths = append(paths, filepath.Join("..", "testdata", "foreign", w, n+".parquet"))
		}
	}
	if dir, ok := testcorpus.Find(); ok {
		for _, n := range []string{"hadoop_lz4_compressed.parquet", "hadoop_lz4_compressed_larger.parquet", "lz4_raw_compressed.parquet",
			"non_hadoop_lz4_compressed.parquet", "alltypes_tiny_pages.parquet", "datapage_v2.snappy.parquet", "concatenated_gzip_members.parquet",
			"nested_lists.snappy.parquet", "delta_encoding_optional_column.parquet", "byte_stream_split.zstd.parquet"} {
			paths = append(paths, filepath.Join(dir, "data", n))
		}
	}
	var out []hostileFile
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil || len(b) > 512<<10 {
			continue
		}
		if h, ok := parseHostile(filepath.Base(filepath.Dir(p))+"/"+filepath.Base(p), b); ok {
			out = append(out, h)
		}
	}
	return out
})

// parseHostile finds the page headers and page indexes of b.
func parseHostile(name string, b []byte) (hostileFile, bool) {
	meta, err := format.ReadFooter(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		return hostileFile{}, false
	}
	h := hostileFile{name: name, data: b}
	for rg := range meta.RowGroups {
		for col := range meta.RowGroups[rg].Columns {
			cc := &meta.RowGroups[rg].Columns[col]
			rng, err := meta.ColumnChunkRange(cc, int64(len(b)))
			if err != nil {
				continue
			}
			for pos, end := int(rng.Start), int(rng.Start+rng.Length); pos < end; {
				var ph format.PageHeader
				n, err := format.DecodePageHeader(b[pos:end], &ph)
				if err != nil || ph.CompressedPageSize < 0 {
					break
				}
				h.sites = append(h.sites, pageSite{pos, n, rg, col})
				pos += n + int(ph.CompressedPageSize)
			}
			for _, ci := range []bool{true, false} {
				off, l := cc.OffsetIndexOffset, cc.OffsetIndexLength
				if ci {
					off, l = cc.ColumnIndexOffset, cc.ColumnIndexLength
				}
				if off != nil && l != nil && *off >= 0 && *l > 0 && *off+int64(*l) <= int64(len(b)) {
					h.index = append(h.index, indexSite{rg, col, ci, b[*off : *off+int64(*l)]})
				}
			}
		}
	}
	return h, len(h.sites) > 0
}

// splice returns f's bytes with [off, off+n) replaced by repl, and the
// footer's offsets after off moved; the chunk (rg, col) grows by the
// difference. patch, when set, edits the footer too.
func (f *hostileFile) splice(off, n int, repl []byte, rg, col int, patch func(*format.FileMetaData, int64)) []byte {
	meta, err := format.ReadFooter(bytes.NewReader(f.data), int64(len(f.data)))
	if err != nil {
		return nil
	}
	footerLen := int(binary.LittleEndian.Uint32(f.data[len(f.data)-8:]))
	body := slices.Concat(f.data[:off], repl, f.data[off+n:len(f.data)-8-footerLen])
	delta := int64(len(repl) - n)
	move := func(p *int64) {
		if p != nil && *p > int64(off) {
			*p += delta
		}
	}
	for i := range meta.RowGroups {
		for j := range meta.RowGroups[i].Columns {
			cc := &meta.RowGroups[i].Columns[j]
			move(&cc.FileOffset)
			move(cc.ColumnIndexOffset)
			move(cc.OffsetIndexOffset)
			if m := cc.MetaData; m != nil {
				move(&m.DataPageOffset)
				move(m.DictionaryPageOffset)
				move(m.IndexPageOffset)
				move(m.BloomFilterOffset)
				if i == rg && j == col {
					m.TotalCompressedSize += delta
				}
			}
		}
	}
	if patch != nil {
		patch(meta, int64(len(body)))
	}
	footer := format.AppendFileMetaData(nil, meta)
	body = append(body, footer...)
	body = binary.LittleEndian.AppendUint32(body, uint32(len(footer)))
	return append(body, "PAR1"...)
}

// mutatePageHeader sets one field of page site of f to value (see the
// cases) and returns the file.
func (f *hostileFile) mutatePageHeader(site int, field uint8, value int64) []byte {
	s := f.sites[site%len(f.sites)]
	var h format.PageHeader
	if _, err := format.DecodePageHeader(f.data[s.off:], &h); err != nil {
		return nil
	}
	v := int32(value)
	var patch func(*format.FileMetaData, int64)
	switch field % 16 {
	case 0:
		h.UncompressedPageSize = v
	case 1:
		h.UncompressedPageSize = int32(value%4) - 1 // -1, 0, 1, 2 (and -4..-2)
	case 2:
		h.CompressedPageSize = v
	case 3:
		h.DataPageHeader.NumValues, h.DataPageHeaderV2.NumValues, h.DictionaryPageHeader.NumValues = v, v, v
	case 4:
		enc := format.Encoding(v)
		h.DataPageHeader.Encoding, h.DataPageHeaderV2.Encoding, h.DictionaryPageHeader.Encoding = enc, enc, enc
	case 5:
		h.DataPageHeader.DefinitionLevelEncoding = format.Encoding(v)
	case 6:
		h.DataPageHeader.RepetitionLevelEncoding = format.Encoding(v)
	case 7:
		h.DataPageHeaderV2.NumNulls = v
	case 8:
		h.DataPageHeaderV2.NumRows = v
	case 9:
		h.DataPageHeaderV2.DefinitionLevelsByteLength = v
	case 10:
		h.DataPageHeaderV2.RepetitionLevelsByteLength = v
	case 11:
		h.DataPageHeaderV2.IsCompressed = value&1 == 1
	case 12:
		h.Type = format.PageType(v)
	case 13:
		h.CRC, h.HasCRC = v, true
	case 14:
		// Codec-specific: the chunk's codec becomes another, whose
		// decoder (LZO included) reads the page bytes of this one.
		patch = func(m *format.FileMetaData, _ int64) {
			if cc := &m.RowGroups[s.rg].Columns[s.col]; cc.MetaData != nil {
				cc.MetaData.Codec = format.CompressionCodec(uint64(value) % 8)
			}
		}
	case 15:
		// Codec-specific: a byte of the compressed body's framing (Hadoop
		// lengths, zstd and LZ4 frame headers, snappy preamble, gzip
		// header) or of its first blocks.
		start := s.off + s.n
		end := min(start+int(h.CompressedPageSize), len(f.data))
		if h.CompressedPageSize <= 0 || end <= start {
			return nil
		}
		b := bytes.Clone(f.data)
		b[start+int(uint64(value)%uint64(min(end-start, 64)))] ^= byte(value>>8) | 1
		return b
	}
	return f.splice(s.off, s.n, format.AppendPageHeader(nil, &h), s.rg, s.col, patch)
}

// readHostile reads every chunk of data through a Reader (checksums
// checked), through ReadRowGroup on two goroutines, the page indexes with
// MatchingRows and SeekRow, and the rows with package rows (ReadRow, and
// AppendRow from the middle); errors are expected, panics and runaway
// allocations are bugs.
func readHostile(t *testing.T, data []byte, codecs *codecfactory.Factory) {
	file, err := column.Open(bytes.NewReader(data), int64(len(data)), column.WithMaxPageValues(1<<20), column.WithCodecs(codecs),
		column.WithMaxMemory(64<<20), column.WithVerifyChecksums(true))
	if err != nil {
		return
	}
	var p column.Page
	for rg := range file.NumRowGroups() {
		for col := range file.NumColumns() {
			r, err := file.Column(rg, col)
			if err != nil {
				continue
			}
			for pages := 0; r.ReadPage(&p) == nil; pages++ {
				if pages > len(data) {
					t.Fatalf("row group %d column %d: more pages than the file has bytes", rg, col)
				}
			}
			if r, err := file.Column(rg, col); err == nil {
				var dst column.Values
				for pages := 0; r.ReadPageDeferred(&p) == nil && pages <= len(data); pages++ {
					if p.Dictionary == nil {
						dst.Reset(p.Values.Type, p.Values.TypeLength)
						n := p.NumValues()
						if r.AppendValues(&p, &dst, n/3) == nil {
							_ = r.AppendValues(&p, &dst, n-n/3)
						}
					}
				}
			}
			if _, err := file.MatchingRows(rg, col, func(stats.Stats) bool { return true }); err == nil {
				if r, err := file.Column(rg, col); err == nil {
					n := file.MetaData().RowGroups[rg].NumRows
					for _, row := range []int64{n / 2, n - 1} {
						if r.SeekRow(row) == nil {
							_ = r.ReadPage(&p)
						}
					}
				}
			}
		}
		err := file.ReadRowGroup(context.Background(), rg, nil, 2, func(int, *column.Page) error { return nil })
		if errors.Is(err, column.ErrInternal) {
			t.Fatalf("ReadRowGroup recovered a panic: %v", err)
		}
	}
	if r, err := rows.NewReader(file, rows.WithMaxRow(1<<20, 64<<20)); err == nil {
		var row rows.Group
		for n := 0; n <= len(data) && err == nil; n++ {
			row, err = r.ReadRow(row)
		}
	}
	if r, err := rows.NewReader(file, rows.WithRange(file.MetaData().NumRows/2, 100), rows.WithMaxRow(1<<20, 64<<20)); err == nil {
		var line []byte
		for err == nil {
			line, err = r.AppendRow(line[:0])
		}
	}
}

// hostileCodecs is the codec factory of the fuzzers: pages up to 1 MiB.
var hostileCodecs = sync.OnceValues(func() (*codecfactory.Factory, error) {
	return codecfactory.New(codecfactory.WithMaxPageSize(1 << 20))
})

// FuzzPageHeaders changes one field of one page header (sizes, counts,
// encodings, page type, CRC), or the chunk's codec, or a byte of a page's
// compressed framing, in real files of every codec, and reads the result
// through column (Reader, ReadRowGroup, page indexes) and rows. A Hadoop-LZ4 page declaring 0 bytes
// crashed the process here (issue 27).
func FuzzPageHeaders(f *testing.F) {
	files := hostileFiles()
	if len(files) == 0 {
		f.Skip("no files")
	}
	// Half of the fields of some page of every file, every field across
	// the files (seeds run in make test, under -race too), and a declared
	// size of 0 (case 1, value 1) of every file.
	for i, h := range files {
		for k := range 8 {
			field := uint8(i*3+2*k+i%2) % 16
			f.Add(uint8(i), uint16(i*7+k)%uint16(len(h.sites)), field, int64(k%2))
		}
		f.Add(uint8(i), uint16(i)%uint16(len(h.sites)), uint8(1), int64(1))
	}
	codecs, err := hostileCodecs()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, file uint8, site uint16, field uint8, value int64) {
		defer column.GuardCPU(10*time.Second, "FuzzPageHeaders: input takes over 10s of CPU time")()
		h := &files[int(file)%len(files)]
		if data := h.mutatePageHeader(int(site), field, value); data != nil {
			readHostile(t, data, codecs)
		}
	})
}

// FuzzPageIndexes replaces the column index or the offset index of one
// chunk of a real file with arbitrary bytes (seeded with the real ones)
// and reads the page indexes, MatchingRows, SeekRow and every page.
func FuzzPageIndexes(f *testing.F) {
	var files []hostileFile
	for _, h := range hostileFiles() {
		if len(h.index) > 0 {
			files = append(files, h)
		}
	}
	if len(files) == 0 {
		f.Skip("no files with page indexes")
	}
	for i, h := range files {
		for k, s := range h.index[:min(len(h.index), 4)] {
			f.Add(uint8(i), uint16(k), s.bytes)
		}
	}
	codecs, err := hostileCodecs()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, file uint8, site uint16, index []byte) {
		defer column.GuardCPU(10*time.Second, "FuzzPageIndexes: input takes over 10s of CPU time")()
		h := &files[int(file)%len(files)]
		s := h.index[int(site)%len(h.index)]
		// The index goes just before the footer, and the chunk points at it.
		footerLen := int(binary.LittleEndian.Uint32(h.data[len(h.data)-8:]))
		at := len(h.data) - 8 - footerLen
		data := h.splice(at, 0, index, -1, -1, func(m *format.FileMetaData, _ int64) {
			cc := &m.RowGroups[s.rg].Columns[s.col]
			off, l := int64(at), int32(len(index))
			if s.ci {
				cc.ColumnIndexOffset, cc.ColumnIndexLength = &off, &l
			} else {
				cc.OffsetIndexOffset, cc.OffsetIndexLength = &off, &l
			}
		})
		if data != nil {
			readHostile(t, data, codecs)
		}
	})
}
