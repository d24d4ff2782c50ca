package dictionary

import (
	"encoding/binary"
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
	// spans holds value i as start | length<<32: one load per index in
	// the gather loop instead of two offsets.
	spans []uint64
	// maxLen is the length of the longest value.
	maxLen int
}

// Reset loads a PLAIN BYTE_ARRAY dictionary page holding numValues values,
// reusing the previous capacity. Bytes after the last value are ignored.
func (d *BytesDict) Reset(src []byte, numValues int) error {
	d.values, d.offsets = d.values[:0], d.offsets[:0]
	if numValues < 0 {
		return fmt.Errorf("%w: negative value count %d", ErrInvalidArgument, numValues)
	}
	end, err := byteArrayEnd(src, numValues)
	if err != nil {
		return err
	}
	values, offsets, err := plain.DecodeByteArray(d.values, d.offsets, src[:end])
	if err != nil {
		return fmt.Errorf("%w: dictionary page: %w", ErrCorrupt, err)
	}
	// Spare capacity lets gather read whole blocks from any value.
	d.values, d.offsets = slices.Grow(values, block), offsets
	d.setSpans()
	return nil
}

// byteArrayEnd returns the length of the first n PLAIN BYTE_ARRAY values at
// the start of src.
func byteArrayEnd(src []byte, n int) (int, error) {
	pos := 0
	for i := range n {
		if len(src)-pos < 4 {
			return 0, fmt.Errorf("%w: dictionary page holds %d values, header says %d", ErrCorrupt, i, n)
		}
		l := uint64(binary.LittleEndian.Uint32(src[pos:]))
		pos += 4
		if l > uint64(len(src)-pos) {
			return 0, fmt.Errorf("%w: dictionary value %d of %d bytes past the end of the page", ErrCorrupt, i, l)
		}
		pos += int(l)
	}
	return pos, nil
}

// setSpans fills spans from offsets.
func (d *BytesDict) setSpans() {
	d.spans, d.maxLen = d.spans[:0], 0
	for i := 0; i+1 < len(d.offsets); i++ {
		s, e := d.offsets[i], d.offsets[i+1]
		d.spans = append(d.spans, uint64(uint32(s))|uint64(uint32(e-s))<<32)
		d.maxLen = max(d.maxLen, int(e-s))
	}
}

// ResetFixedLen loads a PLAIN FIXED_LEN_BYTE_ARRAY dictionary page holding
// numValues values of size bytes each.
func (d *BytesDict) ResetFixedLen(src []byte, numValues, size int) error {
	d.values, d.offsets = d.values[:0], d.offsets[:0]
	if numValues < 0 || size <= 0 {
		return fmt.Errorf("%w: %d values of size %d", ErrInvalidArgument, numValues, size)
	}
	if numValues > len(src)/size || numValues*size > math.MaxInt32 {
		return fmt.Errorf("%w: %d values of %d bytes in a %d-byte page", ErrCorrupt, numValues, size, len(src))
	}
	d.values = slices.Grow(append(d.values, src[:numValues*size]...), block)
	d.offsets = append(d.offsets, 0)
	for i := 1; i <= numValues; i++ {
		d.offsets = append(d.offsets, int32(i*size))
	}
	d.setSpans()
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
// both slices. On error both keep their length. Like plain.DecodeByteArray,
// it may write into the spare capacity of values past the returned length,
// never past its capacity.
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
	var scratch [chunk]int32 // ends when offsets is nil
	for left := count; left > 0; {
		n, err := r.next(buf[:min(left, chunk)])
		if err != nil {
			return values, offsets, err
		}
		spans := d.spans
		// When the spare capacity holds n of the longest values, the
		// gather checks each index itself; otherwise a first pass checks
		// them and sums their lengths to grow values once.
		if fit := uint64(len(values)) + uint64(n)*uint64(d.maxLen); cap(values)-len(values) < n*d.maxLen+block || fit > math.MaxInt32 {
			total := 0
			for _, ix := range buf[:n] {
				if int(ix) >= len(spans) {
					return values, offsets, r.outOfRange(buf[:n])
				}
				total += int(spans[ix] >> 32)
			}
			if len(values)+total > math.MaxInt32 {
				return values, offsets, fmt.Errorf("%w: %d bytes of values overflow int32 offsets", ErrCorrupt, len(values)+total)
			}
			// Amortized growth: at most twice the bytes the indices
			// decoded so far justify, plus the slack of one block.
			values = slices.Grow(values, total+block)
		}
		ends := scratch[:n]
		if offsets != nil {
			ends = offsets[len(offsets) : len(offsets)+n]
		}
		w := len(values)
		out := values[:cap(values)]
		for j := 0; j < n; j++ {
			var k int
			w, k = gatherShort(out, w, d.values[:cap(d.values)], spans, buf[j:n], ends[j:])
			if j += k; j == n {
				break
			}
			// A long value, or an index past the dictionary.
			if int(buf[j]) >= len(spans) {
				return values[:len(values)], offsets, r.outOfRange(buf[:n])
			}
			sp := spans[buf[j]]
			s := int(uint32(sp))
			w += copy(out[w:], d.values[s:s+int(sp>>32)])
			ends[j] = int32(w)
		}
		values = values[:w]
		if offsets != nil {
			offsets = offsets[:len(offsets)+n]
		}
		left -= n
	}
	return values, offsets, nil
}

// block is the length up to which gather moves a value as whole 16-byte
// blocks instead of calling memmove.
const block = 64

// gatherShort copies the dictionary values of the indices idx into out at w, back to back, and writes their end
// offsets into ends, for as long as each index is in spans and its value at
// most block bytes long.
// dict holds a whole block from the start of every value (Reset leaves that
// spare capacity) and out one from w past the values still to copy (decode
// grows it so); the bytes past a value land in spare capacity that the
// values that follow overwrite. It returns the new w and the number of
// values copied, and makes no calls so that its loop keeps its state in
// registers.
func gatherShort(out []byte, w int, dict []byte, spans []uint64, idx []uint32, ends []int32) (int, int) {
	ends = ends[:len(idx)]
	for k, ix := range idx {
		if int(ix) >= len(spans) {
			return w, k
		}
		sp := spans[ix]
		s, l := int(uint32(sp)), int(sp>>32)
		if l > block {
			return w, k
		}
		d := (*[block]byte)(out[w : w+block])
		v := (*[block]byte)(dict[s : s+block])
		*(*[16]byte)(d[0:16]) = *(*[16]byte)(v[0:16])
		if l > 16 {
			*(*[16]byte)(d[16:32]) = *(*[16]byte)(v[16:32])
			if l > 32 {
				*(*[16]byte)(d[32:48]) = *(*[16]byte)(v[32:48])
				if l > 48 {
					*(*[16]byte)(d[48:64]) = *(*[16]byte)(v[48:64])
				}
			}
		}
		w += l
		ends[k] = int32(w)
	}
	return w, len(idx)
}
