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
	typ   format.Type
	fixed [format.Double + 1]fixedDecoder // by type, made on first use
	bytes dictionary.BytesDict
}

// fixedDecoder is a dictionary of one fixed-size type: a
// dictionary.Dict[T] and the slice of Values that holds T.
type fixedDecoder interface {
	reset(v *Values, src []byte, n int) error
	decode(v *Values, src []byte, n int) error
	memSize() int64
}

type fixedDecoderOf[T dictionary.Value] struct {
	d     dictionary.Dict[T]
	slice func(*Values) *[]T
	size  int64
}

func (f *fixedDecoderOf[T]) reset(v *Values, src []byte, n int) error {
	err := f.d.Reset(src, n)
	*f.slice(v) = f.d.Values()
	return err
}

func (f *fixedDecoderOf[T]) decode(v *Values, src []byte, n int) (err error) {
	s := f.slice(v)
	*s, err = f.d.Decode(*s, src, n)
	return err
}

func (f *fixedDecoderOf[T]) memSize() int64 { return f.size * int64(cap(f.d.Values())) }

// newFixedDecoder returns the dictionary of fixed-size type t, nil for
// byte arrays and unknown types.
func newFixedDecoder(t format.Type) fixedDecoder {
	switch t {
	case format.Boolean:
		return &fixedDecoderOf[bool]{slice: func(v *Values) *[]bool { return &v.Booleans }, size: 1}
	case format.Int32:
		return &fixedDecoderOf[int32]{slice: func(v *Values) *[]int32 { return &v.Int32s }, size: 4}
	case format.Int64:
		return &fixedDecoderOf[int64]{slice: func(v *Values) *[]int64 { return &v.Int64s }, size: 8}
	case format.Int96:
		return &fixedDecoderOf[[12]byte]{slice: func(v *Values) *[][12]byte { return &v.Int96s }, size: 12}
	case format.Float:
		return &fixedDecoderOf[float32]{slice: func(v *Values) *[]float32 { return &v.Floats }, size: 4}
	case format.Double:
		return &fixedDecoderOf[float64]{slice: func(v *Values) *[]float64 { return &v.Doubles }, size: 8}
	}
	return nil
}

// fixedOf returns d's dictionary of fixed-size type t, nil for byte arrays
// and unknown types.
func (d *Dict) fixedOf(t format.Type) fixedDecoder {
	if t < 0 || int(t) >= len(d.fixed) {
		return nil
	}
	if d.fixed[t] == nil {
		d.fixed[t] = newFixedDecoder(t)
	}
	return d.fixed[t]
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
	case format.ByteArray:
		err = d.bytes.Reset(src, n)
		v.Bytes, v.Offsets = d.bytes.Values()
	case format.FixedLenByteArray:
		err = d.bytes.ResetFixedLen(src, n, v.TypeLength)
		v.Bytes, _ = d.bytes.Values()
	default:
		f := d.fixedOf(v.Type)
		if f == nil {
			return fmt.Errorf("%w: dictionary of %v values", ErrUnsupported, v.Type)
		}
		err = f.reset(v, src, n)
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
func (d *Dict) Decode(v *Values, src []byte, n int) (err error) {
	switch d.typ {
	case format.ByteArray:
		v.Bytes, v.Offsets, err = d.bytes.Decode(v.Bytes, v.Offsets, src, n)
	case format.FixedLenByteArray:
		v.Bytes, err = d.bytes.DecodeFlat(v.Bytes, src, n)
	default:
		f := d.fixedOf(d.typ)
		if f == nil {
			return fmt.Errorf("%w: dictionary of %v values", ErrUnsupported, d.typ)
		}
		err = f.decode(v, src, n)
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
	m := d.bytes.MemSize()
	for _, f := range d.fixed {
		if f != nil {
			m += f.memSize()
		}
	}
	return m
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
