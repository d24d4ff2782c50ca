package column

import (
	"bytes"
	"encoding/binary"
	"io"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/encoding/bytestreamsplit"
	"github.com/pqcodec/pqcodec/encoding/delta"
	"github.com/pqcodec/pqcodec/encoding/plain"
	"github.com/pqcodec/pqcodec/encoding/rle"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/internal/testfile"
)

func ptr[T any](v T) *T { return &v }

// emptySchema is a root with one optional INT32 and one required
// BYTE_ARRAY column.
func emptySchema() []format.SchemaElement {
	return []format.SchemaElement{
		{Name: "root", NumChildren: ptr[int32](2)},
		{Name: "a", Type: ptr(format.Int32), RepetitionType: ptr(format.Optional)},
		{Name: "b", Type: ptr(format.ByteArray), RepetitionType: ptr(format.Required)},
	}
}

// TestZeroRowGroupsListType0 opens a file without row groups whose empty
// row_groups list has element type 0, as a JavaScript writer writes it
// (DuckDB, parquet-java, arrow-cpp and arrow-rs read it): zero rows.
func TestZeroRowGroupsListType0(t *testing.T) {
	data := testfile.File(emptySchema(), 0, nil, testfile.EmptyListType0)
	f, err := Open(bytes.NewReader(data), int64(len(data)))
	require.NoError(t, err)
	require.Equal(t, 0, f.NumRowGroups())
	require.Equal(t, 2, f.NumColumns())
	require.Zero(t, f.MetaData().NumRows)
	_, err = f.Column(0, 0)
	require.Error(t, err)
}

// openBytes opens a file built in memory.
func openBytes(t *testing.T, data []byte) *File {
	t.Helper()
	f, err := Open(bytes.NewReader(data), int64(len(data)))
	require.NoError(t, err)
	return f
}

// readPages reads every data page of chunk (0, col).
func readPages(t *testing.T, f *File, col int) ([]Page, error) {
	t.Helper()
	r, err := f.Column(0, col)
	require.NoError(t, err)
	var pages []Page
	for {
		var p Page
		if err := r.ReadPage(&p); err == io.EOF {
			return pages, nil
		} else if err != nil {
			return pages, err
		}
		pages = append(pages, p)
	}
}

// prefixed returns stream behind its 4-byte little-endian length, as v1
// level sections and RLE boolean pages have it.
func prefixed(stream ...byte) []byte {
	return append(binary.LittleEndian.AppendUint32(nil, uint32(len(stream))), stream...)
}

func v1Page(n int32, enc format.Encoding, body []byte) []byte {
	return testfile.Page(format.PageHeader{
		Type: format.DataPage, HasDataPageHeader: true,
		DataPageHeader: format.DataPageHeader{NumValues: n, Encoding: enc,
			DefinitionLevelEncoding: format.RLE, RepetitionLevelEncoding: format.RLE},
	}, body)
}

func v2Page(n, nulls int32, enc format.Encoding, defLen int32, compressed bool, body []byte) []byte {
	return testfile.Page(format.PageHeader{
		Type: format.DataPageV2, HasDataPageHeaderV2: true,
		DataPageHeaderV2: format.DataPageHeaderV2{NumValues: n, NumNulls: nulls, NumRows: n, Encoding: enc,
			DefinitionLevelsByteLength: defLen, IsCompressed: compressed, HasIsCompressed: true},
	}, body)
}

func dictPage(n int32, body []byte) []byte {
	return testfile.Page(format.PageHeader{
		Type: format.DictionaryPage, HasDictionaryPageHeader: true,
		DictionaryPageHeader: format.DictionaryPageHeader{NumValues: n, Encoding: format.Plain},
	}, body)
}

// oneColumn builds a file of one column chunk of leaf leaf holding pages
// (the first a dictionary page when dict is set) of numValues values.
func oneColumn(t *testing.T, leaf format.SchemaElement, numValues int64, dict bool, pages ...[]byte) *File {
	t.Helper()
	schema := []format.SchemaElement{{Name: "root", NumChildren: ptr[int32](1)}, leaf}
	chunk := testfile.Chunk{Dict: dict, Pages: pages, Meta: format.ColumnMetaData{
		Type: *leaf.Type, PathInSchema: []string{leaf.Name}, Codec: format.Uncompressed, NumValues: numValues,
		Encodings: []format.Encoding{format.Plain, format.RLE},
	}}
	return openBytes(t, testfile.File(schema, numValues, []testfile.Chunk{chunk}, nil))
}

