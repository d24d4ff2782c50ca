package format

import "strconv"

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

// String returns the parquet.thrift name of v, or Type(n) for unknown values.
func (v Type) String() string {
	switch v {
	case Boolean:
		return "BOOLEAN"
	case Int32:
		return "INT32"
	case Int64:
		return "INT64"
	case Int96:
		return "INT96"
	case Float:
		return "FLOAT"
	case Double:
		return "DOUBLE"
	case ByteArray:
		return "BYTE_ARRAY"
	case FixedLenByteArray:
		return "FIXED_LEN_BYTE_ARRAY"
	}
	return "Type(" + strconv.Itoa(int(v)) + ")"
}

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

// String returns the parquet.thrift name of v, or ConvertedType(n) for unknown values.
func (v ConvertedType) String() string {
	switch v {
	case ConvertedUTF8:
		return "UTF8"
	case ConvertedMap:
		return "MAP"
	case ConvertedMapKeyValue:
		return "MAP_KEY_VALUE"
	case ConvertedList:
		return "LIST"
	case ConvertedEnum:
		return "ENUM"
	case ConvertedDecimal:
		return "DECIMAL"
	case ConvertedDate:
		return "DATE"
	case ConvertedTimeMillis:
		return "TIME_MILLIS"
	case ConvertedTimeMicros:
		return "TIME_MICROS"
	case ConvertedTimestampMillis:
		return "TIMESTAMP_MILLIS"
	case ConvertedTimestampMicros:
		return "TIMESTAMP_MICROS"
	case ConvertedUint8:
		return "UINT_8"
	case ConvertedUint16:
		return "UINT_16"
	case ConvertedUint32:
		return "UINT_32"
	case ConvertedUint64:
		return "UINT_64"
	case ConvertedInt8:
		return "INT_8"
	case ConvertedInt16:
		return "INT_16"
	case ConvertedInt32:
		return "INT_32"
	case ConvertedInt64:
		return "INT_64"
	case ConvertedJSON:
		return "JSON"
	case ConvertedBSON:
		return "BSON"
	case ConvertedInterval:
		return "INTERVAL"
	}
	return "ConvertedType(" + strconv.Itoa(int(v)) + ")"
}

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

// String returns the parquet.thrift name of v, or FieldRepetitionType(n) for unknown values.
func (v FieldRepetitionType) String() string {
	switch v {
	case Required:
		return "REQUIRED"
	case Optional:
		return "OPTIONAL"
	case Repeated:
		return "REPEATED"
	case Vector:
		return "VECTOR"
	}
	return "FieldRepetitionType(" + strconv.Itoa(int(v)) + ")"
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

// String returns the parquet.thrift name of v, or Encoding(n) for unknown values.
func (v Encoding) String() string {
	switch v {
	case Plain:
		return "PLAIN"
	case PlainDictionary:
		return "PLAIN_DICTIONARY"
	case RLE:
		return "RLE"
	case BitPacked:
		return "BIT_PACKED"
	case DeltaBinaryPacked:
		return "DELTA_BINARY_PACKED"
	case DeltaLengthByteArray:
		return "DELTA_LENGTH_BYTE_ARRAY"
	case DeltaByteArray:
		return "DELTA_BYTE_ARRAY"
	case RLEDictionary:
		return "RLE_DICTIONARY"
	case ByteStreamSplit:
		return "BYTE_STREAM_SPLIT"
	}
	return "Encoding(" + strconv.Itoa(int(v)) + ")"
}

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

// String returns the parquet.thrift name of v, or CompressionCodec(n) for unknown values.
func (v CompressionCodec) String() string {
	switch v {
	case Uncompressed:
		return "UNCOMPRESSED"
	case Snappy:
		return "SNAPPY"
	case Gzip:
		return "GZIP"
	case LZO:
		return "LZO"
	case Brotli:
		return "BROTLI"
	case LZ4:
		return "LZ4"
	case Zstd:
		return "ZSTD"
	case LZ4Raw:
		return "LZ4_RAW"
	}
	return "CompressionCodec(" + strconv.Itoa(int(v)) + ")"
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

// String returns the parquet.thrift name of v, or PageType(n) for unknown values.
func (v PageType) String() string {
	switch v {
	case DataPage:
		return "DATA_PAGE"
	case IndexPage:
		return "INDEX_PAGE"
	case DictionaryPage:
		return "DICTIONARY_PAGE"
	case DataPageV2:
		return "DATA_PAGE_V2"
	}
	return "PageType(" + strconv.Itoa(int(v)) + ")"
}

// BoundaryOrder says whether the min/max lists of a column index are ordered.
// Values outside the known range are kept as read; String reports them numerically.
type BoundaryOrder int32

// BoundaryOrder values.
const (
	Unordered  BoundaryOrder = 0
	Ascending  BoundaryOrder = 1
	Descending BoundaryOrder = 2
)

// String returns the parquet.thrift name of v, or BoundaryOrder(n) for unknown values.
func (v BoundaryOrder) String() string {
	switch v {
	case Unordered:
		return "UNORDERED"
	case Ascending:
		return "ASCENDING"
	case Descending:
		return "DESCENDING"
	}
	return "BoundaryOrder(" + strconv.Itoa(int(v)) + ")"
}

// TimeUnit is the unit of a TIME or TIMESTAMP logical type; its values are the member ids of the TimeUnit union.
// Values outside the known range are kept as read; String reports them numerically.
type TimeUnit int32

// TimeUnit values.
const (
	Millis TimeUnit = 1
	Micros TimeUnit = 2
	Nanos  TimeUnit = 3
)

// String returns the parquet.thrift name of v, or TimeUnit(n) for unknown values.
func (v TimeUnit) String() string {
	switch v {
	case Millis:
		return "MILLIS"
	case Micros:
		return "MICROS"
	case Nanos:
		return "NANOS"
	}
	return "TimeUnit(" + strconv.Itoa(int(v)) + ")"
}

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

// String returns the parquet.thrift name of v, or EdgeInterpolationAlgorithm(n) for unknown values.
func (v EdgeInterpolationAlgorithm) String() string {
	switch v {
	case Spherical:
		return "SPHERICAL"
	case Vincenty:
		return "VINCENTY"
	case Thomas:
		return "THOMAS"
	case Andoyer:
		return "ANDOYER"
	case Karney:
		return "KARNEY"
	}
	return "EdgeInterpolationAlgorithm(" + strconv.Itoa(int(v)) + ")"
}
