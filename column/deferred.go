package column

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"

	"github.com/pqcodec/pqcodec/encoding/dictionary"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/internal/enctable"
)

// deferredPage is the part of a Page read by [Reader.ReadPageDeferred]
// whose values are still encoded, and the cursor of [Reader.AppendValues].
type deferredPage struct {
	// raw is the PLAIN values section not taken yet, aliasing the
	// Reader's buffers (its decompressed page or its chunk window); rawN
	// is the number of values the page holds in it, skip how many of them
	// come before the first one the page shows (SliceRows, SeekRow).
	raw  []byte
	rawN int
	skip int
	// lookup is set when the page's values are the lookups of the
	// indices idx (rawN of them, checked against the chunk's dictionary)
	// in the Reader's dictionary, of a fixed-width type.
	lookup bool
	idx    []uint32
	// taken is the number of values AppendValues has taken, from raw,
	// idx or Values.
	taken int
	// err is the error of a damaged raw section, returned again by every
	// AppendValues after the first that met it.
	err error
}

// deferrable reports whether ReadPageDeferred leaves the values of a page
// of type t in encoding enc encoded: PLAIN values whose decoded form is as
// large as their encoding, so appending them to the caller's buffers takes
// no more memory than the page (booleans, 8 times larger decoded, and the
// other encodings are decoded by ReadPage).
func deferrable(t format.Type, enc format.Encoding) bool {
	return enc == format.Plain && t != format.Boolean
}

// deferrableLookup reports whether ReadPageDeferred leaves the dictionary
// lookups of an index page of type t to AppendValues: the fixed-width
// numbers, whose lookups are a gather into the caller's buffer.
func deferrableLookup(t format.Type) bool {
	switch t {
	case format.Int32, format.Int64, format.Float, format.Double:
		return true
	}
	return false
}

// deferLookups decodes the n indices of the index page data into p, for
// AppendValues to look up (ReadPageDeferred).
func (r *Reader) deferLookups(p *Page, data []byte, n int) error {
	var err error
	if p.idx, err = dictionary.DecodeIndices(p.idx[:0], data, n, r.dict.Len()); err != nil {
		return fmt.Errorf("%w: dictionary indices: %w", ErrCorrupt, err)
	}
	p.lookup, p.rawN = true, n
	return nil
}

// appendLookups appends the dictionary values of indices idx to dst.
func appendLookups[T any](dst []T, dict []T, idx []uint32) []T {
	dst = slices.Grow(dst, len(idx))
	out := dst[len(dst) : len(dst)+len(idx)]
	for i, ix := range idx {
		out[i] = dict[ix]
	}
	return dst[:len(dst)+len(idx)]
}

// ReadPageDeferred is [Reader.ReadPage], except that the values of a PLAIN
// page of any type but BOOLEAN stay encoded: p.Values is empty, p's
// levels, NumLevels and NumValues are as ReadPage gives them, and
// [Reader.AppendValues] decodes the values, in order, straight into
// buffers of the caller, so that they are written once (a PLAIN
// BYTE_ARRAY page is not compacted into the page and copied again). Pages
// in the other encodings are decoded into p.Values as ReadPage decodes
// them, but for the dictionary lookups of INT32, INT64, FLOAT and DOUBLE
// index pages, which AppendValues makes into dst (the indices are decoded
// and checked by ReadPageDeferred); AppendValues copies the others out, so
// a caller reads every page the same way.
//
// The encoded values alias the Reader's buffers: they are valid until the
// next ReadPage, ReadPageDeferred, SeekRow or ResetReader of r, and p must
// not be given to another Reader meanwhile. A damaged FIXED_LEN_BYTE_ARRAY
// or fixed-width section (shorter than its values) is an error of
// ReadPageDeferred; a damaged BYTE_ARRAY section (a length past the end)
// is an error of the AppendValues that reaches the damaged value.
// Under WithMaxMemory the Reader accounts for the page, its levels and
// indices, and refuses an index page whose looked-up values would pass
// the limit, as ReadPage does; the values, once in the caller's buffers,
// are the caller's (see AppendValues for how much they grow).
func (r *Reader) ReadPageDeferred(p *Page) error {
	r.deferring = true
	defer func() { r.deferring = false }()
	return r.ReadPage(p)
}

// deferValues makes the n PLAIN values of data p's encoded values, for
// ReadPageDeferred.
func (r *Reader) deferValues(p *Page, data []byte, n int) error {
	t, w := p.Values.Type, p.Values.TypeLength
	switch t {
	case format.ByteArray:
		// Checked as AppendValues reaches them: walking the lengths here
		// would cost as much as decoding them.
	case format.FixedLenByteArray:
		if w <= 0 {
			return fmt.Errorf("%w: FIXED_LEN_BYTE_ARRAY without a positive type length", ErrCorrupt)
		}
		fallthrough
	default:
		size := enctable.ElemSize(t, w)
		if len(data)/size < n {
			return fmt.Errorf("%w: %d PLAIN %v values need %d bytes, have %d", ErrCorrupt, n, t, n*size, len(data))
		}
		data = data[:n*size]
	}
	p.raw, p.rawN = data, n
	return nil
}

