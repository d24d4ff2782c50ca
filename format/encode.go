package format

import "github.com/pqcodec/pqcodec/internal/thrift"

// encoder writes parquet.thrift structs. Fields are written in id order;
// optional fields only when present (non-nil pointer, Has flag, non-nil
// binary).
type encoder struct {
	w thrift.Writer
}

func (e *encoder) statistics(id int16, s *Statistics) {
	e.w.WriteFieldHeader(thrift.Struct, id)
	e.w.StructBegin()
	e.optBinary(1, s.Max)
	e.optBinary(2, s.Min)
	if s.HasNullCount {
		e.w.WriteI64Field(3, s.NullCount)
	}
	if s.HasDistinctCount {
		e.w.WriteI64Field(4, s.DistinctCount)
	}
	e.optBinary(5, s.MaxValue)
	e.optBinary(6, s.MinValue)
	if s.HasIsMaxExact {
		e.w.WriteBoolField(7, s.IsMaxValueExact)
	}
	if s.HasIsMinExact {
		e.w.WriteBoolField(8, s.IsMinValueExact)
	}
	if s.HasNaNCount {
		e.w.WriteI64Field(9, s.NaNCount)
	}
	e.w.StructEnd()
}

func (e *encoder) pageHeader(h *PageHeader) {
	e.w.StructBegin()
	e.w.WriteI32Field(1, int32(h.Type))
	e.w.WriteI32Field(2, h.UncompressedPageSize)
	e.w.WriteI32Field(3, h.CompressedPageSize)
	if h.HasCRC {
		e.w.WriteI32Field(4, h.CRC)
	}
	if h.HasDataPageHeader {
		d := &h.DataPageHeader
		e.w.WriteFieldHeader(thrift.Struct, 5)
		e.w.StructBegin()
		e.w.WriteI32Field(1, d.NumValues)
		e.w.WriteI32Field(2, int32(d.Encoding))
		e.w.WriteI32Field(3, int32(d.DefinitionLevelEncoding))
		e.w.WriteI32Field(4, int32(d.RepetitionLevelEncoding))
		if d.HasStatistics {
			e.statistics(5, &d.Statistics)
		}
		e.w.StructEnd()
	}
	if h.HasIndexPageHeader {
		e.w.WriteFieldHeader(thrift.Struct, 6)
		e.w.StructBegin()
		e.w.StructEnd()
	}
	if h.HasDictionaryPageHeader {
		d := &h.DictionaryPageHeader
		e.w.WriteFieldHeader(thrift.Struct, 7)
		e.w.StructBegin()
		e.w.WriteI32Field(1, d.NumValues)
		e.w.WriteI32Field(2, int32(d.Encoding))
		if d.HasIsSorted {
			e.w.WriteBoolField(3, d.IsSorted)
		}
		e.w.StructEnd()
	}
	if h.HasDataPageHeaderV2 {
		d := &h.DataPageHeaderV2
		e.w.WriteFieldHeader(thrift.Struct, 8)
		e.w.StructBegin()
		e.w.WriteI32Field(1, d.NumValues)
		e.w.WriteI32Field(2, d.NumNulls)
		e.w.WriteI32Field(3, d.NumRows)
		e.w.WriteI32Field(4, int32(d.Encoding))
		e.w.WriteI32Field(5, d.DefinitionLevelsByteLength)
		e.w.WriteI32Field(6, d.RepetitionLevelsByteLength)
		// Written when present in the source, and always when false, since
		// absence means true.
		if d.HasIsCompressed || !d.IsCompressed {
			e.w.WriteBoolField(7, d.IsCompressed)
		}
		if d.HasStatistics {
			e.statistics(8, &d.Statistics)
		}
		e.w.StructEnd()
	}
	e.w.StructEnd()
}

// AppendPageHeader appends the thrift encoding of h to dst and returns the
// extended slice; dst may be nil. Page-type members are written when their
// Has flag is set, optional fields when present. DataPageHeaderV2's
// is_compressed is written when HasIsCompressed is set or IsCompressed is
// false. It does not validate h and does not allocate when dst has room.
func AppendPageHeader(dst []byte, h *PageHeader) []byte {
	// Not through appendStruct: its type switch costs ~4% here (one
	// header per page).
	var e encoder
	e.w.Reset(dst)
	e.pageHeader(h)
	return e.w.Buf
}

