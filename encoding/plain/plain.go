// Package plain implements the PLAIN encoding of Parquet for every physical
// type: https://github.com/apache/parquet-format/blob/master/Encodings.md#plain-plain--0
//
// Fixed-width values (INT32, INT64, INT96, FLOAT, DOUBLE) are stored back to
// back in little-endian order; BOOLEAN values are bit-packed, least
// significant bit first; BYTE_ARRAY values are a 4-byte little-endian length
// followed by the bytes; FIXED_LEN_BYTE_ARRAY values are stored back to back
// with the length taken from the schema.
//
// Whole-page decoders append to the caller's slices, growing them only when
// their capacity is too small, and never allocate more than the input length
// justifies; [Decoder] decodes fixed-width values in pieces, with the
// streaming shape shared by every encoding package (package encoding). On little-endian machines fixed-width decode and encode are a
// single memory copy. Functions are safe for concurrent use; none retains or
// modifies its input.
package plain

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/pqcodec/pqcodec/internal/errs"
	"github.com/pqcodec/pqcodec/internal/unsafecast"
)

// ErrCorrupt is wrapped by every error returned for malformed input.
var ErrCorrupt = errs.Corrupt("plain: corrupt input")

// ErrInvalidArgument is wrapped by errors for arguments that no input could
// make valid, such as a non-positive fixed length.
var ErrInvalidArgument = errors.New("plain: invalid argument")

// Fixed is the set of Go types for fixed-width physical types: INT32
// (int32/uint32), INT64 (int64/uint64), FLOAT (float32), DOUBLE (float64) and
// INT96 ([12]byte, as stored).
type Fixed = unsafecast.Fixed

// Size returns the encoded size in bytes of one value of type T.
func Size[T Fixed]() int { return unsafecast.Size[T]() }

// Decode appends to dst the values of type T stored in src, which must be a
// whole number of values, and returns the extended slice. dst may be nil; src
// is not retained.
func Decode[T Fixed](dst []T, src []byte) ([]T, error) {
	size := unsafecast.Size[T]()
	if len(src)%size != 0 {
		return dst, fmt.Errorf("%w: %d bytes is not a multiple of the %d-byte value size", ErrCorrupt, len(src), size)
	}
	n := len(src) / size
	dst = slices.Grow(dst, n)
	unsafecast.Decode(dst[len(dst):len(dst)+n], src)
	return dst[:len(dst)+n], nil
}

// Encode appends the PLAIN encoding of src to dst and returns the extended
// slice. dst may be nil.
func Encode[T Fixed](dst []byte, src []T) []byte {
	n := len(src) * unsafecast.Size[T]()
	dst = slices.Grow(dst, n)
	unsafecast.Encode(dst[len(dst):len(dst)+n], src)
	return dst[:len(dst)+n]
}

// DecodeBoolean appends to dst the n booleans bit-packed (LSB first) at the
// start of src, and returns the extended slice. It fails if src holds fewer
// than ceil(n/8) bytes; bytes past them are ignored, as are the padding bits
// of the last byte.
func DecodeBoolean(dst []bool, src []byte, n int) ([]bool, error) {
	if n < 0 {
		return dst, fmt.Errorf("%w: negative value count %d", ErrInvalidArgument, n)
	}
	if need := (n + 7) / 8; len(src) < need {
		return dst, fmt.Errorf("%w: %d booleans need %d bytes, have %d", ErrCorrupt, n, need, len(src))
	}
	dst = slices.Grow(dst, n)
	unsafecast.ExpandBits(dst[len(dst):len(dst)+n], src)
	return dst[:len(dst)+n], nil
}

// EncodeBoolean appends the bit-packed encoding of src to dst, padding the
// last byte with zero bits, and returns the extended slice.
func EncodeBoolean(dst []byte, src []bool) []byte {
	nb := (len(src) + 7) / 8
	dst = slices.Grow(dst, nb)
	unsafecast.PackBits(dst[len(dst):len(dst)+nb], src)
	return dst[:len(dst)+nb]
}

// DecodeFixedLenByteArray appends the FIXED_LEN_BYTE_ARRAY values of src,
// size bytes each, to dst as one flat byte slice (value i is
// dst[i*size:(i+1)*size] relative to the original length), and returns it.
// len(src) must be a multiple of size.
func DecodeFixedLenByteArray(dst, src []byte, size int) ([]byte, error) {
	if size <= 0 {
		return dst, fmt.Errorf("%w: fixed length %d", ErrInvalidArgument, size)
	}
	if len(src)%size != 0 {
		return dst, fmt.Errorf("%w: %d bytes is not a multiple of the %d-byte value size", ErrCorrupt, len(src), size)
	}
	return append(dst, src...), nil
}