// ValuesLeft returns the number of p's values [Reader.AppendValues] has
// not taken yet.
func (p *Page) ValuesLeft() int { return p.NumValues() - p.taken }

// DeferredBytes returns the bytes of the values ReadPageDeferred left
// encoded in p that AppendValues has not taken yet, 0 when they were
// decoded: for PLAIN BYTE_ARRAY values, 4 bytes per value and the values'
// bytes, an upper bound of what the values left add to a Values' Bytes
// (those SliceRows cut from the page's start included). It sizes a
// caller's buffers before AppendValues.
func (p *Page) DeferredBytes() int { return len(p.raw) }

// AppendValues appends the next n values of p, a page r returned (by
// ReadPageDeferred or ReadPage, before r's next page), to dst: decoded
// from the page's encoded values when ReadPageDeferred left them encoded,
// copied from p.Values otherwise. Successive calls take the page's values
// in order; n = p.ValuesLeft() takes the rest.
//
// dst must hold p's physical type (dst.Type and dst.TypeLength equal
// p.Values'); its values, if any, stay. Values are appended as append
// does: written in place past the lengths of dst's slices when their
// capacity holds them, so dst may alias a caller's buffer (an Arrow buffer
// seen as a []int64, say), else into slices grown in new memory, which
// the caller sees as dst's slices no longer pointing at its buffer. The
// memory of dst must not overlap the page's (p.Values, r's buffers). Byte
// arrays are appended to dst.Bytes, with one offset per value appended to
// dst.Offsets; dst.Offsets gets a leading len(dst.Bytes) when it is empty,
// and offsets past 2 GiB are an error wrapping ErrLimit. For PLAIN values
// dst grows by no more than the bytes of the page's values section it
// decodes, with the headroom a reallocation takes (for byte arrays: 4
// bytes per offset for the 4 bytes of each length, and the values' bytes);
// for dictionary lookups by n values.
//
// Errors name the page as ReadPage's do and wrap ErrCorrupt for damaged
// bytes; dst then holds the values it held before the call (its slices may
// have been reallocated, and the bytes past their lengths overwritten),
// and the page's values are done. n outside [0, p.ValuesLeft()], a dst of
// another type and a page under KeepDictionary are programmer errors: they
// panic.
func (r *Reader) AppendValues(p *Page, dst *Values, n int) error {
	if p.Dictionary != nil {
		panic("column: AppendValues on a page of dictionary indices")
	}
	if dst.Type != p.Values.Type || dst.TypeLength != p.Values.TypeLength {
		panic(fmt.Sprintf("column: AppendValues of %v values into a Values of %v", p.Values.Type, dst.Type))
	}
	if n < 0 || n > p.ValuesLeft() {
		panic(fmt.Sprintf("column: AppendValues of %d values, the page has %d left", n, p.ValuesLeft()))
	}
	if p.err != nil {
		return p.err
	}
	if p.rawN == 0 {
		if dst.Type == format.ByteArray {
			if err := appendByteArrayRange(dst, &p.Values, p.taken, p.taken+n); err != nil {
				return r.errorf(r.page-1, "%w", err)
			}
		} else {
			(*enctable.Values)(dst).AppendRange((*enctable.Values)(&p.Values), p.taken, p.taken+n)
		}
		p.taken += n
		return nil
	}
	if err := r.appendRaw(p, dst, n); err != nil {
		p.err = r.errorf(r.page-1, "%w", err)
		p.taken = p.NumValues()
		return p.err
	}
	p.taken += n
	return nil
}

// appendByteArrayRange appends byte arrays [from, to) of src to dst, its
// offsets rebased in one pass into room made once. It is the BYTE_ARRAY case
// of enctable's AppendRange, its twin, with the int32 check; calling that
// instead measured 25% slower on 1000 short values (Intel Xeon family 6
// model 167), so the loop stays here too.
func appendByteArrayRange(dst, src *Values, from, to int) error {
	if len(dst.Offsets) == 0 {
		dst.Offsets = append(dst.Offsets, int32(len(dst.Bytes)))
	}
	if from == to {
		return nil
	}
	lo, hi := src.Offsets[from], src.Offsets[to]
	if int64(len(dst.Bytes))+int64(hi-lo) > math.MaxInt32 {
		return errByteArraysLimit
	}
	base := int32(len(dst.Bytes)) - lo
	dst.Bytes = append(dst.Bytes, src.Bytes[lo:hi]...)
	k := len(dst.Offsets)
	dst.Offsets = slices.Grow(dst.Offsets, to-from)[:k+to-from]
	out := dst.Offsets[k:]
	for i, o := range src.Offsets[from+1 : to+1] {
		out[i] = o + base
	}
	return nil
}

