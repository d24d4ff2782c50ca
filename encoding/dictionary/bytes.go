package dictionary

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"

	"github.com/pqcodec/pqcodec/encoding/plain"
	"github.com/pqcodec/pqcodec/encoding/rle"
	"github.com/pqcodec/pqcodec/internal/unsafecast"
)

// BytesDict is a decoded dictionary of BYTE_ARRAY or FIXED_LEN_BYTE_ARRAY
// values, stored flat: value i is values[offsets[i]:offsets[i+1]]. The zero
// value is an empty dictionary. A BytesDict does not retain the page; it may
// be read by several goroutines at once but not while a Reset runs.
type BytesDict struct {
	values  []byte
	offsets []int32
	// slots holds value i in slots[i] for gather: its length in the last
	// 4 bytes, and before them the value itself (then bytes gather never
	// reads) when it is at most inline bytes long, else its start in
	// values. One cache line per index
	// (spans of start and length would take two, theirs and the value's);
	// for it, 32 bytes per value besides values and offsets.
	slots [][slot]byte
	// maxLen is the length of the longest value.
	maxLen int
	// budget, when set, is asked before the values of a decode grow (see
	// SetBudget).
	budget func(size int) error
}

// SetBudget makes every later Decode and DecodeFlat call check before it
// grows the byte values it appends to: check receives the length in bytes
// the values are about to reach and, when it returns an error, the decode
// stops and returns that error as it is, the values appended so far
// dropped. A reader with a memory limit checks there what the indices look
// up before the bytes are allocated. check may be nil (the default): no
// check. The check runs only when the values must grow, never per value.
func (d *BytesDict) SetBudget(check func(size int) error) { d.budget = check }

// Values returns the dictionary's values and their offsets (len Len()+1):
// value i is values[offsets[i]:offsets[i+1]]. Both alias d until the next
// Reset and must not be modified.
func (d *BytesDict) Values() (values []byte, offsets []int32) {
	if len(d.offsets) == 0 {
		return d.values, nil
	}
	return d.values[:d.offsets[len(d.offsets)-1]], d.offsets
}

// MemSize returns the bytes d holds: the capacity of its values, offsets
// and lookup slots.
func (d *BytesDict) MemSize() int64 {
	return int64(cap(d.values)) + 4*int64(cap(d.offsets)) + slot*int64(cap(d.slots))
}

// MemSizeFor bounds the bytes a Reset or ResetFixedLen of a page of
// pageSize bytes holding numValues values allocates: a reader's memory
// limit checks it before loading the page.
func MemSizeFor(numValues, pageSize int) int64 {
	n := int64(max(numValues, 0))
	m := int64(max(pageSize, 0)) + pad + 4*(n+1)
	if n <= maxSlots {
		m += slot * n
	}
	return m
}

// pad is the number of bytes of spare capacity values always has past its
// length, so that gatherShort may read a whole medium value's worth (see
// medium) from any start without a bounds check failing.
const pad = medium

// maxSlots is the number of values up to which a BytesDict keeps slots
// (32 MiB of them). A larger dictionary, which writers do not produce (they
// cap dictionary pages at about 1 MiB) but a hostile page may (up to the
// column reader's 64 Mi values), is gathered from its offsets alone
// (gatherOffsets), so that its memory stays within a few times its page:
// slots would take 32 times a page of 1-byte values.
const maxSlots = 1 << 20

// slot is the size of an entry of BytesDict.slots, inline the length of the
// longest value it holds.
const (
	slot   = 32
	inline = slot - 4
)