// EncodeFixedLenByteArray appends the flat values of src, size bytes each,
// to dst. It fails if len(src) is not a multiple of size.
func EncodeFixedLenByteArray(dst, src []byte, size int) ([]byte, error) {
	if size <= 0 || len(src)%size != 0 {
		return dst, fmt.Errorf("%w: %d bytes of %d-byte values", ErrInvalidArgument, len(src), size)
	}
	return append(dst, src...), nil
}

// ByteArrayCount validates the BYTE_ARRAY values of src and returns how many
// there are and their total length in bytes, without copying them.
func ByteArrayCount(src []byte) (count, total int, err error) {
	for i := 0; i < len(src); count++ {
		if len(src)-i < 4 {
			return count, total, fmt.Errorf("%w: truncated length of value %d at offset %d", ErrCorrupt, count, i)
		}
		n := int(uint32(src[i]) | uint32(src[i+1])<<8 | uint32(src[i+2])<<16 | uint32(src[i+3])<<24)
		i += 4
		if n > len(src)-i {
			return count, total, fmt.Errorf("%w: value %d at offset %d has length %d, only %d bytes left", ErrCorrupt, count, i-4, n, len(src)-i)
		}
		i += n
		total += n
	}
	return count, total, nil
}

// DecodeByteArray appends every BYTE_ARRAY value of src to values, and their
// end offsets to offsets, and returns both slices. If offsets is empty, the
// start offset len(values) is appended first, so that value i is
// values[offsets[i]:offsets[i+1]]. On error both slices come back with their
// original lengths. Decoding may write into the spare capacity of values
// past the returned length, never past its capacity. Offsets are
// int32, so values may not grow past math.MaxInt32 bytes. values grows once,
// by at most len(src) bytes, if its spare capacity is smaller than that;
// offsets grows by at most one entry per 4 bytes of src.
func DecodeByteArray(values []byte, offsets []int32, src []byte) ([]byte, []int32, error) {
	v0, o0 := values, offsets
	if uint64(len(values))+uint64(len(src)) > math.MaxInt32 {
		// Rare: check the total first so that offsets cannot overflow.
		_, total, err := ByteArrayCount(src)
		if err != nil {
			return values, offsets, err
		}
		if len(values)+total > math.MaxInt32 {
			return values, offsets, fmt.Errorf("%w: %d bytes of values overflow int32 offsets", ErrCorrupt, len(values)+total)
		}
	}
	// The values of src take fewer than len(src) bytes, so one capacity
	// check here serves the whole page: they are copied into buf, the
	// spare capacity of values, at w.
	values = slices.Grow(values, len(src))
	base := len(values)
	buf := values[base:cap(values)]
	if len(offsets) == 0 {
		offsets = append(offsets, int32(base))
	}
	w := 0
	for i := 0; i < len(src); {
		// Short values go in batches through a loop without calls; room
		// caps each batch at what the rest of src can hold, so offsets
		// grows by at most one entry per 4 bytes of src.
		room := max(1, min(256, (len(src)-i)/4))
		offsets = slices.Grow(offsets, room)
		o := len(offsets)
		var k int
		i, w, k = decodeShortValues(buf, src, offsets[o:o+room], i, w, base)
		offsets = offsets[:o+k]
		if k == room || i == len(src) {
			continue
		}
		// The value at i is long, damaged, or too close to the end of src
		// or buf for whole blocks: copy values one by one until one suits
		// the short loop again.
		for i < len(src) {
			if len(src)-i < 4 {
				return v0, o0, fmt.Errorf("%w: truncated length of value %d at offset %d", ErrCorrupt, len(offsets)-max(len(o0), 1), i)
			}
			n := int(binary.LittleEndian.Uint32(src[i:]))
			if n <= shortValue && len(src)-i >= 4+shortValue && len(buf)-w >= shortValue {
				break
			}
			i += 4
			if n > len(src)-i {
				return v0, o0, fmt.Errorf("%w: value %d at offset %d has length %d, only %d bytes left", ErrCorrupt, len(offsets)-max(len(o0), 1), i-4, n, len(src)-i)
			}
			w += copy(buf[w:w+n], src[i:i+n])
			i += n
			offsets = append(offsets, int32(base+w))
		}
	}
	return values[:base+w], offsets, nil
}