var (
	optInt32  = format.SchemaElement{Name: "a", Type: ptr(format.Int32), RepetitionType: ptr(format.Optional)}
	reqInt32  = format.SchemaElement{Name: "a", Type: ptr(format.Int32), RepetitionType: ptr(format.Required)}
	optBool   = format.SchemaElement{Name: "a", Type: ptr(format.Boolean), RepetitionType: ptr(format.Optional)}
	reqString = format.SchemaElement{Name: "a", Type: ptr(format.ByteArray), RepetitionType: ptr(format.Required)}
)

// TestHybridRunsPastThePage reads pages whose RLE/bit-packed hybrid runs
// declare more values than the page holds, as DuckDB writes them (bit-packed
// runs of whole 32-group blocks) and others (RLE runs longer than the rest),
// in every place the hybrid appears in a page: definition levels (v1 and
// v2), dictionary indices and RLE booleans. Only the bytes of the needed
// values are present in some, all the padding in others.
func TestHybridRunsPastThePage(t *testing.T) {
	// Levels 1 0 1 1 0 (3 values present), width 1: bits 0b01101.
	const bits = 0b01101
	packed32 := byte(32<<1 | 1) // bit-packed run of 32 groups (256 values)
	full := make([]byte, 32)    // 32 groups of width 1: 32 bytes
	full[0] = bits
	wantLevels := []int16{1, 0, 1, 1, 0}

	dict := dictPage(3, plain.Encode(nil, []int32{100, 200, 300}))
	// Indices 2 0 1 at width 2 (0b01_00_10), in a 32-group bit-packed run
	// with only its first byte, then the same in an RLE run of 9 values
	// (value 2) followed by nothing.
	idxPacked := []byte{2, packed32, 0b010010}
	idxRLE := []byte{2, 9 << 1, 2}
	all := []int16{1, 1, 1, 1, 1}
	for name, tc := range map[string]struct {
		pages  [][]byte
		levels []int16
		want   []int32 // nil: an error, the bytes of needed values are missing
	}{
		"v1 padded levels, packed indices": {[][]byte{dict, v1Page(5, format.RLEDictionary,
			append(prefixed(append([]byte{packed32}, full...)...), idxPacked...))}, wantLevels, []int32{300, 100, 200}},
		"v1 short levels, RLE indices": {[][]byte{dict, v1Page(5, format.RLEDictionary,
			append(prefixed(packed32, bits), idxRLE...))}, wantLevels, []int32{300, 300, 300}},
		"v1 levels in a long RLE run": {[][]byte{dict, v1Page(5, format.RLEDictionary,
			append(prefixed(40<<1, 1), idxRLE...))}, all, []int32{300, 300, 300, 300, 300}},
		"needed index bytes missing": {[][]byte{dict, v1Page(5, format.RLEDictionary,
			append(prefixed(40<<1, 1), idxPacked...))}, nil, nil},
		"v2 padded levels": {[][]byte{dict, v2Page(5, 2, format.RLEDictionary, 33, false,
			append(append([]byte{packed32}, full...), idxPacked...))}, wantLevels, []int32{300, 100, 200}},
		"v2 short levels": {[][]byte{dict, v2Page(5, 2, format.RLEDictionary, 2, false,
			append([]byte{packed32, bits}, idxRLE...))}, wantLevels, []int32{300, 300, 300}},
	} {
		t.Run(name, func(t *testing.T) {
			f := oneColumn(t, optInt32, 5, true, tc.pages...)
			pages, err := readPages(t, f, 0)
			if tc.want == nil {
				// 5 indices needed; the run declares 256 but its one
				// byte holds 4.
				require.ErrorIs(t, err, rle.ErrCorrupt)
				return
			}
			require.NoError(t, err)
			require.Len(t, pages, 1)
			require.Equal(t, tc.levels, pages[0].DefLevels)
			require.Equal(t, tc.want, pages[0].Values.Int32s)
		})
	}

	// RLE booleans 1 1 0 in a padded 32-group run, under the same levels.
	boolPage := append(prefixed(packed32, bits), prefixed(packed32, 0b011)...)
	f := oneColumn(t, optBool, 5, false, v1Page(5, format.RLE, boolPage))
	pages, err := readPages(t, f, 0)
	require.NoError(t, err)
	require.Equal(t, wantLevels, pages[0].DefLevels)
	require.Equal(t, []bool{true, true, false}, pages[0].Values.Booleans)
}

