// Package thrift implements the Thrift compact protocol, the serialization
// Parquet uses for its footer and page headers, over in-memory byte slices.
//
// The protocol is specified in
// https://github.com/apache/thrift/blob/master/doc/specs/thrift-compact-protocol.md.
// [Reader] decodes from a []byte without an io.Reader indirection and treats
// every input as hostile: each length is checked against the bytes that remain
// before anything is allocated, nesting is bounded by [MaxDepth], and all
// errors wrap [ErrCorrupt]. [Writer] appends the same encoding to a []byte.
package thrift

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/pqcodec/pqcodec/internal/errs"
)

// ErrCorrupt is wrapped by every error the Reader returns for malformed input.
var ErrCorrupt = errs.Corrupt("thrift: corrupt input")

// ErrTruncated is wrapped by errors for input that ends in the middle of a
// value. It wraps [ErrCorrupt], so errors.Is(err, ErrCorrupt) holds for it too.
var ErrTruncated = fmt.Errorf("%w: unexpected end of input", ErrCorrupt)

// MaxDepth bounds the nesting of structs, lists, sets and maps that
// [Reader.Skip] descends into, so hostile input cannot exhaust the stack.
const MaxDepth = 64

// Type is a compact-protocol wire type as it appears in field, list and map
// headers. Booleans in field headers carry their value in the type (the
// Reader reports both as [Bool]); in list and map headers they use 1 or 2.
type Type uint8

// Compact-protocol wire types.
const (
	Stop   Type = 0
	Bool   Type = 1 // boolean; in field headers 1 means true
	False  Type = 2 // boolean false in field headers; boolean in lists
	Byte   Type = 3 // i8
	I16    Type = 4
	I32    Type = 5
	I64    Type = 6
	Double Type = 7
	Binary Type = 8 // binary and string
	List   Type = 9
	Set    Type = 10
	Map    Type = 11
	Struct Type = 12
	UUID   Type = 13 // 16 raw bytes
)

var typeNames = [...]string{"STOP", "BOOL", "BOOL_FALSE", "BYTE", "I16", "I32", "I64", "DOUBLE",
	"BINARY", "LIST", "SET", "MAP", "STRUCT", "UUID"}

// String returns the protocol name of t.
func (t Type) String() string {
	if int(t) < len(typeNames) {
		return typeNames[t]
	}
	return fmt.Sprintf("Type(%d)", uint8(t))
}

// Reader decodes compact-protocol values from a byte slice.
//
// The zero Reader reads an empty input; [Reader.Reset] points it at new
// input. Binary values returned by [Reader.ReadBinary] alias the input. A
// Reader is not safe for concurrent use. It never panics on malformed input.
type Reader struct {
	buf     []byte
	pos     int
	lastID  int16
	boolVal bool // value of the last boolean field header
	hasBool bool // boolVal is pending for ReadBool
}

// NewReader returns a Reader over b. The Reader aliases b.
func NewReader(b []byte) *Reader {
	return &Reader{buf: b}
}

// Reset makes r read b from its start, discarding all state.
func (r *Reader) Reset(b []byte) {
	*r = Reader{buf: b}
}

// Offset returns the number of bytes consumed so far.
func (r *Reader) Offset() int { return r.pos }

// Remaining returns the number of bytes not yet consumed.
func (r *Reader) Remaining() int { return len(r.buf) - r.pos }

// Bytes returns the input r was reset with.
func (r *Reader) Bytes() []byte { return r.buf }

func (r *Reader) truncated(what string) error {
	return fmt.Errorf("%w: reading %s at offset %d", ErrTruncated, what, r.pos)
}

func (r *Reader) corrupt(what string) error {
	return fmt.Errorf("%w: %s at offset %d", ErrCorrupt, what, r.pos)
}

// ReadUvarint reads an unsigned LEB128 varint of at most 10 bytes.
func (r *Reader) ReadUvarint() (uint64, error) {
	var x uint64
	var s uint
	for i := 0; i < binary.MaxVarintLen64; i++ {
		if r.pos >= len(r.buf) {
			return 0, r.truncated("varint")
		}
		c := r.buf[r.pos]
		r.pos++
		if c < 0x80 {
			if i == binary.MaxVarintLen64-1 && c > 1 {
				return 0, r.corrupt("varint overflows 64 bits")
			}
			return x | uint64(c)<<s, nil
		}
		x |= uint64(c&0x7f) << s
		s += 7
	}
	return 0, r.corrupt("varint longer than 10 bytes")
}

// ReadByte reads one raw byte (the compact encoding of an i8).
func (r *Reader) ReadByte() (byte, error) {
	if r.pos >= len(r.buf) {
		return 0, r.truncated("byte")
	}
	c := r.buf[r.pos]
	r.pos++
	return c, nil
}

// ReadI8 reads an i8.
func (r *Reader) ReadI8() (int8, error) {
	c, err := r.ReadByte()
	return int8(c), err
}

