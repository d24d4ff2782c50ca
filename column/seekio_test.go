package column

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/format"
)

// countingReaderAt counts the bytes read from [from, to) of r.
type countingReaderAt struct {
	r        io.ReaderAt
	mu       sync.Mutex
	from, to int64
	n        int64
	reads    int
}

func (c *countingReaderAt) ReadAt(p []byte, off int64) (int, error) {
	c.mu.Lock()
	if lo, hi := max(off, c.from), min(off+int64(len(p)), c.to); lo < hi {
		c.n += hi - lo
		c.reads++
	}
	c.mu.Unlock()
	return c.r.ReadAt(p, off)
}

func (c *countingReaderAt) take() (n int64, reads int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n, reads, c.n, c.reads = c.n, c.reads, 0, 0
	return n, reads
}

// Shape of manyPagesFile.
const (
	mpRows     = 5_000_000
	mpPageRows = 20_000
	mpDict     = 4096
)

// mpValue is the value of row i of manyPagesFile.
func mpValue(i int) int64 { return int64(i*7919%mpDict) * 1000 }

// manyPagesFile returns a file of one required INT64 column of mpRows rows
// in data pages of mpPageRows, dictionary-encoded with 16-bit indices (a
// 32 KiB dictionary page, 40 KB data pages, 10 MB in all), with an offset
// index when index is set; and the chunk's file range and the file offset
// of each data page.
func manyPagesFile(index bool) (file []byte, chunkStart, chunkEnd int64, pages []int64) {
	var b bytes.Buffer
	b.WriteString("PAR1")
	dict := make([]byte, 0, 8*mpDict)
	for i := range mpDict {
		dict = binary.LittleEndian.AppendUint64(dict, uint64(i*1000))
	}
	chunkStart = int64(b.Len())
	b.Write(testfileDictPage(dict))
	var oi format.OffsetIndex
	for first := 0; first < mpRows; first += mpPageRows {
		body := []byte{16} // bit width
		body = binary.AppendUvarint(body, uint64(mpPageRows/8)<<1|1)
		for i := first; i < first+mpPageRows; i++ {
			body = binary.LittleEndian.AppendUint16(body, uint16(i*7919%mpDict))
		}
		page := format.AppendPageHeader(nil, &format.PageHeader{
			Type: format.DataPage, UncompressedPageSize: int32(len(body)), CompressedPageSize: int32(len(body)),
			HasDataPageHeader: true, DataPageHeader: format.DataPageHeader{
				NumValues: mpPageRows, Encoding: format.RLEDictionary,
				DefinitionLevelEncoding: format.RLE, RepetitionLevelEncoding: format.RLE,
			},
		})
		page = append(page, body...)
		pages = append(pages, int64(b.Len()))
		oi.PageLocations = append(oi.PageLocations, format.PageLocation{Offset: int64(b.Len()), CompressedPageSize: int32(len(page)), FirstRowIndex: int64(first)})
		b.Write(page)
	}
	chunkEnd = int64(b.Len())
	int64Type, required, one := format.Int64, format.Required, int32(1)
	cc := format.ColumnChunk{FileOffset: chunkStart, MetaData: &format.ColumnMetaData{
		Type: format.Int64, Encodings: []format.Encoding{format.Plain, format.RLEDictionary},
		PathInSchema: []string{"x"}, Codec: format.Uncompressed, NumValues: mpRows,
		TotalUncompressedSize: chunkEnd - chunkStart, TotalCompressedSize: chunkEnd - chunkStart,
		DataPageOffset: pages[0], DictionaryPageOffset: &chunkStart,
	}}
	if index {
		off := int64(b.Len())
		enc := format.AppendOffsetIndex(nil, &oi)
		n := int32(len(enc))
		cc.OffsetIndexOffset, cc.OffsetIndexLength = &off, &n
		b.Write(enc)
	}
	md := format.FileMetaData{
		Version: 1, NumRows: mpRows,
		Schema: []format.SchemaElement{
			{Name: "schema", NumChildren: &one},
			{Name: "x", Type: &int64Type, RepetitionType: &required},
		},
		RowGroups: []format.RowGroup{{NumRows: mpRows, TotalByteSize: chunkEnd - chunkStart, Columns: []format.ColumnChunk{cc}}},
	}
	footer := format.AppendFileMetaData(nil, &md)
	b.Write(footer)
	b.Write(binary.LittleEndian.AppendUint32(nil, uint32(len(footer))))
	b.WriteString("PAR1")
	return b.Bytes(), chunkStart, chunkEnd, pages
}

func testfileDictPage(dict []byte) []byte {
	h := format.AppendPageHeader(nil, &format.PageHeader{
		Type: format.DictionaryPage, UncompressedPageSize: int32(len(dict)), CompressedPageSize: int32(len(dict)),
		HasDictionaryPageHeader: true, DictionaryPageHeader: format.DictionaryPageHeader{NumValues: mpDict, Encoding: format.Plain},
	})
	return append(h, dict...)
}

