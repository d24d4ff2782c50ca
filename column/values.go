package column

import (
	"encoding/binary"
	"fmt"

	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/internal/enctable"
)

// Values holds the non-null values of a column in the Go form of its
// physical type. Only the slice for Type is used:
//
//	BOOLEAN               Booleans
//	INT32                 Int32s
//	INT64                 Int64s
//	INT96                 Int96s (12 bytes each, as stored)
//	FLOAT                 Floats
//	DOUBLE                Doubles
//	BYTE_ARRAY            Bytes and Offsets: value i is Bytes[Offsets[i]:Offsets[i+1]]
//	FIXED_LEN_BYTE_ARRAY  Bytes: value i is Bytes[i*TypeLength:(i+1)*TypeLength]
//
// Byte arrays are one flat slice plus offsets, never a slice per value.
// Readers append to a Values; [Values.Reset] empties it and keeps its
// capacity, so a Values reused across pages stops allocating once it has
// grown to the largest page.
type Values struct {
	Type       format.Type
	TypeLength int

	Booleans []bool
	Int32s   []int32
	Int64s   []int64
	Int96s   [][12]byte
	Floats   []float32
	Doubles  []float64
	Bytes    []byte
	Offsets  []int32
}

// Len returns the number of values held.
func (v *Values) Len() int { return (*enctable.Values)(v).Len() }

// truncate keeps the first n values of v; n must not exceed v.Len().
func (v *Values) truncate(n int) { (*enctable.Values)(v).Truncate(n) }

// Reset empties v, keeping the capacity of every slice, and sets its type.
func (v *Values) Reset(t format.Type, typeLength int) {
	*v = Values{
		Type:       t,
		TypeLength: typeLength,
		Booleans:   v.Booleans[:0],
		Int32s:     v.Int32s[:0],
		Int64s:     v.Int64s[:0],
		Int96s:     v.Int96s[:0],
		Floats:     v.Floats[:0],
		Doubles:    v.Doubles[:0],
		Bytes:      v.Bytes[:0],
		Offsets:    v.Offsets[:0],
	}
}

// ByteArray returns byte array value i of a BYTE_ARRAY or
// FIXED_LEN_BYTE_ARRAY column. The result aliases v.Bytes.
func (v *Values) ByteArray(i int) []byte {
	if v.Type == format.FixedLenByteArray {
		return v.Bytes[i*v.TypeLength : (i+1)*v.TypeLength : (i+1)*v.TypeLength]
	}
	return v.Bytes[v.Offsets[i]:v.Offsets[i+1]:v.Offsets[i+1]]
}

// Value returns value i boxed in an interface, for tests and tools that
// print values (it allocates; hot paths use the typed slices): bool, int32,
// int64, [12]byte, float32, float64 or []byte (aliasing v.Bytes).
func (v *Values) Value(i int) any {
	switch v.Type {
	case format.Boolean:
		return v.Booleans[i]
	case format.Int32:
		return v.Int32s[i]
	case format.Int64:
		return v.Int64s[i]
	case format.Int96:
		return v.Int96s[i]
	case format.Float:
		return v.Floats[i]
	case format.Double:
		return v.Doubles[i]
	case format.ByteArray, format.FixedLenByteArray:
		return v.ByteArray(i)
	}
	panic(fmt.Sprintf("column: Value on unknown type %v", v.Type))
}

