package format

import (
	"bytes"
	"encoding/binary"
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeFile assembles head magic, body, footer, footer length and tail magic.
func fakeFile(body, footer []byte, tailMagic string, footerLen uint32) []byte {
	b := append([]byte("PAR1"), body...)
	b = append(b, footer...)
	b = binary.LittleEndian.AppendUint32(b, footerLen)
	return append(b, tailMagic...)
}

func TestReadFooter(t *testing.T) {
	md := fullFileMetaData()
	footer := AppendFileMetaData(nil, md)
	file := fakeFile([]byte("pages"), footer, "PAR1", uint32(len(footer)))
	got, err := ReadFooter(bytes.NewReader(file), int64(len(file)))
	require.NoError(t, err)
	assert.Equal(t, md, got)

	cases := map[string]struct {
		file []byte
		want error
	}{
		"empty":          {nil, ErrNotParquet},
		"too short":      {[]byte("PAR1PAR1"), ErrNotParquet},
		"encrypted":      {fakeFile(nil, footer, "PARE", uint32(len(footer))), ErrEncrypted},
		"bad tail magic": {fakeFile(nil, footer, "PAR2", uint32(len(footer))), ErrNotParquet},
		"length too big": {fakeFile(nil, footer, "PAR1", uint32(len(footer)+5)), ErrCorrupt},
		"length huge":    {fakeFile(nil, footer, "PAR1", 1<<31), ErrCorrupt},
		"length short":   {fakeFile(nil, footer, "PAR1", uint32(len(footer)-10)), ErrCorrupt},
		"footer garbage": {fakeFile(nil, []byte{0xff, 0xff, 0xff}, "PAR1", 3), ErrCorrupt},
		"zero length":    {fakeFile(nil, nil, "PAR1", 0), ErrCorrupt},
	}
	for name, c := range cases {
		_, err := ReadFooter(bytes.NewReader(c.file), int64(len(c.file)))
		assert.ErrorIs(t, err, c.want, name)
	}
	// The leading magic is not read, as parquet-java, arrow-cpp, arrow-rs and
	// DuckDB do not read it.
	bad := append([]byte("XXXX"), file[4:]...)
	got, err = ReadFooter(bytes.NewReader(bad), int64(len(bad)))
	require.NoError(t, err)
	assert.Equal(t, md, got)
	// The size argument bounds the read even if the reader is longer.
	_, err = ReadFooter(bytes.NewReader(file), int64(len(file)-1))
	assert.ErrorIs(t, err, ErrNotParquet)
}

func TestParquet816(t *testing.T) {
	for s, want := range map[string]bool{
		"parquet-mr":                           true,
		"parquet-mr version 1.2.8 (build abc)": true,
		"parquet-mr version 1.2.9 (build abc)": false,
		"parquet-mr version 1.1.0":             true,
		"parquet-mr version 1.10.0":            false,
		"parquet-mr version 2.0":               false,
		"parquet-cpp version 1.0.0":            false,
		"impala version 1.0":                   false,
		"":                                     false,
	} {
		assert.Equal(t, want, parquet816(s), s)
	}
}

func TestPageRange(t *testing.T) {
	mk := func(data int64, dict *int64, size int64) *ColumnChunk {
		return &ColumnChunk{MetaData: &ColumnMetaData{DataPageOffset: data, DictionaryPageOffset: dict, TotalCompressedSize: size}}
	}
	for _, c := range []struct {
		chunk       *ColumnChunk
		start, size int64
		err         error
	}{
		{mk(100, nil, 50), 100, 50, nil},
		{mk(100, ptr(int64(40)), 110), 40, 110, nil},
		{mk(100, ptr(int64(0)), 50), 100, 50, nil},   // dict-page-offset-zero.parquet
		{mk(100, ptr(int64(150)), 50), 100, 50, nil}, // dictionary offset past data: ignored
		{mk(0, ptr(int64(4)), 14), 4, 14, nil},       // column_chunk_key_value_metadata.parquet: no data pages
		{mk(0, nil, 14), 0, 0, ErrCorrupt},
		{mk(0, nil, 0), 4, 0, nil}, // arrow-go: the empty chunk of a table without rows (testdata/difftest)
		{&ColumnChunk{MetaData: &ColumnMetaData{NumValues: 3}}, 0, 0, ErrCorrupt},
		{mk(100, nil, 1000), 0, 0, ErrCorrupt},
		{mk(100, nil, -1), 0, 0, ErrCorrupt},
		{mk(1<<62, nil, 1<<62), 0, 0, ErrCorrupt},
		{&ColumnChunk{}, 0, 0, ErrCorrupt},
		{&ColumnChunk{MetaData: mk(100, nil, 50).MetaData, EncryptedColumnMetadata: []byte{}}, 0, 0, ErrEncrypted},
	} {
		start, size, err := c.chunk.PageRange(1000)
		if c.err != nil {
			assert.ErrorIs(t, err, c.err)
			continue
		}
		require.NoError(t, err)
		assert.Equal(t, []int64{c.start, c.size}, []int64{start, size})
	}
}

func TestPageWalker(t *testing.T) {
	hs := samplePageHeaders()
	var chunk []byte
	for i := range hs {
		hs[i].CompressedPageSize = int32(i * 3)
		chunk = AppendPageHeader(chunk, &hs[i])
		chunk = append(chunk, bytes.Repeat([]byte{byte(i)}, i*3)...)
	}
	walkWith := func(w *PageWalker) (types []PageType, err error) {
		for w.Next() {
			i := len(types)
			types = append(types, w.Header().Type)
			assert.Equal(t, bytes.Repeat([]byte{byte(i)}, i*3), w.Body())
			// Page is the page as stored: its header, then its body.
			assert.Equal(t, append(AppendPageHeader(nil, &hs[i]), w.Body()...), w.Page())
			assert.Len(t, w.Page(), w.HeaderSize()+i*3)
		}
		return types, w.Err()
	}
	walk := func(b []byte, rng ChunkRange) (types []PageType, err error) {
		types, err = walkWith(NewPageWalker(b, rng))
		if len(b) >= int(rng.Length+rng.Slack) {
			// The streaming walk over the same bytes (at file offset
			// rng.Start) agrees.
			file := append(make([]byte, rng.Start), b...)
			var sw PageWalker
			sw.ResetReaderAt(bytes.NewReader(file), rng, nil)
			stypes, serr := walkWith(&sw)
			assert.Equal(t, types, stypes)
			assert.Equal(t, err == nil, serr == nil, "%v / %v", err, serr)
			if err != nil {
				assert.ErrorIs(t, serr, ErrCorrupt)
			}
		}
		return types, err
	}
	all := []PageType{DataPage, DataPageV2, DataPageV2, DictionaryPage, IndexPage}
	types, err := walk(chunk, ChunkRange{Start: 1000, Length: int64(len(chunk))})
	require.NoError(t, err)
	assert.Equal(t, all, types)

	// Truncated chunks fail at the page that overruns, wherever the cut.
	for n := 1; n < len(chunk); n++ {
		types, err := walk(chunk[:n], ChunkRange{Length: int64(len(chunk))})
		require.ErrorIs(t, err, ErrCorrupt, "cut at %d", n)
		assert.Less(t, len(types), len(all))
	}
	// A declared length that ends inside a page, with slack: the page
	// completes in the slack and the walk stops there.
	first := len(AppendPageHeader(nil, &hs[0]))
	types, err = walk(chunk, ChunkRange{Length: int64(first - 2), Slack: int64(len(chunk) - first + 2)})
	require.NoError(t, err)
	assert.Equal(t, all[:1], types)
	// NumValues stops the walk after the data pages holding them.
	types, err = walk(chunk, ChunkRange{Length: int64(len(chunk)), NumValues: int64(hs[0].DataPageHeader.NumValues)})
	require.NoError(t, err)
	assert.Equal(t, all[:1], types)
	// Trailing garbage inside the declared length is an error when
	// NumValues is not reached.
	bad := append(bytes.Clone(chunk), 0xff, 0xff)
	_, err = walk(bad, ChunkRange{Length: int64(len(bad))})
	require.ErrorIs(t, err, ErrCorrupt)

	var w PageWalker
	assert.Zero(t, testing.AllocsPerRun(20, func() {
		w.Reset(chunk, ChunkRange{Length: int64(len(chunk))})
		for w.Next() {
		}
	}))
}

// TestPageWalkerPageUnread checks that Page is nil between NextHeader and
// ReadBody in a streaming walk, and the page once its body is read.
func TestPageWalkerPageUnread(t *testing.T) {
	hs := samplePageHeaders()
	var chunk []byte
	for i := range hs {
		hs[i].CompressedPageSize = 5
		chunk = AppendPageHeader(chunk, &hs[i])
		chunk = append(chunk, bytes.Repeat([]byte{byte(i)}, 5)...)
	}
	var w PageWalker
	w.ResetReaderAt(bytes.NewReader(chunk), ChunkRange{Length: int64(len(chunk))}, nil)
	assert.Nil(t, w.Page())
	off := 0
	for i := 0; w.NextHeader(); i++ {
		assert.Nil(t, w.Page())
		require.NoError(t, w.ReadBody())
		n := w.HeaderSize() + 5
		assert.Equal(t, chunk[off:off+n], w.Page())
		off += n
	}
	require.NoError(t, w.Err())
	assert.Equal(t, len(chunk), off)
}

// TestPageWalkerStreamLarge checks the streaming walk on pages larger than
// its read-ahead: headers whose statistics exceed it, bodies of several
// windows, and small pages between them, against the in-memory walk; and
// that its window is never larger than the largest page so far (or the
// read-ahead).
func TestPageWalkerStreamLarge(t *testing.T) {
	var chunk []byte
	sizes := []int{10, 300 << 10, 5, 1 << 20, 64<<10 - 30, 0, 70 << 10}
	for i, size := range sizes {
		h := PageHeader{Type: DataPage, UncompressedPageSize: int32(size), CompressedPageSize: int32(size),
			HasDataPageHeader: true, DataPageHeader: DataPageHeader{NumValues: 1, Encoding: Plain}}
		if i%2 == 1 {
			h.DataPageHeader.HasStatistics = true
			h.DataPageHeader.Statistics.MaxValue = bytes.Repeat([]byte{byte(i)}, 100<<10*i)
		}
		chunk = AppendPageHeader(chunk, &h)
		chunk = append(chunk, bytes.Repeat([]byte{byte(i + 1)}, size)...)
	}
	rng := ChunkRange{Start: 4, Length: int64(len(chunk))}
	file := append([]byte("PAR1"), chunk...)
	mem := NewPageWalker(chunk, rng)
	var sw PageWalker
	sw.ResetReaderAt(bytes.NewReader(file), rng, nil)
	i, largest := 0, 0
	for mem.Next() {
		require.True(t, sw.Next(), "page %d: %v", i, sw.Err())
		require.Equal(t, mem.Offset(), sw.Offset())
		require.Equal(t, mem.HeaderSize(), sw.HeaderSize())
		require.Equal(t, mem.Header().DataPageHeader.Statistics.MaxValue, sw.Header().DataPageHeader.Statistics.MaxValue)
		require.Equal(t, mem.Body(), sw.Body(), "page %d", i)
		largest = max(largest, sw.HeaderSize()+len(sw.Body()))
		require.LessOrEqual(t, cap(sw.Buffer()), max(largest, streamReadAhead), "page %d", i)
		i++
	}
	require.NoError(t, mem.Err())
	require.False(t, sw.Next())
	require.NoError(t, sw.Err())
	require.Equal(t, len(sizes), i)

	// A chunk cut short of its declared range is a read error, not a panic.
	sw.ResetReaderAt(bytes.NewReader(file[:len(file)/2]), rng, nil)
	for sw.Next() {
	}
	require.ErrorIs(t, sw.Err(), io.ErrUnexpectedEOF)
}

// countReads counts the bytes read from an io.ReaderAt, and the reads.
type countReads struct {
	r     io.ReaderAt
	n     int
	calls int
}

func (c *countReads) ReadAt(p []byte, off int64) (int, error) {
	c.n += len(p)
	c.calls++
	return c.r.ReadAt(p, off)
}

// TestPageWalkerSmallPages: a streaming walk of a chunk of 20,000 pages of
// 10 bytes refills its window once per streamReadAhead bytes, not once
// per page (it did, moving the whole window each time: 64 KiB per page).
func TestPageWalkerSmallPages(t *testing.T) {
	const pages = 20000
	var chunk []byte
	for i := range pages {
		h := PageHeader{Type: DataPage, UncompressedPageSize: 10, CompressedPageSize: 10,
			HasDataPageHeader: true, DataPageHeader: DataPageHeader{NumValues: 1, Encoding: Plain}}
		chunk = AppendPageHeader(chunk, &h)
		chunk = append(chunk, bytes.Repeat([]byte{byte(i)}, 10)...)
	}
	rng := ChunkRange{Start: 0, Length: int64(len(chunk)), NumValues: pages}
	cr := &countReads{r: bytes.NewReader(chunk)}
	var w PageWalker
	w.ResetReaderAt(cr, rng, nil)
	n := 0
	for w.Next() {
		require.Equal(t, bytes.Repeat([]byte{byte(n)}, 10), w.Body())
		n++
	}
	require.NoError(t, w.Err())
	require.Equal(t, pages, n)
	require.LessOrEqual(t, cr.calls, len(chunk)/streamReadAhead+2, "%d reads for %d bytes", cr.calls, len(chunk))
	require.LessOrEqual(t, cr.n, len(chunk))
}

// TestPageWalkerSkipAndSeek walks pages of up to 1 MiB by their headers,
// reading some bodies, and jumps to pages by offset, in memory and
// streaming, against a full walk.
func TestPageWalkerSkipAndSeek(t *testing.T) {
	var chunk []byte
	sizes := []int{10, 300 << 10, 5, 1 << 20, 64<<10 - 30, 0, 70 << 10}
	for i, size := range sizes {
		h := PageHeader{Type: DataPage, UncompressedPageSize: int32(size), CompressedPageSize: int32(size),
			HasDataPageHeader: true, DataPageHeader: DataPageHeader{NumValues: 1, Encoding: Plain}}
		if i == 3 {
			h.DataPageHeader.HasStatistics = true
			h.DataPageHeader.Statistics.MaxValue = bytes.Repeat([]byte{byte(i)}, 5000)
		}
		chunk = AppendPageHeader(chunk, &h)
		chunk = append(chunk, bytes.Repeat([]byte{byte(i + 1)}, size)...)
	}
	// Trailing bytes inside the declared range: the walk stops at
	// NumValues before them.
	chunk = append(chunk, 0xff, 0xff, 0xff)
	rng := ChunkRange{Start: 4, Length: int64(len(chunk)), NumValues: int64(len(sizes))}
	file := append([]byte("PAR1"), chunk...)
	var offsets []int64
	var bodies [][]byte
	for w := NewPageWalker(chunk, rng); w.Next(); {
		offsets = append(offsets, w.Offset())
		bodies = append(bodies, w.Body())
	}
	require.Len(t, offsets, len(sizes))

	cr := &countReads{r: bytes.NewReader(file)}
	var sw PageWalker
	sw.ResetReaderAt(cr, rng, nil)
	walkers := map[string]*PageWalker{"memory": NewPageWalker(chunk, rng), "stream": &sw}
	for name, w := range walkers {
		i := 0
		for w.NextHeader() {
			require.Equal(t, offsets[i], w.Offset(), name)
			if i%2 == 1 {
				require.NoError(t, w.ReadBody(), name)
				require.Equal(t, bodies[i], w.Body(), "%s page %d", name, i)
				require.NoError(t, w.ReadBody(), name) // no-op
			}
			if i == 3 {
				require.Len(t, w.Header().DataPageHeader.Statistics.MaxValue, 5000, name)
			}
			i++
		}
		require.NoError(t, w.Err(), name)
		require.Equal(t, len(sizes), i, name)

		// Jumps, backward and forward; the walk goes on from there.
		for _, k := range []int{6, 0, 3, 5, 1} {
			require.NoError(t, w.SeekOffset(offsets[k], int64(k)), name)
			require.Equal(t, offsets[k], w.NextOffset(), name)
			for j := k; j < len(sizes); j++ {
				require.True(t, w.Next(), "%s page %d after a jump to %d: %v", name, j, k, w.Err())
				require.Equal(t, offsets[j], w.Offset(), name)
				require.Equal(t, bodies[j], w.Body(), "%s page %d after a jump to %d", name, j, k)
			}
			require.False(t, w.Next(), name)
			require.NoError(t, w.Err(), name)
		}
		for _, off := range []int64{3, 4 + int64(len(chunk)), -1} {
			require.ErrorIs(t, w.SeekOffset(off, 0), ErrCorrupt, "%s offset %d", name, off)
		}
		require.ErrorIs(t, w.SeekOffset(offsets[2], -1), ErrCorrupt, name)
	}

	// Skipping by headers reads a small window per page, not the bodies.
	cr.n = 0
	sw.ResetReaderAt(cr, rng, nil)
	for sw.NextHeader() {
	}
	require.NoError(t, sw.Err())
	assert.Less(t, cr.n, 32<<10)
	t.Logf("header walk of %d bytes read %d bytes", len(chunk), cr.n)
	// A jump reads nothing until Next; then the page and a read-ahead.
	cr.n = 0
	require.NoError(t, sw.SeekOffset(offsets[4], 4))
	require.Zero(t, cr.n)
	require.True(t, sw.Next())
	assert.LessOrEqual(t, cr.n, int(offsets[6]-offsets[4])+len(bodies[6])+3+streamReadAhead)
}