// appendRaw decodes the next n encoded values of p into dst.
func (r *Reader) appendRaw(p *Page, dst *Values, n int) error {
	if p.skip > 0 {
		if err := skipRaw(p); err != nil {
			return err
		}
	}
	if n == 0 {
		return nil
	}
	if p.lookup {
		idx := p.idx[p.taken : p.taken+n]
		switch dst.Type {
		case format.Int32:
			dst.Int32s = appendLookups(dst.Int32s, r.dict.Int32s, idx)
		case format.Int64:
			dst.Int64s = appendLookups(dst.Int64s, r.dict.Int64s, idx)
		case format.Float:
			dst.Floats = appendLookups(dst.Floats, r.dict.Floats, idx)
		case format.Double:
			dst.Doubles = appendLookups(dst.Doubles, r.dict.Doubles, idx)
		}
		return nil
	}
	if dst.Type == format.ByteArray {
		b, offs, k, err := appendByteArrays(dst.Bytes, dst.Offsets, p.raw, n)
		dst.Bytes, dst.Offsets = b, offs
		if err != nil {
			return err
		}
		p.raw = p.raw[k:]
		return nil
	}
	// A fixed width: deferValues checked that p.raw holds the page's
	// values, so PLAIN's decoder of the encoding table cannot fail.
	raw := p.raw[:n*enctable.ElemSize(dst.Type, dst.TypeLength)]
	if err := decodeTable(dst, format.Plain, raw, n, n); err != nil {
		return err
	}
	p.raw = p.raw[len(raw):]
	return nil
}

// skipRaw drops the p.skip encoded values that SliceRows cut from the
// start of p.
func skipRaw(p *Page) error {
	k := p.skip
	p.skip = 0
	if p.Values.Type != format.ByteArray {
		p.raw = p.raw[k*enctable.ElemSize(p.Values.Type, p.Values.TypeLength):]
		return nil
	}
	end, err := plainByteArrayEnd(p.raw, k)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrCorrupt, err)
	}
	p.raw = p.raw[end:]
	return nil
}

// plainByteArrayEnd returns the length of the first n PLAIN BYTE_ARRAY
// values at the start of src.
func plainByteArrayEnd(src []byte, n int) (int, error) {
	pos := 0
	for i := range n {
		if len(src)-pos < 4 {
			return 0, byteArrayTruncated(i, n, pos)
		}
		l := int(binary.LittleEndian.Uint32(src[pos:]))
		pos += 4
		if l > len(src)-pos {
			return 0, byteArrayPastEnd(i, l)
		}
		pos += l
	}
	return pos, nil
}

// errByteArraysLimit is the error of byte arrays whose offsets would pass
// 2 GiB.
var errByteArraysLimit = fmt.Errorf("%w: byte arrays past 2 GiB in one Values", ErrLimit)

// appendByteArrays appends the first n PLAIN BYTE_ARRAY values of src to
// b, and an offset for each to offs (after a leading len(b) when offs is
// empty), and returns them with the bytes of src the values took. It
// writes past len(b) when cap(b) holds the values (values of up to 32
// bytes move as two 16-byte blocks, which may write up to 32 bytes past a
// value, within cap(b), and read up to 32 bytes past a value within
// cap(src)), and otherwise grows b, by at most the bytes of src left. b
// and src must not overlap. On error b and offs are truncated to their
// lengths at the call, and the error wraps ErrCorrupt (a damaged value) or
// ErrLimit (offsets past 2 GiB).
func appendByteArrays(b []byte, offs []int32, src []byte, n int) ([]byte, []int32, int, error) {
	start, offs0 := len(b), len(offs)
	if start > math.MaxInt32 {
		return b, offs, 0, errByteArraysLimit
	}
	offs = slices.Grow(offs, n+1)
	if len(offs) == 0 {
		offs = append(offs, int32(start))
	}
	size := len(src)
	full := src[:cap(src)] // blocks may read past size, never past cap
	w, pos := start, 0
	b = b[:cap(b)]
	fail := func(err error) ([]byte, []int32, int, error) {
		return b[:start], offs[:offs0], 0, err
	}
	for i := range n {
		if size-pos < 4 {
			return fail(byteArrayTruncated(i, n, pos))
		}
		l := int(binary.LittleEndian.Uint32(full[pos:]))
		pos += 4
		if l > size-pos {
			return fail(byteArrayPastEnd(i, l))
		}
		if l <= 32 && pos+32 <= len(full) && w+32 <= len(b) {
			// Two moves whatever the length (see compactByteArrays).
			*(*[16]byte)(b[w : w+16]) = *(*[16]byte)(full[pos : pos+16])
			*(*[16]byte)(b[w+16 : w+32]) = *(*[16]byte)(full[pos+16 : pos+32])
			w += l
		} else {
			if l > len(b)-w {
				// Room for the values left at the average length so far,
				// never more than the bytes of src left.
				avg := (w - start + l) / (i + 1)
				extra := min(max(l, avg*(n-i)+avg*(n-i)/16), size-pos+32)
				b = slices.Grow(b[:w], extra)
				b = b[:cap(b)]
			}
			w += copy(b[w:], full[pos:pos+l])
		}
		if w > math.MaxInt32 {
			return fail(errByteArraysLimit)
		}
		pos += l
		offs = append(offs, int32(w))
	}
	return b[:w], offs, pos, nil
}
