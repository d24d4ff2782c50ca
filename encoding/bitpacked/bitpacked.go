// Package bitpacked implements the deprecated BIT_PACKED encoding of Parquet
// levels: https://github.com/apache/parquet-format/blob/master/Encodings.md#bit-packed-deprecated-bit_packed--4
//
// Values are packed back to back from the most significant bit of each byte
// to the least significant one, the opposite of the RLE/bit-packing hybrid,
// and the last byte is padded with zero bits. The spec's example packs the
// values 0..7 with bit width 3 into 0b00000101 0b00111001 0b01110111. There is
// no header: the number of values comes from the page header, so the data
// takes exactly [ByteCount] bytes.
//
// All functions are safe for concurrent use and never retain their inputs.
package bitpacked

import (
	"errors"
	"fmt"
	"slices"

	"github.com/pqcodec/pqcodec/internal/errs"
)

// ErrCorrupt is wrapped by every error returned for malformed input.
var ErrCorrupt = errs.Corrupt("bitpacked: corrupt input")

// ErrInvalidArgument is wrapped by errors for arguments that no input could
// make valid: a bit width above 32, a negative count, a value wider than the
// bit width given to the encoder.
var ErrInvalidArgument = errors.New("bitpacked: invalid argument")

// MaxBitWidth is the largest bit width accepted.
const MaxBitWidth = 32

// ByteCount returns the size in bytes of count values of width bits:
// ceil(count*width/8).
func ByteCount(count int, width uint) int {
	return int((uint64(count)*uint64(width) + 7) / 8)
}

// Decode appends to dst the count values of width bits packed at the start
// of src, and returns the extended slice and the bytes of src after them. It
// fails, leaving dst unchanged, if src is shorter than ByteCount(count, width).
func Decode(dst []uint32, src []byte, width uint, count int) ([]uint32, []byte, error) {
	if width > MaxBitWidth || count < 0 {
		return dst, src, fmt.Errorf("%w: width %d, count %d", ErrInvalidArgument, width, count)
	}
	size := ByteCount(count, width)
	if len(src) < size {
		return dst, src, fmt.Errorf("%w: %d values of %d bits need %d bytes, have %d", ErrCorrupt, count, width, size, len(src))
	}
	dst = slices.Grow(dst, count)
	out := dst[len(dst) : len(dst)+count]
	if width == 0 {
		clear(out)
		return dst[:len(dst)+count], src[size:], nil
	}
	in := src[:size]
	var acc uint64 // pending bits, right-aligned
	var bits uint  // number of pending bits
	for i := range out {
		for bits < width {
			acc = acc<<8 | uint64(in[0])
			in = in[1:]
			bits += 8
		}
		bits -= width
		out[i] = uint32(acc >> bits & (1<<width - 1))
	}
	return dst[:len(dst)+count], src[size:], nil
}

// Encode appends the BIT_PACKED encoding of src with the given bit width to
// dst and returns the extended slice. It fails, leaving dst unchanged, if
// width > 32 or a value does not fit in width bits.
func Encode(dst []byte, src []uint32, width uint) ([]byte, error) {
	if width > MaxBitWidth {
		return dst, fmt.Errorf("%w: bit width %d", ErrInvalidArgument, width)
	}
	if width < 32 {
		var or uint32
		for _, v := range src {
			or |= v
		}
		if or>>width != 0 {
			return dst, fmt.Errorf("%w: value wider than %d bits", ErrInvalidArgument, width)
		}
	}
	size := ByteCount(len(src), width)
	dst = slices.Grow(dst, size)
	out := dst[len(dst) : len(dst)+size]
	var acc uint64
	var bits uint
	pos := 0
	for _, v := range src {
		acc = acc<<width | uint64(v)
		bits += width
		for bits >= 8 {
			bits -= 8
			out[pos] = byte(acc >> bits)
			pos++
		}
	}
	if bits > 0 {
		out[pos] = byte(acc << (8 - bits))
	}
	return dst[:len(dst)+size], nil
}