// appendStruct appends the thrift encoding of x to dst and returns the
// extended slice: the Append function of every struct that has one but
// PageHeader, with its encoder on the stack.
func appendStruct[T FileMetaData | ColumnIndex | OffsetIndex | FileCryptoMetaData | BloomFilterHeader](dst []byte, x *T) []byte {
	var e encoder
	e.w.Reset(dst)
	switch x := any(x).(type) {
	case *FileMetaData:
		e.fileMetaData(x)
	case *ColumnIndex:
		e.columnIndex(x)
	case *OffsetIndex:
		e.offsetIndex(x)
	case *FileCryptoMetaData:
		e.fileCryptoMetaData(x)
	case *BloomFilterHeader:
		e.bloomFilterHeader(x)
	}
	return e.w.Buf
}

func (e *encoder) optI32(id int16, v *int32) {
	if v != nil {
		e.w.WriteI32Field(id, *v)
	}
}

func (e *encoder) optI64(id int16, v *int64) {
	if v != nil {
		e.w.WriteI64Field(id, *v)
	}
}

func (e *encoder) optString(id int16, v *string) {
	if v != nil {
		e.w.WriteStringField(id, *v)
	}
}

// optBinary writes b when it is not nil (an empty b is written).
func (e *encoder) optBinary(id int16, b []byte) {
	if b != nil {
		e.w.WriteBinaryField(id, b)
	}
}

func (e *encoder) optDouble(id int16, v *float64) {
	if v != nil {
		e.w.WriteFieldHeader(thrift.Double, id)
		e.w.WriteDouble(*v)
	}
}

func (e *encoder) emptyStructField(id int16) {
	e.w.WriteFieldHeader(thrift.Struct, id)
	e.w.StructBegin()
	e.w.StructEnd()
}

func (e *encoder) stringList(id int16, l []string) {
	e.w.WriteListField(id, thrift.Binary, len(l))
	for _, s := range l {
		e.w.WriteString(s)
	}
}

// optI64List writes l when it is not nil.
func (e *encoder) optI64List(id int16, l []int64) {
	if l == nil {
		return
	}
	e.w.WriteListField(id, thrift.I64, len(l))
	for _, v := range l {
		e.w.WriteI64(v)
	}
}

// optKeyValues writes kvs when it is not nil.
func (e *encoder) optKeyValues(id int16, kvs []KeyValue) {
	if kvs == nil {
		return
	}
	e.w.WriteListField(id, thrift.Struct, len(kvs))
	for i := range kvs {
		e.w.StructBegin()
		e.w.WriteStringField(1, kvs[i].Key)
		e.optString(2, kvs[i].Value)
		e.w.StructEnd()
	}
}

func (e *encoder) logicalType(lt *LogicalType) {
	e.w.WriteFieldHeader(thrift.Struct, 10)
	e.w.StructBegin()
	id := int16(lt.Kind)
	if !lt.Kind.Known() && lt.Raw != nil {
		// Unknown member: its encoded struct body is written back as read.
		e.w.WriteFieldHeader(thrift.Struct, id)
		e.w.Buf = append(e.w.Buf, lt.Raw...)
		e.w.StructEnd()
		return
	}
	e.w.WriteFieldHeader(thrift.Struct, id)
	e.w.StructBegin()
	switch lt.Kind {
	case LogicalDecimal:
		e.w.WriteI32Field(1, lt.Scale)
		e.w.WriteI32Field(2, lt.Precision)
	case LogicalTime, LogicalTimestamp:
		e.w.WriteBoolField(1, lt.IsAdjustedToUTC)
		e.w.WriteFieldHeader(thrift.Struct, 2)
		e.w.StructBegin()
		e.emptyStructField(int16(lt.Unit))
		e.w.StructEnd()
	case LogicalInteger:
		e.w.WriteFieldHeader(thrift.Byte, 1)
		e.w.WriteI8(lt.BitWidth)
		e.w.WriteBoolField(2, lt.IsSigned)
	case LogicalVariant:
		if lt.HasSpecificationVersion {
			e.w.WriteFieldHeader(thrift.Byte, 1)
			e.w.WriteI8(lt.SpecificationVersion)
		}
	case LogicalGeometry, LogicalGeography:
		e.optString(1, lt.CRS)
		if lt.Kind == LogicalGeography && lt.Algorithm != nil {
			e.w.WriteI32Field(2, int32(*lt.Algorithm))
		}
	}
	e.w.StructEnd()
	e.w.StructEnd()
}