// TestSeekRowBytesRead seeks to rows of a 10 MB chunk of 250 pages and
// reads 1% of its rows from there, counting the bytes of the chunk read:
// with an offset index, the dictionary page and the pages holding the rows
// (plus one read-ahead of at most 64 KiB); without one, also a 1 KiB window
// per page header skipped, never the skipped bodies. The values must be
// those of the rows.
func TestSeekRowBytesRead(t *testing.T) {
	for _, index := range []bool{true, false} {
		file, start, end, pages := manyPagesFile(index)
		chunk := end - start
		cr := &countingReaderAt{r: bytes.NewReader(file), from: start, to: end}
		f, err := Open(cr, int64(len(file)))
		require.NoError(t, err)
		r, err := f.Column(0, 0)
		require.NoError(t, err)
		pageSize := pages[1] - pages[0]
		dictSize := pages[0] - start
		var p Page
		for _, row := range []int{2_500_000, 4_950_000, 1_234_567, 0, 4_999_999, 2_500_000} {
			require.NoError(t, r.SeekRow(int64(row)))
			want := min(mpRows/100, mpRows-row)
			got := 0
			for got < want {
				err := r.ReadPage(&p)
				require.NoError(t, err)
				if got == 0 {
					assert.Equal(t, int64(row), r.RowIndex())
				}
				for i := range min(p.Values.Len(), want-got) {
					if v := p.Values.Int64s[i]; v != mpValue(row+got+i) {
						t.Fatalf("index %v: row %d: value %d, want %d", index, row+got+i, v, mpValue(row+got+i))
					}
				}
				got += p.Values.Len()
			}
			n, reads := cr.take()
			t.Logf("index %v: seek to row %d and read %d rows: %d bytes of the %d-byte chunk (%.2f%%) in %d reads",
				index, row, want, n, chunk, 100*float64(n)/float64(chunk), reads)
			// The pages holding the rows, one read-ahead, the dictionary
			// page (read by the first seek only).
			held := (int64(row%mpPageRows+want) + mpPageRows - 1) / mpPageRows * pageSize
			limit := held + 64<<10 + dictSize
			if !index {
				// A header window per page skipped, from the start when
				// the seek goes backward.
				limit += int64(len(pages)) << 10
			}
			assert.LessOrEqual(t, n, limit, "index %v row %d", index, row)
			assert.Less(t, n, chunk/20, "index %v row %d", index, row)
		}
		// Reading on to the end of the chunk after a seek ends it as a
		// full read does.
		require.NoError(t, r.SeekRow(mpRows-2*mpPageRows))
		for {
			if err := r.ReadPage(&p); err != nil {
				require.True(t, errors.Is(err, io.EOF), "%v", err)
				break
			}
		}
	}
}

// TestPageIndexCached checks that a File reads each chunk's page indexes
// once, for PageIndex and SeekRow alike and from many goroutines, and that
// seeking and reading a page then allocates nothing.
func TestPageIndexCached(t *testing.T) {
	file, _, _, _ := manyPagesFile(true)
	cr := &countingReaderAt{r: bytes.NewReader(file), from: 0, to: int64(len(file))}
	f, err := Open(cr, int64(len(file)))
	require.NoError(t, err)
	cr.take()
	var wg sync.WaitGroup
	ois := make([]*format.OffsetIndex, 4)
	for g := range ois {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := f.Column(0, 0)
			if !assert.NoError(t, err) {
				return
			}
			var p Page
			for i := range 20 {
				row := int64((g*7919 + i*104729) % mpRows)
				if !assert.NoError(t, r.SeekRow(row)) || !assert.NoError(t, r.ReadPage(&p)) {
					return
				}
				assert.Equal(t, mpValue(int(row)), p.Values.Int64s[0])
			}
			_, ois[g], err = f.PageIndex(0, 0)
			assert.NoError(t, err)
		}()
	}
	wg.Wait()
	for _, oi := range ois {
		require.Same(t, ois[0], oi)
	}
	require.Equal(t, mpRows/mpPageRows, ois[0].NumPages())
	// From here on, count the reads of the offset index.
	cc := &f.meta.RowGroups[0].Columns[0]
	cr.mu.Lock()
	cr.from, cr.to = *cc.OffsetIndexOffset, *cc.OffsetIndexOffset+int64(*cc.OffsetIndexLength)
	cr.mu.Unlock()
	cr.take()
	r, err := f.Column(0, 0)
	require.NoError(t, err)
	var p Page
	rows := []int64{4_000_000, 10, 2_500_000}
	for _, row := range rows { // warm up
		require.NoError(t, r.SeekRow(row))
		require.NoError(t, r.ReadPage(&p))
	}
	i := 0
	allocs := testing.AllocsPerRun(20, func() {
		row := rows[i%len(rows)]
		i++
		if err := r.SeekRow(row); err != nil {
			t.Fatal(err)
		}
		if err := r.ReadPage(&p); err != nil {
			t.Fatal(err)
		}
	})
	assert.Zero(t, allocs, "allocs per SeekRow and ReadPage")
	// A new Reader and PageIndex do not read the offset index again.
	r, err = f.Column(0, 0)
	require.NoError(t, err)
	require.NoError(t, r.SeekRow(1000))
	require.NoError(t, r.ReadPage(&p))
	_, _, err = f.PageIndex(0, 0)
	require.NoError(t, err)
	n, reads := cr.take()
	assert.Zero(t, reads, "reads of the offset index (%d bytes)", n)
}
