// Package plain implements the PLAIN encoding of Parquet for every physical
// type: https://github.com/apache/parquet-format/blob/master/Encodings.md#plain-plain--0
//
// Fixed-width values (INT32, INT64, INT96, FLOAT, DOUBLE) are stored back to
// back in little-endian order; BOOLEAN values are bit-packed, least
// significant bit first; BYTE_ARRAY values are a 4-byte little-endian length
// followed by the bytes; FIXED_LEN_BYTE_ARRAY values are stored back to back
// with the length taken from the schema.
//
// Decoders append to the caller's slices, growing them only when their
// capacity is too small, and never allocate more than the input length
// justifies. On little-endian machines fixed-width decode and encode are a
// single memory copy. All functions are safe for concurrent use; none retains
// or modifies its input.
package plain

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/pqcodec/pqcodec/internal/unsafecast"
)

// ErrCorrupt is wrapped by every error returned for malformed input.
var ErrCorrupt = errors.New("plain: corrupt input")

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
// int32, so values may not grow past math.MaxInt32 bytes. The slices grow by
// appending, so by at most twice the length of src.
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
	if len(offsets) == 0 {
		offsets = append(offsets, int32(len(values)))
	}
	for i := 0; i < len(src); {
		if len(src)-i < 4 {
			return v0, o0, fmt.Errorf("%w: truncated length of value %d at offset %d", ErrCorrupt, len(offsets)-max(len(o0), 1), i)
		}
		n := int(binary.LittleEndian.Uint32(src[i:]))
		i += 4
		if n > len(src)-i {
			return v0, o0, fmt.Errorf("%w: value %d at offset %d has length %d, only %d bytes left", ErrCorrupt, len(offsets)-max(len(o0), 1), i-4, n, len(src)-i)
		}
		// Short values move as one fixed-size block when both sides have
		// room: the excess bytes land in spare capacity that the values
		// that follow overwrite.
		if l := len(values); n <= 16 && cap(values)-l >= 16 && len(src)-i >= 16 {
			*(*[16]byte)(values[l : l+16]) = *(*[16]byte)(src[i : i+16])
			values = values[:l+n]
		} else {
			values = append(values, src[i:i+n]...)
		}
		i += n
		offsets = append(offsets, int32(len(values)))
	}
	return values, offsets, nil
}

// EncodeByteArray appends the BYTE_ARRAY encoding of the values described by
// values and offsets (value i is values[offsets[i]:offsets[i+1]]; len(offsets)
// is one more than the number of values) to dst. It panics if an offset is
// out of range or decreasing.
func EncodeByteArray(dst []byte, values []byte, offsets []int32) []byte {
	if len(offsets) < 2 {
		return dst
	}
	n := len(offsets) - 1
	size := 4*n + int(offsets[n]-offsets[0])
	dst = slices.Grow(dst, size)
	out := dst[len(dst) : len(dst)+size]
	pos := 0
	for i := range n {
		v := values[offsets[i]:offsets[i+1]]
		l := len(v)
		binary.LittleEndian.PutUint32(out[pos:], uint32(l))
		pos += 4
		// As in DecodeByteArray: a short value moves as one block when the
		// excess lands on bytes written next.
		if l <= 16 && len(out)-pos >= 16 && len(values)-int(offsets[i]) >= 16 {
			*(*[16]byte)(out[pos : pos+16]) = *(*[16]byte)(values[offsets[i] : offsets[i]+16])
		} else {
			copy(out[pos:pos+l], v)
		}
		pos += l
	}
	return dst[:len(dst)+size]
}
