// Package delta implements the Parquet delta encodings: DELTA_BINARY_PACKED
// for INT32 and INT64, DELTA_LENGTH_BYTE_ARRAY for BYTE_ARRAY, and
// DELTA_BYTE_ARRAY for BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY, decode and
// encode. See
// https://github.com/apache/parquet-format/blob/master/Encodings.md#delta-encoding-delta_binary_packed--5,
// #delta-length-byte-array-delta_length_byte_array--6 and
// #delta-strings-delta_byte_array--7.
//
// Whole-page decoders append to caller-provided slices and allocate nothing
// once those slices have enough capacity; [Decoder] decodes a
// DELTA_BINARY_PACKED page in pieces, with the streaming shape shared by
// every encoding package (package encoding). Variable-length values are returned as
// one flat byte slice plus offsets (see [DecodeLengthByteArray]), never as
// one slice per value.
//
// All integer arithmetic wraps at the physical type's width, so any min delta
// a writer may have computed (including 64-bit min deltas of INT32 columns)
// decodes to the values it encoded. INT32 miniblocks may be up to 64 bits
// wide, as writers that compute INT32 deltas in 64 bits write them (DuckDB,
// for full-range columns): their low 32 bits give the values exactly. Encoders append to a dst byte slice and
// always use blocks of 128 values in 4 miniblocks of 32, as the reference
// writers do.
//
// Every function is safe for concurrent use on distinct arguments. Decoders
// never panic on bad input: they return errors wrapping [ErrCorrupt] (or
// [ErrTooLarge] when the output would not fit its offsets), and never grow a
// buffer past what the page's declared value count and its length justify.
//
// Each header has one parser: the page header (parseHeader) and the block
// header (blockHeader), used by [Decoder]'s chunk-by-chunk path and by its
// whole-chunk fast path alike, so both report the same errors.
package delta

import (
	"errors"

	"github.com/pqcodec/pqcodec/internal/errs"
)

var (
	// ErrCorrupt is wrapped by every error reporting malformed or truncated
	// input.
	ErrCorrupt = errs.Corrupt("delta: corrupt input")
	// ErrTooLarge is wrapped by errors reporting output whose total byte
	// length would not fit the int32 offsets.
	ErrTooLarge = errors.New("delta: output too large")
	// ErrInvalidArgument is wrapped by errors reporting bad arguments to an
	// encoder, such as a fixed-length input that is not a whole number of
	// values.
	ErrInvalidArgument = errors.New("delta: invalid argument")
)