func (e *encoder) schemaElement(s *SchemaElement) {
	e.w.StructBegin()
	if s.Type != nil {
		e.w.WriteI32Field(1, int32(*s.Type))
	}
	e.optI32(2, s.TypeLength)
	if s.RepetitionType != nil {
		e.w.WriteI32Field(3, int32(*s.RepetitionType))
	}
	e.w.WriteStringField(4, s.Name)
	e.optI32(5, s.NumChildren)
	if s.ConvertedType != nil {
		e.w.WriteI32Field(6, int32(*s.ConvertedType))
	}
	e.optI32(7, s.Scale)
	e.optI32(8, s.Precision)
	e.optI32(9, s.FieldID)
	if s.LogicalType != nil {
		e.logicalType(s.LogicalType)
	}
	e.optI32(11, s.VectorLength)
	e.w.StructEnd()
}

func (e *encoder) columnMetaData(m *ColumnMetaData) {
	e.w.WriteFieldHeader(thrift.Struct, 3)
	e.w.StructBegin()
	e.w.WriteI32Field(1, int32(m.Type))
	e.w.WriteListField(2, thrift.I32, len(m.Encodings))
	for _, enc := range m.Encodings {
		e.w.WriteI32(int32(enc))
	}
	e.stringList(3, m.PathInSchema)
	e.w.WriteI32Field(4, int32(m.Codec))
	e.w.WriteI64Field(5, m.NumValues)
	e.w.WriteI64Field(6, m.TotalUncompressedSize)
	e.w.WriteI64Field(7, m.TotalCompressedSize)
	e.optKeyValues(8, m.KeyValueMetadata)
	e.w.WriteI64Field(9, m.DataPageOffset)
	e.optI64(10, m.IndexPageOffset)
	e.optI64(11, m.DictionaryPageOffset)
	if m.Statistics != nil {
		e.statistics(12, m.Statistics)
	}
	if m.EncodingStats != nil {
		e.w.WriteListField(13, thrift.Struct, len(m.EncodingStats))
		for _, s := range m.EncodingStats {
			e.w.StructBegin()
			e.w.WriteI32Field(1, int32(s.PageType))
			e.w.WriteI32Field(2, int32(s.Encoding))
			e.w.WriteI32Field(3, s.Count)
			e.w.StructEnd()
		}
	}
	e.optI64(14, m.BloomFilterOffset)
	e.optI32(15, m.BloomFilterLength)
	if s := m.SizeStatistics; s != nil {
		e.w.WriteFieldHeader(thrift.Struct, 16)
		e.w.StructBegin()
		e.optI64(1, s.UnencodedByteArrayDataBytes)
		e.optI64List(2, s.RepetitionLevelHistogram)
		e.optI64List(3, s.DefinitionLevelHistogram)
		e.w.StructEnd()
	}
	if g := m.GeospatialStatistics; g != nil {
		e.w.WriteFieldHeader(thrift.Struct, 17)
		e.w.StructBegin()
		if b := g.BBox; b != nil {
			e.w.WriteFieldHeader(thrift.Struct, 1)
			e.w.StructBegin()
			e.optDouble(1, &b.XMin)
			e.optDouble(2, &b.XMax)
			e.optDouble(3, &b.YMin)
			e.optDouble(4, &b.YMax)
			e.optDouble(5, b.ZMin)
			e.optDouble(6, b.ZMax)
			e.optDouble(7, b.MMin)
			e.optDouble(8, b.MMax)
			e.w.StructEnd()
		}
		if g.HasGeospatialTypes {
			e.w.WriteListField(2, thrift.I32, len(g.GeospatialTypes))
			for _, v := range g.GeospatialTypes {
				e.w.WriteI32(v)
			}
		}
		e.w.StructEnd()
	}
	e.w.StructEnd()
}

