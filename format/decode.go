package format

import (
	"bytes"
	"errors"
	"fmt"
	"unsafe"

	"github.com/pqcodec/pqcodec/internal/errs"
	"github.com/pqcodec/pqcodec/internal/thrift"
)

// ErrCorrupt is wrapped by every error for malformed metadata: thrift
// encoding errors, missing required fields, sizes out of bounds.
var ErrCorrupt = errs.Corrupt("format: corrupt metadata")

// maxPrealloc caps how many list elements are allocated before they are
// decoded; longer lists grow by append, so memory follows the valid input.
const maxPrealloc = 1024

// decoder decodes parquet.thrift structs. With copyBytes set, binary values
// are copied out of the input; otherwise they alias it.
type decoder struct {
	r         thrift.Reader
	copyBytes bool
	// exact makes list allocate each list whole, once, from its header's
	// count (which ReadListHeader checks against the bytes left), counting
	// it against limit when limit is positive: the page index decoders,
	// whose lists have millions of entries (growing them by append held
	// about twice the final list, and copied it ~20 times).
	exact bool
	limit int64 // bytes the lists may take; 0: no bound (exact only)
	used  int64 // bytes held so far: the input, then the lists
}

// ErrIndexTooLarge is wrapped by the error of a page index whose decoded
// form would take more than the limit given to [ReadColumnIndexLimit] or
// [ReadOffsetIndexLimit]; it is checked before allocating. It does not
// match ErrCorrupt.
var ErrIndexTooLarge = errors.New("format: page index above the memory limit")

// reserve counts n elements of size bytes against d's limit.
func (d *decoder) reserve(n int, size uintptr) error {
	need := int64(n) * int64(size)
	if d.limit > 0 && d.used+need > d.limit {
		return fmt.Errorf("%w: a list of %d entries needs %d bytes, with %d held (the index's bytes and its lists so far); the limit is %d",
			ErrIndexTooLarge, n, need, d.used, d.limit)
	}
	d.used += need
	return nil
}

func missing(structName, field string) error {
	return fmt.Errorf("%s: missing required field %s", structName, field)
}

// requiredFields names the required fields of a struct by field id; every
// decoder checks them the same way: it sets bit id of a seen mask for each
// field it reads and calls check once the struct ends.
type requiredFields struct {
	structName string
	names      []string // by field id; "" for optional fields
	mask       uint32   // bit id set for every required field
}

func required(structName string, names []string) requiredFields {
	r := requiredFields{structName: structName, names: names}
	for id, name := range names {
		if name != "" {
			r.mask |= 1 << id
		}
	}
	return r
}

// check returns an error naming the first required field missing from seen.
// It is small enough to inline; the error path is not.
func (r *requiredFields) check(seen uint32) error {
	if seen&r.mask == r.mask {
		return nil
	}
	return r.missing(seen)
}

// missing names the first required field missing from seen, or returns nil.
// The page-header decoders call it directly after comparing seen with a
// constant mask (TestRequiredMasks checks each constant against its
// table): the mask as an immediate saves the load check does, on the path
// every page takes.
func (r *requiredFields) missing(seen uint32) error {
	for id, name := range r.names {
		if name != "" && seen&(1<<id) == 0 {
			return missing(r.structName, name)
		}
	}
	return nil
}

// Required-field masks of the page-header structs; see missing.
const (
	dataPageHeaderMask       = 1<<1 | 1<<2 | 1<<3 | 1<<4
	dictionaryPageHeaderMask = 1<<1 | 1<<2
	dataPageHeaderV2Mask     = 1<<1 | 1<<2 | 1<<3 | 1<<4 | 1<<5 | 1<<6
	pageHeaderMask           = 1<<1 | 1<<2 | 1<<3
)

