package format

import "strconv"

// The Go types below mirror the structs of parquet.thrift
// (https://github.com/apache/parquet-format/blob/master/src/main/thrift/parquet.thrift).
//
// Presence of optional fields: in footer-only structs (SchemaElement,
// ColumnMetaData, ColumnChunk, RowGroup, FileMetaData) an optional scalar is
// a pointer, nil when absent. In structs decoded once per page (PageHeader and
// its members, Statistics) optional scalars are values with a Has flag, so
// that [DecodePageHeader] need not allocate. Optional binary fields are nil
// when absent and non-nil (possibly empty) when present, everywhere.

// Statistics holds per-page or per-column-chunk statistics. Binary values
// decoded by [DecodePageHeader] alias the input buffer; those decoded by
// [DecodeFileMetaData] are copies.
type Statistics struct {
	Max              []byte // deprecated, signed order
	Min              []byte // deprecated, signed order
	NullCount        int64
	DistinctCount    int64
	MaxValue         []byte
	MinValue         []byte
	IsMaxValueExact  bool
	IsMinValueExact  bool
	NaNCount         int64
	HasNullCount     bool
	HasDistinctCount bool
	HasIsMaxExact    bool
	HasIsMinExact    bool
	HasNaNCount      bool
}

// DataPageHeader is the header member of a DATA_PAGE (v1) page.
type DataPageHeader struct {
	NumValues               int32
	Encoding                Encoding
	DefinitionLevelEncoding Encoding
	RepetitionLevelEncoding Encoding
	Statistics              Statistics
	HasStatistics           bool
}

// IndexPageHeader is the (empty) header member of an INDEX_PAGE page.
type IndexPageHeader struct{}

// DictionaryPageHeader is the header member of a DICTIONARY_PAGE page.
type DictionaryPageHeader struct {
	NumValues   int32
	Encoding    Encoding
	IsSorted    bool
	HasIsSorted bool
}

// DataPageHeaderV2 is the header member of a DATA_PAGE_V2 page.
type DataPageHeaderV2 struct {
	NumValues                  int32
	NumNulls                   int32
	NumRows                    int32
	Encoding                   Encoding
	DefinitionLevelsByteLength int32
	RepetitionLevelsByteLength int32
	// IsCompressed reports whether the values section is compressed; it is
	// true when the field is absent (the thrift default).
	IsCompressed    bool
	HasIsCompressed bool // the field was present in the encoding
	Statistics      Statistics
	HasStatistics   bool
}

// PageHeader is the thrift header in front of every page. Exactly the member
// matching Type should be set (its Has flag true); [DecodePageHeader] checks
// that the member for a DATA_PAGE, DATA_PAGE_V2 or DICTIONARY_PAGE is present.
type PageHeader struct {
	Type                 PageType
	UncompressedPageSize int32
	CompressedPageSize   int32
	CRC                  int32
	HasCRC               bool

	DataPageHeader          DataPageHeader
	IndexPageHeader         IndexPageHeader
	DictionaryPageHeader    DictionaryPageHeader
	DataPageHeaderV2        DataPageHeaderV2
	HasDataPageHeader       bool
	HasIndexPageHeader      bool
	HasDictionaryPageHeader bool
	HasDataPageHeaderV2     bool
}

// LogicalTypeKind is the member of the LogicalType union that is set. Its
// values are the union's thrift field ids; members this package does not know
// keep their id (Known reports false) instead of failing the decode.
type LogicalTypeKind int16

// LogicalType union members.
const (
	LogicalString    LogicalTypeKind = 1
	LogicalMap       LogicalTypeKind = 2
	LogicalList      LogicalTypeKind = 3
	LogicalEnum      LogicalTypeKind = 4
	LogicalDecimal   LogicalTypeKind = 5
	LogicalDate      LogicalTypeKind = 6
	LogicalTime      LogicalTypeKind = 7
	LogicalTimestamp LogicalTypeKind = 8
	LogicalInteger   LogicalTypeKind = 10
	LogicalUnknown   LogicalTypeKind = 11 // the thrift UNKNOWN (NullType): always null
	LogicalJSON      LogicalTypeKind = 12
	LogicalBSON      LogicalTypeKind = 13
	LogicalUUID      LogicalTypeKind = 14
	LogicalFloat16   LogicalTypeKind = 15
	LogicalVariant   LogicalTypeKind = 16
	LogicalGeometry  LogicalTypeKind = 17
	LogicalGeography LogicalTypeKind = 18
	LogicalVector    LogicalTypeKind = 19
)

