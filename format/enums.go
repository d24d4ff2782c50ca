package format

import "strconv"

// enumName returns names[v], the parquet.thrift name of v, or kind(v) for a
// value without a name: the String method of every enum of this package.
func enumName[T ~int16 | ~int32](names []string, kind string, v T) string {
	if v >= 0 && int(v) < len(names) && names[v] != "" {
		return names[v]
	}
	return kind + "(" + strconv.Itoa(int(v)) + ")"
}

// Type is the physical type of a leaf column (parquet.thrift Type).
// Values outside the known range are kept as read; String reports them numerically.
type Type int32

// Type values.
const (
	Boolean           Type = 0
	Int32             Type = 1
	Int64             Type = 2
	Int96             Type = 3
	Float             Type = 4
	Double            Type = 5
	ByteArray         Type = 6
	FixedLenByteArray Type = 7
)

var typeNames = [...]string{Boolean: "BOOLEAN", Int32: "INT32", Int64: "INT64", Int96: "INT96", Float: "FLOAT",
	Double: "DOUBLE", ByteArray: "BYTE_ARRAY", FixedLenByteArray: "FIXED_LEN_BYTE_ARRAY"}

// String returns the parquet.thrift name of v, or Type(n) for unknown values.
func (v Type) String() string { return enumName(typeNames[:], "Type", v) }

// ConvertedType is the deprecated logical annotation of a schema element, superseded by [LogicalType].
// Values outside the known range are kept as read; String reports them numerically.
type ConvertedType int32

// ConvertedType values.
const (
	ConvertedUTF8            ConvertedType = 0
	ConvertedMap             ConvertedType = 1
	ConvertedMapKeyValue     ConvertedType = 2
	ConvertedList            ConvertedType = 3
	ConvertedEnum            ConvertedType = 4
	ConvertedDecimal         ConvertedType = 5
	ConvertedDate            ConvertedType = 6
	ConvertedTimeMillis      ConvertedType = 7
	ConvertedTimeMicros      ConvertedType = 8
	ConvertedTimestampMillis ConvertedType = 9
	ConvertedTimestampMicros ConvertedType = 10
	ConvertedUint8           ConvertedType = 11
	ConvertedUint16          ConvertedType = 12
	ConvertedUint32          ConvertedType = 13
	ConvertedUint64          ConvertedType = 14
	ConvertedInt8            ConvertedType = 15
	ConvertedInt16           ConvertedType = 16
	ConvertedInt32           ConvertedType = 17
	ConvertedInt64           ConvertedType = 18
	ConvertedJSON            ConvertedType = 19
	ConvertedBSON            ConvertedType = 20
	ConvertedInterval        ConvertedType = 21
)

var convertedTypeNames = [...]string{ConvertedUTF8: "UTF8", ConvertedMap: "MAP",
	ConvertedMapKeyValue: "MAP_KEY_VALUE", ConvertedList: "LIST", ConvertedEnum: "ENUM",
	ConvertedDecimal: "DECIMAL", ConvertedDate: "DATE", ConvertedTimeMillis: "TIME_MILLIS",
	ConvertedTimeMicros: "TIME_MICROS", ConvertedTimestampMillis: "TIMESTAMP_MILLIS",
	ConvertedTimestampMicros: "TIMESTAMP_MICROS", ConvertedUint8: "UINT_8", ConvertedUint16: "UINT_16",
	ConvertedUint32: "UINT_32", ConvertedUint64: "UINT_64", ConvertedInt8: "INT_8", ConvertedInt16: "INT_16",
	ConvertedInt32: "INT_32", ConvertedInt64: "INT_64", ConvertedJSON: "JSON", ConvertedBSON: "BSON",
	ConvertedInterval: "INTERVAL"}

// String returns the parquet.thrift name of v, or ConvertedType(n) for unknown values.
func (v ConvertedType) String() string { return enumName(convertedTypeNames[:], "ConvertedType", v) }

// FieldRepetitionType says how often a schema field occurs in its parent.
// Values outside the known range are kept as read; String reports them numerically.
type FieldRepetitionType int32

// FieldRepetitionType values.
const (
	Required FieldRepetitionType = 0
	Optional FieldRepetitionType = 1
	Repeated FieldRepetitionType = 2
	Vector   FieldRepetitionType = 3
)

var fieldRepetitionTypeNames = [...]string{Required: "REQUIRED", Optional: "OPTIONAL", Repeated: "REPEATED",
	Vector: "VECTOR"}

// String returns the parquet.thrift name of v, or FieldRepetitionType(n) for unknown values.
func (v FieldRepetitionType) String() string {
	return enumName(fieldRepetitionTypeNames[:], "FieldRepetitionType", v)
}

// Encoding identifies how values or levels of a page are encoded.
// Values outside the known range are kept as read; String reports them numerically.
type Encoding int32

// Encoding values.
const (
	Plain                Encoding = 0
	PlainDictionary      Encoding = 2
	RLE                  Encoding = 3
	BitPacked            Encoding = 4
	DeltaBinaryPacked    Encoding = 5
	DeltaLengthByteArray Encoding = 6
	DeltaByteArray       Encoding = 7
	RLEDictionary        Encoding = 8
	ByteStreamSplit      Encoding = 9
)