// ReadI16 reads a zigzag varint i16, rejecting values out of range.
func (r *Reader) ReadI16() (int16, error) {
	v, err := r.readRange(math.MinInt16, math.MaxInt16, "i16 out of range")
	return int16(v), err
}

// ReadI32 reads a zigzag varint i32, rejecting values out of range.
func (r *Reader) ReadI32() (int32, error) {
	v, err := r.readRange(math.MinInt32, math.MaxInt32, "i32 out of range")
	return int32(v), err
}

// readRange reads a zigzag varint, rejecting values outside [lo, hi] with
// the message outOfRange; it returns 0 with an error.
func (r *Reader) readRange(lo, hi int64, outOfRange string) (int64, error) {
	v, err := r.ReadI64()
	if err != nil {
		return 0, err
	}
	if v < lo || v > hi {
		return 0, r.corrupt(outOfRange)
	}
	return v, nil
}

// ReadI64 reads a zigzag varint i64.
func (r *Reader) ReadI64() (int64, error) {
	// Fast path: one-byte varint, the common case for small counts and enums.
	if r.pos < len(r.buf) {
		if c := r.buf[r.pos]; c < 0x80 {
			r.pos++
			return int64(c>>1) ^ -int64(c&1), nil
		}
	}
	u, err := r.ReadUvarint()
	if err != nil {
		return 0, err
	}
	return int64(u>>1) ^ -int64(u&1), nil
}

// ReadDouble reads a little-endian IEEE 754 double.
func (r *Reader) ReadDouble() (float64, error) {
	if len(r.buf)-r.pos < 8 {
		return 0, r.truncated("double")
	}
	v := binary.LittleEndian.Uint64(r.buf[r.pos:])
	r.pos += 8
	return math.Float64frombits(v), nil
}

// ReadBinary reads a length-prefixed binary or string value. The result
// aliases the input; it is non-nil (possibly empty) on success.
func (r *Reader) ReadBinary() ([]byte, error) {
	n, err := r.ReadUvarint()
	if err != nil {
		return nil, err
	}
	if n > uint64(len(r.buf)-r.pos) {
		return nil, fmt.Errorf("%w: binary of %d bytes with %d left at offset %d",
			ErrTruncated, n, len(r.buf)-r.pos, r.pos)
	}
	b := r.buf[r.pos : r.pos+int(n) : r.pos+int(n)]
	r.pos += int(n)
	return b, nil
}

// ReadString reads a binary value and copies it into a string.
func (r *Reader) ReadString() (string, error) {
	b, err := r.ReadBinary()
	return string(b), err
}

// ReadBool reads a boolean. Directly after [Reader.ReadFieldHeader] returned
// [Bool] it returns the value carried in the field header; otherwise (list,
// set and map elements) it reads one byte, where 1 means true and 0 or 2 false.
func (r *Reader) ReadBool() (bool, error) {
	if r.hasBool {
		r.hasBool = false
		return r.boolVal, nil
	}
	c, err := r.ReadByte()
	if err != nil {
		return false, err
	}
	switch c {
	case 1:
		return true, nil
	case 0, 2:
		return false, nil
	}
	return false, r.corrupt("invalid boolean byte")
}

// StructBegin starts reading a struct and returns the state that
// [Reader.StructEnd] restores when the struct has been read to its Stop field.
func (r *Reader) StructBegin() int16 {
	last := r.lastID
	r.lastID = 0
	return last
}

// StructEnd restores the field-id state saved by [Reader.StructBegin].
func (r *Reader) StructEnd(saved int16) {
	r.lastID = saved
}

// ReadFieldHeader reads the next field header of the current struct. It
// returns [Stop] at the end of the struct. Boolean fields are reported as
// [Bool] whatever their value; read the value with [Reader.ReadBool].
func (r *Reader) ReadFieldHeader() (Type, int16, error) {
	r.hasBool = false
	if r.pos >= len(r.buf) {
		return 0, 0, r.truncated("field header")
	}
	c := r.buf[r.pos]
	r.pos++
	t := Type(c & 0x0f)
	if t == Stop {
		return Stop, 0, nil
	}
	var id int16
	if delta := int16(c >> 4); delta != 0 {
		id = r.lastID + delta
		if id < r.lastID { // overflow past MaxInt16
			return 0, 0, r.corrupt("field id overflow")
		}
	} else {
		v, err := r.ReadI16()
		if err != nil {
			return 0, 0, err
		}
		id = v
	}
	switch t {
	case Bool, False:
		r.boolVal, r.hasBool = t == Bool, true
		t = Bool
	case Byte, I16, I32, I64, Double, Binary, List, Set, Map, Struct, UUID:
	default:
		return 0, 0, r.corrupt("invalid field type " + t.String())
	}
	r.lastID = id
	return t, id, nil
}

