// Package dictionary implements the dictionary encodings of Parquet,
// PLAIN_DICTIONARY (deprecated name) and RLE_DICTIONARY:
// https://github.com/apache/parquet-format/blob/master/Encodings.md#dictionary-encoding-plain_dictionary--2-and-rle_dictionary--8
//
// A column chunk stores its distinct values once in a dictionary page, PLAIN
// encoded, and its data pages as indices into that dictionary: one byte
// holding the bit width, then the indices in the RLE/bit-packing hybrid
// encoding (package rle) without length prefix.
//
// [Dict] and [BytesDict] hold a decoded dictionary page and turn index pages
// into values, checking every index against the dictionary size, a whole
// page per call; [DecodeIndices] decodes and checks the indices alone.
// [Encoder] and [BytesEncoder] build a dictionary
// and its indices and stop when the dictionary page would pass a byte-size
// limit, so that a writer can fall back to another encoding.
package dictionary

import (
	"errors"
	"fmt"
	"math"

	"github.com/pqcodec/pqcodec/encoding/plain"
	"github.com/pqcodec/pqcodec/encoding/rle"
	"github.com/pqcodec/pqcodec/internal/errs"
)

// ErrCorrupt is wrapped by every error returned for malformed input,
// including indices out of the dictionary.
var ErrCorrupt = errs.Corrupt("dictionary: corrupt input")

// ErrInvalidArgument is wrapped by errors for arguments no input could make
// valid, such as a negative count.
var ErrInvalidArgument = errors.New("dictionary: invalid argument")

// ErrTooLarge is wrapped by the error of a gather whose byte array values
// would pass 2 GiB, the range of their int32 offsets: a limit, not damage
// (a valid page may look its values up that many times). It does not match
// ErrCorrupt.
var ErrTooLarge = errors.New("dictionary: byte array values too large")

// ErrFull is returned by encoders when adding a new value would make the
// dictionary page larger than the configured limit.
var ErrFull = errors.New("dictionary: dictionary size limit reached")

// Value is the set of Go types of dictionary values other than byte arrays:
// BOOLEAN (bool), INT32, INT64, FLOAT, DOUBLE and INT96 ([12]byte).
type Value interface {
	bool | plain.Fixed
}

// chunk is the number of indices decoded at a time on the stack.
const chunk = 256

// indexReader wraps an rle.Decoder over an index page and checks indices.
type indexReader struct {
	rle  rle.Decoder
	size int   // dictionary size
	err  error // sticky out-of-range error
}

func (r *indexReader) reset(src []byte, count, size int) error {
	if count < 0 {
		return fmt.Errorf("%w: negative value count %d", ErrInvalidArgument, count)
	}
	width, stream, err := rle.SplitBitWidth(src)
	if err != nil {
		if count == 0 {
			// A page without values may omit even the bit width.
			_ = r.rle.Reset(nil, 0, 0)
			r.size, r.err = size, nil
			return nil
		}
		return fmt.Errorf("%w: index page: %w", ErrCorrupt, err)
	}
	if count > 0 && size == 0 {
		return fmt.Errorf("%w: %d indices into an empty dictionary", ErrCorrupt, count)
	}
	if err := r.rle.Reset(stream, width, count); err != nil {
		return fmt.Errorf("%w: index page: %w", ErrCorrupt, err)
	}
	r.size, r.err = size, nil
	return nil
}

// next decodes up to len(buf) indices; the caller checks them against the
// dictionary size (see outOfRange) as it uses them.
func (r *indexReader) next(buf []uint32) (int, error) {
	if r.err != nil {
		return 0, r.err
	}
	n, err := r.rle.Decode(buf)
	if err != nil && errors.Is(err, rle.ErrCorrupt) {
		err = fmt.Errorf("%w: index page: %w", ErrCorrupt, err)
	}
	return n, err
}

// outOfRange finds the first index of buf past the dictionary, makes the
// failure sticky and returns it.
func (r *indexReader) outOfRange(buf []uint32) error {
	bad := uint32(0)
	for _, ix := range buf {
		if int(ix) >= r.size {
			bad = ix
			break
		}
	}
	r.err = indexError(bad, r.size)
	return r.err
}

// indexError is the error for the index ix past a dictionary of size
// values, the one message of every decoder of the package that checks
// indices itself (rle.DecodeIndices words its own).
func indexError(ix uint32, size int) error {
	return fmt.Errorf("%w: index %d out of dictionary of %d values", ErrCorrupt, ix, size)
}

// DecodeIndices appends the count indices of the index page src to dst,
// checking each against dictSize, and returns the extended slice. On error
// dst keeps its length.
func DecodeIndices(dst []uint32, src []byte, count, dictSize int) ([]uint32, error) {
	if count < 0 {
		return dst, fmt.Errorf("%w: negative value count %d", ErrInvalidArgument, count)
	}
	if count == 0 {
		// A page without values may omit even the bit width.
		return dst, nil
	}
	width, stream, err := rle.SplitBitWidth(src)
	if err != nil {
		return dst, fmt.Errorf("%w: index page: %w", ErrCorrupt, err)
	}
	if dictSize <= 0 {
		return dst, fmt.Errorf("%w: %d indices into an empty dictionary", ErrCorrupt, count)
	}
	limit := uint32(min(dictSize-1, math.MaxUint32))
	start := len(dst)
	if dst, err = appendGrow(dst, count); err != nil {
		return dst, err
	}
	// The whole page at once, each index checked as it is decoded.
	if _, err := rle.DecodeIndices(dst[:start], stream, width, count, limit); err != nil {
		return dst[:start], fmt.Errorf("%w: index page: %w", ErrCorrupt, err)
	}
	return dst, nil
}

// appendGrow extends dst by n elements, growing it at most once.
func appendGrow[T any](dst []T, n int) ([]T, error) {
	if n < 0 {
		return dst, fmt.Errorf("%w: negative value count %d", ErrInvalidArgument, n)
	}
	if cap(dst)-len(dst) < n {
		grown := make([]T, len(dst), len(dst)+n)
		copy(grown, dst)
		dst = grown
	}
	return dst[:len(dst)+n], nil
}
