package format

import (
	"bytes"
	"encoding/binary"
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
	walk := func(b []byte, rng ChunkRange) (types []PageType, err error) {
		w := NewPageWalker(b, rng)
		for w.Next() {
			types = append(types, w.Header().Type)
			assert.Equal(t, bytes.Repeat([]byte{byte(len(types) - 1)}, len(types)*3-3), w.Body())
		}
		return types, w.Err()
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
