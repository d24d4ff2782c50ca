package format

import "github.com/pqcodec/pqcodec/internal/thrift"

// AppendColumnIndex appends the thrift encoding of c to dst and returns the
// extended slice; dst may be nil. NullCounts and the level histograms are
// written when non-nil. It does not validate c (DecodeColumnIndex checks
// that the lists agree).
func AppendColumnIndex(dst []byte, c *ColumnIndex) []byte { return appendStruct(dst, c) }

func (e *encoder) columnIndex(c *ColumnIndex) {
	e.w.StructBegin()
	e.w.WriteListField(1, thrift.Bool, len(c.NullPages))
	for _, b := range c.NullPages {
		e.w.WriteBool(b)
	}
	for id, l := range [][][]byte{c.MinValues, c.MaxValues} {
		e.w.WriteListField(int16(id+2), thrift.Binary, len(l))
		for _, v := range l {
			e.w.WriteBinary(v)
		}
	}
	e.w.WriteI32Field(4, int32(c.BoundaryOrder))
	e.optI64List(5, c.NullCounts)
	e.optI64List(6, c.RepetitionLevelHistograms)
	e.optI64List(7, c.DefinitionLevelHistograms)
	e.w.StructEnd()
}

// AppendOffsetIndex appends the thrift encoding of o to dst and returns the
// extended slice; dst may be nil. UnencodedByteArrayDataBytes is written
// when non-nil.
func AppendOffsetIndex(dst []byte, o *OffsetIndex) []byte { return appendStruct(dst, o) }

func (e *encoder) offsetIndex(o *OffsetIndex) {
	e.w.StructBegin()
	e.w.WriteListField(1, thrift.Struct, len(o.PageLocations))
	for _, p := range o.PageLocations {
		e.w.StructBegin()
		e.w.WriteI64Field(1, p.Offset)
		e.w.WriteI32Field(2, p.CompressedPageSize)
		e.w.WriteI64Field(3, p.FirstRowIndex)
		e.w.StructEnd()
	}
	e.optI64List(2, o.UnencodedByteArrayDataBytes)
	e.w.StructEnd()
}