// TestDictionaryPageAfterDataPages reads a chunk whose dictionary page comes
// after a PLAIN data page (a writer that falls back the other way round):
// parquet-java, arrow-cpp, arrow-rs and DuckDB read it. A second dictionary
// page stays an error, as in parquet-java, arrow-cpp and arrow-rs.
func TestDictionaryPageAfterDataPages(t *testing.T) {
	plainPage := v1Page(2, format.Plain, plain.Encode(nil, []int32{7, 8}))
	dict := dictPage(2, plain.Encode(nil, []int32{100, 200}))
	idx := v1Page(3, format.RLEDictionary, []byte{1, 3<<1 | 1, 0b101})
	f := oneColumn(t, reqInt32, 5, false, plainPage, dict, idx)
	pages, err := readPages(t, f, 0)
	require.NoError(t, err)
	require.Len(t, pages, 2)
	require.Equal(t, []int32{7, 8}, pages[0].Values.Int32s)
	require.Equal(t, []int32{200, 100, 200}, pages[1].Values.Int32s)

	f = oneColumn(t, reqInt32, 5, false, dict, plainPage, dict, idx)
	_, err = readPages(t, f, 0)
	require.ErrorIs(t, err, ErrCorrupt)
	require.ErrorContains(t, err, "second dictionary page")

	// A dictionary-encoded page before any dictionary stays an error
	// (arrow-cpp: "Dictionary page must be before data page").
	f = oneColumn(t, reqInt32, 5, false, idx, dict)
	_, err = readPages(t, f, 0)
	require.ErrorIs(t, err, ErrCorrupt)
}

// TestDictionaryPageWithoutOffset reads a chunk whose dictionary page sits
// at data_page_offset, dictionary_page_offset unset (parquet-java 1.x
// writers), and one whose dictionary page holds bytes after its values.
func TestDictionaryPageWithoutOffset(t *testing.T) {
	dict := dictPage(2, append(plain.Encode(nil, []int32{100, 200}), 0xde, 0xad, 0xbe, 0xef, 0x01))
	idx := v1Page(3, format.PlainDictionary, []byte{1, 3<<1 | 1, 0b110})
	f := oneColumn(t, reqInt32, 3, false, dict, idx)
	require.Nil(t, f.MetaData().RowGroups[0].Columns[0].MetaData.DictionaryPageOffset)
	pages, err := readPages(t, f, 0)
	require.NoError(t, err)
	require.Equal(t, []int32{100, 200, 200}, pages[0].Values.Int32s)
}

// TestV2NumNulls reads v2 pages whose num_nulls disagrees with the
// definition levels: the levels decide, as in parquet-java, arrow-cpp and
// DuckDB (which do not read num_nulls) and arrow-rs (which reads it as an
// upper bound of the values). A count outside [0, num_values] stays an
// error, as in arrow-rs.
func TestV2NumNulls(t *testing.T) {
	// One bit-packed group of width 1: levels 1 0 1 0 1, 3 unused.
	levels := []byte{1<<1 | 1, 0b10101}
	body := append(append([]byte{}, levels...), plain.Encode(nil, []int32{1, 2, 3})...)
	for _, nulls := range []int32{0, 1, 2, 5} {
		f := oneColumn(t, optInt32, 5, false, v2Page(5, nulls, format.Plain, int32(len(levels)), false, body))
		pages, err := readPages(t, f, 0)
		require.NoError(t, err, "num_nulls %d", nulls)
		require.Equal(t, []int16{1, 0, 1, 0, 1}, pages[0].DefLevels)
		require.Equal(t, []int32{1, 2, 3}, pages[0].Values.Int32s)
	}
	for _, nulls := range []int32{-1, 6} {
		f := oneColumn(t, optInt32, 5, false, v2Page(5, nulls, format.Plain, int32(len(levels)), false, body))
		_, err := readPages(t, f, 0)
		require.ErrorIs(t, err, ErrCorrupt, "num_nulls %d", nulls)
	}
}