// elemType validates a list, set or map element type nibble.
func (r *Reader) elemType(t Type) (Type, error) {
	switch t {
	case Bool, False:
		return Bool, nil
	case Byte, I16, I32, I64, Double, Binary, List, Set, Map, Struct, UUID:
		return t, nil
	}
	return 0, r.corrupt("invalid element type " + t.String())
}

// ReadListHeader reads a list (or set) header and returns the element type
// and count. The element type of an empty list is not checked: it is
// returned as [Stop] when it is not a valid type. Every element takes at least one byte, so a count larger than
// the remaining input is rejected here: callers may allocate n elements.
func (r *Reader) ReadListHeader() (Type, int, error) {
	c, err := r.ReadByte()
	if err != nil {
		return 0, 0, err
	}
	n := uint64(c >> 4)
	if n == 15 {
		if n, err = r.ReadUvarint(); err != nil {
			return 0, 0, err
		}
	}
	t, err := r.elemType(Type(c & 0x0f))
	if err != nil {
		if n == 0 {
			// An empty list says nothing through its element type, and
			// some writers leave it 0 (a JavaScript writer's empty
			// row_groups list is the byte 0x00). The Java and C++ compact
			// protocols accept type 0 for any count, arrow-rs accepts the
			// byte 0x00; no element is read, so any type is accepted here.
			return Stop, 0, nil
		}
		return 0, 0, err
	}
	if n > uint64(len(r.buf)-r.pos) {
		return 0, 0, fmt.Errorf("%w: list of %d elements with %d bytes left at offset %d",
			ErrTruncated, n, len(r.buf)-r.pos, r.pos)
	}
	return t, int(n), nil
}

// ReadMapHeader reads a map header and returns the key and value types and
// the entry count, which is checked against the remaining input like
// [Reader.ReadListHeader]. An empty map has no type byte; its types are Stop.
func (r *Reader) ReadMapHeader() (key, value Type, n int, err error) {
	u, err := r.ReadUvarint()
	if err != nil {
		return 0, 0, 0, err
	}
	if u == 0 {
		return Stop, Stop, 0, nil
	}
	c, err := r.ReadByte()
	if err != nil {
		return 0, 0, 0, err
	}
	if key, err = r.elemType(Type(c >> 4)); err != nil {
		return 0, 0, 0, err
	}
	if value, err = r.elemType(Type(c & 0x0f)); err != nil {
		return 0, 0, 0, err
	}
	if u > uint64(len(r.buf)-r.pos)/2 {
		return 0, 0, 0, fmt.Errorf("%w: map of %d entries with %d bytes left at offset %d",
			ErrTruncated, u, len(r.buf)-r.pos, r.pos)
	}
	return key, value, int(u), nil
}

// Skip consumes one value of type t, descending into containers up to
// [MaxDepth] levels. After ReadFieldHeader returned [Bool], Skip(Bool)
// consumes nothing, as the value was in the header.
func (r *Reader) Skip(t Type) error {
	if t == Bool && r.hasBool {
		r.hasBool = false
		return nil
	}
	return r.skip(t, 0)
}

func (r *Reader) skip(t Type, depth int) error {
	switch t {
	case Bool, False:
		_, err := r.ReadBool()
		return err
	case Byte:
		_, err := r.ReadByte()
		return err
	case I16, I32, I64:
		_, err := r.ReadUvarint()
		return err
	case Double:
		return r.skipN(8, "double")
	case UUID:
		return r.skipN(16, "uuid")
	case Binary:
		_, err := r.ReadBinary()
		return err
	}
	if depth >= MaxDepth {
		return r.corrupt("nesting deeper than thrift.MaxDepth")
	}
	switch t {
	case List, Set:
		et, n, err := r.ReadListHeader()
		if err != nil {
			return err
		}
		for i := 0; i < n; i++ {
			if err := r.skip(et, depth+1); err != nil {
				return err
			}
		}
		return nil
	case Map:
		kt, vt, n, err := r.ReadMapHeader()
		if err != nil {
			return err
		}
		for i := 0; i < n; i++ {
			if err := r.skip(kt, depth+1); err != nil {
				return err
			}
			if err := r.skip(vt, depth+1); err != nil {
				return err
			}
		}
		return nil
	case Struct:
		saved := r.StructBegin()
		for {
			ft, _, err := r.ReadFieldHeader()
			if err != nil {
				return err
			}
			if ft == Stop {
				break
			}
			if ft == Bool {
				r.hasBool = false
				continue
			}
			if err := r.skip(ft, depth+1); err != nil {
				return err
			}
		}
		r.StructEnd(saved)
		return nil
	}
	return r.corrupt("cannot skip type " + t.String())
}

func (r *Reader) skipN(n int, what string) error {
	if len(r.buf)-r.pos < n {
		return r.truncated(what)
	}
	r.pos += n
	return nil
}