var (
	dataPageHeaderFields = required("DataPageHeader", []string{1: "num_values", 2: "encoding",
		3: "definition_level_encoding", 4: "repetition_level_encoding"})
	dictionaryPageHeaderFields = required("DictionaryPageHeader", []string{1: "num_values", 2: "encoding"})
	dataPageHeaderV2Fields     = required("DataPageHeaderV2", []string{1: "num_values", 2: "num_nulls", 3: "num_rows",
		4: "encoding", 5: "definition_levels_byte_length", 6: "repetition_levels_byte_length"})
	pageHeaderFields = required("PageHeader", []string{1: "type", 2: "uncompressed_page_size",
		3: "compressed_page_size"})
	keyValueFields          = required("KeyValue", []string{1: "key"})
	decimalTypeFields       = required("DecimalType", []string{1: "scale", 2: "precision"})
	intTypeFields           = required("IntType", []string{1: "bitWidth", 2: "isSigned"})
	schemaElementFields     = required("SchemaElement", []string{4: "name"})
	pageEncodingStatsFields = required("PageEncodingStats", []string{1: "page_type", 2: "encoding",
		3: "count"})
	boundingBoxFields    = required("BoundingBox", []string{1: "xmin", 2: "xmax", 3: "ymin", 4: "ymax"})
	columnMetaDataFields = required("ColumnMetaData", []string{1: "type", 2: "encodings", 3: "path_in_schema",
		4: "codec", 5: "num_values", 6: "total_uncompressed_size", 7: "total_compressed_size",
		9: "data_page_offset"})
	encryptionWithColumnKeyFields = required("EncryptionWithColumnKey", []string{1: "path_in_schema"})
	sortingColumnFields           = required("SortingColumn", []string{1: "column_idx", 2: "descending",
		3: "nulls_first"})
	rowGroupFields     = required("RowGroup", []string{1: "columns", 2: "total_byte_size", 3: "num_rows"})
	fileMetaDataFields = required("FileMetaData", []string{1: "version", 2: "schema", 3: "num_rows",
		4: "row_groups"})
)

func (d *decoder) binary() ([]byte, error) {
	b, err := d.r.ReadBinary()
	if err != nil || !d.copyBytes {
		return b, err
	}
	return bytes.Clone(b), nil
}

func (d *decoder) optString() (*string, error) {
	s, err := d.r.ReadString()
	if err != nil {
		return nil, err
	}
	return &s, nil
}

func (d *decoder) optI32() (*int32, error) {
	v, err := d.r.ReadI32()
	if err != nil {
		return nil, err
	}
	return &v, nil
}

func (d *decoder) optI64() (*int64, error) {
	v, err := d.r.ReadI64()
	if err != nil {
		return nil, err
	}
	return &v, nil
}

func (d *decoder) optDouble() (*float64, error) {
	v, err := d.r.ReadDouble()
	if err != nil {
		return nil, err
	}
	return &v, nil
}

// isVarint reports whether t is encoded as a zigzag varint. Lists of such
// elements are accepted for one another (values are range-checked when
// read), as the generated Java and C++ readers do: ARROW-GH-41317.parquet in
// parquet-testing's bad_data declares a list<i32> as list<i16>.
func isVarint(t thrift.Type) bool {
	return t == thrift.I16 || t == thrift.I32 || t == thrift.I64
}