var encodingNames = [...]string{Plain: "PLAIN", PlainDictionary: "PLAIN_DICTIONARY", RLE: "RLE",
	BitPacked: "BIT_PACKED", DeltaBinaryPacked: "DELTA_BINARY_PACKED",
	DeltaLengthByteArray: "DELTA_LENGTH_BYTE_ARRAY", DeltaByteArray: "DELTA_BYTE_ARRAY",
	RLEDictionary: "RLE_DICTIONARY", ByteStreamSplit: "BYTE_STREAM_SPLIT"}

// String returns the parquet.thrift name of v, or Encoding(n) for unknown values.
func (v Encoding) String() string { return enumName(encodingNames[:], "Encoding", v) }

// CompressionCodec identifies the compression of a column chunk's pages.
// Values outside the known range are kept as read; String reports them numerically.
type CompressionCodec int32

// CompressionCodec values.
const (
	Uncompressed CompressionCodec = 0
	Snappy       CompressionCodec = 1
	Gzip         CompressionCodec = 2
	LZO          CompressionCodec = 3
	Brotli       CompressionCodec = 4
	LZ4          CompressionCodec = 5
	Zstd         CompressionCodec = 6
	LZ4Raw       CompressionCodec = 7
)

var compressionCodecNames = [...]string{Uncompressed: "UNCOMPRESSED", Snappy: "SNAPPY", Gzip: "GZIP",
	LZO: "LZO", Brotli: "BROTLI", LZ4: "LZ4", Zstd: "ZSTD", LZ4Raw: "LZ4_RAW"}

// String returns the parquet.thrift name of v, or CompressionCodec(n) for unknown values.
func (v CompressionCodec) String() string {
	return enumName(compressionCodecNames[:], "CompressionCodec", v)
}

// PageType is the kind of a page, which selects the page header member that is set.
// Values outside the known range are kept as read; String reports them numerically.
type PageType int32

// PageType values.
const (
	DataPage       PageType = 0
	IndexPage      PageType = 1
	DictionaryPage PageType = 2
	DataPageV2     PageType = 3
)

var pageTypeNames = [...]string{DataPage: "DATA_PAGE", IndexPage: "INDEX_PAGE",
	DictionaryPage: "DICTIONARY_PAGE", DataPageV2: "DATA_PAGE_V2"}

// String returns the parquet.thrift name of v, or PageType(n) for unknown values.
func (v PageType) String() string { return enumName(pageTypeNames[:], "PageType", v) }

// BoundaryOrder says whether the min/max lists of a column index are ordered.
// Values outside the known range are kept as read; String reports them numerically.
type BoundaryOrder int32

// BoundaryOrder values.
const (
	Unordered  BoundaryOrder = 0
	Ascending  BoundaryOrder = 1
	Descending BoundaryOrder = 2
)

var boundaryOrderNames = [...]string{Unordered: "UNORDERED", Ascending: "ASCENDING", Descending: "DESCENDING"}

// String returns the parquet.thrift name of v, or BoundaryOrder(n) for unknown values.
func (v BoundaryOrder) String() string { return enumName(boundaryOrderNames[:], "BoundaryOrder", v) }

// TimeUnit is the unit of a TIME or TIMESTAMP logical type; its values are the member ids of the TimeUnit union.
// Values outside the known range are kept as read; String reports them numerically.
type TimeUnit int32

// TimeUnit values.
const (
	Millis TimeUnit = 1
	Micros TimeUnit = 2
	Nanos  TimeUnit = 3
)

var timeUnitNames = [...]string{Millis: "MILLIS", Micros: "MICROS", Nanos: "NANOS"}

// String returns the parquet.thrift name of v, or TimeUnit(n) for unknown values.
func (v TimeUnit) String() string { return enumName(timeUnitNames[:], "TimeUnit", v) }

// EdgeInterpolationAlgorithm says how edges of a GEOGRAPHY value are interpolated.
// Values outside the known range are kept as read; String reports them numerically.
type EdgeInterpolationAlgorithm int32

// EdgeInterpolationAlgorithm values.
const (
	Spherical EdgeInterpolationAlgorithm = 0
	Vincenty  EdgeInterpolationAlgorithm = 1
	Thomas    EdgeInterpolationAlgorithm = 2
	Andoyer   EdgeInterpolationAlgorithm = 3
	Karney    EdgeInterpolationAlgorithm = 4
)

var edgeInterpolationAlgorithmNames = [...]string{Spherical: "SPHERICAL", Vincenty: "VINCENTY",
	Thomas: "THOMAS", Andoyer: "ANDOYER", Karney: "KARNEY"}

// String returns the parquet.thrift name of v, or EdgeInterpolationAlgorithm(n) for unknown values.
func (v EdgeInterpolationAlgorithm) String() string {
	return enumName(edgeInterpolationAlgorithmNames[:], "EdgeInterpolationAlgorithm", v)
}
