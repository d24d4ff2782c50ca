package dictionary

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/pqcodec/pqcodec/encoding/plain"
	"github.com/pqcodec/pqcodec/encoding/rle"
	"github.com/pqcodec/pqcodec/internal/unsafecast"
)

// Encoder builds the dictionary of a column of fixed-size values and the
// indices of its values. Values are compared by their bits, so -0.0 and 0.0
// are distinct entries and a NaN matches only the same NaN bits. An Encoder
// is not safe for concurrent use.
type Encoder[T plain.Fixed] struct {
	limit   int
	values  []T
	h4      hashTable[uint32]
	h8      hashTable[uint64]
	m12     map[[12]byte]int32
	indices []uint32
}

// NewEncoder returns an encoder whose dictionary page may hold at most limit
// bytes; limit <= 0 means no limit.
func NewEncoder[T plain.Fixed](limit int) *Encoder[T] {
	e := &Encoder[T]{limit: limit}
	if plain.Size[T]() == 12 {
		e.m12 = make(map[[12]byte]int32)
	}
	return e
}

// Reset empties the dictionary and the pending indices, keeping the limit.
func (e *Encoder[T]) Reset() {
	e.values, e.indices = e.values[:0], e.indices[:0]
	e.h4.reset()
	e.h8.reset()
	clear(e.m12)
}

// Len returns the number of distinct values in the dictionary.
func (e *Encoder[T]) Len() int { return len(e.values) }

// DictSize returns the size in bytes of the dictionary page.
func (e *Encoder[T]) DictSize() int { return len(e.values) * plain.Size[T]() }

// NumIndices returns the number of indices not yet written by
// [Encoder.AppendIndexPage].
func (e *Encoder[T]) NumIndices() int { return len(e.indices) }

// Values returns the dictionary's values, in index order. The slice is
// the encoder's: valid until the next Put or Reset, not to be modified.
func (e *Encoder[T]) Values() []T { return e.values }

// Pending returns the indices not yet written by [Encoder.AppendIndexPage],
// in order. The slice is the encoder's: valid until the next call of
// another method, not to be modified.
func (e *Encoder[T]) Pending() []uint32 { return e.indices }

// Put adds the values of src to the dictionary and their indices to the
// pending index page, and returns how many values it took. It stops before
// the first value that would make the dictionary page pass the limit, and
// then returns [ErrFull]: the caller writes the pages built so far and
// encodes src[n:] another way.
func (e *Encoder[T]) Put(src []T) (int, error) {
	var keys4 [chunk]uint32
	var keys8 [chunk]uint64
	for done := 0; done < len(src); {
		part := src[done:min(len(src), done+chunk)]
		base := len(e.indices)
		e.indices = slices.Grow(e.indices, len(part))[:base+len(part)]
		out := e.indices[base:]
		var n int
		var ok bool
		switch plain.Size[T]() {
		case 4:
			keys, view := unsafecast.Bits32(part) // the values' own memory
			if !view {
				keys = keys4Of(keys4[:len(part)], part)
			}
			n, ok = putKeys(e, &e.h4, part, keys, out)
		case 8:
			keys, view := unsafecast.Bits64(part)
			if !view {
				keys = keys8Of(keys8[:len(part)], part)
			}
			n, ok = putKeys(e, &e.h8, part, keys, out)
		default:
			n, ok = e.put12(part, out)
		}
		if !ok {
			e.indices = e.indices[:base+n]
			return done + n, fmt.Errorf("%w: %d values, limit %d bytes", ErrFull, len(e.values), e.limit)
		}
		done += len(part)
	}
	return len(src), nil
}

// putKeys writes to out the indices of part, whose bits are keys, adding
// the values not yet in the dictionary. It returns how many it did and
// false when the limit stopped it.
func putKeys[T plain.Fixed, K uint32 | uint64](e *Encoder[T], t *hashTable[K], part []T, keys []K, out []uint32) (int, bool) {
	for i := 0; ; i++ {
		if i += t.lookup(keys[i:], out[i:]); i == len(keys) {
			return i, true
		}
		ix, ok := e.add(part[i])
		if !ok {
			return i, false
		}
		t.insert(keys[i], ix)
		out[i] = uint32(ix)
	}
}

func (e *Encoder[T]) put12(part []T, out []uint32) (int, bool) {
	var raw [chunk * 12]byte
	unsafecast.Encode(raw[:], part)
	for i := range part {
		key := [12]byte(raw[i*12:])
		ix, ok := e.m12[key]
		if !ok {
			if ix, ok = e.add(part[i]); !ok {
				return i, false
			}
			e.m12[key] = ix
		}
		out[i] = uint32(ix)
	}
	return len(part), true
}

// keys4Of stores the bits of the 4-byte values src in keys and returns it.
func keys4Of[T plain.Fixed](keys []uint32, src []T) []uint32 {
	switch s := any(src).(type) {
	case []int32:
		for i, v := range s {
			keys[i] = uint32(v)
		}
	case []uint32:
		copy(keys, s)
	case []float32:
		for i, v := range s {
			keys[i] = math.Float32bits(v)
		}
	}
	return keys
}

// keys8Of stores the bits of the 8-byte values src in keys and returns it.
// It is keys4Of's twin for 8-byte values: one loop per concrete type keeps
// each free of generic dictionary calls.
func keys8Of[T plain.Fixed](keys []uint64, src []T) []uint64 {
	switch s := any(src).(type) {
	case []int64:
		for i, v := range s {
			keys[i] = uint64(v)
		}
	case []uint64:
		copy(keys, s)
	case []float64:
		for i, v := range s {
			keys[i] = math.Float64bits(v)
		}
	}
	return keys
}

