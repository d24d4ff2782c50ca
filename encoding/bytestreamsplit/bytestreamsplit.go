// Package bytestreamsplit implements the Parquet BYTE_STREAM_SPLIT encoding
// for FLOAT, DOUBLE, INT32, INT64 and FIXED_LEN_BYTE_ARRAY, decode and encode.
// See https://github.com/apache/parquet-format/blob/master/Encodings.md#byte-stream-split-byte_stream_split--9.
//
// A page of N values of K bytes holds K streams of N bytes: stream j holds
// byte j (in little-endian order) of every value. K is 4 for FLOAT and
// INT32, 8 for DOUBLE and INT64, and the type length for
// FIXED_LEN_BYTE_ARRAY; N is the number of non-null values in the page.
//
// Whole-page decoders append to caller-provided slices and allocate nothing
// once those have enough capacity; [Decoder] decodes a page in pieces, with
// the streaming shape shared by every encoding package (package encoding). They return an
// error wrapping [ErrCorrupt], never panic, when the page length is not a
// multiple of K. All functions are safe for concurrent use on distinct
// arguments; dst and src must not overlap.
package bytestreamsplit

// decode_amd64.s and encode_amd64.s, the SSE2 and AVX2 kernels, are
// generated, one algorithm for every value size and instruction set:
//
//go:generate go run ./internal/gen -out .

import (
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/pqcodec/pqcodec/internal/errs"
)

var (
	// ErrCorrupt is wrapped by errors reporting a page whose length is not
	// a multiple of the value size.
	ErrCorrupt = errs.Corrupt("bytestreamsplit: corrupt input")
	// ErrInvalidArgument is wrapped by errors reporting a bad size argument
	// or fixed-length input that is not a whole number of values.
	ErrInvalidArgument = errors.New("bytestreamsplit: invalid argument")
)

// Value is the set of fixed-width types BYTE_STREAM_SPLIT encodes, other
// than FIXED_LEN_BYTE_ARRAY.
type Value interface {
	float32 | float64 | int32 | int64
}

// size returns the byte size of T.
func size[T Value]() int {
	var z T
	switch any(z).(type) {
	case float32, int32:
		return 4
	default:
		return 8
	}
}

// count returns the number of k-byte values in a page of n bytes.
func count(n, k int) (int, error) {
	if n%k != 0 {
		return 0, fmt.Errorf("%w: %d bytes are not a whole number of %d-byte values", ErrCorrupt, n, k)
	}
	return n / k, nil
}

// Decode decodes the BYTE_STREAM_SPLIT page src of values of type T and
// appends them to dst, returning the extended slice. dst may be nil; it is
// grown by capacity only when needed. On error dst is returned unchanged.
func Decode[T Value](dst []T, src []byte) ([]T, error) {
	n, err := count(len(src), size[T]())
	if err != nil {
		return dst, err
	}
	n0 := len(dst)
	dst = slices.Grow(dst, n)[:n0+n]
	decode(dst[n0:], src, n)
	return dst, nil
}

// DecodeFloat32 is [Decode] for FLOAT pages.
func DecodeFloat32(dst []float32, src []byte) ([]float32, error) { return Decode(dst, src) }

// DecodeFloat64 is [Decode] for DOUBLE pages.
func DecodeFloat64(dst []float64, src []byte) ([]float64, error) { return Decode(dst, src) }

// DecodeInt32 is [Decode] for INT32 pages.
func DecodeInt32(dst []int32, src []byte) ([]int32, error) { return Decode(dst, src) }

// DecodeInt64 is [Decode] for INT64 pages.
func DecodeInt64(dst []int64, src []byte) ([]int64, error) { return Decode(dst, src) }

// DecodeFixedLenByteArray decodes the BYTE_STREAM_SPLIT page src of
// size-byte FIXED_LEN_BYTE_ARRAY values and appends them back to back to dst,
// returning the extended slice. size must be positive.
func DecodeFixedLenByteArray(dst, src []byte, size int) ([]byte, error) {
	if size <= 0 {
		return dst, fmt.Errorf("%w: size %d", ErrInvalidArgument, size)
	}
	n, err := count(len(src), size)
	if err != nil {
		return dst, err
	}
	n0 := len(dst)
	dst = slices.Grow(dst, len(src))[:n0+len(src)]
	decodeFixed(dst[n0:], src, n, size)
	return dst, nil
}

// Encode appends the BYTE_STREAM_SPLIT encoding of src to dst and returns
// the extended slice. dst may be nil.
func Encode[T Value](dst []byte, src []T) []byte {
	n0 := len(dst)
	size := len(src) * size[T]()
	dst = slices.Grow(dst, size)[:n0+size]
	encode(dst[n0:], src)
	return dst
}

// EncodeFloat32 is [Encode] for FLOAT values.
func EncodeFloat32(dst []byte, src []float32) []byte { return Encode(dst, src) }

// EncodeFloat64 is [Encode] for DOUBLE values.
func EncodeFloat64(dst []byte, src []float64) []byte { return Encode(dst, src) }

// EncodeInt32 is [Encode] for INT32 values.
func EncodeInt32(dst []byte, src []int32) []byte { return Encode(dst, src) }

// EncodeInt64 is [Encode] for INT64 values.
func EncodeInt64(dst []byte, src []int64) []byte { return Encode(dst, src) }

// EncodeFixedLenByteArray appends the BYTE_STREAM_SPLIT encoding of the
// size-byte values held back to back in src to dst and returns the extended
// slice. It returns an error wrapping [ErrInvalidArgument] when size is not
// positive or len(src) is not a multiple of it.
func EncodeFixedLenByteArray(dst, src []byte, size int) ([]byte, error) {
	if size <= 0 || len(src)%size != 0 {
		return dst, fmt.Errorf("%w: %d bytes are not a whole number of %d-byte values", ErrInvalidArgument, len(src), size)
	}
	n0 := len(dst)
	dst = slices.Grow(dst, len(src))[:n0+len(src)]
	encodeFixed(dst[n0:], src, len(src)/size, size)
	return dst, nil
}

// Decoder decodes one BYTE_STREAM_SPLIT page of values of type T in pieces.
// The zero value is ready for [Decoder.Reset]. A Decoder keeps a reference
// to the page passed to Reset and must not be used concurrently.
type Decoder[T Value] struct {
	src  []byte
	n    int // values in the page
	next int // index of the next value
}

// Reset starts decoding page src. It returns an error wrapping [ErrCorrupt]
// when len(src) is not a multiple of the value size, leaving d empty:
// [Decoder.Decode] then returns 0, [io.EOF].
func (d *Decoder[T]) Reset(src []byte) error {
	*d = Decoder[T]{}
	n, err := count(len(src), size[T]())
	if err != nil {
		return err
	}
	d.src, d.n = src, n
	return nil
}

// Remaining returns the number of values not yet decoded.
func (d *Decoder[T]) Remaining() int { return d.n - d.next }

// Decode writes up to len(dst) of the next values of the page into dst and
// returns how many it wrote; 0, [io.EOF] once every value is decoded. It
// never fails otherwise: the page was checked by Reset.
func (d *Decoder[T]) Decode(dst []T) (int, error) {
	c := min(len(dst), d.n-d.next)
	if c == 0 {
		if len(dst) > 0 {
			return 0, io.EOF
		}
		return 0, nil
	}
	decode(dst[:c], d.src[d.next:], d.n)
	d.next += c
	return c, nil
}
