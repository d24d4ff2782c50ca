package format

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"

	"github.com/pqcodec/pqcodec/internal/testalloc"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/internal/testcorpus"
	"github.com/pqcodec/pqcodec/internal/thrift"
)

func ptr[T any](v T) *T { return &v }

// fullFileMetaData sets every field this package knows, each union member
// once, so the round trip covers all of the encoder and decoder.
func fullFileMetaData() *FileMetaData {
	var schema []SchemaElement
	schema = append(schema, SchemaElement{Name: "root", NumChildren: ptr(int32(0))})
	kinds := []LogicalType{
		{Kind: LogicalString}, {Kind: LogicalMap}, {Kind: LogicalList}, {Kind: LogicalEnum},
		{Kind: LogicalDecimal, Scale: 2, Precision: 9}, {Kind: LogicalDate},
		{Kind: LogicalTime, IsAdjustedToUTC: true, Unit: Millis},
		{Kind: LogicalTimestamp, IsAdjustedToUTC: false, Unit: Nanos},
		{Kind: LogicalInteger, BitWidth: 16, IsSigned: false}, {Kind: LogicalUnknown},
		{Kind: LogicalJSON}, {Kind: LogicalBSON}, {Kind: LogicalUUID}, {Kind: LogicalFloat16},
		{Kind: LogicalVariant, SpecificationVersion: 1, HasSpecificationVersion: true},
		{Kind: LogicalGeometry, CRS: ptr("srid:4326")},
		{Kind: LogicalGeography, CRS: ptr("OGC:CRS84"), Algorithm: ptr(Karney)},
		{Kind: LogicalVector},
		// An unknown member with a field inside, kept as Raw.
		{Kind: 77, Raw: []byte{0x15, 0x04, 0x00}},
	}
	for i := range kinds {
		schema = append(schema, SchemaElement{
			Type: ptr(ByteArray), RepetitionType: ptr(Optional), Name: "c" + string(rune('a'+i)),
			LogicalType: &kinds[i], FieldID: ptr(int32(i)),
		})
	}
	schema = append(schema, SchemaElement{Type: ptr(FixedLenByteArray), TypeLength: ptr(int32(16)),
		RepetitionType: ptr(Repeated), Name: "fixed", ConvertedType: ptr(ConvertedDecimal),
		Scale: ptr(int32(3)), Precision: ptr(int32(30))})
	schema[0].NumChildren = ptr(int32(len(schema) - 1))
	var chunks []ColumnChunk
	for i := 1; i < len(schema); i++ {
		chunks = append(chunks, ColumnChunk{
			FileOffset: int64(i * 100),
			MetaData: &ColumnMetaData{
				Type: *schema[i].Type, Encodings: []Encoding{Plain, RLE, RLEDictionary},
				PathInSchema: []string{schema[i].Name}, Codec: Zstd, NumValues: 1000,
				TotalUncompressedSize: 5000, TotalCompressedSize: 4000, DataPageOffset: int64(i*100 + 10),
			},
		})
	}
	m := chunks[0].MetaData
	m.KeyValueMetadata = []KeyValue{{Key: "k", Value: ptr("v")}, {Key: "novalue"}}
	m.IndexPageOffset = ptr(int64(1))
	m.DictionaryPageOffset = ptr(int64(100))
	m.Statistics = &Statistics{Max: []byte("z"), Min: []byte{}, NullCount: 3, HasNullCount: true,
		DistinctCount: 9, HasDistinctCount: true, MaxValue: []byte("zz"), MinValue: []byte("a"),
		IsMaxValueExact: true, HasIsMaxExact: true, IsMinValueExact: false, HasIsMinExact: true,
		NaNCount: 0, HasNaNCount: true}
	m.EncodingStats = []PageEncodingStats{{DictionaryPage, Plain, 1}, {DataPage, RLEDictionary, 7}}
	m.BloomFilterOffset = ptr(int64(12345))
	m.BloomFilterLength = ptr(int32(1024))
	m.SizeStatistics = &SizeStatistics{UnencodedByteArrayDataBytes: ptr(int64(99)),
		RepetitionLevelHistogram: []int64{1, 2}, DefinitionLevelHistogram: []int64{}}
	m.GeospatialStatistics = &GeospatialStatistics{
		BBox:            &BoundingBox{XMin: -1, XMax: 1, YMin: -2, YMax: 2, ZMin: ptr(0.5), MMax: ptr(9.0)},
		GeospatialTypes: []int32{1, 3}, HasGeospatialTypes: true}
	chunks[1].FilePath = ptr("other.parquet")
	chunks[1].OffsetIndexOffset = ptr(int64(7))
	chunks[1].OffsetIndexLength = ptr(int32(8))
	chunks[1].ColumnIndexOffset = ptr(int64(9))
	chunks[1].ColumnIndexLength = ptr(int32(10))
	chunks[2].CryptoMetadata = &ColumnCryptoMetaData{Kind: EncryptionWithColumnKey,
		PathInSchema: []string{"cc"}, KeyMetadata: []byte("key")}
	chunks[2].EncryptedColumnMetadata = []byte{1, 2, 3}
	chunks[3].CryptoMetadata = &ColumnCryptoMetaData{Kind: EncryptionWithFooterKey}
	return &FileMetaData{
		Version: 2, Schema: schema, NumRows: 2000,
		RowGroups: []RowGroup{
			{Columns: chunks, TotalByteSize: 5000, NumRows: 1000,
				SortingColumns: []SortingColumn{{0, true, false}, {2, false, true}},
				FileOffset:     ptr(int64(4)), TotalCompressedSize: ptr(int64(4000)), Ordinal: ptr(int16(0))},
			{Columns: chunks, TotalByteSize: 5000, NumRows: 1000, Ordinal: ptr(int16(1))},
		},
		KeyValueMetadata: []KeyValue{{Key: "ARROW:schema", Value: ptr("...")}},
		CreatedBy:        ptr("pqcodec test"),
		ColumnOrders:     []ColumnOrder{{TypeDefinedOrder}, {IEEE754TotalOrder}, {Int96TimestampOrder}},
		EncryptionAlgorithm: &EncryptionAlgorithm{Kind: AesGcmCtrV1, AadPrefix: []byte("p"),
			AadFileUnique: []byte("u"), SupplyAadPrefix: ptr(true)},
		FooterSigningKeyMetadata: []byte("sig"),
	}
}

