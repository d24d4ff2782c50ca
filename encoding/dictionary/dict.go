package dictionary

import (
	"fmt"
	"math"

	"github.com/pqcodec/pqcodec/encoding/plain"
	"github.com/pqcodec/pqcodec/encoding/rle"
	"github.com/pqcodec/pqcodec/internal/unsafecast"
)

// Dict is a decoded dictionary of fixed-size values. The zero value is an
// empty dictionary; [Dict.Reset] loads a dictionary page. A Dict does not
// retain the page; it may be read by several goroutines at once but not
// while Reset runs.
type Dict[T Value] struct {
	values []T
}

// Reset loads the PLAIN-encoded dictionary page src holding numValues
// values, reusing the capacity of the previous dictionary. Missing values
// are errors wrapping [ErrCorrupt]; bytes after the last value are ignored,
// as parquet-java, arrow-cpp, arrow-rs and DuckDB ignore them.
func (d *Dict[T]) Reset(src []byte, numValues int) error {
	d.values = d.values[:0]
	if numValues < 0 {
		return fmt.Errorf("%w: negative value count %d", ErrInvalidArgument, numValues)
	}
	var err error
	switch v := any(&d.values).(type) {
	case *[]bool:
		if len(src) < (numValues+7)/8 {
			return fmt.Errorf("%w: %d booleans in a %d-byte page", ErrCorrupt, numValues, len(src))
		}
		*v, err = plain.DecodeBoolean(*v, src[:(numValues+7)/8], numValues)
	case *[]int32:
		*v, err = decodeFixed(*v, src, numValues)
	case *[]uint32:
		*v, err = decodeFixed(*v, src, numValues)
	case *[]int64:
		*v, err = decodeFixed(*v, src, numValues)
	case *[]uint64:
		*v, err = decodeFixed(*v, src, numValues)
	case *[]float32:
		*v, err = decodeFixed(*v, src, numValues)
	case *[]float64:
		*v, err = decodeFixed(*v, src, numValues)
	case *[][12]byte:
		*v, err = decodeFixed(*v, src, numValues)
	}
	if err != nil {
		d.values = d.values[:0]
		return fmt.Errorf("%w: dictionary page: %w", ErrCorrupt, err)
	}
	return nil
}

func decodeFixed[T plain.Fixed](dst []T, src []byte, n int) ([]T, error) {
	if len(src)/plain.Size[T]() < n {
		// Reset wraps it in ErrCorrupt, as the errors of package plain.
		return dst, fmt.Errorf("%d values of %d bytes in a %d-byte page", n, plain.Size[T](), len(src))
	}
	return plain.Decode(dst, src[:n*plain.Size[T]()])
}

// Len returns the number of values of the dictionary.
func (d *Dict[T]) Len() int { return len(d.values) }

// Values returns the dictionary values; the slice aliases d until the next
// Reset and must not be modified.
func (d *Dict[T]) Values() []T { return d.values }

// Decode appends to dst the values of the count indices of the index page
// src (bit width byte then RLE/bit-packed indices) and returns the extended
// slice. An index past the dictionary is an error wrapping [ErrCorrupt]. dst
// grows at most once, by count values; on error it keeps its length.
func (d *Dict[T]) Decode(dst []T, src []byte, count int) ([]T, error) {
	if count > 0 && unsafecast.HasUint32Tail[T]() {
		return d.decodeInPlace(dst, src, count)
	}
	var r indexReader
	if err := r.reset(src, count, len(d.values)); err != nil {
		return dst, err
	}
	start := len(dst)
	dst, err := appendGrow(dst, count)
	if err != nil {
		return dst, err
	}
	out := dst[start:]
	var buf [chunk]uint32
	dict := d.values
	for len(out) > 0 {
		n, err := r.next(buf[:min(len(out), chunk)])
		if err != nil {
			return dst[:start], err
		}
		o := out[:n]
		for i, ix := range buf[:n] {
			if int(ix) >= len(dict) {
				return dst[:start], r.outOfRange(buf[:n])
			}
			o[i] = dict[ix]
		}
		out = out[n:]
	}
	return dst, nil
}

// decodeInPlace is [Dict.Decode] for values of 4 bytes or more (every type
// but bool) where unsafecast can view memory: the whole index page is
// decoded and checked by rle.DecodeIndices (the page routines) into the
// last count 4-byte slots of the values' own memory, which the gather then
// overwrites front to back (see unsafecast.Uint32Tail): no index buffer, no
// streaming decoder. Its twin for other builds and bool is the chunked loop
// of Decode.
func (d *Dict[T]) decodeInPlace(dst []T, src []byte, count int) ([]T, error) {
	width, stream, err := rle.SplitBitWidth(src)
	if err != nil {
		return dst, fmt.Errorf("%w: index page: %w", ErrCorrupt, err)
	}
	dict := d.values
	if len(dict) == 0 {
		return dst, fmt.Errorf("%w: %d indices into an empty dictionary", ErrCorrupt, count)
	}
	start := len(dst)
	if dst, err = appendGrow(dst, count); err != nil {
		return dst, err
	}
	out := dst[start:]
	idx, _ := unsafecast.Uint32Tail(out)
	limit := uint32(min(len(dict)-1, math.MaxUint32))
	// idx has capacity count: DecodeIndices writes it in place.
	if _, err := rle.DecodeIndices(idx[:0], stream, width, count, limit); err != nil {
		return dst[:start], fmt.Errorf("%w: index page: %w", ErrCorrupt, err)
	}
	// Four at a time through array pointers (the loop of column's gather):
	// one bounds check per value, and a loop whose speed does not hang on
	// where the linker puts it (the one-value loop ran 35-47% slower when
	// an unrelated change moved it across a 64-byte boundary). The four
	// indices are read before the four values are written: out[i:i+4]
	// ends at or before idx[i+4] in memory.
	o := out
	for len(idx) >= 4 {
		q, i := (*[4]T)(o), (*[4]uint32)(idx)
		q[0], q[1], q[2], q[3] = dict[i[0]], dict[i[1]], dict[i[2]], dict[i[3]]
		o, idx = o[4:], idx[4:]
	}
	for i, ix := range idx {
		o[i] = dict[ix]
	}
	return dst, nil
}