// Reset loads a PLAIN BYTE_ARRAY dictionary page holding numValues values,
// reusing the previous capacity. Bytes after the last value are ignored.
func (d *BytesDict) Reset(src []byte, numValues int) error {
	d.values, d.offsets = d.values[:0], d.offsets[:0]
	if numValues < 0 {
		return fmt.Errorf("%w: negative value count %d", ErrInvalidArgument, numValues)
	}
	// Pages end with their last value: decode all of src in one pass, and
	// only when it does not hold numValues values or more find the end of
	// the first numValues before decoding them.
	values, offsets, err := plain.DecodeByteArray(d.values, d.offsets, src)
	if err != nil || len(offsets)-1 < numValues {
		end, err := byteArrayEnd(src, numValues)
		if err != nil {
			return err
		}
		if values, offsets, err = plain.DecodeByteArray(d.values, d.offsets, src[:end]); err != nil {
			return fmt.Errorf("%w: dictionary page: %w", ErrCorrupt, err)
		}
	}
	offsets = offsets[:numValues+1]
	d.values, d.offsets = slices.Grow(values[:offsets[numValues]], pad), offsets
	d.setSlots()
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

// setSlots fills slots from values and offsets.
func (d *BytesDict) setSlots() {
	n := d.Len()
	if n > maxSlots {
		d.slots, d.maxLen = d.slots[:0], 0
		return
	}
	d.slots, d.maxLen = slices.Grow(d.slots[:0], n)[:n], 0
	values := d.values[:len(d.values)+pad]
	for i := range d.slots {
		st, l := int(d.offsets[i]), int(d.offsets[i+1]-d.offsets[i])
		s := &d.slots[i]
		if l <= inline {
			// The value and the bytes after it, which gather
			// never reads: two moves, where copy would call memmove.
			*(*[16]byte)(s[:16]) = *(*[16]byte)(values[st : st+16])
			*(*[16]byte)(s[16:]) = *(*[16]byte)(values[st+16 : st+32])
		} else {
			binary.LittleEndian.PutUint32(s[:], uint32(st))
		}
		binary.LittleEndian.PutUint32(s[inline:], uint32(l))
		d.maxLen = max(d.maxLen, l)
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
	d.values = slices.Grow(append(d.values, src[:numValues*size]...), pad)
	d.offsets = append(d.offsets, 0)
	for i := 1; i <= numValues; i++ {
		d.offsets = append(d.offsets, int32(i*size))
	}
	d.setSlots()
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
// never past its capacity; offsets grows at most once, by count.
func (d *BytesDict) Decode(values []byte, offsets []int32, src []byte, count int) ([]byte, []int32, error) {
	v0, o0 := len(values), len(offsets)
	if len(offsets) == 0 {
		offsets = append(offsets, int32(len(values)))
	}
	var err error
	if count > 0 && unsafecast.HasUint32Tail[int32]() {
		values, offsets, err = d.decodeInPlace(values, offsets, src, count)
	} else {
		values, offsets, err = d.decode(values, offsets, src, count)
	}
	if err != nil {
		return values[:v0], offsets[:o0], err
	}
	return values, offsets, nil
}

// DecodeFlat appends the values of the count indices of src to dst, back to
// back, without offsets: the form suited to FIXED_LEN_BYTE_ARRAY. It decodes
// the indices in chunks on the stack (its values have no 4-byte slot per
// index to decode them into).
func (d *BytesDict) DecodeFlat(dst []byte, src []byte, count int) ([]byte, error) {
	v0 := len(dst)
	dst, _, err := d.decode(dst, nil, src, count)
	if err != nil {
		return dst[:v0], err
	}
	return dst, nil
}

// decodeInPlace is [BytesDict.Decode] where unsafecast can view memory: the
// whole index page is decoded by rle.DecodeIndices (the page routines) into
// the count new slots of offsets, one per index, which gather then
// overwrites with the end offsets (as [Dict.decodeInPlace] does with the
// values). Its twin for other builds is decode, which reads the indices in
// chunks.
func (d *BytesDict) decodeInPlace(values []byte, offsets []int32, src []byte, count int) ([]byte, []int32, error) {
	width, stream, err := rle.SplitBitWidth(src)
	if err != nil {
		return values, offsets, fmt.Errorf("%w: index page: %w", ErrCorrupt, err)
	}
	if d.Len() == 0 {
		return values, offsets, fmt.Errorf("%w: %d indices into an empty dictionary", ErrCorrupt, count)
	}
	o0 := len(offsets)
	if offsets, err = appendGrow(offsets, count); err != nil {
		return values, offsets, err
	}
	ends := offsets[o0:]
	idx, _ := unsafecast.Uint32Tail(ends)
	// idx has capacity count: DecodeIndices writes it in place. gather
	// checks the indices against the dictionary as it looks them up.
	if _, err := rle.DecodeIndices(idx[:0], stream, width, count, math.MaxUint32); err != nil {
		return values, offsets[:o0], fmt.Errorf("%w: index page: %w", ErrCorrupt, err)
	}
	values, err = d.gather(values, ends, idx)
	if err != nil {
		return values, offsets[:o0], err
	}
	return values, offsets, nil
}

// decode appends values, and end offsets when offsets is not nil, reading
// the indices in chunks on the stack.
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
		ends := scratch[:n]
		if offsets != nil {
			ends = offsets[len(offsets) : len(offsets)+n]
		}
		if values, err = d.gather(values, ends, buf[:n]); err != nil {
			return values, offsets, err
		}
		if offsets != nil {
			offsets = offsets[:len(offsets)+n]
		}
		left -= n
	}
	return values, offsets, nil
}

// batch is the number of indices gather looks up before it copies their
// values when it takes two passes.
const batch = 256

// medium is the length up to which gatherShort copies a value longer than
// inline from values as four 16-byte moves, whatever its length.
const medium = 64

// slack is the most bytes gatherShort writes past the end of a value: the
// 64 it moves for a medium value of 29 bytes, or the slot for a short one.
const slack = medium

// cached is the size in bytes of slots up to which gather takes a
// dictionary to stay in the caches and copies each value as it looks it
// up, in one pass: 4 MiB, or no limit where onePassAlways (Intel, see
// cached_amd64.go) says so.
var cached = 4 << 20

// gather appends to values the dictionary values of the indices idx, back
// to back, and writes the end offset of each into ends (as long as idx).
// ends may share memory with idx: slot k is read before it is written. An
// index past the dictionary is an error wrapping [ErrCorrupt]; values then
// holds the values before it.
//
// It works in batches of indices. When values has room for a batch of the
// longest values and the dictionary is small (see cached), gatherShort
// copies each value as it looks it up, in one pass. Otherwise it takes two,
// so that the cache misses of a large dictionary overlap: sumLengths loads
// the slots of the batch (loads that do not depend on each other) and sums
// their lengths, so that values grows at most once per batch, then
// gatherShort copies the values from slots in cache.
func (d *BytesDict) gather(values []byte, ends []int32, idx []uint32) ([]byte, error) {
	slots := d.slots
	if len(slots) != d.Len() {
		return d.gatherOffsets(values, ends, idx)
	}
	onePass := len(slots)*slot <= cached
	for len(idx) > 0 {
		n := min(len(idx), batch)
		w := len(values)
		if room := n*d.maxLen + slack; !onePass || cap(values)-w < room || w+room > math.MaxInt32 {
			total, k := sumLengths(slots, idx[:n])
			if k < n {
				return values, indexError(idx[k], len(slots))
			}
			if w+total > math.MaxInt32 {
				return values, fmt.Errorf("%w: %d bytes of values overflow int32 offsets", ErrTooLarge, w+total)
			}
			if cap(values)-w < total+slack {
				if d.budget != nil {
					if err := d.budget(w + total + slack); err != nil {
						return values, err
					}
				}
				// Amortized growth: at most twice the bytes the
				// indices looked up so far justify, plus slack.
				values = slices.Grow(values, total+slack)
			}
		}
		out := values[:cap(values)]
		for j := 0; j < n; j++ {
			var k int
			w, k = gatherShort(out, w, slots, d.values[:len(d.values)+pad], idx[j:n], ends[j:n])
			if j += k; j == n {
				break
			}
			// A value longer than medium, or an index past the
			// dictionary.
			ix := idx[j]
			if int(ix) >= len(slots) {
				return values, indexError(ix, len(slots))
			}
			s := &slots[ix]
			st := int(binary.LittleEndian.Uint32(s[:]))
			w += copy(out[w:], d.values[st:st+int(binary.LittleEndian.Uint32(s[inline:]))])
			ends[j] = int32(w)
		}
		values = values[:w]
		idx, ends = idx[n:], ends[n:]
	}
	return values, nil
}

// gatherOffsets is gather for a dictionary of more than maxSlots values,
// which has no slots: each value is found by its two offsets and appended.
func (d *BytesDict) gatherOffsets(values []byte, ends []int32, idx []uint32) ([]byte, error) {
	n := d.Len()
	for k, ix := range idx {
		if int(ix) >= n {
			return values, indexError(ix, n)
		}
		v := d.values[d.offsets[ix]:d.offsets[ix+1]]
		if len(values)+len(v) > math.MaxInt32 {
			return values, fmt.Errorf("%w: %d bytes of values overflow int32 offsets", ErrTooLarge, len(values)+len(v))
		}
		if d.budget != nil && cap(values)-len(values) < len(v) {
			if err := d.budget(len(values) + len(v)); err != nil {
				return values, err
			}
		}
		values = append(values, v...)
		ends[k] = int32(len(values))
	}
	return values, nil
}

// sumLengths returns the sum of the lengths of the values of idx and
// len(idx), or at the first index past slots its position. It makes no
// calls so that its loop keeps its state in registers; inlined in gather,
// it would keep them on the stack.
//
//go:noinline
func sumLengths(slots [][slot]byte, idx []uint32) (total, k int) {
	for k, ix := range idx {
		if int(ix) >= len(slots) {
			return total, k
		}
		total += int(binary.LittleEndian.Uint32(slots[ix][inline:]))
	}
	return total, len(idx)
}

// gatherShort copies the values of the indices idx into out at w, back to
// back, and writes their end offsets into ends, for as long as each index
// is in slots and its value at most medium bytes long. It returns the new
// w and the number of values copied. values is the dictionary's values
// with their pad. It moves the whole slot of every value of at most inline
// bytes, and medium bytes from values for a longer one, whatever its
// length, without a branch on the length that random lengths would
// mispredict: out has slack bytes past the values to copy (gather makes
// sure of it), and the bytes past a value land in spare capacity that the
// values that follow overwrite. It makes no calls so that its loop keeps
// its state in registers.
func gatherShort(out []byte, w int, slots [][slot]byte, values []byte, idx []uint32, ends []int32) (int, int) {
	ends = ends[:len(idx)]
	for k, ix := range idx {
		if int(ix) >= len(slots) {
			return w, k
		}
		s := &slots[ix]
		l := int(binary.LittleEndian.Uint32(s[inline:]))
		if l <= inline {
			d := (*[slot]byte)(out[w : w+slot])
			// Two 16-byte moves: a 32-byte one would call memmove.
			*(*[16]byte)(d[:16]) = *(*[16]byte)(s[:16])
			*(*[16]byte)(d[16:]) = *(*[16]byte)(s[16:])
		} else if l <= medium {
			st := int(binary.LittleEndian.Uint32(s[:]))
			v := (*[medium]byte)(values[st : st+medium])
			d := (*[medium]byte)(out[w : w+medium])
			*(*[16]byte)(d[:16]) = *(*[16]byte)(v[:16])
			*(*[16]byte)(d[16:32]) = *(*[16]byte)(v[16:32])
			*(*[16]byte)(d[32:48]) = *(*[16]byte)(v[32:48])
			*(*[16]byte)(d[48:]) = *(*[16]byte)(v[48:])
		} else {
			return w, k
		}
		w += l
		ends[k] = int32(w)
	}
	return w, len(idx)
}
