package dictionary

import (
	"fmt"
	"math"
	"slices"

	"github.com/pqcodec/pqcodec/encoding/plain"
)

// BytesDict is a decoded dictionary of BYTE_ARRAY or FIXED_LEN_BYTE_ARRAY
// values, stored flat: value i is values[offsets[i]:offsets[i+1]]. The zero
// value is an empty dictionary. A BytesDict does not retain the page; it may
// be read by several goroutines at once but not while a Reset runs.
type BytesDict struct {
	values  []byte
	offsets []int32
}

// Reset loads a PLAIN BYTE_ARRAY dictionary page holding numValues values,
// reusing the previous capacity.
func (d *BytesDict) Reset(src []byte, numValues int) error {
	d.values, d.offsets = d.values[:0], d.offsets[:0]
	if numValues < 0 {
		return fmt.Errorf("%w: negative value count %d", ErrInvalidArgument, numValues)
	}
	values, offsets, err := plain.DecodeByteArray(d.values, d.offsets, src)
	if err != nil {
		return fmt.Errorf("%w: dictionary page: %w", ErrCorrupt, err)
	}
	if len(offsets)-1 != numValues {
		return fmt.Errorf("%w: dictionary page holds %d values, header says %d", ErrCorrupt, len(offsets)-1, numValues)
	}
	d.values, d.offsets = values, offsets
	return nil
}

// ResetFixedLen loads a PLAIN FIXED_LEN_BYTE_ARRAY dictionary page holding
// numValues values of size bytes each.
func (d *BytesDict) ResetFixedLen(src []byte, numValues, size int) error {
	d.values, d.offsets = d.values[:0], d.offsets[:0]
	if numValues < 0 || size <= 0 {
		return fmt.Errorf("%w: %d values of size %d", ErrInvalidArgument, numValues, size)
	}
	if uint64(len(src)) != uint64(numValues)*uint64(size) || len(src) > math.MaxInt32 {
		return fmt.Errorf("%w: %d values of %d bytes in a %d-byte page", ErrCorrupt, numValues, size, len(src))
	}
	d.values = append(d.values, src...)
	d.offsets = append(d.offsets, 0)
	for i := 1; i <= numValues; i++ {
		d.offsets = append(d.offsets, int32(i*size))
	}
	return nil
}

// Len returns the number of values of the dictionary.
func (d *BytesDict) Len() int { return max(len(d.offsets)-1, 0) }

// Value returns value i, aliasing d until the next Reset. It panics if i is
// out of range.
func (d *BytesDict) Value(i int) []byte { return d.values[d.offsets[i]:d.offsets[i+1]] }

// Decode appends the values of the count indices of the index page src to
// values and their end offsets to offsets (after the start offset
// len(values) if offsets is empty), like plain.DecodeByteArray, and returns
// both slices. On error both keep their length.
func (d *BytesDict) Decode(values []byte, offsets []int32, src []byte, count int) ([]byte, []int32, error) {
	v0, o0 := len(values), len(offsets)
	if len(offsets) == 0 {
		offsets = append(offsets, int32(len(values)))
	}
	values, offsets, err := d.decode(values, offsets, src, count)
	if err != nil {
		return values[:v0], offsets[:o0], err
	}
	return values, offsets, nil
}

// DecodeFlat appends the values of the count indices of src to dst, back to
// back, without offsets: the form suited to FIXED_LEN_BYTE_ARRAY.
func (d *BytesDict) DecodeFlat(dst []byte, src []byte, count int) ([]byte, error) {
	v0 := len(dst)
	dst, _, err := d.decode(dst, nil, src, count)
	if err != nil {
		return dst[:v0], err
	}
	return dst, nil
}

// decode appends values, and end offsets when offsets is not nil.
func (d *BytesDict) decode(values []byte, offsets []int32, src []byte, count int) ([]byte, []int32, error) {
	var r indexReader
	if err := r.reset(src, count, d.Len()); err != nil {
		return values, offsets, err
	}
	if offsets != nil {
		var err error
		o0 := len(offsets)
		if offsets, err = appendGrow(offsets, count); err != nil {
			return values, offsets, err
		}
		offsets = offsets[:o0]
	}
	var buf [chunk]uint32
	for left := count; left > 0; {
		n, err := r.next(buf[:min(left, chunk)])
		if err != nil {
			return values, offsets, err
		}
		total := 0
		for _, ix := range buf[:n] {
			if int(ix) >= len(d.offsets)-1 {
				return values, offsets, r.outOfRange(buf[:n])
			}
			total += int(d.offsets[ix+1] - d.offsets[ix])
		}
		if len(values)+total > math.MaxInt32 {
			return values, offsets, fmt.Errorf("%w: %d bytes of values overflow int32 offsets", ErrCorrupt, len(values)+total)
		}
		// Amortized growth: at most twice the bytes the indices decoded
		// so far justify.
		values = slices.Grow(values, total)
		for _, ix := range buf[:n] {
			values = append(values, d.values[d.offsets[ix]:d.offsets[ix+1]]...)
			if offsets != nil {
				offsets = append(offsets, int32(len(values)))
			}
		}
		left -= n
	}
	return values, offsets, nil
}