func TestFileMetaDataRoundTrip(t *testing.T) {
	want := fullFileMetaData()
	b := AppendFileMetaData(nil, want)
	got, err := DecodeFileMetaData(b)
	require.NoError(t, err)
	assert.Equal(t, want, got)
	assert.Equal(t, b, AppendFileMetaData(nil, got), "re-encoding is stable")

	// The schema tree and encryption flags of the decoded copy.
	s, err := NewSchema(got.Schema)
	require.NoError(t, err)
	require.Len(t, s.Leaves(), len(got.Schema)-1)
	assert.Equal(t, 1, s.Leaves()[0].MaxDefinitionLevel)
	last := s.Leaves()[len(s.Leaves())-1]
	assert.Equal(t, []int{1, 1}, []int{last.MaxDefinitionLevel, last.MaxRepetitionLevel})
	assert.False(t, got.RowGroups[0].Columns[0].Encrypted())
	assert.True(t, got.RowGroups[0].Columns[2].Encrypted())
	assert.True(t, got.RowGroups[0].Columns[3].Encrypted())
	assert.Equal(t, LogicalTypeKind(77), got.Schema[len(got.Schema)-2].LogicalType.Kind)
	assert.False(t, got.Schema[len(got.Schema)-2].LogicalType.Kind.Known())

	// Appending reuses capacity and keeps the prefix.
	dst := make([]byte, 3, len(b)+3)
	out := AppendFileMetaData(dst, want)
	assert.Equal(t, &dst[:1][0], &out[0])
	assert.Equal(t, b, out[3:])

	// Every strict prefix fails cleanly.
	for n := range len(b) {
		_, err := DecodeFileMetaData(b[:n])
		require.ErrorIs(t, err, ErrCorrupt, "prefix %d", n)
	}
}