// TestV2UncompressedSectionSize reads a v2 page whose values section is not
// compressed (is_compressed false) and longer than uncompressed_page_size
// says: the values decoder takes what it needs, as parquet-java, arrow-cpp,
// arrow-rs and DuckDB do. A section too short for the values stays an error.
func TestV2UncompressedSectionSize(t *testing.T) {
	values := plain.Encode(nil, []int32{4, 5, 6})
	h := format.PageHeader{
		Type: format.DataPageV2, HasDataPageHeaderV2: true, UncompressedPageSize: 8,
		DataPageHeaderV2: format.DataPageHeaderV2{NumValues: 3, NumRows: 3, Encoding: format.Plain,
			HasIsCompressed: true},
	}
	f := oneColumn(t, reqInt32, 3, false, testfile.Page(h, values))
	pages, err := readPages(t, f, 0)
	require.NoError(t, err)
	require.Equal(t, []int32{4, 5, 6}, pages[0].Values.Int32s)

	// uncompressed_page_size below the level lengths, which an
	// uncompressed section does not need.
	levels := []byte{1<<1 | 1, 0b111}
	h2 := h
	h2.UncompressedPageSize = 1
	h2.DataPageHeaderV2.DefinitionLevelsByteLength = 2
	f = oneColumn(t, optInt32, 3, false, testfile.Page(h2, append(levels, values...)))
	pages, err = readPages(t, f, 0)
	require.NoError(t, err)
	require.Equal(t, []int16{1, 1, 1}, pages[0].DefLevels)
	require.Equal(t, []int32{4, 5, 6}, pages[0].Values.Int32s)

	f = oneColumn(t, reqInt32, 3, false, testfile.Page(h, values[:8]))
	_, err = readPages(t, f, 0)
	require.ErrorIs(t, err, ErrCorrupt)
}

// TestDeltaStreamsLongerThanThePage reads DELTA_BINARY_PACKED,
// DELTA_LENGTH_BYTE_ARRAY and DELTA_BYTE_ARRAY pages whose streams hold more
// values than the page's levels need: the first ones are read, as
// parquet-java, arrow-cpp, arrow-rs and DuckDB read them. Fewer values stay
// an error.
func TestDeltaStreamsLongerThanThePage(t *testing.T) {
	dbp := delta.EncodeInt32(nil, []int32{10, 20, 30, 40, 50})
	f := oneColumn(t, reqInt32, 3, false, v1Page(3, format.DeltaBinaryPacked, dbp))
	pages, err := readPages(t, f, 0)
	require.NoError(t, err)
	require.Equal(t, []int32{10, 20, 30}, pages[0].Values.Int32s)

	f = oneColumn(t, reqInt32, 6, false, v1Page(6, format.DeltaBinaryPacked, dbp))
	_, err = readPages(t, f, 0)
	require.ErrorIs(t, err, ErrCorrupt)

	vals, offs := []byte("abcabdxyz"), []int32{0, 3, 6, 9}
	dlba, err := delta.EncodeLengthByteArray(nil, vals, offs)
	require.NoError(t, err)
	dba, err := delta.EncodeByteArray(nil, vals, offs)
	require.NoError(t, err)
	for enc, page := range map[format.Encoding][]byte{format.DeltaLengthByteArray: dlba, format.DeltaByteArray: dba} {
		f = oneColumn(t, reqString, 2, false, v1Page(2, enc, page))
		pages, err = readPages(t, f, 0)
		require.NoError(t, err, enc)
		require.Equal(t, []int32{0, 3, 6}, pages[0].Values.Offsets, enc)
		require.Equal(t, []byte("abcabd"), pages[0].Values.Bytes, enc)
	}
}

