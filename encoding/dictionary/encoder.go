package dictionary

import (
	"encoding/binary"
	"fmt"
	"math"

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

// Put adds the values of src to the dictionary and their indices to the
// pending index page, and returns how many values it took. It stops before
// the first value that would make the dictionary page pass the limit, and
// then returns [ErrFull]: the caller writes the pages built so far and
// encodes src[n:] another way.
func (e *Encoder[T]) Put(src []T) (int, error) {
	size := plain.Size[T]()
	var raw [chunk * 12]byte
	for done := 0; done < len(src); {
		part := src[done:min(len(src), done+chunk)]
		unsafecast.Encode(raw[:], part)
		for i := range part {
			k := raw[i*size : i*size+size]
			var ix int32
			var ok bool
			switch size {
			case 4:
				key := binary.LittleEndian.Uint32(k)
				var s int
				if ix, s, ok = e.h4.find(key); !ok {
					if ix, ok = e.add(part[i]); ok {
						e.h4.insert(s, key, ix)
					}
				}
			case 8:
				key := binary.LittleEndian.Uint64(k)
				var s int
				if ix, s, ok = e.h8.find(key); !ok {
					if ix, ok = e.add(part[i]); ok {
						e.h8.insert(s, key, ix)
					}
				}
			default:
				key := [12]byte(k)
				if ix, ok = e.m12[key]; !ok {
					if ix, ok = e.add(part[i]); ok {
						e.m12[key] = ix
					}
				}
			}
			if !ok {
				return done + i, fmt.Errorf("%w: %d values, limit %d bytes", ErrFull, len(e.values), e.limit)
			}
			e.indices = append(e.indices, uint32(ix))
		}
		done += len(part)
	}
	return len(src), nil
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
	m       map[string]int32
	indices []uint32
}

// NewBytesEncoder returns a BYTE_ARRAY encoder whose dictionary page may
// hold at most limit bytes (lengths included); limit <= 0 means no limit.
func NewBytesEncoder(limit int) *BytesEncoder {
	return &BytesEncoder{limit: limit, offsets: []int32{0}, m: make(map[string]int32)}
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
	clear(e.m)
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

// Put adds the values described by values and offsets (value i is
// values[offsets[i]:offsets[i+1]]) like [Encoder.Put], returning how many it
// took and [ErrFull] when it stopped at the limit. For a fixed-length
// encoder a value of the wrong size is an error wrapping
// [ErrInvalidArgument]. It panics if the offsets are out of range.
func (e *BytesEncoder) Put(values []byte, offsets []int32) (int, error) {
	for i := 0; i+1 < len(offsets); i++ {
		v := values[offsets[i]:offsets[i+1]]
		ix, ok := e.m[string(v)]
		if !ok {
			if e.fixed > 0 && len(v) != e.fixed {
				return i, fmt.Errorf("%w: value of %d bytes in a column of %d", ErrInvalidArgument, len(v), e.fixed)
			}
			add := len(v)
			if e.fixed == 0 {
				add += 4
			}
			if (e.limit > 0 && e.DictSize()+add > e.limit) || len(e.values)+len(v) > math.MaxInt32 {
				return i, fmt.Errorf("%w: %d values, limit %d bytes", ErrFull, e.Len(), e.limit)
			}
			ix = int32(e.Len())
			start := len(e.values)
			e.values = append(e.values, v...)
			e.offsets = append(e.offsets, int32(len(e.values)))
			// The key shares the dictionary's copy of the value: those
			// bytes are never written again before Reset clears the map
			// (a grown values leaves them in the old array, unchanged),
			// so adding a value allocates nothing once warm.
			e.m[unsafecast.String(e.values[start:])] = ix
		}
		e.indices = append(e.indices, uint32(ix))
	}
	return max(len(offsets)-1, 0), nil
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