// list reads a list header whose elements must have type want and calls
// elem for each element, appending to a slice that grows with the input.
func list[T any](d *decoder, want thrift.Type, elem func(*T) error) ([]T, error) {
	et, n, err := d.r.ReadListHeader()
	if err != nil {
		return nil, err
	}
	if et != want && n > 0 && !(isVarint(et) && isVarint(want)) {
		return nil, fmt.Errorf("%w: list of %s, want %s", thrift.ErrCorrupt, et, want)
	}
	var out []T
	if d.exact {
		if err := d.reserve(n, unsafe.Sizeof(*new(T))); err != nil {
			return nil, err
		}
		out = make([]T, 0, n)
	} else {
		out = make([]T, 0, min(n, maxPrealloc))
	}
	for i := 0; i < n; i++ {
		out = append(out, *new(T))
		if err := elem(&out[i]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (d *decoder) i32List() ([]int32, error) {
	return list(d, thrift.I32, func(v *int32) (err error) { *v, err = d.r.ReadI32(); return })
}

func (d *decoder) i64List() ([]int64, error) {
	return list(d, thrift.I64, func(v *int64) (err error) { *v, err = d.r.ReadI64(); return })
}

func (d *decoder) stringList() ([]string, error) {
	return list(d, thrift.Binary, func(v *string) (err error) { *v, err = d.r.ReadString(); return })
}

func (d *decoder) encodingList() ([]Encoding, error) {
	return list(d, thrift.I32, func(v *Encoding) error {
		x, err := d.r.ReadI32()
		*v = Encoding(x)
		return err
	})
}

// emptyStruct reads a struct whose fields are all ignored (the empty marker
// structs of unions, such as StringType).
func (d *decoder) emptyStruct() error {
	return d.r.Skip(thrift.Struct)
}

// statistics decodes a Statistics struct into s, overwriting it.
func (d *decoder) statistics(s *Statistics) error {
	*s = Statistics{}
	var err error
	for t, id := range d.fieldsOf(&err) {
		switch {
		case id == 1 && t == thrift.Binary:
			s.Max, err = d.binary()
		case id == 2 && t == thrift.Binary:
			s.Min, err = d.binary()
		case id == 3 && t == thrift.I64:
			s.NullCount, err = d.r.ReadI64()
			s.HasNullCount = true
		case id == 4 && t == thrift.I64:
			s.DistinctCount, err = d.r.ReadI64()
			s.HasDistinctCount = true
		case id == 5 && t == thrift.Binary:
			s.MaxValue, err = d.binary()
		case id == 6 && t == thrift.Binary:
			s.MinValue, err = d.binary()
		case id == 7 && t == thrift.Bool:
			s.IsMaxValueExact, err = d.r.ReadBool()
			s.HasIsMaxExact = true
		case id == 8 && t == thrift.Bool:
			s.IsMinValueExact, err = d.r.ReadBool()
			s.HasIsMinExact = true
		case id == 9 && t == thrift.I64:
			s.NaNCount, err = d.r.ReadI64()
			s.HasNaNCount = true
		default:
			err = d.r.Skip(t)
		}
	}
	return err
}

func (d *decoder) dataPageHeader(h *DataPageHeader) error {
	*h = DataPageHeader{}
	var seen uint32
	var err error
	for t, id := range d.fieldsOf(&err) {
		var v int32
		switch {
		case id >= 1 && id <= 4 && t == thrift.I32:
			v, err = d.r.ReadI32()
			seen |= 1 << id
			switch id {
			case 1:
				h.NumValues = v
			case 2:
				h.Encoding = Encoding(v)
			case 3:
				h.DefinitionLevelEncoding = Encoding(v)
			case 4:
				h.RepetitionLevelEncoding = Encoding(v)
			}
		case id == 5 && t == thrift.Struct:
			err = d.statistics(&h.Statistics)
			h.HasStatistics = true
		default:
			err = d.r.Skip(t)
		}
	}
	if err != nil {
		return err
	}
	if seen&dataPageHeaderMask != dataPageHeaderMask {
		return dataPageHeaderFields.missing(seen)
	}
	return nil
}

func (d *decoder) dictionaryPageHeader(h *DictionaryPageHeader) error {
	*h = DictionaryPageHeader{}
	var seen uint32
	var err error
	for t, id := range d.fieldsOf(&err) {
		var v int32
		switch {
		case id == 1 && t == thrift.I32:
			v, err = d.r.ReadI32()
			h.NumValues = v
			seen |= 1 << id
		case id == 2 && t == thrift.I32:
			v, err = d.r.ReadI32()
			h.Encoding = Encoding(v)
			seen |= 1 << id
		case id == 3 && t == thrift.Bool:
			h.IsSorted, err = d.r.ReadBool()
			h.HasIsSorted = true
		default:
			err = d.r.Skip(t)
		}
	}
	if err != nil {
		return err
	}
	if seen&dictionaryPageHeaderMask != dictionaryPageHeaderMask {
		return dictionaryPageHeaderFields.missing(seen)
	}
	return nil
}

func (d *decoder) dataPageHeaderV2(h *DataPageHeaderV2) error {
	*h = DataPageHeaderV2{IsCompressed: true}
	var seen uint32
	var err error
	for t, id := range d.fieldsOf(&err) {
		var v int32
		switch {
		case id >= 1 && id <= 6 && t == thrift.I32:
			v, err = d.r.ReadI32()
			seen |= 1 << id
			switch id {
			case 1:
				h.NumValues = v
			case 2:
				h.NumNulls = v
			case 3:
				h.NumRows = v
			case 4:
				h.Encoding = Encoding(v)
			case 5:
				h.DefinitionLevelsByteLength = v
			case 6:
				h.RepetitionLevelsByteLength = v
			}
		case id == 7 && t == thrift.Bool:
			h.IsCompressed, err = d.r.ReadBool()
			h.HasIsCompressed = true
		case id == 8 && t == thrift.Struct:
			err = d.statistics(&h.Statistics)
			h.HasStatistics = true
		default:
			err = d.r.Skip(t)
		}
	}
	if err != nil {
		return err
	}
	if seen&dataPageHeaderV2Mask != dataPageHeaderV2Mask {
		return dataPageHeaderV2Fields.missing(seen)
	}
	return nil
}

func (d *decoder) pageHeader(h *PageHeader) error {
	// Reset field by field rather than with a composite literal: PageHeader
	// is large and this keeps the reset cheap.
	h.Type, h.UncompressedPageSize, h.CompressedPageSize, h.CRC, h.HasCRC = 0, 0, 0, 0, false
	h.HasDataPageHeader, h.HasIndexPageHeader, h.HasDictionaryPageHeader, h.HasDataPageHeaderV2 = false, false, false, false
	var seen uint32
	var err error
	for t, id := range d.fieldsOf(&err) {
		var v int32
		switch {
		case id >= 1 && id <= 4 && t == thrift.I32:
			v, err = d.r.ReadI32()
			switch id {
			case 1:
				h.Type = PageType(v)
			case 2:
				h.UncompressedPageSize = v
			case 3:
				h.CompressedPageSize = v
			case 4:
				h.CRC, h.HasCRC = v, true
			}
			seen |= 1 << id
		case id == 5 && t == thrift.Struct:
			err = d.dataPageHeader(&h.DataPageHeader)
			h.HasDataPageHeader = true
		case id == 6 && t == thrift.Struct:
			err = d.emptyStruct()
			h.HasIndexPageHeader = true
		case id == 7 && t == thrift.Struct:
			err = d.dictionaryPageHeader(&h.DictionaryPageHeader)
			h.HasDictionaryPageHeader = true
		case id == 8 && t == thrift.Struct:
			err = d.dataPageHeaderV2(&h.DataPageHeaderV2)
			h.HasDataPageHeaderV2 = true
		default:
			err = d.r.Skip(t)
		}
	}
	if err != nil {
		return err
	}
	switch {
	case seen&pageHeaderMask != pageHeaderMask:
		return pageHeaderFields.missing(seen)
	case h.CompressedPageSize < 0 || h.UncompressedPageSize < 0:
		return errors.New("PageHeader: negative page size")
	case h.HasDataPageHeader && h.DataPageHeader.NumValues < 0,
		h.HasDictionaryPageHeader && h.DictionaryPageHeader.NumValues < 0:
		return errors.New("PageHeader: negative num_values")
	case h.HasDataPageHeaderV2 && (h.DataPageHeaderV2.NumValues < 0 || h.DataPageHeaderV2.NumNulls < 0 ||
		h.DataPageHeaderV2.NumRows < 0 || h.DataPageHeaderV2.DefinitionLevelsByteLength < 0 ||
		h.DataPageHeaderV2.RepetitionLevelsByteLength < 0):
		return errors.New("PageHeader: negative count or level length in data_page_header_v2")
	case h.Type == DataPage && !h.HasDataPageHeader:
		return missing("PageHeader", "data_page_header for DATA_PAGE")
	case h.Type == DataPageV2 && !h.HasDataPageHeaderV2:
		return missing("PageHeader", "data_page_header_v2 for DATA_PAGE_V2")
	case h.Type == DictionaryPage && !h.HasDictionaryPageHeader:
		return missing("PageHeader", "dictionary_page_header for DICTIONARY_PAGE")
	}
	return nil
}

// DecodePageHeader decodes the thrift PageHeader at the start of b into h and
// returns the number of bytes it occupies; the page body follows.
//
// h is overwritten; only the page-type member reported by the Has flags is
// meaningful. Statistics binary values in h alias b, so b must outlive their
// use. DecodePageHeader does not allocate on success. Unknown fields are
// skipped; a missing required field, a negative page size, value, null or
// row count or level length, or a DATA_PAGE,
// DATA_PAGE_V2 or DICTIONARY_PAGE header without its member is an error
// wrapping [ErrCorrupt]. It is safe for concurrent use with distinct h.
func DecodePageHeader(b []byte, h *PageHeader) (n int, err error) {
	var d decoder
	d.r.Reset(b)
	if err := d.pageHeader(h); err != nil {
		return 0, fmt.Errorf("%w: page header: %w", ErrCorrupt, err)
	}
	return d.r.Offset(), nil
}

func (d *decoder) keyValue(kv *KeyValue) error {
	var seen uint32
	var err error
	for t, id := range d.fieldsOf(&err) {
		switch {
		case id == 1 && t == thrift.Binary:
			kv.Key, err = d.r.ReadString()
			seen |= 1 << id
		case id == 2 && t == thrift.Binary:
			kv.Value, err = d.optString()
		default:
			err = d.r.Skip(t)
		}
	}
	if err != nil {
		return err
	}
	return keyValueFields.check(seen)
}

func (d *decoder) keyValueList() ([]KeyValue, error) {
	return list(d, thrift.Struct, d.keyValue)
}

func (d *decoder) timeUnit(u *TimeUnit) error {
	var err error
	for t, id := range d.fieldsOf(&err) {
		if t != thrift.Struct {
			err = d.r.Skip(t)
			continue
		}
		*u = TimeUnit(id)
		err = d.emptyStruct()
	}
	return err
}

// timeType decodes TimeType and TimestampType, which have the same fields.
func (d *decoder) timeType(lt *LogicalType) error {
	var seen uint32
	var err error
	for t, id := range d.fieldsOf(&err) {
		switch {
		case id == 1 && t == thrift.Bool:
			lt.IsAdjustedToUTC, err = d.r.ReadBool()
		case id == 2 && t == thrift.Struct:
			err = d.timeUnit(&lt.Unit)
		default:
			err = d.r.Skip(t)
			continue
		}
		seen |= 1 << id
	}
	if err != nil {
		return err
	}
	fields := timeTypeFields
	if lt.Kind == LogicalTimestamp {
		fields = timestampTypeFields
	}
	return fields.check(seen)
}

var (
	timeTypeFields      = required("TimeType", []string{1: "isAdjustedToUTC", 2: "unit"})
	timestampTypeFields = required("TimestampType", []string{1: "isAdjustedToUTC", 2: "unit"})
)

// fieldsOf is the thrift field loop of every struct decoder, as an
// iterator over the type and id of each field of the struct at the reader's
// position: the loop body reads the field or skips it (d.r.Skip) and sets
// *err on failure, which ends the loop, as does a field header that does
// not read; at the struct's Stop field the loop ends with *err nil. A union
// is a struct whose body reads the member it finds. fieldsOf and the loop
// body are inlined into the decoder, so a field costs no call: the callback
// loop it replaced (an indirect call per field) took 19.5% more instructions
// per page header, which is why the page header decoders had had their loops
// written out by hand.
func (d *decoder) fieldsOf(err *error) func(yield func(thrift.Type, int16) bool) {
	return func(yield func(thrift.Type, int16) bool) {
		saved := d.r.StructBegin()
		for *err == nil {
			t, id, e := d.r.ReadFieldHeader()
			if e != nil {
				*err = e
				return
			}
			if t == thrift.Stop {
				d.r.StructEnd(saved)
				return
			}
			if !yield(t, id) {
				return
			}
		}
	}
}

func (d *decoder) logicalType(lt *LogicalType) error {
	var err error
	for t, id := range d.fieldsOf(&err) {
		if t != thrift.Struct {
			err = d.r.Skip(t)
			continue
		}
		// A union has one member; should several be encoded, the last wins.
		*lt = LogicalType{Kind: LogicalTypeKind(id)}
		switch lt.Kind {
		case LogicalDecimal:
			var seen uint32
			for t, id := range d.fieldsOf(&err) {
				switch {
				case id == 1 && t == thrift.I32:
					lt.Scale, err = d.r.ReadI32()
				case id == 2 && t == thrift.I32:
					lt.Precision, err = d.r.ReadI32()
				default:
					err = d.r.Skip(t)
					continue
				}
				seen |= 1 << id
			}
			if err == nil {
				err = decimalTypeFields.check(seen)
			}
		case LogicalTime, LogicalTimestamp:
			err = d.timeType(lt)
		case LogicalInteger:
			var seen uint32
			for t, id := range d.fieldsOf(&err) {
				switch {
				case id == 1 && t == thrift.Byte:
					lt.BitWidth, err = d.r.ReadI8()
				case id == 2 && t == thrift.Bool:
					lt.IsSigned, err = d.r.ReadBool()
				default:
					err = d.r.Skip(t)
					continue
				}
				seen |= 1 << id
			}
			if err == nil {
				err = intTypeFields.check(seen)
			}
		case LogicalVariant:
			for t, id := range d.fieldsOf(&err) {
				if id != 1 || t != thrift.Byte {
					err = d.r.Skip(t)
					continue
				}
				lt.HasSpecificationVersion = true
				lt.SpecificationVersion, err = d.r.ReadI8()
			}
		case LogicalGeometry, LogicalGeography:
			for t, id := range d.fieldsOf(&err) {
				switch {
				case id == 1 && t == thrift.Binary:
					lt.CRS, err = d.optString()
				case id == 2 && t == thrift.I32 && lt.Kind == LogicalGeography:
					var v int32
					v, err = d.r.ReadI32()
					a := EdgeInterpolationAlgorithm(v)
					lt.Algorithm = &a
				default:
					err = d.r.Skip(t)
				}
			}
		default:
			if lt.Kind.Known() {
				err = d.emptyStruct()
				break
			}
			start := d.r.Offset()
			if err = d.emptyStruct(); err == nil {
				lt.Raw = bytes.Clone(d.r.Bytes()[start:d.r.Offset()])
			}
		}
	}
	if err != nil {
		return err
	}
	if lt.Kind == 0 {
		return errors.New("LogicalType: no union member set")
	}
	return nil
}

func (d *decoder) schemaElement(e *SchemaElement) error {
	var seen uint32
	var err error
	for t, id := range d.fieldsOf(&err) {
		var v int32
		switch {
		case id == 1 && t == thrift.I32:
			v, err = d.r.ReadI32()
			x := Type(v)
			e.Type = &x
		case id == 2 && t == thrift.I32:
			e.TypeLength, err = d.optI32()
		case id == 3 && t == thrift.I32:
			v, err = d.r.ReadI32()
			x := FieldRepetitionType(v)
			e.RepetitionType = &x
		case id == 4 && t == thrift.Binary:
			e.Name, err = d.r.ReadString()
			seen |= 1 << id
		case id == 5 && t == thrift.I32:
			e.NumChildren, err = d.optI32()
		case id == 6 && t == thrift.I32:
			v, err = d.r.ReadI32()
			x := ConvertedType(v)
			e.ConvertedType = &x
		case id == 7 && t == thrift.I32:
			e.Scale, err = d.optI32()
		case id == 8 && t == thrift.I32:
			e.Precision, err = d.optI32()
		case id == 9 && t == thrift.I32:
			e.FieldID, err = d.optI32()
		case id == 10 && t == thrift.Struct:
			e.LogicalType = new(LogicalType)
			err = d.logicalType(e.LogicalType)
		case id == 11 && t == thrift.I32:
			e.VectorLength, err = d.optI32()
		default:
			err = d.r.Skip(t)
		}
	}
	if err != nil {
		return err
	}
	return schemaElementFields.check(seen)
}

func (d *decoder) pageEncodingStats(s *PageEncodingStats) error {
	var seen uint32
	var err error
	for t, id := range d.fieldsOf(&err) {
		if id < 1 || id > 3 || t != thrift.I32 {
			err = d.r.Skip(t)
			continue
		}
		var v int32
		v, err = d.r.ReadI32()
		switch id {
		case 1:
			s.PageType = PageType(v)
		case 2:
			s.Encoding = Encoding(v)
		case 3:
			s.Count = v
		}
		seen |= 1 << id
	}
	if err == nil {
		err = pageEncodingStatsFields.check(seen)
	}
	return err
}

func (d *decoder) sizeStatistics(s *SizeStatistics) error {
	var err error
	for t, id := range d.fieldsOf(&err) {
		switch {
		case id == 1 && t == thrift.I64:
			s.UnencodedByteArrayDataBytes, err = d.optI64()
		case id == 2 && t == thrift.List:
			s.RepetitionLevelHistogram, err = d.i64List()
		case id == 3 && t == thrift.List:
			s.DefinitionLevelHistogram, err = d.i64List()
		default:
			err = d.r.Skip(t)
		}
	}
	return err
}

func (d *decoder) boundingBox(b *BoundingBox) error {
	var seen uint32
	var err error
	for t, id := range d.fieldsOf(&err) {
		if id < 1 || id > 8 || t != thrift.Double {
			err = d.r.Skip(t)
			continue
		}
		var v *float64
		if v, err = d.optDouble(); err != nil {
			break
		}
		seen |= 1 << id
		switch id {
		case 1:
			b.XMin = *v
		case 2:
			b.XMax = *v
		case 3:
			b.YMin = *v
		case 4:
			b.YMax = *v
		case 5:
			b.ZMin = v
		case 6:
			b.ZMax = v
		case 7:
			b.MMin = v
		case 8:
			b.MMax = v
		}
	}
	if err == nil {
		err = boundingBoxFields.check(seen)
	}
	return err
}

func (d *decoder) geospatialStatistics(g *GeospatialStatistics) error {
	var err error
	for t, id := range d.fieldsOf(&err) {
		switch {
		case id == 1 && t == thrift.Struct:
			g.BBox = new(BoundingBox)
			err = d.boundingBox(g.BBox)
		case id == 2 && t == thrift.List:
			g.GeospatialTypes, err = d.i32List()
			g.HasGeospatialTypes = true
		default:
			err = d.r.Skip(t)
		}
	}
	return err
}

func (d *decoder) columnMetaData(m *ColumnMetaData) error {
	var seen uint32
	var err error
	for t, id := range d.fieldsOf(&err) {
		var v int32
		switch {
		case id == 1 && t == thrift.I32:
			v, err = d.r.ReadI32()
			m.Type = Type(v)
		case id == 2 && t == thrift.List:
			m.Encodings, err = d.encodingList()
		case id == 3 && t == thrift.List:
			m.PathInSchema, err = d.stringList()
		case id == 4 && t == thrift.I32:
			v, err = d.r.ReadI32()
			m.Codec = CompressionCodec(v)
		case id == 5 && t == thrift.I64:
			m.NumValues, err = d.r.ReadI64()
		case id == 6 && t == thrift.I64:
			m.TotalUncompressedSize, err = d.r.ReadI64()
		case id == 7 && t == thrift.I64:
			m.TotalCompressedSize, err = d.r.ReadI64()
		case id == 8 && t == thrift.List:
			m.KeyValueMetadata, err = d.keyValueList()
		case id == 9 && t == thrift.I64:
			m.DataPageOffset, err = d.r.ReadI64()
		case id == 10 && t == thrift.I64:
			m.IndexPageOffset, err = d.optI64()
		case id == 11 && t == thrift.I64:
			m.DictionaryPageOffset, err = d.optI64()
		case id == 12 && t == thrift.Struct:
			m.Statistics = new(Statistics)
			err = d.statistics(m.Statistics)
		case id == 13 && t == thrift.List:
			m.EncodingStats, err = list(d, thrift.Struct, d.pageEncodingStats)
		case id == 14 && t == thrift.I64:
			m.BloomFilterOffset, err = d.optI64()
		case id == 15 && t == thrift.I32:
			m.BloomFilterLength, err = d.optI32()
		case id == 16 && t == thrift.Struct:
			m.SizeStatistics = new(SizeStatistics)
			err = d.sizeStatistics(m.SizeStatistics)
		case id == 17 && t == thrift.Struct:
			m.GeospatialStatistics = new(GeospatialStatistics)
			err = d.geospatialStatistics(m.GeospatialStatistics)
		default:
			err = d.r.Skip(t)
			continue
		}
		seen |= 1 << id
	}
	if err != nil {
		return err
	}
	return columnMetaDataFields.check(seen)
}

func (d *decoder) columnCryptoMetaData(c *ColumnCryptoMetaData) error {
	var err error
	for t, id := range d.fieldsOf(&err) {
		if t != thrift.Struct {
			err = d.r.Skip(t)
			continue
		}
		*c = ColumnCryptoMetaData{Kind: ColumnCryptoKind(id)}
		if c.Kind != EncryptionWithColumnKey {
			err = d.emptyStruct()
			continue
		}
		var seen uint32
		for t, id := range d.fieldsOf(&err) {
			switch {
			case id == 1 && t == thrift.List:
				c.PathInSchema, err = d.stringList()
			case id == 2 && t == thrift.Binary:
				c.KeyMetadata, err = d.binary()
			default:
				err = d.r.Skip(t)
				continue
			}
			seen |= 1 << id
		}
		if err == nil {
			err = encryptionWithColumnKeyFields.check(seen)
		}
	}
	return err
}

func (d *decoder) columnChunk(c *ColumnChunk) error {
	var err error
	for t, id := range d.fieldsOf(&err) {
		switch {
		case id == 1 && t == thrift.Binary:
			c.FilePath, err = d.optString()
		case id == 2 && t == thrift.I64:
			c.FileOffset, err = d.r.ReadI64()
		case id == 3 && t == thrift.Struct:
			c.MetaData = new(ColumnMetaData)
			err = d.columnMetaData(c.MetaData)
		case id == 4 && t == thrift.I64:
			c.OffsetIndexOffset, err = d.optI64()
		case id == 5 && t == thrift.I32:
			c.OffsetIndexLength, err = d.optI32()
		case id == 6 && t == thrift.I64:
			c.ColumnIndexOffset, err = d.optI64()
		case id == 7 && t == thrift.I32:
			c.ColumnIndexLength, err = d.optI32()
		case id == 8 && t == thrift.Struct:
			c.CryptoMetadata = new(ColumnCryptoMetaData)
			err = d.columnCryptoMetaData(c.CryptoMetadata)
		case id == 9 && t == thrift.Binary:
			c.EncryptedColumnMetadata, err = d.binary()
		default:
			err = d.r.Skip(t)
		}
	}
	// meta_data is optional in parquet.thrift only because encrypted
	// footers may carry encrypted_column_metadata instead; a chunk with
	// neither is unusable, and rejecting it keeps hostile lists of empty
	// chunks from amplifying memory.
	if err == nil && c.MetaData == nil && c.EncryptedColumnMetadata == nil {
		err = missing("ColumnChunk", "meta_data (or encrypted_column_metadata)")
	}
	return err
}

func (d *decoder) sortingColumn(s *SortingColumn) error {
	var seen uint32
	var err error
	for t, id := range d.fieldsOf(&err) {
		switch {
		case id == 1 && t == thrift.I32:
			s.ColumnIdx, err = d.r.ReadI32()
		case id == 2 && t == thrift.Bool:
			s.Descending, err = d.r.ReadBool()
		case id == 3 && t == thrift.Bool:
			s.NullsFirst, err = d.r.ReadBool()
		default:
			err = d.r.Skip(t)
			continue
		}
		seen |= 1 << id
	}
	if err == nil {
		err = sortingColumnFields.check(seen)
	}
	return err
}

func (d *decoder) rowGroup(g *RowGroup) error {
	var seen uint32
	var err error
	for t, id := range d.fieldsOf(&err) {
		switch {
		case id == 1 && t == thrift.List:
			g.Columns, err = list(d, thrift.Struct, d.columnChunk)
		case id == 2 && t == thrift.I64:
			g.TotalByteSize, err = d.r.ReadI64()
		case id == 3 && t == thrift.I64:
			g.NumRows, err = d.r.ReadI64()
		case id == 4 && t == thrift.List:
			g.SortingColumns, err = list(d, thrift.Struct, d.sortingColumn)
		case id == 5 && t == thrift.I64:
			g.FileOffset, err = d.optI64()
		case id == 6 && t == thrift.I64:
			g.TotalCompressedSize, err = d.optI64()
		case id == 7 && t == thrift.I16:
			var v int16
			v, err = d.r.ReadI16()
			g.Ordinal = &v
		default:
			err = d.r.Skip(t)
			continue
		}
		seen |= 1 << id
	}
	if err != nil {
		return err
	}
	return rowGroupFields.check(seen)
}

func (d *decoder) columnOrder(o *ColumnOrder) error {
	var err error
	for t, id := range d.fieldsOf(&err) {
		if t != thrift.Struct {
			err = d.r.Skip(t)
			continue
		}
		o.Kind = ColumnOrderKind(id)
		err = d.emptyStruct()
	}
	if err == nil && o.Kind == 0 {
		err = errors.New("ColumnOrder: no union member set")
	}
	return err
}

func (d *decoder) encryptionAlgorithm(a *EncryptionAlgorithm) error {
	var err error
	for t, id := range d.fieldsOf(&err) {
		if t != thrift.Struct {
			err = d.r.Skip(t)
			continue
		}
		*a = EncryptionAlgorithm{Kind: EncryptionAlgorithmKind(id)}
		for t, id := range d.fieldsOf(&err) {
			switch {
			case id == 1 && t == thrift.Binary:
				a.AadPrefix, err = d.binary()
			case id == 2 && t == thrift.Binary:
				a.AadFileUnique, err = d.binary()
			case id == 3 && t == thrift.Bool:
				var v bool
				v, err = d.r.ReadBool()
				a.SupplyAadPrefix = &v
			default:
				err = d.r.Skip(t)
			}
		}
	}
	if err == nil && a.Kind == 0 {
		err = errors.New("EncryptionAlgorithm: no union member set")
	}
	return err
}

func (d *decoder) fileMetaData(m *FileMetaData) error {
	var seen uint32
	var err error
	for t, id := range d.fieldsOf(&err) {
		switch {
		case id == 1 && t == thrift.I32:
			m.Version, err = d.r.ReadI32()
		case id == 2 && t == thrift.List:
			m.Schema, err = list(d, thrift.Struct, d.schemaElement)
		case id == 3 && t == thrift.I64:
			m.NumRows, err = d.r.ReadI64()
		case id == 4 && t == thrift.List:
			m.RowGroups, err = list(d, thrift.Struct, d.rowGroup)
		case id == 5 && t == thrift.List:
			m.KeyValueMetadata, err = d.keyValueList()
		case id == 6 && t == thrift.Binary:
			m.CreatedBy, err = d.optString()
		case id == 7 && t == thrift.List:
			m.ColumnOrders, err = list(d, thrift.Struct, d.columnOrder)
		case id == 8 && t == thrift.Struct:
			m.EncryptionAlgorithm = new(EncryptionAlgorithm)
			err = d.encryptionAlgorithm(m.EncryptionAlgorithm)
		case id == 9 && t == thrift.Binary:
			m.FooterSigningKeyMetadata, err = d.binary()
		default:
			err = d.r.Skip(t)
			continue
		}
		seen |= 1 << id
	}
	if err != nil {
		return err
	}
	return fileMetaDataFields.check(seen)
}

// DecodeFileMetaData decodes a thrift FileMetaData (the footer without its
// length and magic). The result does not alias b. Unknown fields and union
// members are skipped (unknown LogicalType members are kept as
// [LogicalType.Raw]); missing required fields are errors wrapping
// [ErrCorrupt]. Trailing bytes after the struct are ignored (plaintext
// encrypted footers put a signature there). Every list length is checked
// against the bytes left before allocating, so memory grows in proportion to
// len(b). It is safe for concurrent use.
func DecodeFileMetaData(b []byte) (*FileMetaData, error) {
	m, _, err := decodeCopy[FileMetaData](b, "file metadata")
	return m, err
}

// decodeCopy decodes the thrift struct T at the start of b, what in its
// errors, copying binary values out of b, and returns it with its encoded
// length. Errors wrap [ErrCorrupt].
func decodeCopy[T FileMetaData | FileCryptoMetaData | ColumnMetaData](b []byte, what string) (*T, int, error) {
	d := decoder{copyBytes: true}
	d.r.Reset(b)
	x := new(T)
	var err error
	switch x := any(x).(type) {
	case *FileMetaData:
		err = d.fileMetaData(x)
	case *FileCryptoMetaData:
		err = d.fileCryptoMetaData(x)
	case *ColumnMetaData:
		err = d.columnMetaData(x)
	}
	if err != nil {
		return nil, 0, fmt.Errorf("%w: %s: %w", ErrCorrupt, what, err)
	}
	return x, d.r.Offset(), nil
}
