package delta

import (
	"fmt"
	"math"
	"slices"
)

// DecodeLengthByteArray decodes the DELTA_LENGTH_BYTE_ARRAY page src,
// appending the bytes of its values to values and their end offsets to
// offsets, and returns both extended slices.
//
// Offsets index values: value k spans values[offsets[k-1]:offsets[k]]. When
// offsets is empty, len(values) is appended first as the start of the first
// value, so a page decoded into empty slices yields n+1 offsets for n values;
// when decoding further pages onto the same slices, offsets already ends
// with len(values). values and offsets may be nil and are grown by capacity
// only when needed; nothing is retained from src. On error both slices are
// returned with their original lengths.
func DecodeLengthByteArray(values []byte, offsets []int32, src []byte) ([]byte, []int32, error) {
	v0, o0 := len(values), len(offsets)
	values, offsets, _, err := decodeLengthByteArray(values, offsets, src)
	if err != nil {
		return values[:v0], offsets[:o0], err
	}
	return values, offsets, nil
}

// lengthPiece is how many lengths DecodeLengthByteArray decodes before
// summing them: a multiple of 32 whose int32s fit the L1 cache.
const lengthPiece = 2048

// prefixSums replaces the lengths in v by their running sums from cur,
// returning the last sum and the bitwise or of the lengths, negative if any
// is. The sums are exact when every length is non-negative: fewer than 2^31
// lengths below 2^31 add up to less than 2^62.
func prefixSums(v []int32, cur int64) (int64, int32) {
	var neg int32
	i := 0
	for ; i+4 <= len(v); i += 4 {
		q := v[i : i+4 : i+4]
		l0, l1, l2, l3 := q[0], q[1], q[2], q[3]
		neg |= l0 | l1 | l2 | l3
		c0 := cur + int64(l0)
		c1 := c0 + int64(l1)
		c2 := c1 + int64(l2)
		cur = c2 + int64(l3)
		q[0], q[1], q[2], q[3] = int32(c0), int32(c1), int32(c2), int32(cur)
	}
	for ; i < len(v); i++ {
		neg |= v[i]
		cur += int64(v[i])
		v[i] = int32(cur)
	}
	return cur, neg
}

// decodeLengthByteArray implements DecodeLengthByteArray, also returning the
// offset in src just past the page's data.
func decodeLengthByteArray(values []byte, offsets []int32, src []byte) ([]byte, []int32, int, error) {
	if len(offsets) == 0 {
		if len(values) > math.MaxInt32 {
			return values, offsets, 0, fmt.Errorf("%w: %d bytes of values", ErrTooLarge, len(values))
		}
		offsets = append(offsets, int32(len(values)))
	}
	var d Decoder[int32]
	if err := d.Reset(src); err != nil {
		return values, offsets, 0, fmt.Errorf("lengths: %w", err)
	}
	n, base := d.Remaining(), len(offsets)
	offsets = slices.Grow(offsets, n)
	out := offsets[base : base+n]
	start := int64(len(values))
	cur := start
	// The lengths are decoded straight into out, a piece at a time, and
	// replaced by their running sums while the piece is in cache. The first
	// piece holds the page's first value besides whole 32-value chunks, so
	// that every piece but the last ends on a chunk boundary.
	for k, end := 0, min(n, lengthPiece+1); k < n; k, end = end, min(n, end+lengthPiece) {
		piece := out[k:end]
		c, err := d.Decode(piece)
		if err == nil && c != len(piece) {
			err = fmt.Errorf("%w: lengths end after %d of %d values", ErrCorrupt, k+c, n)
		}
		if err != nil {
			return values, offsets, 0, fmt.Errorf("lengths: %w", err)
		}
		prev := int32(cur)
		var neg int32
		if cur, neg = prefixSums(piece, cur); neg < 0 {
			// The lengths are the differences of the running sums, which
			// wrap at 32 bits as the differences do.
			for i, o := range piece {
				if l := o - prev; l < 0 {
					return values, offsets, 0, fmt.Errorf("%w: negative length %d of value %d", ErrCorrupt, l, k+i)
				}
				prev = o
			}
		}
	}
	end := d.End()
	offsets = offsets[:base+n]
	size := cur - start
	if size > int64(len(src)-end) {
		return values, offsets, 0, fmt.Errorf("%w: values need %d bytes, %d left", ErrCorrupt, size, len(src)-end)
	}
	if cur > math.MaxInt32 {
		return values, offsets, 0, fmt.Errorf("%w: %d bytes of values", ErrTooLarge, cur)
	}
	values = append(values, src[end:end+int(size)]...)
	return values, offsets, end + int(size), nil
}

