package thrift

import (
	"encoding/binary"
	"math"
)

// Writer appends compact-protocol values to a byte slice.
//
// Set Buf (it may be nil) and call the Write methods; the encoding is appended
// to Buf, which grows by append. Struct nesting deeper than [MaxDepth] panics,
// as it is a programming error. A Writer is not safe for concurrent use. The
// zero Writer is ready to use.
type Writer struct {
	Buf    []byte
	lastID int16
	depth  int
	stack  [MaxDepth]int16
}

// Reset makes w append to dst, discarding the struct nesting state.
func (w *Writer) Reset(dst []byte) {
	w.Buf = dst
	w.lastID = 0
	w.depth = 0
}

// WriteUvarint appends v as an unsigned varint.
func (w *Writer) WriteUvarint(v uint64) {
	w.Buf = binary.AppendUvarint(w.Buf, v)
}

// WriteI64 appends a zigzag varint. I16 and I32 use the same encoding.
func (w *Writer) WriteI64(v int64) {
	w.Buf = binary.AppendUvarint(w.Buf, uint64(v<<1)^uint64(v>>63))
}

// WriteI32 appends a zigzag varint i32.
func (w *Writer) WriteI32(v int32) { w.WriteI64(int64(v)) }

// WriteI16 appends a zigzag varint i16.
func (w *Writer) WriteI16(v int16) { w.WriteI64(int64(v)) }

// WriteI8 appends one byte.
func (w *Writer) WriteI8(v int8) { w.Buf = append(w.Buf, byte(v)) }

// WriteDouble appends a little-endian IEEE 754 double.
func (w *Writer) WriteDouble(v float64) {
	w.Buf = binary.LittleEndian.AppendUint64(w.Buf, math.Float64bits(v))
}

// WriteBinary appends a length-prefixed binary value.
func (w *Writer) WriteBinary(b []byte) {
	w.Buf = binary.AppendUvarint(w.Buf, uint64(len(b)))
	w.Buf = append(w.Buf, b...)
}

// WriteString appends a length-prefixed string.
func (w *Writer) WriteString(s string) {
	w.Buf = binary.AppendUvarint(w.Buf, uint64(len(s)))
	w.Buf = append(w.Buf, s...)
}

// WriteBool appends a boolean list element (1 true, 2 false). Boolean fields
// use [Writer.WriteBoolField] instead.
func (w *Writer) WriteBool(v bool) {
	if v {
		w.Buf = append(w.Buf, 1)
	} else {
		w.Buf = append(w.Buf, 2)
	}
}

// WriteFieldHeader appends the header of field id with wire type t (not a
// boolean: use [Writer.WriteBoolField]). Field ids should increase within a
// struct for the short delta form; any order is valid.
func (w *Writer) WriteFieldHeader(t Type, id int16) {
	if d := id - w.lastID; id > w.lastID && d <= 15 {
		w.Buf = append(w.Buf, byte(d)<<4|byte(t))
	} else {
		w.Buf = append(w.Buf, byte(t))
		w.WriteI16(id)
	}
	w.lastID = id
}

// WriteBoolField appends a boolean field, whose value is carried in the
// field header.
func (w *Writer) WriteBoolField(id int16, v bool) {
	t := False
	if v {
		t = Bool
	}
	w.WriteFieldHeader(t, id)
}

// WriteI32Field appends field id holding an i32.
func (w *Writer) WriteI32Field(id int16, v int32) {
	w.WriteFieldHeader(I32, id)
	w.WriteI32(v)
}

// WriteI64Field appends field id holding an i64.
func (w *Writer) WriteI64Field(id int16, v int64) {
	w.WriteFieldHeader(I64, id)
	w.WriteI64(v)
}

// WriteBinaryField appends field id holding a binary value.
func (w *Writer) WriteBinaryField(id int16, b []byte) {
	w.WriteFieldHeader(Binary, id)
	w.WriteBinary(b)
}

// WriteStringField appends field id holding a string.
func (w *Writer) WriteStringField(id int16, s string) {
	w.WriteFieldHeader(Binary, id)
	w.WriteString(s)
}

// StructBegin starts a nested struct value (after its field header or list
// header). It panics past [MaxDepth] levels.
func (w *Writer) StructBegin() {
	w.stack[w.depth] = w.lastID
	w.depth++
	w.lastID = 0
}

// StructEnd appends the Stop field and returns to the enclosing struct.
func (w *Writer) StructEnd() {
	w.Buf = append(w.Buf, byte(Stop))
	w.depth--
	w.lastID = w.stack[w.depth]
}

// WriteListHeader appends a list (or set) header for n elements of type t.
func (w *Writer) WriteListHeader(t Type, n int) {
	if n < 15 {
		w.Buf = append(w.Buf, byte(n)<<4|byte(t))
		return
	}
	w.Buf = append(w.Buf, 0xf0|byte(t))
	w.WriteUvarint(uint64(n))
}

// WriteListField appends field id holding a list (or set) of n elements of
// type t, up to its header: the elements follow.
func (w *Writer) WriteListField(id int16, t Type, n int) {
	w.WriteFieldHeader(List, id)
	w.WriteListHeader(t, n)
}
