package column

import (
	"bytes"
	"encoding/binary"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/stats"
)

// indexedPagesFile returns a file of one REQUIRED INT32 column in n pages of
// one value each (value i in page i), with a column index (min = max = i,
// null counts 0) and an offset index of n entries, and the sizes of the two
// indexes.
func indexedPagesFile(n int) (file []byte, ciLen, oiLen int) {
	b := []byte("PAR1")
	locs := make([]format.PageLocation, n)
	header := format.AppendPageHeader(nil, &format.PageHeader{Type: format.DataPage, UncompressedPageSize: 4, CompressedPageSize: 4,
		HasDataPageHeader: true, DataPageHeader: format.DataPageHeader{NumValues: 1, Encoding: format.Plain,
			DefinitionLevelEncoding: format.RLE, RepetitionLevelEncoding: format.RLE}})
	for i := range n {
		locs[i] = format.PageLocation{Offset: int64(len(b)), CompressedPageSize: int32(len(header) + 4), FirstRowIndex: int64(i)}
		b = append(b, header...)
		b = binary.LittleEndian.AppendUint32(b, uint32(i))
	}
	end := int64(len(b))
	listHeader := func(b []byte, typ byte) []byte { return binary.AppendUvarint(append(b, 0xF0|typ), uint64(n)) }
	ciOff := int64(len(b))
	b = listHeader(append(b, 0x19), 2) // 1: null_pages, list<bool>
	for range n {
		b = append(b, 2) // false
	}
	for range 2 {
		b = listHeader(append(b, 0x19), 8) // 2, 3: min_values, max_values, list<binary>
		for i := range n {
			b = binary.LittleEndian.AppendUint32(append(b, 4), uint32(i))
		}
	}
	b = append(b, 0x15, 2)             // 4: boundary_order ASCENDING
	b = listHeader(append(b, 0x19), 6) // 5: null_counts, list<i64>
	b = append(b, make([]byte, n)...)
	b = append(b, 0)
	ciLen32 := int32(int64(len(b)) - ciOff)
	oiOff := int64(len(b))
	b = format.AppendOffsetIndex(b, &format.OffsetIndex{PageLocations: locs})
	oiLen32 := int32(int64(len(b)) - oiOff)
	int32Type, required, one := format.Int32, format.Required, int32(1)
	meta := format.FileMetaData{Version: 1, NumRows: int64(n),
		Schema: []format.SchemaElement{{Name: "schema", NumChildren: &one}, {Name: "v", Type: &int32Type, RepetitionType: &required}},
		RowGroups: []format.RowGroup{{NumRows: int64(n), TotalByteSize: end - 4, Columns: []format.ColumnChunk{{
			FileOffset: 4, MetaData: &format.ColumnMetaData{Type: format.Int32, Encodings: []format.Encoding{format.Plain},
				PathInSchema: []string{"v"}, Codec: format.Uncompressed, NumValues: int64(n),
				TotalUncompressedSize: end - 4, TotalCompressedSize: end - 4, DataPageOffset: 4},
			ColumnIndexOffset: &ciOff, ColumnIndexLength: &ciLen32, OffsetIndexOffset: &oiOff, OffsetIndexLength: &oiLen32}}}}}
	footer := format.AppendFileMetaData(nil, &meta)
	b = append(b, footer...)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(footer)))
	return append(b, "PAR1"...), int(ciLen32), int(oiLen32)
}

// allocated returns the bytes fn allocates.
func allocated(fn func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestPageIndexMemory reads the page indexes of a chunk of 200,000 pages:
// they allocate in proportion to their entries (the offset index took ~14
// times its size, one closure per entry and a list grown by append; a file
// with 3M pages peaked at 1.8 GB through MatchingRows), WithMaxMemory
// refuses an index above it with ErrLimit before allocating it, and
// MatchingRows judges the pages a window at a time.
func TestPageIndexMemory(t *testing.T) {
	const n = 200_000
	b, ciLen, oiLen := indexedPagesFile(n)
	f, err := Open(bytes.NewReader(b), int64(len(b)))
	require.NoError(t, err)
	var ci *format.ColumnIndex
	var oi *format.OffsetIndex
	got := allocated(func() { ci, oi, err = f.PageIndex(0, 0) })
	require.NoError(t, err)
	require.Equal(t, n, ci.NumPages())
	require.Equal(t, n, oi.NumPages())
	require.Equal(t, binary.LittleEndian.AppendUint32(nil, 123456), ci.MaxValues[123456])
	// The index bytes (the column index's values alias them), an offset
	// index of 24 bytes per page, a column index of 1+24+24+8 bytes per
	// page, and 10% for the rest.
	want := uint64(ciLen+oiLen) + n*(24+57)
	t.Logf("indexes of %d + %d bytes, %d pages: %d bytes allocated (%.1f per page; bound %d)", ciLen, oiLen, n, got, float64(got)/n, want*11/10)
	require.LessOrEqual(t, got, want*11/10)

	match := func(s stats.Stats) bool { v := s.Min.Int32(); return v >= 1000 && v < 3000 || v == n-1 }
	var rr []RowRange
	got = allocated(func() { rr, err = f.MatchingRows(0, 0, match) })
	require.NoError(t, err)
	require.Equal(t, []RowRange{{1000, 3000}, {n - 1, n}}, rr)
	t.Logf("MatchingRows: %d bytes allocated", got)
	require.Less(t, got, uint64(n*32), "MatchingRows keeps the statistics of a window of pages, not of all")

	for _, limit := range []int64{int64(oiLen) / 2, int64(oiLen) + n*24 - 1} {
		f, err := Open(bytes.NewReader(b), int64(len(b)), WithMaxMemory(limit))
		require.NoError(t, err)
		got = allocated(func() { _, _, err = f.PageIndex(0, 0) })
		require.ErrorIs(t, err, ErrLimit)
		require.ErrorIs(t, err, format.ErrIndexTooLarge)
		t.Logf("limit %d: %v; %d bytes allocated", limit, err, got)
		require.Less(t, got, uint64(limit)+64<<10)
	}
	f, err = Open(bytes.NewReader(b), int64(len(b)), WithMaxMemory(int64(ciLen)+n*60))
	require.NoError(t, err)
	_, _, err = f.PageIndex(0, 0)
	require.NoError(t, err)
}