// decodeShortValues decodes the values of src from offset i into buf at w,
// and their end offsets base+w into offs, for as long as each is short
// enough for [copyShort] and src and buf have room for its whole blocks. It
// returns the new i and w and the number of values decoded, at most
// len(offs). It leaves every check that fails to the caller. It makes no
// calls, so that its loop keeps its state in registers.
func decodeShortValues(buf, src []byte, offs []int32, i, w, base int) (int, int, int) {
	k := 0
	for ; k < len(offs); k++ {
		if len(src)-i < 4+shortValue || len(buf)-w < shortValue {
			break
		}
		n := binary.LittleEndian.Uint32(src[i : i+4])
		if n > shortValue {
			break
		}
		copyShort((*[shortValue]byte)(buf[w:w+shortValue]), (*[shortValue]byte)(src[i+4:i+4+shortValue]), int(n))
		i += 4 + int(n)
		w += int(n)
		offs[k] = int32(base + w)
	}
	return i, w, k
}

// shortValue is the length up to which byte array values are moved by
// [copyShort] rather than by a call of the runtime's memmove.
const shortValue = 64

// copyShort copies the first n <= 64 bytes of src to dst in whole 16-byte
// blocks, so it may write up to 64 bytes of dst: callers use it only where
// the bytes past n are spare, or are written next. For the short values
// that dominate string columns this costs a few moves where a memmove call
// costs a call and a dispatch on the length.
func copyShort(dst, src *[shortValue]byte, n int) {
	// The first 32 bytes whatever n: a branch on n > 16, random for
	// strings of 4-24 bytes, mispredicts at a cost above a second move.
	// 16-byte moves: the compiler turns a 32-byte array copy into a
	// memmove call.
	*(*[16]byte)(dst[0:16]) = *(*[16]byte)(src[0:16])
	*(*[16]byte)(dst[16:32]) = *(*[16]byte)(src[16:32])
	if n > 32 {
		*(*[16]byte)(dst[32:48]) = *(*[16]byte)(src[32:48])
		*(*[16]byte)(dst[48:64]) = *(*[16]byte)(src[48:64])
	}
}

// EncodeByteArray appends the BYTE_ARRAY encoding of the values described by
// values and offsets (value i is values[offsets[i]:offsets[i+1]]; len(offsets)
// is one more than the number of values) to dst. It panics if an offset is
// out of range or decreasing. It may read bytes of values past the last
// offset, never past len(values).
func EncodeByteArray(dst []byte, values []byte, offsets []int32) []byte {
	if len(offsets) < 2 {
		return dst
	}
	n := len(offsets) - 1
	values = values[:len(values):len(values)] // offsets past len(values) panic
	first, last := int(offsets[0]), int(offsets[n])
	_ = values[first:last]
	size := 4*n + last - first
	dst = slices.Grow(dst, size)
	out := dst[len(dst) : len(dst)+size]
	pos := 0
	for k := 1; k < len(offsets); {
		pos, k = encodeShortValues(out, values, offsets, pos, k)
		// Value k-1 is long, or too close to the end of out or values for
		// a block move: copy values one by one until one suits the short
		// loop again (the negation of its test, so each pass moves on).
		// Slicing checks their offsets, so the lengths add up to
		// last-first and out is never too short.
		for ; k < len(offsets); k++ {
			start, end := int(offsets[k-1]), int(offsets[k])
			if l := end - start; l >= 0 && l <= shortValue && len(values)-start >= shortValue && len(out)-pos >= 4+shortValue {
				break
			}
			v := values[start:end]
			binary.LittleEndian.PutUint32(out[pos:], uint32(len(v)))
			pos += 4 + copy(out[pos+4:], v)
		}
	}
	return dst[:len(dst)+size]
}

// encodeShortValues encodes values k-1, k, ... into out at pos for as long as
// they are short enough for [copyShort] and out and values have room for
// its whole blocks, and returns the position and index after the last one
// encoded. It leaves every check that fails to the caller; the bytes past a
// value that copyShort writes are overwritten by the values that follow.
// It makes no calls, so that its loop keeps its state in registers.
func encodeShortValues(out, values []byte, offsets []int32, pos, k int) (int, int) {
	start := int(offsets[k-1])
	for ; k < len(offsets); k++ {
		end := int(offsets[k])
		l := end - start
		if l < 0 || l > shortValue || len(values)-start < shortValue || len(out)-pos < 4+shortValue {
			break
		}
		binary.LittleEndian.PutUint32(out[pos:pos+4], uint32(l))
		copyShort((*[shortValue]byte)(out[pos+4:pos+4+shortValue]), (*[shortValue]byte)(values[start:start+shortValue]), l)
		pos += 4 + l
		start = end
	}
	return pos, k
}
