package enctable

import (
	"fmt"

	"github.com/pqcodec/pqcodec/encoding/dictionary"
	"github.com/pqcodec/pqcodec/format"
)

// Dict is the reading side of the dictionary rows, as [DictEncoder] is the
// writing side: a column chunk's decoded dictionary page, of any physical
// type, held by package encoding/dictionary ([dictionary.Dict] for the
// fixed-size types, [dictionary.BytesDict] for byte arrays), whose tuned
// whole-page lookups resolve the chunk's index pages. The page is decoded
// once: [Dict.Reset] shows its values through a Values that aliases the
// dictionary's memory. The zero value is empty; a Dict keeps its capacity
// across Resets. It is not safe for concurrent use.
type Dict struct {
	typ      format.Type
	booleans dictionary.Dict[bool]
	int32s   dictionary.Dict[int32]
	int64s   dictionary.Dict[int64]
	int96s   dictionary.Dict[[12]byte]
	floats   dictionary.Dict[float32]
	doubles  dictionary.Dict[float64]
	bytes    dictionary.BytesDict
}

// Reset loads the PLAIN dictionary page src of n values of v.Type (and
// v.TypeLength) into d, and points v's slice of that type at them: v then
// aliases d until the next Reset and must not be modified. Errors wrap
// dictionary.ErrCorrupt (a page shorter than its values) or
// dictionary.ErrInvalidArgument (a negative n, or FIXED_LEN_BYTE_ARRAY
// without a positive length); on error v holds no values.
func (d *Dict) Reset(v *Values, src []byte, n int) error {
	d.typ = v.Type
	var err error
	switch v.Type {
	case format.Boolean:
		err = d.booleans.Reset(src, n)
		v.Booleans = d.booleans.Values()
	case format.Int32:
		err = d.int32s.Reset(src, n)
		v.Int32s = d.int32s.Values()
	case format.Int64:
		err = d.int64s.Reset(src, n)
		v.Int64s = d.int64s.Values()
	case format.Int96:
		err = d.int96s.Reset(src, n)
		v.Int96s = d.int96s.Values()
	case format.Float:
		err = d.floats.Reset(src, n)
		v.Floats = d.floats.Values()
	case format.Double:
		err = d.doubles.Reset(src, n)
		v.Doubles = d.doubles.Values()
	case format.ByteArray:
		err = d.bytes.Reset(src, n)
		v.Bytes, v.Offsets = d.bytes.Values()
	case format.FixedLenByteArray:
		err = d.bytes.ResetFixedLen(src, n, v.TypeLength)
		v.Bytes, _ = d.bytes.Values()
	default:
		return fmt.Errorf("%w: dictionary of %v values", ErrUnsupported, v.Type)
	}
	if err != nil {
		v.Truncate(0)
	}
	return err
}

// Decode appends to v (of the type of the last Reset) the values of the n
// indices of the index page src: a bit width byte, then the indices in
// the RLE/bit-packing hybrid encoding. An index past the dictionary is an
// error wrapping dictionary.ErrCorrupt; byte array values past 2 GiB one
// wrapping dictionary.ErrTooLarge; an error of the check set by
// [Dict.SetBudget] is returned as it is. On error v keeps its values.
func (d *Dict) Decode(v *Values, src []byte, n int) error {
	var err error
	switch d.typ {
	case format.Boolean:
		v.Booleans, err = d.booleans.Decode(v.Booleans, src, n)
	case format.Int32:
		v.Int32s, err = d.int32s.Decode(v.Int32s, src, n)
	case format.Int64:
		v.Int64s, err = d.int64s.Decode(v.Int64s, src, n)
	case format.Int96:
		v.Int96s, err = d.int96s.Decode(v.Int96s, src, n)
	case format.Float:
		v.Floats, err = d.floats.Decode(v.Floats, src, n)
	case format.Double:
		v.Doubles, err = d.doubles.Decode(v.Doubles, src, n)
	case format.ByteArray:
		v.Bytes, v.Offsets, err = d.bytes.Decode(v.Bytes, v.Offsets, src, n)
	case format.FixedLenByteArray:
		v.Bytes, err = d.bytes.DecodeFlat(v.Bytes, src, n)
	default:
		return fmt.Errorf("%w: dictionary of %v values", ErrUnsupported, d.typ)
	}
	return err
}

// SetBudget sets the check that byte array lookups ask before their values
// grow (see dictionary.BytesDict.SetBudget); nil removes it. Values of the
// other types grow by the n of a Decode at most, which the caller can
// check before the call.
func (d *Dict) SetBudget(check func(size int) error) { d.bytes.SetBudget(check) }

// MemSize returns the bytes d holds: the capacity it keeps for every
// type, the dictionary of the last Reset included.
func (d *Dict) MemSize() int64 {
	return int64(cap(d.booleans.Values())) + 4*int64(cap(d.int32s.Values())+cap(d.floats.Values())) +
		8*int64(cap(d.int64s.Values())+cap(d.doubles.Values())) + 12*int64(cap(d.int96s.Values())) +
		d.bytes.MemSize()
}

// DictMemSizeFor bounds the bytes a Reset of a dictionary page of
// pageSize bytes holding n values of type t allocates.
func DictMemSizeFor(t format.Type, n, pageSize int) int64 {
	switch t {
	case format.ByteArray, format.FixedLenByteArray:
		return dictionary.MemSizeFor(n, pageSize)
	case format.Boolean:
		return int64(max(n, 0))
	}
	return int64(max(pageSize, 0))
}