func (e *encoder) columnChunk(c *ColumnChunk) {
	e.w.StructBegin()
	e.optString(1, c.FilePath)
	e.w.WriteI64Field(2, c.FileOffset)
	if c.MetaData != nil {
		e.columnMetaData(c.MetaData)
	}
	e.optI64(4, c.OffsetIndexOffset)
	e.optI32(5, c.OffsetIndexLength)
	e.optI64(6, c.ColumnIndexOffset)
	e.optI32(7, c.ColumnIndexLength)
	if cm := c.CryptoMetadata; cm != nil {
		e.w.WriteFieldHeader(thrift.Struct, 8)
		e.w.StructBegin()
		e.w.WriteFieldHeader(thrift.Struct, int16(cm.Kind))
		e.w.StructBegin()
		if cm.Kind == EncryptionWithColumnKey {
			e.stringList(1, cm.PathInSchema)
			e.optBinary(2, cm.KeyMetadata)
		}
		e.w.StructEnd()
		e.w.StructEnd()
	}
	e.optBinary(9, c.EncryptedColumnMetadata)
	e.w.StructEnd()
}

func (e *encoder) rowGroup(g *RowGroup) {
	e.w.StructBegin()
	e.w.WriteListField(1, thrift.Struct, len(g.Columns))
	for i := range g.Columns {
		e.columnChunk(&g.Columns[i])
	}
	e.w.WriteI64Field(2, g.TotalByteSize)
	e.w.WriteI64Field(3, g.NumRows)
	if g.SortingColumns != nil {
		e.w.WriteListField(4, thrift.Struct, len(g.SortingColumns))
		for _, s := range g.SortingColumns {
			e.w.StructBegin()
			e.w.WriteI32Field(1, s.ColumnIdx)
			e.w.WriteBoolField(2, s.Descending)
			e.w.WriteBoolField(3, s.NullsFirst)
			e.w.StructEnd()
		}
	}
	e.optI64(5, g.FileOffset)
	e.optI64(6, g.TotalCompressedSize)
	if g.Ordinal != nil {
		e.w.WriteFieldHeader(thrift.I16, 7)
		e.w.WriteI16(*g.Ordinal)
	}
	e.w.StructEnd()
}

func (e *encoder) fileMetaData(m *FileMetaData) {
	e.w.StructBegin()
	e.w.WriteI32Field(1, m.Version)
	e.w.WriteListField(2, thrift.Struct, len(m.Schema))
	for i := range m.Schema {
		e.schemaElement(&m.Schema[i])
	}
	e.w.WriteI64Field(3, m.NumRows)
	e.w.WriteListField(4, thrift.Struct, len(m.RowGroups))
	for i := range m.RowGroups {
		e.rowGroup(&m.RowGroups[i])
	}
	e.optKeyValues(5, m.KeyValueMetadata)
	e.optString(6, m.CreatedBy)
	if m.ColumnOrders != nil {
		e.w.WriteListField(7, thrift.Struct, len(m.ColumnOrders))
		for _, o := range m.ColumnOrders {
			e.w.StructBegin()
			e.emptyStructField(int16(o.Kind))
			e.w.StructEnd()
		}
	}
	if a := m.EncryptionAlgorithm; a != nil {
		e.encryptionAlgorithmField(8, a)
	}
	e.optBinary(9, m.FooterSigningKeyMetadata)
	e.w.StructEnd()
}

// AppendFileMetaData appends the thrift encoding of m (the footer without
// its length and magic) to dst and returns the extended slice; dst may be
// nil. Optional fields are written when present; list fields when non-nil.
// Unknown LogicalType members are written back from [LogicalType.Raw]. It
// does not validate m.
func AppendFileMetaData(dst []byte, m *FileMetaData) []byte { return appendStruct(dst, m) }
