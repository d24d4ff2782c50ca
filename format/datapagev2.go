package format

import "fmt"

// DataPageV2Body is the body of a data page v2 split into its three
// sections by [SplitDataPageV2].
type DataPageV2Body struct {
	// RepLevels and DefLevels are the level sections, never compressed.
	RepLevels, DefLevels []byte
	// Values is the values section as stored.
	Values []byte
	// Compressed reports whether Values must be decompressed (with the
	// column chunk's codec) into ValuesSize bytes. It is false for a
	// section stored uncompressed and for an empty section declared empty.
	Compressed bool
	// ValuesSize is the size of the values section once decompressed: the
	// header's uncompressed_page_size less the level lengths when
	// Compressed, and len(Values) otherwise.
	ValuesSize int
}

// UncompressedSize returns the size of the page's body once its values
// section is decompressed: what uncompressed_page_size should say.
func (b *DataPageV2Body) UncompressedSize() int {
	return len(b.RepLevels) + len(b.DefLevels) + b.ValuesSize
}

// SplitDataPageV2 splits body, the bytes after the header h of a data page
// v2, into its level sections and values section. It is the one v2 split
// of the module: the column reader, recompress and its verifier all use it,
// so that they accept the same pages (READING.md).
//
// A level length that is negative or runs past body is an error wrapping
// [ErrCorrupt], as is, for a compressed values section, an
// uncompressed_page_size below the level lengths. An uncompressed values
// section (is_compressed false) is taken as it is, whatever size the header
// declares for it: parquet-java, arrow-cpp, arrow-rs and DuckDB (for a codec
// other than UNCOMPRESSED) do not compare the two; the value decoders check
// that it holds the values the levels need. A compressed section that is
// empty with a declared size of 0 (parquet-java's all-null pages) is not
// decompressed.
//
// The returned slices alias body.
func SplitDataPageV2(h *PageHeader, body []byte) (DataPageV2Body, error) {
	dh := &h.DataPageHeaderV2
	repLen, defLen := int(dh.RepetitionLevelsByteLength), int(dh.DefinitionLevelsByteLength)
	if repLen < 0 || defLen < 0 || repLen > len(body) || defLen > len(body)-repLen {
		return DataPageV2Body{}, fmt.Errorf("%w: level lengths %d and %d in a data page v2 of %d bytes", ErrCorrupt, repLen, defLen, len(body))
	}
	b := DataPageV2Body{
		RepLevels: body[:repLen:repLen],
		DefLevels: body[repLen : repLen+defLen : repLen+defLen],
		Values:    body[repLen+defLen:],
	}
	valuesSize := int(h.UncompressedPageSize) - repLen - defLen
	switch {
	case !dh.IsCompressed:
		b.ValuesSize = len(b.Values)
	case valuesSize < 0:
		return DataPageV2Body{}, fmt.Errorf("%w: uncompressed page size %d below its level lengths %d+%d", ErrCorrupt, h.UncompressedPageSize, repLen, defLen)
	case len(b.Values) == 0 && valuesSize == 0:
		// An empty page: nothing to decompress.
	default:
		b.Compressed, b.ValuesSize = true, valuesSize
	}
	return b, nil
}