// EncodeLengthByteArray appends the DELTA_LENGTH_BYTE_ARRAY encoding of the
// values held as in [DecodeLengthByteArray] — value k is
// values[offsets[k]:offsets[k+1]] — to dst and returns the extended slice.
// dst may be nil and must not overlap values. It returns an error wrapping
// [ErrInvalidArgument] when offsets decrease or point outside values.
// On error dst is returned unchanged, though its spare capacity may have
// been written.
func EncodeLengthByteArray(dst, values []byte, offsets []int32) ([]byte, error) {
	n := max(len(offsets)-1, 0)
	var data []byte
	if n > 0 {
		if offsets[0] < 0 || offsets[n] < offsets[0] || int(offsets[n]) > len(values) {
			return dst, checkOffsets(values, offsets)
		}
		data = values[offsets[0]:offsets[n]]
	}
	n0 := len(dst)
	out := slices.Grow(dst, maxEncodedLen[int32](n)+len(data))
	buf := out[:cap(out)]
	pos, bad := encodeLengths(buf, n0, offsets)
	if bad < 0 {
		return dst, checkOffsets(values, offsets)
	}
	pos += copy(buf[pos:], data)
	return out[:pos], nil
}

// encodeLengths writes the DELTA_BINARY_PACKED encoding of the lengths of
// the values delimited by offsets at buf[pos:], which must hold
// maxEncodedLen[int32](len(offsets)-1) bytes, and returns the new position.
// It also returns the bitwise or of every offset and every length, negative
// when an offset is negative or offsets decrease (with no negative offset,
// no length overflows).
func encodeLengths(buf []byte, pos int, offsets []int32) (int, int32) {
	n := max(len(offsets)-1, 0)
	var blk [encBlockSize + 1]int32
	var bad int32
	if n > 0 {
		blk[0] = offsets[1] - offsets[0]
		bad = offsets[0] | offsets[1] | blk[0]
	}
	pos = encodeHeader(buf, pos, n, int64(blk[0]))
	i := 1
	for ; n-i >= encBlockSize; i += encBlockSize {
		var d [encBlockSize]uint32
		lo, hi, b := lengthDeltas(&d, (*[encBlockSize + 2]int32)(offsets[i-1:]))
		bad |= b
		pos = writeFull(buf, pos, &d, lo, hi)
	}
	if k := n - i; k > 0 {
		blk[0] = offsets[i] - offsets[i-1]
		o := offsets[i : i+k+1]
		for j := range k {
			l := o[j+1] - o[j]
			blk[j+1] = l
			bad |= o[j+1] | l
		}
		pos = encodeBlock(buf, pos, blk[:k+1])
	}
	return pos, bad
}

// lengthDeltasGo is the reference for lengthDeltas: with o the offsets
// o[0], o[1], ... delimiting the 129 values before and in a block, it does
// what blockDeltasGo does to the lengths of those values. It also returns the
// bitwise or of o[1:] and the lengths, negative when an offset is negative or
// offsets decrease.
func lengthDeltasGo(d *[encBlockSize]uint32, o *[encBlockSize + 2]int32) (lo int32, hi [encMiniblocks]int32, bad int32) {
	var blk [encBlockSize + 1]int32
	for j := range blk {
		l := o[j+1] - o[j]
		blk[j] = l
		bad |= o[j+1] | l
	}
	lo, hi = blockDeltasGo(d, &blk)
	return lo, hi, bad
}

// checkOffsets reports whether offsets are non-decreasing indexes of values.
func checkOffsets(values []byte, offsets []int32) error {
	if len(offsets) == 0 {
		return nil
	}
	prev := offsets[0]
	if prev < 0 {
		return fmt.Errorf("%w: negative offset %d", ErrInvalidArgument, prev)
	}
	for _, o := range offsets[1:] {
		if o < prev {
			return fmt.Errorf("%w: offset %d after %d", ErrInvalidArgument, o, prev)
		}
		prev = o
	}
	if int(prev) > len(values) {
		return fmt.Errorf("%w: offset %d past %d bytes of values", ErrInvalidArgument, prev, len(values))
	}
	return nil
}