func samplePageHeaders() []PageHeader {
	stats := Statistics{Max: []byte{9, 0, 0, 0}, Min: []byte{1, 0, 0, 0}, NullCount: 2, HasNullCount: true,
		MaxValue: []byte{9, 0, 0, 0}, MinValue: []byte{1, 0, 0, 0}}
	return []PageHeader{
		{Type: DataPage, UncompressedPageSize: 1 << 20, CompressedPageSize: 400000, CRC: -12345, HasCRC: true,
			HasDataPageHeader: true, DataPageHeader: DataPageHeader{NumValues: 100000, Encoding: RLEDictionary,
				DefinitionLevelEncoding: RLE, RepetitionLevelEncoding: RLE, Statistics: stats, HasStatistics: true}},
		{Type: DataPageV2, UncompressedPageSize: 100, CompressedPageSize: 80, HasDataPageHeaderV2: true,
			DataPageHeaderV2: DataPageHeaderV2{NumValues: 10, NumNulls: 1, NumRows: 5, Encoding: DeltaBinaryPacked,
				DefinitionLevelsByteLength: 3, RepetitionLevelsByteLength: 4, IsCompressed: false,
				HasIsCompressed: true, Statistics: stats, HasStatistics: true}},
		{Type: DataPageV2, UncompressedPageSize: 0, CompressedPageSize: 0, HasDataPageHeaderV2: true,
			DataPageHeaderV2: DataPageHeaderV2{IsCompressed: true}},
		{Type: DictionaryPage, UncompressedPageSize: 64, CompressedPageSize: 64, HasDictionaryPageHeader: true,
			DictionaryPageHeader: DictionaryPageHeader{NumValues: 16, Encoding: Plain, IsSorted: true, HasIsSorted: true}},
		{Type: IndexPage, UncompressedPageSize: 5, CompressedPageSize: 5, HasIndexPageHeader: true},
	}
}

func TestPageHeaderRoundTrip(t *testing.T) {
	for _, want := range samplePageHeaders() {
		b := AppendPageHeader(nil, &want)
		b = append(b, 0xAA, 0xBB) // body bytes follow the header
		var got PageHeader
		n, err := DecodePageHeader(b, &got)
		require.NoError(t, err)
		assert.Equal(t, len(b)-2, n)
		assert.Equal(t, want, got)
		for k := range n {
			_, err := DecodePageHeader(b[:k], &got)
			require.ErrorIs(t, err, ErrCorrupt, "prefix %d", k)
		}
	}
}

func TestPageHeaderRequired(t *testing.T) {
	var h PageHeader
	hs := samplePageHeaders()
	// A DATA_PAGE without its member.
	bad := hs[0]
	bad.HasDataPageHeader = false
	_, err := DecodePageHeader(AppendPageHeader(nil, &bad), &h)
	assert.ErrorIs(t, err, ErrCorrupt)
	// Negative sizes.
	bad = hs[0]
	bad.CompressedPageSize = -1
	_, err = DecodePageHeader(AppendPageHeader(nil, &bad), &h)
	assert.ErrorIs(t, err, ErrCorrupt)
	// An empty struct.
	_, err = DecodePageHeader([]byte{0}, &h)
	assert.ErrorIs(t, err, ErrCorrupt)
}

func TestDecodePageHeaderAllocs(t *testing.T) {
	for _, want := range samplePageHeaders() {
		b := AppendPageHeader(nil, &want)
		var h PageHeader
		allocs := testing.AllocsPerRun(100, func() {
			if _, err := DecodePageHeader(b, &h); err != nil {
				t.Fatal(err)
			}
		})
		assert.Zero(t, allocs, "%v", want.Type)
		assert.Zero(t, testing.AllocsPerRun(100, func() { b = AppendPageHeader(b[:0], &want) }))
	}
}

// notByteIdentical lists the corpus footers that do not re-encode byte for
// byte, and why (established by diffing the encodings).
var notByteIdentical = map[string]string{
	"data/encrypt_columns_plaintext_footer.parquet.encrypted":        "a 28-byte footer signature (nonce and tag) follows the struct",
	"data/aes256/encrypt_columns_plaintext_footer.parquet.encrypted": "a 28-byte footer signature (nonce and tag) follows the struct",
	"data/dict-page-offset-zero.parquet":                             "ColumnMetaData field 15 is a list, not bloom_filter_length's i32: skipped",
}