// TestByteStreamSplitLongerThanThePage reads a BYTE_STREAM_SPLIT page whose
// streams hold a slot for every value, nulls included: the stride is the
// length over the type size and the first values are the page's, as
// parquet-java, arrow-cpp, arrow-rs and DuckDB read it. More slots than the
// page's values, or fewer than its non-null values, stay errors (arrow-cpp).
func TestByteStreamSplitLongerThanThePage(t *testing.T) {
	levels := prefixed(1<<1|1, 0b10101) // 1 0 1 0 1
	for slots, ok := range map[int]bool{3: true, 4: true, 5: true, 2: false, 6: false} {
		vals := []int32{11, 22, 33, 44, 55, 66}[:slots]
		body := append(append([]byte{}, levels...), bytestreamsplit.EncodeInt32(nil, vals)...)
		f := oneColumn(t, optInt32, 5, false, v1Page(5, format.ByteStreamSplit, body))
		pages, err := readPages(t, f, 0)
		if !ok {
			require.ErrorIs(t, err, ErrCorrupt, "%d slots", slots)
			continue
		}
		require.NoError(t, err, "%d slots", slots)
		require.Equal(t, []int32{11, 22, 33}, pages[0].Values.Int32s, "%d slots", slots)
	}
}

// TestChunkTypeFromSchema reads a chunk whose metadata names another
// physical type than its schema leaf: the leaf's type is read, as
// parquet-java, arrow-cpp, arrow-rs and DuckDB read it.
func TestChunkTypeFromSchema(t *testing.T) {
	schema := []format.SchemaElement{{Name: "root", NumChildren: ptr[int32](1)}, reqInt32}
	chunk := testfile.Chunk{Pages: [][]byte{v1Page(2, format.Plain, plain.Encode(nil, []int32{-1, 9}))},
		Meta: format.ColumnMetaData{Type: format.Int64, PathInSchema: []string{"a"}, NumValues: 2,
			Encodings: []format.Encoding{format.Plain}}}
	f := openBytes(t, testfile.File(schema, 2, []testfile.Chunk{chunk}, nil))
	require.Equal(t, format.Int64, f.MetaData().RowGroups[0].Columns[0].MetaData.Type)
	r, err := f.Column(0, 0)
	require.NoError(t, err)
	require.Equal(t, format.Int32, r.MetaData().Type)
	pages, err := readPages(t, f, 0)
	require.NoError(t, err)
	require.Equal(t, []int32{-1, 9}, pages[0].Values.Int32s)
}

// TestPaddingIgnored reads pages with bytes after what they need: after
// the last run of a v1 level section (inside its length prefix), of a v2
// level section, after the PLAIN values and after the dictionary indices,
// as parquet-java, arrow-cpp, arrow-rs and DuckDB ignore them.
func TestPaddingIgnored(t *testing.T) {
	junk := []byte{0xff, 0xee, 0xdd}
	levels := []byte{1<<1 | 1, 0b1011} // 1 1 0 1
	vals := append(plain.Encode(nil, []int32{5, 6, 7}), junk...)
	v1 := append(prefixed(append(append([]byte{}, levels...), junk...)...), vals...)
	v2 := append(append(append([]byte{}, levels...), junk...), vals...)
	for name, page := range map[string][]byte{
		"v1": v1Page(4, format.Plain, v1),
		"v2": v2Page(4, 1, format.Plain, int32(len(levels)+len(junk)), false, v2),
	} {
		f := oneColumn(t, optInt32, 4, false, page)
		pages, err := readPages(t, f, 0)
		require.NoError(t, err, name)
		require.Equal(t, []int16{1, 1, 0, 1}, pages[0].DefLevels, name)
		require.Equal(t, []int32{5, 6, 7}, pages[0].Values.Int32s, name)
	}
	dict := dictPage(2, plain.Encode(nil, []int32{100, 200}))
	idx := v1Page(3, format.RLEDictionary, append([]byte{1, 1<<1 | 1, 0b010}, junk...))
	f := oneColumn(t, reqInt32, 3, true, dict, idx)
	pages, err := readPages(t, f, 0)
	require.NoError(t, err)
	require.Equal(t, []int32{100, 200, 100}, pages[0].Values.Int32s)
}
