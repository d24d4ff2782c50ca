package format

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/internal/testcorpus"
)

func readCorpusFooter(t *testing.T, path string) (*FileMetaData, int64) {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	st, err := f.Stat()
	require.NoError(t, err)
	md, err := ReadFooter(f, st.Size())
	require.NoError(t, err)
	return md, st.Size()
}

// TestColumnChunkKeyValueMetadata: parquet-go v0.32.0 fails on this footer
// because its format.KeyValue declares value `thrift:"2,required"` while
// parquet.thrift has `2: optional string value`, and the file has a key
// without a value. The chunks also hold only a dictionary page, with
// data_page_offset 0.
func TestColumnChunkKeyValueMetadata(t *testing.T) {
	md, size := readCorpusFooter(t, testcorpus.Data(t, "column_chunk_key_value_metadata.parquet"))
	kv := md.RowGroups[0].Columns[0].MetaData.KeyValueMetadata
	require.Len(t, kv, 2)
	assert.Equal(t, KeyValue{Key: "foo", Value: ptr("bar")}, kv[0])
	assert.Equal(t, KeyValue{Key: "thisiskeywithoutvalue"}, kv[1])
	c := &md.RowGroups[0].Columns[0]
	assert.Zero(t, c.MetaData.DataPageOffset)
	start, n, err := c.PageRange(size)
	require.NoError(t, err)
	assert.Equal(t, []int64{4, 14}, []int64{start, n})
}

// TestUnknownLogicalType: the second column's LogicalType union member has
// id 2555, unknown to every reader; it must be kept, not rejected.
func TestUnknownLogicalType(t *testing.T) {
	md, _ := readCorpusFooter(t, testcorpus.Data(t, "unknown-logical-type.parquet"))
	require.Len(t, md.Schema, 3)
	assert.Equal(t, LogicalString, md.Schema[1].LogicalType.Kind)
	lt := md.Schema[2].LogicalType
	require.NotNil(t, lt)
	assert.Equal(t, LogicalTypeKind(2555), lt.Kind)
	assert.False(t, lt.Kind.Known())
	assert.Equal(t, "LogicalType(2555)", lt.String())
	assert.Equal(t, []byte{0}, lt.Raw, "an empty member struct")
}

// TestPlaintextFooterEncryption: with a plaintext footer the metadata reads,
// the encryption algorithm is reported and encrypted chunks say so.
func TestPlaintextFooterEncryption(t *testing.T) {
	md, size := readCorpusFooter(t, testcorpus.Data(t, "encrypt_columns_plaintext_footer.parquet.encrypted"))
	require.NotNil(t, md.EncryptionAlgorithm)
	assert.Equal(t, AesGcmV1, md.EncryptionAlgorithm.Kind)
	var encrypted []string
	for i := range md.RowGroups[0].Columns {
		c := &md.RowGroups[0].Columns[i]
		if c.Encrypted() {
			encrypted = append(encrypted, c.MetaData.PathInSchema[0])
			_, err := md.ColumnChunkRange(c, size)
			assert.ErrorIs(t, err, ErrEncrypted)
		}
	}
	// The file's README: float_field and double_field are encrypted.
	assert.Equal(t, []string{"float_field", "double_field"}, encrypted)
}

// TestLargeStringMapFooter: the file's pages decompress to ~2 GiB; its
// footer and page headers are small and must read without touching that.
func TestLargeStringMapFooter(t *testing.T) {
	md, _ := readCorpusFooter(t, testcorpus.Data(t, "large_string_map.brotli.parquet"))
	assert.Equal(t, int64(2), md.NumRows)
	assert.Equal(t, Brotli, md.RowGroups[0].Columns[0].MetaData.Codec)
}

// TestNationDictMalformed: written by "parquet-mr" without a version, whose
// total_compressed_size leaves out the dictionary page header (PARQUET-816).
// Strictly bounded, the walk of column "name" overruns; with the slack from
// ColumnChunkRange it ends exactly where the next chunk starts.
func TestNationDictMalformed(t *testing.T) {
	path := testcorpus.Data(t, "nation.dict-malformed.parquet")
	md, size := readCorpusFooter(t, path)
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	cols := md.RowGroups[0].Columns
	c := &cols[1]
	rng, err := md.ColumnChunkRange(c, size)
	require.NoError(t, err)
	assert.Positive(t, rng.Slack)
	chunk, err := ReadColumnChunk(nil, f, rng)
	require.NoError(t, err)

	strict := NewPageWalker(chunk[:rng.Length], ChunkRange{Start: rng.Start, Length: rng.Length})
	for strict.Next() {
	}
	require.ErrorIs(t, strict.Err(), ErrCorrupt)

	w := NewPageWalker(chunk, rng)
	var end int64
	for w.Next() {
		end = w.Offset() + int64(w.HeaderSize()+len(w.Body()))
	}
	require.NoError(t, w.Err())
	assert.Equal(t, cols[2].MetaData.DataPageOffset, end)
}