// add appends v to the dictionary if the limit allows it.
func (e *Encoder[T]) add(v T) (int32, bool) {
	if (e.limit > 0 && e.DictSize()+plain.Size[T]() > e.limit) || len(e.values) == math.MaxInt32 {
		return 0, false
	}
	e.values = append(e.values, v)
	return int32(len(e.values) - 1), true
}

// AppendDictionaryPage appends the PLAIN dictionary page to dst.
func (e *Encoder[T]) AppendDictionaryPage(dst []byte) []byte {
	return plain.Encode(dst, e.values)
}

// AppendIndexPage appends the pending indices to dst as an index page (bit
// width byte, then RLE/bit-packed indices) and clears them. The bit width
// is the one the current dictionary size needs.
func (e *Encoder[T]) AppendIndexPage(dst []byte) []byte {
	dst = appendIndexPage(dst, e.indices, len(e.values))
	e.indices = e.indices[:0]
	return dst
}

func appendIndexPage(dst []byte, indices []uint32, size int) []byte {
	width := rle.BitWidth(uint32(max(size, 1) - 1))
	dst = append(dst, byte(width))
	dst, _ = rle.Encode(dst, indices, width) // indices < size always fit
	return dst
}

// BytesEncoder is the [Encoder] of BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY
// values. It copies every distinct value once; it is not safe for
// concurrent use.
type BytesEncoder struct {
	limit   int
	fixed   int // value size of FIXED_LEN_BYTE_ARRAY, 0 for BYTE_ARRAY
	values  []byte
	offsets []int32
	table   bytesTable
	indices []uint32
}

// NewBytesEncoder returns a BYTE_ARRAY encoder whose dictionary page may
// hold at most limit bytes (lengths included); limit <= 0 means no limit.
func NewBytesEncoder(limit int) *BytesEncoder {
	return &BytesEncoder{limit: limit, offsets: []int32{0}, table: bytesTable{seed: rand.Uint64()}}
}

// NewFixedLenEncoder returns a FIXED_LEN_BYTE_ARRAY encoder of values of
// size bytes; see [NewBytesEncoder] for limit. It panics if size <= 0.
func NewFixedLenEncoder(limit, size int) *BytesEncoder {
	if size <= 0 {
		panic("dictionary: non-positive fixed length")
	}
	e := NewBytesEncoder(limit)
	e.fixed = size
	return e
}

// Reset empties the dictionary and the pending indices, keeping the limit.
func (e *BytesEncoder) Reset() {
	e.values, e.offsets, e.indices = e.values[:0], e.offsets[:1], e.indices[:0]
	e.table.reset()
}

// Len returns the number of distinct values in the dictionary.
func (e *BytesEncoder) Len() int { return len(e.offsets) - 1 }

// DictSize returns the size in bytes of the dictionary page.
func (e *BytesEncoder) DictSize() int {
	if e.fixed > 0 {
		return len(e.values)
	}
	return len(e.values) + 4*e.Len()
}

// NumIndices returns the number of pending indices.
func (e *BytesEncoder) NumIndices() int { return len(e.indices) }

// Pending returns the pending indices, as [Encoder.Pending] does.
func (e *BytesEncoder) Pending() []uint32 { return e.indices }

// Value returns the value of index i, which must be below [BytesEncoder.Len].
// The slice is the encoder's: valid until the next Reset, not to be
// modified.
func (e *BytesEncoder) Value(i int) []byte { return e.values[e.offsets[i]:e.offsets[i+1]] }

// Put adds the values described by values and offsets (value i is
// values[offsets[i]:offsets[i+1]]) like [Encoder.Put], returning how many it
// took and [ErrFull] when it stopped at the limit. For a fixed-length
// encoder a value of the wrong size is an error wrapping
// [ErrInvalidArgument]. It panics if the offsets are out of range.
func (e *BytesEncoder) Put(values []byte, offsets []int32) (int, error) {
	if len(offsets) < 2 {
		return 0, nil
	}
	if e.table.slots == nil {
		e.table.grow()
	}
	base := len(e.indices)
	e.indices = slices.Grow(e.indices, len(offsets)-1)[:base+len(offsets)-1]
	out := e.indices[base:]
	for i := range out {
		v := values[offsets[i]:offsets[i+1]]
		ix, k := e.table.find(v, e.values, e.offsets)
		if ix < 0 {
			if e.fixed > 0 && len(v) != e.fixed {
				e.indices = e.indices[:base+i]
				return i, fmt.Errorf("%w: value of %d bytes in a column of %d", ErrInvalidArgument, len(v), e.fixed)
			}
			add := len(v)
			if e.fixed == 0 {
				add += 4
			}
			if (e.limit > 0 && e.DictSize()+add > e.limit) || len(e.values)+len(v) > math.MaxInt32 {
				e.indices = e.indices[:base+i]
				return i, fmt.Errorf("%w: %d values, limit %d bytes", ErrFull, e.Len(), e.limit)
			}
			ix = int32(e.Len())
			e.values = append(e.values, v...)
			e.offsets = append(e.offsets, int32(len(e.values)))
			e.table.insert(k, ix)
		}
		out[i] = uint32(ix)
	}
	return len(out), nil
}

// AppendDictionaryPage appends the PLAIN dictionary page to dst.
func (e *BytesEncoder) AppendDictionaryPage(dst []byte) []byte {
	if e.fixed > 0 {
		return append(dst, e.values...)
	}
	return plain.EncodeByteArray(dst, e.values, e.offsets)
}

// AppendIndexPage appends the pending indices to dst as an index page and
// clears them.
func (e *BytesEncoder) AppendIndexPage(dst []byte) []byte {
	dst = appendIndexPage(dst, e.indices, e.Len())
	e.indices = e.indices[:0]
	return dst
}