var logicalNames = [...]string{1: "STRING", 2: "MAP", 3: "LIST", 4: "ENUM", 5: "DECIMAL", 6: "DATE",
	7: "TIME", 8: "TIMESTAMP", 10: "INTEGER", 11: "UNKNOWN", 12: "JSON", 13: "BSON", 14: "UUID",
	15: "FLOAT16", 16: "VARIANT", 17: "GEOMETRY", 18: "GEOGRAPHY", 19: "VECTOR"}

// Known reports whether k is a union member this package decodes.
func (k LogicalTypeKind) Known() bool {
	return k > 0 && int(k) < len(logicalNames) && logicalNames[k] != ""
}

// String returns the thrift member name of k, or LogicalType(id) for members
// this package does not know.
func (k LogicalTypeKind) String() string { return enumName(logicalNames[:], "LogicalType", k) }

// LogicalType is the LogicalType union of a schema element. Kind selects the
// member; only the fields of that member are meaningful.
type LogicalType struct {
	Kind LogicalTypeKind

	// DECIMAL
	Scale, Precision int32
	// TIME and TIMESTAMP
	IsAdjustedToUTC bool
	Unit            TimeUnit
	// INTEGER
	BitWidth int8
	IsSigned bool
	// VARIANT
	SpecificationVersion    int8
	HasSpecificationVersion bool
	// GEOMETRY and GEOGRAPHY: CRS is nil when absent (default OGC:CRS84).
	CRS *string
	// GEOGRAPHY: Algorithm is nil when absent (default SPHERICAL).
	Algorithm *EdgeInterpolationAlgorithm

	// Raw holds the encoded member struct (from its first field header to
	// its Stop byte) for members that are not Known, so that an encoder can
	// write it back unchanged. It is nil for known members.
	Raw []byte
}

// String returns a short description such as "TIMESTAMP(MICROS,utc)".
func (t *LogicalType) String() string {
	switch t.Kind {
	case LogicalDecimal:
		return "DECIMAL(" + strconv.Itoa(int(t.Precision)) + "," + strconv.Itoa(int(t.Scale)) + ")"
	case LogicalTime, LogicalTimestamp:
		utc := "local"
		if t.IsAdjustedToUTC {
			utc = "utc"
		}
		return t.Kind.String() + "(" + t.Unit.String() + "," + utc + ")"
	case LogicalInteger:
		s := "INT("
		if !t.IsSigned {
			s = "UINT("
		}
		return s + strconv.Itoa(int(t.BitWidth)) + ")"
	}
	return t.Kind.String()
}

// SchemaElement is one node of the flattened (depth-first) schema tree.
type SchemaElement struct {
	Type           *Type // nil for groups
	TypeLength     *int32
	RepetitionType *FieldRepetitionType // nil for the root
	Name           string
	NumChildren    *int32 // nil for leaves
	ConvertedType  *ConvertedType
	Scale          *int32
	Precision      *int32
	FieldID        *int32
	LogicalType    *LogicalType
	VectorLength   *int32
}

// KeyValue is one entry of key/value metadata. Value is nil when absent.
type KeyValue struct {
	Key   string
	Value *string
}

// PageEncodingStats counts the pages of a column chunk by type and encoding.
type PageEncodingStats struct {
	PageType PageType
	Encoding Encoding
	Count    int32
}

// SizeStatistics holds size estimates and level histograms of a column chunk.
type SizeStatistics struct {
	UnencodedByteArrayDataBytes *int64
	RepetitionLevelHistogram    []int64
	DefinitionLevelHistogram    []int64
}

// BoundingBox is the bounding box of GEOMETRY or GEOGRAPHY values.
type BoundingBox struct {
	XMin, XMax, YMin, YMax float64
	ZMin, ZMax, MMin, MMax *float64
}

// GeospatialStatistics holds statistics for GEOMETRY and GEOGRAPHY columns.
type GeospatialStatistics struct {
	BBox               *BoundingBox
	GeospatialTypes    []int32
	HasGeospatialTypes bool // the list was present (it may be empty: unknown)
}

// ColumnMetaData describes one column chunk.
type ColumnMetaData struct {
	Type                  Type
	Encodings             []Encoding
	PathInSchema          []string
	Codec                 CompressionCodec
	NumValues             int64
	TotalUncompressedSize int64
	TotalCompressedSize   int64
	KeyValueMetadata      []KeyValue
	DataPageOffset        int64
	IndexPageOffset       *int64
	DictionaryPageOffset  *int64
	Statistics            *Statistics
	EncodingStats         []PageEncodingStats
	BloomFilterOffset     *int64
	BloomFilterLength     *int32
	SizeStatistics        *SizeStatistics
	GeospatialStatistics  *GeospatialStatistics
}