// TestCorpusRoundTrip re-encodes every footer and every page header of the
// corpus. Decoding our encoding must give the same structs, and page headers
// and footers must re-encode to exactly the writer's bytes (writers emit fields in id
// order, as we do), which checks that no field is lost or altered.
func TestCorpusRoundTrip(t *testing.T) {
	dir := testcorpus.Dir(t)
	var footers, identical, pages int
	for _, name := range corpusFiles(t, dir, "data") {
		f, err := os.Open(filepath.Join(dir, name))
		require.NoError(t, err)
		st, err := f.Stat()
		require.NoError(t, err)
		raw, err := ReadFooterBytes(f, st.Size())
		if err != nil {
			require.ErrorIs(t, err, ErrEncrypted, name)
			f.Close()
			continue
		}
		md, err := DecodeFileMetaData(raw)
		require.NoError(t, err, name)
		enc := AppendFileMetaData(nil, md)
		md2, err := DecodeFileMetaData(enc)
		require.NoError(t, err, name)
		require.Equal(t, md, md2, name)
		footers++
		if reason, ok := notByteIdentical[name]; ok {
			assert.NotEqual(t, raw, enc, "%s: %s", name, reason)
		} else {
			assert.Equal(t, raw, enc, "%s: footer not re-encoded byte for byte", name)
			identical++
		}
		for i := range md.RowGroups {
			for j := range md.RowGroups[i].Columns {
				c := &md.RowGroups[i].Columns[j]
				if c.Encrypted() {
					continue
				}
				rng, err := md.ColumnChunkRange(c, st.Size())
				require.NoError(t, err)
				chunk, err := ReadColumnChunk(nil, f, rng)
				require.NoError(t, err)
				w := NewPageWalker(chunk, rng)
				var buf []byte
				for w.Next() {
					hdr := chunk[w.Offset()-rng.Start:][:w.HeaderSize()]
					buf = AppendPageHeader(buf[:0], w.Header())
					if !assert.Equal(t, hdr, buf, "%s: page at %d", name, w.Offset()) {
						break
					}
					pages++
				}
				require.NoError(t, w.Err())
			}
		}
		f.Close()
	}
	t.Logf("%d footers round-tripped (%d byte-identical), %d page headers byte-identical", footers, identical, pages)
	assert.Greater(t, pages, 50000)
}

func TestFileMetaDataHostile(t *testing.T) {
	// FileMetaData{version: 1, schema: list<struct> claiming 2^31 elements}
	// in 10 bytes: rejected before allocating.
	b := []byte{0x15, 0x02, 0x19, 0xfc, 0x80, 0x80, 0x80, 0x80, 0x08, 0x00}
	_, err := DecodeFileMetaData(b)
	require.ErrorIs(t, err, ErrCorrupt)
	// The bytes are averaged over 20 calls (testalloc: MemStats counts the
	// whole process, so one call's delta can hold the runtime's own). The
	// claim would cost gigabytes; this test saw under 1 KB per call.
	perCall := testalloc.BytesPerRun(20, func() { _, _ = DecodeFileMetaData(b) })
	t.Logf("claimed 2^31 schema elements: %.0f bytes per call", perCall)
	assert.Less(t, perCall, float64(64<<10))

	// A row group whose column list holds 100000 empty structs: the first
	// one fails (no meta_data), so memory does not follow the claimed count.
	good := AppendFileMetaData(nil, &FileMetaData{Version: 1, Schema: []SchemaElement{{Name: "r"}},
		RowGroups: []RowGroup{{}}})
	_, err = DecodeFileMetaData(good)
	require.NoError(t, err)
	hostile := []byte{0x15, 0x02, 0x19, 0x1c, 0x48, 0x01, 0x72, 0x00, 0x16, 0x00, 0x19, 0x1c, 0x19, 0xfc}
	hostile = binary.AppendUvarint(hostile, 100000)
	hostile = append(hostile, make([]byte, 100000)...)
	_, err = DecodeFileMetaData(hostile)
	require.ErrorIs(t, err, ErrCorrupt)
	// Following the count would allocate 100000 ColumnChunks, well over
	// 1 MiB; this test saw about 90 KB per call.
	perCall = testalloc.BytesPerRun(20, func() { _, _ = DecodeFileMetaData(hostile) })
	t.Logf("100000 empty ColumnChunks: %.0f bytes per call", perCall)
	assert.Less(t, perCall, float64(1<<20))
	assert.Contains(t, err.Error(), "ColumnChunk: missing required field meta_data")

	// Missing required fields: FileMetaData.schema, then SchemaElement.name.
	var w thrift.Writer
	w.StructBegin()
	w.WriteI32Field(1, 1)
	w.StructEnd()
	_, err = DecodeFileMetaData(w.Buf)
	require.ErrorIs(t, err, ErrCorrupt)
	assert.Contains(t, err.Error(), "missing required field schema")
	w.Reset(nil)
	w.StructBegin()
	w.WriteI32Field(1, 1)
	w.WriteFieldHeader(thrift.List, 2)
	w.WriteListHeader(thrift.Struct, 1)
	w.StructBegin()
	w.WriteI32Field(5, 0) // num_children but no name
	w.StructEnd()
	w.StructEnd()
	_, err = DecodeFileMetaData(w.Buf)
	require.ErrorIs(t, err, ErrCorrupt)
	assert.Contains(t, err.Error(), "SchemaElement: missing required field name")
}