// appendFrom appends values idx of src (of the same type) to v: the
// dictionary lookup. Every index must be below src.Len() (the caller
// checked them while decoding, see Reader.decodeIndices); appendFrom panics
// otherwise. It fails, with v unchanged, only when the byte arrays looked
// up would pass maxByteArrayBytes. Its byte array cases are the twins of
// dictionary.BytesDict's gather (encoding/dictionary/bytes.go), which the
// Reader uses instead except under WithMaxMemory, whose check (lookupLimit)
// needs the indices before the gather.
func (v *Values) appendFrom(src *Values, idx []uint32) error {
	switch v.Type {
	case format.Boolean:
		v.Booleans = gather(v.Booleans, src.Booleans, idx)
	case format.Int32:
		v.Int32s = gather(v.Int32s, src.Int32s, idx)
	case format.Int64:
		v.Int64s = gather(v.Int64s, src.Int64s, idx)
	case format.Int96:
		v.Int96s = gather(v.Int96s, src.Int96s, idx)
	case format.Float:
		v.Floats = gather(v.Floats, src.Floats, idx)
	case format.Double:
		v.Doubles = gather(v.Doubles, src.Doubles, idx)
	case format.FixedLenByteArray:
		k := v.TypeLength
		pos := len(v.Bytes)
		v.Bytes = growCap(v.Bytes, len(idx)*k+gatherSlack)
		dst, sb := v.Bytes[:cap(v.Bytes)], src.Bytes[:cap(src.Bytes)]
		for _, x := range idx {
			o := int(x) * k
			if k <= gatherSlack && o+gatherSlack <= len(sb) && pos+gatherSlack <= len(dst) {
				move32(dst[pos:pos+gatherSlack:pos+gatherSlack], sb[o:o+gatherSlack:o+gatherSlack])
			} else {
				copy(dst[pos:pos+k], sb[o:o+k])
			}
			pos += k
		}
		v.Bytes = v.Bytes[:pos]
	case format.ByteArray:
		// One pass: the output is sized from the dictionary's mean value
		// length and grows (doubling) in the rare case it is short.
		offs := src.Offsets
		baseBytes, baseOffsets := len(v.Bytes), len(v.Offsets)
		if len(v.Offsets) == 0 {
			v.Offsets = append(v.Offsets, int32(len(v.Bytes)))
		}
		pos := len(v.Bytes)
		guess := int64(0)
		if n := src.Len(); n > 0 {
			guess = min(int64(len(idx))*int64(len(src.Bytes)/n), maxByteArrayBytes-int64(pos))
		}
		v.Bytes = growCap(v.Bytes, int(guess)+gatherSlack)
		v.Offsets = growLen(v.Offsets, len(idx))
		dst, sb := v.Bytes[:cap(v.Bytes)], src.Bytes[:cap(src.Bytes)]
		out := v.Offsets[len(v.Offsets)-len(idx):]
		for i, x := range idx {
			o := int(offs[x])
			l := int(offs[x+1]) - o
			if l+gatherSlack > len(dst)-pos {
				if l > maxByteArrayBytes-pos {
					v.Bytes, v.Offsets = v.Bytes[:baseBytes], v.Offsets[:baseOffsets]
					return fmt.Errorf("%w: more than %d bytes of byte array values in one batch", ErrLimit, maxByteArrayBytes)
				}
				v.Bytes = growCap(dst[:pos], l+gatherSlack)
				dst = v.Bytes[:cap(v.Bytes)]
			}
			if l <= gatherSlack && o+gatherSlack <= len(sb) {
				move32(dst[pos:pos+gatherSlack:pos+gatherSlack], sb[o:o+gatherSlack:o+gatherSlack])
			} else {
				copy(dst[pos:pos+l], sb[o:o+l])
			}
			pos += l
			out[i] = int32(pos)
		}
		v.Bytes = dst[:pos]
	default:
		return fmt.Errorf("%w: physical type %v", ErrUnsupported, v.Type)
	}
	return nil
}

// gatherSlack is the room appendFrom keeps past the values it writes, so
// that move32 may write a whole block there.
const gatherSlack = 32

var le = binary.LittleEndian

// move32 copies the 32 bytes of s to d as four words, without a call to
// memmove (copy and array assignments of a constant 32 bytes still call
// it). The gather loops use it for a value of at most gatherSlack bytes
// whose block fits in both slices (up to their capacity, resliced by the
// caller): the bytes it writes past the value are where the next value or
// the slack goes. Dictionary strings are mostly that short, and a memmove
// call per value was a third of the lookup's time.
func move32(d, s []byte) {
	d, s = d[:32:32], s[:32:32]
	a, b, c, e := le.Uint64(s[0:]), le.Uint64(s[8:]), le.Uint64(s[16:]), le.Uint64(s[24:])
	le.PutUint64(d[0:], a)
	le.PutUint64(d[8:], b)
	le.PutUint64(d[16:], c)
	le.PutUint64(d[24:], e)
}

// maxByteArrayBytes is the most bytes a Values can hold for BYTE_ARRAY, the
// range of its int32 offsets.
const maxByteArrayBytes = 1<<31 - 1

func gather[T any](dst, dict []T, idx []uint32) []T {
	dst = growLen(dst, len(idx))
	out := dst[len(dst)-len(idx):]
	// Four at a time through array pointers: one bounds check per value
	// (the dictionary's), not three.
	for len(idx) >= 4 {
		o, i := (*[4]T)(out), (*[4]uint32)(idx)
		o[0], o[1], o[2], o[3] = dict[i[0]], dict[i[1]], dict[i[2]], dict[i[3]]
		out, idx = out[4:], idx[4:]
	}
	for k, x := range idx {
		out[k] = dict[x]
	}
	return dst
}

// growLen extends s by n elements, reallocating only when its capacity is
// too small. The new elements are not cleared.
func growLen[T any](s []T, n int) []T {
	s = growCap(s, n)
	return s[:len(s)+n]
}

// growCap makes room for n more elements in s without changing its length.
// Large slices get 1/16 of headroom, so that the next page of about the
// same size (a data page holds its levels before its values) decompresses
// into them instead of into a second buffer as large.
func growCap[T any](s []T, n int) []T {
	if cap(s)-len(s) >= n {
		return s
	}
	c := len(s) + max(n, len(s))
	if c >= compactThreshold {
		c += c / 16
	}
	grown := make([]T, len(s), c)
	copy(grown, s)
	return grown
}