// ColumnCryptoKind is the member of the ColumnCryptoMetaData union.
type ColumnCryptoKind int16

// ColumnCryptoMetaData union members.
const (
	EncryptionWithFooterKey ColumnCryptoKind = 1
	EncryptionWithColumnKey ColumnCryptoKind = 2
)

// ColumnCryptoMetaData says how an encrypted column chunk is encrypted.
// PathInSchema and KeyMetadata belong to EncryptionWithColumnKey.
type ColumnCryptoMetaData struct {
	Kind         ColumnCryptoKind
	PathInSchema []string
	KeyMetadata  []byte
}

// ColumnChunk locates one column chunk of a row group.
type ColumnChunk struct {
	FilePath *string
	// FileOffset is required by parquet.thrift with default 0; some writers
	// omit it, so a missing FileOffset decodes as 0.
	FileOffset              int64
	MetaData                *ColumnMetaData
	OffsetIndexOffset       *int64
	OffsetIndexLength       *int32
	ColumnIndexOffset       *int64
	ColumnIndexLength       *int32
	CryptoMetadata          *ColumnCryptoMetaData
	EncryptedColumnMetadata []byte
}

// Encrypted reports whether the column chunk is encrypted (it carries crypto
// metadata or encrypted column metadata). Its pages, page headers included,
// cannot be read without keys.
func (c *ColumnChunk) Encrypted() bool {
	return c.CryptoMetadata != nil || c.EncryptedColumnMetadata != nil
}

// SortingColumn is one column of a row group's sort order.
type SortingColumn struct {
	ColumnIdx  int32
	Descending bool
	NullsFirst bool
}

// RowGroup is one row group of the file.
type RowGroup struct {
	Columns             []ColumnChunk
	TotalByteSize       int64
	NumRows             int64
	SortingColumns      []SortingColumn
	FileOffset          *int64
	TotalCompressedSize *int64
	Ordinal             *int16
}

// ColumnOrderKind is the member of the ColumnOrder union; unknown members
// keep their field id.
type ColumnOrderKind int16

// ColumnOrder union members.
const (
	TypeDefinedOrder    ColumnOrderKind = 1
	IEEE754TotalOrder   ColumnOrderKind = 2
	Int96TimestampOrder ColumnOrderKind = 3
)

var columnOrderNames = [...]string{TypeDefinedOrder: "TYPE_ORDER", IEEE754TotalOrder: "IEEE_754_TOTAL_ORDER",
	Int96TimestampOrder: "INT96_TIMESTAMP_ORDER"}

// String returns the thrift member name of k.
func (k ColumnOrderKind) String() string { return enumName(columnOrderNames[:], "ColumnOrder", k) }

// ColumnOrder is the sort order used for a leaf column's statistics.
type ColumnOrder struct {
	Kind ColumnOrderKind
}

// EncryptionAlgorithmKind is the member of the EncryptionAlgorithm union.
type EncryptionAlgorithmKind int16

// EncryptionAlgorithm union members.
const (
	AesGcmV1    EncryptionAlgorithmKind = 1
	AesGcmCtrV1 EncryptionAlgorithmKind = 2
)

// EncryptionAlgorithm is the encryption algorithm of a file with a
// plaintext footer. Both union members have the same fields.
type EncryptionAlgorithm struct {
	Kind            EncryptionAlgorithmKind
	AadPrefix       []byte
	AadFileUnique   []byte
	SupplyAadPrefix *bool
}

// HasEncryptedColumns reports whether any column chunk of m is encrypted
// (see [ColumnChunk.Encrypted]); such a file has a plaintext footer and
// EncryptionAlgorithm set.
func (m *FileMetaData) HasEncryptedColumns() bool {
	for i := range m.RowGroups {
		for j := range m.RowGroups[i].Columns {
			if m.RowGroups[i].Columns[j].Encrypted() {
				return true
			}
		}
	}
	return false
}

// FileMetaData is the file footer.
type FileMetaData struct {
	Version                  int32
	Schema                   []SchemaElement
	NumRows                  int64
	RowGroups                []RowGroup
	KeyValueMetadata         []KeyValue
	CreatedBy                *string
	ColumnOrders             []ColumnOrder
	EncryptionAlgorithm      *EncryptionAlgorithm // set only in encrypted files with a plaintext footer
	FooterSigningKeyMetadata []byte
}
