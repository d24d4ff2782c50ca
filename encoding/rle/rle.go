// Package rle implements the RLE/bit-packing hybrid encoding of Parquet, used
// for repetition and definition levels, dictionary indices and booleans:
// https://github.com/apache/parquet-format/blob/master/Encodings.md#run-length-encoding--bit-packing-hybrid-rle--3
//
// A stream is a sequence of runs, each starting with a ULEB128 header. A
// header with its low bit set announces (header>>1) groups of 8 values
// bit-packed LSB first (see package internal/bitpack), the last group padded
// with zero bits; a header with its low bit clear announces a run of
// (header>>1) copies of one value stored in ceil(width/8) little-endian
// bytes. Bit widths range from 0 to 32.
//
// The stream appears in three framings, all handled here: bare (levels of
// DataPageV2, whose length is in the page header), prefixed by its 4-byte
// little-endian length (levels of DataPage v1 and RLE-encoded BOOLEAN values;
// see [SplitPrefix]) and prefixed by a one-byte bit width (dictionary indices;
// see [SplitBitWidth]).
//
// Decoders need the number of values to produce: a run that would produce
// more values than remain, or that needs bytes past the end of the input, is
// an error wrapping [ErrCorrupt]; zero-length runs are accepted, and a
// bit-packed run may stop early when the padding of its last group would be
// past the end of the input. Decoding never allocates more than the declared
// count of values.
package rle

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"

	"github.com/pqcodec/pqcodec/internal/errs"
)

// ErrCorrupt is wrapped by every error returned for malformed input.
var ErrCorrupt = errs.Corrupt("rle: corrupt input")

// ErrInvalidArgument is wrapped by errors for arguments that no input could
// make valid: a bit width above 32, a negative count, a value wider than the
// bit width given to an encoder.
var ErrInvalidArgument = errors.New("rle: invalid argument")

// MaxBitWidth is the largest bit width of the hybrid encoding.
const MaxBitWidth = 32

// BitWidth returns the number of bits needed to store max, the width a
// writer should use for values in [0, max].
func BitWidth(max uint32) uint { return uint(bits.Len32(max)) }

// SplitPrefix splits src, which starts with a 4-byte little-endian length,
// into the stream it announces and the bytes that follow it.
func SplitPrefix(src []byte) (stream, rest []byte, err error) {
	if len(src) < 4 {
		return nil, src, fmt.Errorf("%w: %d bytes, need a 4-byte length prefix", ErrCorrupt, len(src))
	}
	n := binary.LittleEndian.Uint32(src)
	if uint64(n) > uint64(len(src)-4) {
		return nil, src, fmt.Errorf("%w: length prefix %d past the end of %d bytes", ErrCorrupt, n, len(src)-4)
	}
	return src[4 : 4+n], src[4+n:], nil
}

// SplitBitWidth splits src, which starts with a one-byte bit width as
// dictionary indices do, into the width and the stream that follows.
func SplitBitWidth(src []byte) (width uint, stream []byte, err error) {
	if len(src) < 1 {
		return 0, src, fmt.Errorf("%w: missing bit width byte", ErrCorrupt)
	}
	if src[0] > MaxBitWidth {
		return 0, src, fmt.Errorf("%w: bit width %d", ErrCorrupt, src[0])
	}
	return uint(src[0]), src[1:], nil
}
