// Package enctable is the one table of Parquet value encodings: for each
// (encoding, physical type) pair the specification allows, the function of
// package encoding/... that encodes a page of values and the one that
// decodes it. The column writer dispatches through it; adding an encoding
// is a package under encoding/ and a row of [rows] (see encoding/doc.go for
// what else to touch).
//
// The dictionary encodings (PLAIN_DICTIONARY, RLE_DICTIONARY) are rows too,
// but their pages are not self-contained: their rows carry a constructor of
// a [DictEncoder] instead of Encode, and no Decode (readers resolve indices
// against the chunk's dictionary page, package encoding/dictionary).
package enctable

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"

	"github.com/pqcodec/pqcodec/encoding/bytestreamsplit"
	"github.com/pqcodec/pqcodec/encoding/delta"
	"github.com/pqcodec/pqcodec/encoding/dictionary"
	"github.com/pqcodec/pqcodec/encoding/plain"
	"github.com/pqcodec/pqcodec/encoding/rle"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/internal/errs"
)

// ErrCorrupt reports encoded values that do not hold what their page says.
// The errors of the table's own checks match it but carry only their
// detail ("100 PLAIN INT32 values need 400 bytes, have 364"), for the caller
// to wrap in its own sentinel (column wraps them in column.ErrCorrupt);
// errors of the encoding packages are returned as they are.
var ErrCorrupt = errs.Corrupt("enctable: corrupt values")

// corruptf is an error of the table's own checks: its detail only, matching
// ErrCorrupt.
func corruptf(format string, args ...any) error { return errs.Detailf(ErrCorrupt, format, args...) }

// ErrUnsupported reports an encoding that does not apply to a physical type.
var ErrUnsupported = errors.New("enctable: encoding does not apply to the type")

// Values holds values in the Go form of their physical type. Its fields are
// those of column.Values, in the same order, so that a *column.Values
// converts to a *Values and back; only the slice for Type is used.
type Values struct {
	Type       format.Type
	TypeLength int

	Booleans []bool
	Int32s   []int32
	Int64s   []int64
	Int96s   [][12]byte
	Floats   []float32
	Doubles  []float64
	Bytes    []byte
	Offsets  []int32
}

// ElemSize returns the bytes one value of type t takes in a Values: 4 for
// a BYTE_ARRAY (its offset, not counting its bytes), typeLength for a
// FIXED_LEN_BYTE_ARRAY (0 when negative), 0 for an unknown type.
func ElemSize(t format.Type, typeLength int) int {
	switch t {
	case format.Boolean:
		return 1
	case format.Int32, format.Float, format.ByteArray:
		return 4
	case format.Int64, format.Double:
		return 8
	case format.Int96:
		return 12
	case format.FixedLenByteArray:
		return max(typeLength, 0)
	}
	return 0
}

// Len returns the number of values held.
func (v *Values) Len() int {
	switch v.Type {
	case format.Boolean:
		return len(v.Booleans)
	case format.Int32:
		return len(v.Int32s)
	case format.Int64:
		return len(v.Int64s)
	case format.Int96:
		return len(v.Int96s)
	case format.Float:
		return len(v.Floats)
	case format.Double:
		return len(v.Doubles)
	case format.ByteArray:
		return max(len(v.Offsets)-1, 0)
	case format.FixedLenByteArray:
		if v.TypeLength <= 0 {
			return 0
		}
		return len(v.Bytes) / v.TypeLength
	}
	return 0
}

// Truncate keeps the first n values of v; n must not exceed v.Len().
// column and rows use it (and Len) through a conversion of their
// *column.Values.
func (v *Values) Truncate(n int) {
	switch v.Type {
	case format.Boolean:
		v.Booleans = v.Booleans[:n]
	case format.Int32:
		v.Int32s = v.Int32s[:n]
	case format.Int64:
		v.Int64s = v.Int64s[:n]
	case format.Int96:
		v.Int96s = v.Int96s[:n]
	case format.Float:
		v.Floats = v.Floats[:n]
	case format.Double:
		v.Doubles = v.Doubles[:n]
	case format.ByteArray:
		if len(v.Offsets) > n {
			v.Offsets = v.Offsets[:n+1]
			v.Bytes = v.Bytes[:v.Offsets[n]]
		}
	case format.FixedLenByteArray:
		v.Bytes = v.Bytes[:n*v.TypeLength]
	}
}

// AppendRange appends values [from, to) of src to v. Both hold the same
// physical type; v's Type and TypeLength say which (a FIXED_LEN_BYTE_ARRAY
// value is v.TypeLength bytes). Byte array offsets are rebased onto v's
// bytes; v.Offsets gets its leading 0 when it is empty. The writer's page
// buffer and internal/pagebatch's row batches use it.
func (v *Values) AppendRange(src *Values, from, to int) {
	switch v.Type {
	case format.Boolean:
		v.Booleans = append(v.Booleans, src.Booleans[from:to]...)
	case format.Int32:
		v.Int32s = append(v.Int32s, src.Int32s[from:to]...)
	case format.Int64:
		v.Int64s = append(v.Int64s, src.Int64s[from:to]...)
	case format.Int96:
		v.Int96s = append(v.Int96s, src.Int96s[from:to]...)
	case format.Float:
		v.Floats = append(v.Floats, src.Floats[from:to]...)
	case format.Double:
		v.Doubles = append(v.Doubles, src.Doubles[from:to]...)
	case format.FixedLenByteArray:
		v.Bytes = append(v.Bytes, src.Bytes[from*v.TypeLength:to*v.TypeLength]...)
	case format.ByteArray:
		if len(v.Offsets) == 0 {
			v.Offsets = append(v.Offsets, 0)
		}
		if from == to {
			return
		}
		lo, hi := src.Offsets[from], src.Offsets[to]
		base := int32(len(v.Bytes)) - lo
		v.Bytes = append(v.Bytes, src.Bytes[lo:hi]...)
		// The same loop as column's appendByteArrayRange, its twin.
		k := len(v.Offsets)
		v.Offsets = slices.Grow(v.Offsets, to-from)[:k+to-from]
		out := v.Offsets[k:]
		for i, o := range src.Offsets[from+1 : to+1] {
			out[i] = o + base
		}
	}
}

// Row is one row of the table.
type Row struct {
	Encoding format.Encoding
	Type     format.Type
	// Encode appends the encoding of every value of v to dst. Nil for the
	// dictionary encodings.
	Encode func(dst []byte, v *Values) ([]byte, error)
	// Decode appends the n values src holds to v. numLevels is the page's
	// value count, nulls included (BYTE_STREAM_SPLIT streams may count
	// them). Bytes past the n values are ignored, as other readers ignore
	// them. Nil for the dictionary encodings.
	Decode func(v *Values, src []byte, n, numLevels int) error
	// NewDictEncoder returns the dictionary builder of the dictionary
	// encodings, nil for the others. limit bounds the dictionary page in
	// bytes (<= 0: no bound); typeLength is the size of a
	// FIXED_LEN_BYTE_ARRAY value.
	NewDictEncoder func(limit, typeLength int) DictEncoder
}

// DictEncoder builds a dictionary and the indices of the values put in it:
// the common face of dictionary.Encoder and dictionary.BytesEncoder.
type DictEncoder interface {
	// Put adds values [from, to) of v, returning how many it took and an
	// error wrapping dictionary.ErrFull when it stopped at the limit.
	Put(v *Values, from, to int) (int, error)
	Len() int
	DictSize() int
	NumIndices() int
	AppendDictionaryPage(dst []byte) []byte
	AppendIndexPage(dst []byte) []byte
	// AppendDistinct appends to dst, whose type is the column's, each
	// distinct value among the pending indices once, in no particular
	// order: what page statistics need of a dictionary-encoded page.
	AppendDistinct(dst *Values)
	// TrackDistinct(true) has Put mark the indices it adds, so that
	// AppendDistinct reads a mark per dictionary value rather than every
	// pending index (about 0.3 ns per value instead of 0.9 for smooth
	// doubles). It applies to the indices Put adds from then on: call it
	// when none are pending, before a page.
	TrackDistinct(on bool)
	Reset()
}

var allTypes = []format.Type{format.Boolean, format.Int32, format.Int64, format.Int96,
	format.Float, format.Double, format.ByteArray, format.FixedLenByteArray}

// rows lists every (encoding, type) pair the specification allows and
// pqcodec encodes and decodes.
var rows = func() []Row {
	var r []Row
	for _, t := range allTypes {
		r = append(r, Row{Encoding: format.Plain, Type: t, Encode: encodePlain, Decode: decodePlain})
		if t != format.Boolean {
			r = append(r,
				Row{Encoding: format.PlainDictionary, Type: t, NewDictEncoder: newDictEncoder(t)},
				Row{Encoding: format.RLEDictionary, Type: t, NewDictEncoder: newDictEncoder(t)})
		}
	}
	return append(r,
		Row{Encoding: format.RLE, Type: format.Boolean, Encode: encodeRLEBoolean, Decode: decodeRLEBoolean},
		Row{Encoding: format.DeltaBinaryPacked, Type: format.Int32,
			Encode: func(dst []byte, v *Values) ([]byte, error) { return delta.EncodeInt32(dst, v.Int32s), nil },
			Decode: func(v *Values, src []byte, _, _ int) (err error) {
				v.Int32s, err = delta.DecodeInt32(v.Int32s, src)
				return
			}},
		Row{Encoding: format.DeltaBinaryPacked, Type: format.Int64,
			Encode: func(dst []byte, v *Values) ([]byte, error) { return delta.EncodeInt64(dst, v.Int64s), nil },
			Decode: func(v *Values, src []byte, _, _ int) (err error) {
				v.Int64s, err = delta.DecodeInt64(v.Int64s, src)
				return
			}},
		Row{Encoding: format.DeltaLengthByteArray, Type: format.ByteArray,
			Encode: func(dst []byte, v *Values) ([]byte, error) {
				return delta.EncodeLengthByteArray(dst, v.Bytes, offsetsOf(v))
			},
			Decode: func(v *Values, src []byte, _, _ int) (err error) {
				v.Bytes, v.Offsets, err = delta.DecodeLengthByteArray(v.Bytes, v.Offsets, src)
				return
			}},
		Row{Encoding: format.DeltaByteArray, Type: format.ByteArray,
			Encode: func(dst []byte, v *Values) ([]byte, error) {
				return delta.EncodeByteArray(dst, v.Bytes, offsetsOf(v))
			},
			Decode: func(v *Values, src []byte, _, _ int) (err error) {
				v.Bytes, v.Offsets, err = delta.DecodeByteArray(v.Bytes, v.Offsets, src)
				return
			}},
		Row{Encoding: format.DeltaByteArray, Type: format.FixedLenByteArray,
			Encode: func(dst []byte, v *Values) ([]byte, error) {
				return delta.EncodeFixedLenByteArray(dst, v.Bytes, v.TypeLength)
			},
			Decode: func(v *Values, src []byte, _, _ int) (err error) {
				v.Bytes, err = delta.DecodeFixedLenByteArray(v.Bytes, src, v.TypeLength)
				return
			}},
		Row{Encoding: format.ByteStreamSplit, Type: format.Int32, Encode: encodeBSS, Decode: decodeBSS},
		Row{Encoding: format.ByteStreamSplit, Type: format.Int64, Encode: encodeBSS, Decode: decodeBSS},
		Row{Encoding: format.ByteStreamSplit, Type: format.Float, Encode: encodeBSS, Decode: decodeBSS},
		Row{Encoding: format.ByteStreamSplit, Type: format.Double, Encode: encodeBSS, Decode: decodeBSS},
		Row{Encoding: format.ByteStreamSplit, Type: format.FixedLenByteArray, Encode: encodeBSS, Decode: decodeBSS},
	)
}()

// maxEncoding bounds the encodings the table is indexed by.
const maxEncoding = 16

var table = func() (t [maxEncoding][format.FixedLenByteArray + 1]*Row) {
	for i := range rows {
		r := &rows[i]
		if t[r.Encoding][r.Type] != nil {
			panic(fmt.Sprintf("enctable: two rows for %v %v", r.Encoding, r.Type))
		}
		t[r.Encoding][r.Type] = r
	}
	return t
}()

// Lookup returns the row of encoding e and physical type t, or nil when e
// does not apply to t (or either is unknown).
func Lookup(e format.Encoding, t format.Type) *Row {
	if e < 0 || e >= maxEncoding || t < 0 || t > format.FixedLenByteArray {
		return nil
	}
	return table[e][t]
}

// Rows returns every row of the table, in a fixed order. The slice is
// shared: do not modify it.
func Rows() []Row { return rows }

// Encodings returns the value encodings that apply to t, in table order,
// without the deprecated PLAIN_DICTIONARY.
func Encodings(t format.Type) []format.Encoding {
	var out []format.Encoding
	for _, r := range rows {
		if r.Type == t && r.Encoding != format.PlainDictionary {
			out = append(out, r.Encoding)
		}
	}
	return out
}

func offsetsOf(v *Values) []int32 {
	if len(v.Offsets) == 0 {
		return []int32{0}
	}
	return v.Offsets
}

func encodePlain(dst []byte, v *Values) ([]byte, error) {
	switch v.Type {
	case format.Boolean:
		return plain.EncodeBoolean(dst, v.Booleans), nil
	case format.Int32:
		return plain.Encode(dst, v.Int32s), nil
	case format.Int64:
		return plain.Encode(dst, v.Int64s), nil
	case format.Int96:
		return plain.Encode(dst, v.Int96s), nil
	case format.Float:
		return plain.Encode(dst, v.Floats), nil
	case format.Double:
		return plain.Encode(dst, v.Doubles), nil
	case format.ByteArray:
		return plain.EncodeByteArray(dst, v.Bytes, offsetsOf(v)), nil
	case format.FixedLenByteArray:
		return plain.EncodeFixedLenByteArray(dst, v.Bytes, v.TypeLength)
	}
	return dst, fmt.Errorf("%w: PLAIN for %v", ErrUnsupported, v.Type)
}

// decodePlain appends the first n PLAIN values of src to v. Bytes after
// them are ignored, as other readers do.
func decodePlain(v *Values, src []byte, n, _ int) error {
	var err error
	fixed := func(size int) ([]byte, error) {
		if len(src)/size < n {
			return nil, corruptf("%d PLAIN %v values need %d bytes, have %d", n, v.Type, n*size, len(src))
		}
		return src[:n*size], nil
	}
	var b []byte
	switch v.Type {
	case format.Boolean:
		v.Booleans, err = plain.DecodeBoolean(v.Booleans, src, n)
	case format.Int32:
		if b, err = fixed(4); err == nil {
			v.Int32s, err = plain.Decode(v.Int32s, b)
		}
	case format.Int64:
		if b, err = fixed(8); err == nil {
			v.Int64s, err = plain.Decode(v.Int64s, b)
		}
	case format.Int96:
		if b, err = fixed(12); err == nil {
			v.Int96s, err = plain.Decode(v.Int96s, b)
		}
	case format.Float:
		if b, err = fixed(4); err == nil {
			v.Floats, err = plain.Decode(v.Floats, b)
		}
	case format.Double:
		if b, err = fixed(8); err == nil {
			v.Doubles, err = plain.Decode(v.Doubles, b)
		}
	case format.FixedLenByteArray:
		if v.TypeLength <= 0 {
			return corruptf("FIXED_LEN_BYTE_ARRAY without a positive type length")
		}
		if b, err = fixed(v.TypeLength); err == nil {
			v.Bytes, err = plain.DecodeFixedLenByteArray(v.Bytes, b, v.TypeLength)
		}
	case format.ByteArray:
		// Pages end with their last value: decode all of src in one pass,
		// and only when it does not hold n values or more find the end of
		// the first n before decoding them.
		b0, o0, base := v.Bytes, v.Offsets, v.Len()
		if v.Bytes, v.Offsets, err = plain.DecodeByteArray(v.Bytes, v.Offsets, src); err == nil && v.Len()-base >= n {
			v.Truncate(base + n)
			return nil
		}
		v.Bytes, v.Offsets = b0, o0
		end, err := byteArrayEnd(src, n)
		if err != nil {
			return err
		}
		v.Bytes, v.Offsets, err = plain.DecodeByteArray(v.Bytes, v.Offsets, src[:end])
		return err
	default:
		return fmt.Errorf("%w: PLAIN for %v", ErrUnsupported, v.Type)
	}
	return err
}

// byteArrayEnd returns the length of the first n PLAIN BYTE_ARRAY values at
// the start of src.
func byteArrayEnd(src []byte, n int) (int, error) {
	pos := 0
	for i := range n {
		if len(src)-pos < 4 {
			return 0, corruptf("PLAIN BYTE_ARRAY value %d of %d truncated at offset %d", i, n, pos)
		}
		l := int(binary.LittleEndian.Uint32(src[pos:]))
		pos += 4
		if l > len(src)-pos {
			return 0, corruptf("PLAIN BYTE_ARRAY value %d of %d bytes past the end of the page", i, l)
		}
		pos += l
	}
	return pos, nil
}

// encodeRLEBoolean writes the RLE boolean page: the 4-byte length prefix,
// then the hybrid runs at width 1.
func encodeRLEBoolean(dst []byte, v *Values) ([]byte, error) {
	return rle.EncodeBoolean(dst, v.Booleans), nil
}

func decodeRLEBoolean(v *Values, src []byte, n, _ int) (err error) {
	v.Booleans, _, err = rle.DecodeBoolean(v.Booleans, src, n)
	return err
}

func encodeBSS(dst []byte, v *Values) ([]byte, error) {
	switch v.Type {
	case format.Int32:
		return bytestreamsplit.EncodeInt32(dst, v.Int32s), nil
	case format.Int64:
		return bytestreamsplit.EncodeInt64(dst, v.Int64s), nil
	case format.Float:
		return bytestreamsplit.EncodeFloat32(dst, v.Floats), nil
	case format.Double:
		return bytestreamsplit.EncodeFloat64(dst, v.Doubles), nil
	case format.FixedLenByteArray:
		return bytestreamsplit.EncodeFixedLenByteArray(dst, v.Bytes, v.TypeLength)
	}
	return dst, fmt.Errorf("%w: BYTE_STREAM_SPLIT for %v", ErrUnsupported, v.Type)
}

// decodeBSS decodes the BYTE_STREAM_SPLIT values of src, at least n of
// them. Its length makes the stride: like arrow-cpp, src may hold up to
// numLevels values, as a writer may count nulls in; the caller keeps the
// first n.
func decodeBSS(v *Values, src []byte, n, numLevels int) error {
	size := 0
	switch v.Type {
	case format.Int32, format.Float:
		size = 4
	case format.Int64, format.Double:
		size = 8
	case format.FixedLenByteArray:
		size = v.TypeLength
	}
	if size <= 0 {
		return fmt.Errorf("%w: BYTE_STREAM_SPLIT for %v", ErrUnsupported, v.Type)
	}
	if len(src)%size != 0 || len(src)/size < n || len(src)/size > max(n, numLevels) {
		return corruptf("%d BYTE_STREAM_SPLIT values need %d bytes, have %d", n, n*size, len(src))
	}
	var err error
	switch v.Type {
	case format.Int32:
		v.Int32s, err = bytestreamsplit.DecodeInt32(v.Int32s, src)
	case format.Float:
		v.Floats, err = bytestreamsplit.DecodeFloat32(v.Floats, src)
	case format.Int64:
		v.Int64s, err = bytestreamsplit.DecodeInt64(v.Int64s, src)
	case format.Double:
		v.Doubles, err = bytestreamsplit.DecodeFloat64(v.Doubles, src)
	case format.FixedLenByteArray:
		v.Bytes, err = bytestreamsplit.DecodeFixedLenByteArray(v.Bytes, src, size)
	}
	return err
}

func newDictEncoder(t format.Type) func(limit, typeLength int) DictEncoder {
	switch t {
	case format.Int32:
		return func(limit, _ int) DictEncoder {
			return &fixedDict[int32]{dictionary.NewEncoder[int32](limit), func(v *Values) *[]int32 { return &v.Int32s }, distinct{}, false}
		}
	case format.Int64:
		return func(limit, _ int) DictEncoder {
			return &fixedDict[int64]{dictionary.NewEncoder[int64](limit), func(v *Values) *[]int64 { return &v.Int64s }, distinct{}, false}
		}
	case format.Int96:
		return func(limit, _ int) DictEncoder {
			return &fixedDict[[12]byte]{dictionary.NewEncoder[[12]byte](limit), func(v *Values) *[][12]byte { return &v.Int96s }, distinct{}, false}
		}
	case format.Float:
		return func(limit, _ int) DictEncoder {
			return &fixedDict[float32]{dictionary.NewEncoder[float32](limit), func(v *Values) *[]float32 { return &v.Floats }, distinct{}, false}
		}
	case format.Double:
		return func(limit, _ int) DictEncoder {
			return &fixedDict[float64]{dictionary.NewEncoder[float64](limit), func(v *Values) *[]float64 { return &v.Doubles }, distinct{}, false}
		}
	case format.ByteArray:
		return func(limit, _ int) DictEncoder { return &bytesDict{BytesEncoder: dictionary.NewBytesEncoder(limit)} }
	case format.FixedLenByteArray:
		return func(limit, size int) DictEncoder {
			return &bytesDict{BytesEncoder: dictionary.NewFixedLenEncoder(limit, max(size, 1)), size: max(size, 1)}
		}
	}
	return nil
}

type fixedDict[T plain.Fixed] struct {
	*dictionary.Encoder[T]
	field func(*Values) *[]T
	distinct
	track bool
}

func (d *fixedDict[T]) Put(v *Values, from, to int) (int, error) {
	n0 := d.NumIndices()
	n, err := d.Encoder.Put((*d.field(v))[from:to])
	if d.track {
		// The indices just added are in cache: one store each, no
		// branch.
		seen, epoch := d.page(d.Len())
		for _, ix := range d.Pending()[n0:] {
			seen[ix] = epoch
		}
	}
	return n, err
}

func (d *fixedDict[T]) TrackDistinct(on bool) { d.track = on }

func (d *fixedDict[T]) Reset() {
	d.Encoder.Reset()
	d.endPage()
}

func (d *fixedDict[T]) AppendDistinct(dst *Values) {
	vals := d.Values()
	seen, epoch := d.page(len(vals))
	out := d.field(dst)
	pending := d.Pending()
	switch {
	case d.track && len(vals) <= len(pending):
		// Put marked the page's indices: one look per dictionary value.
		for i, m := range seen[:len(vals)] {
			if m == epoch {
				*out = append(*out, vals[i])
			}
		}
	case d.track:
		// A dictionary larger than the page: the first occurrence of
		// each index takes its mark off (epochs are never 0).
		for _, ix := range pending {
			if seen[ix] == epoch {
				seen[ix] = 0
				*out = append(*out, vals[ix])
			}
		}
	default:
		for _, ix := range pending {
			if seen[ix] != epoch {
				seen[ix] = epoch
				*out = append(*out, vals[ix])
			}
		}
	}
	d.endPage()
}

// distinct marks the dictionary indices seen in a page: seen[i] == epoch
// when index i was, with a new epoch per page, so nothing is cleared
// between pages.
type distinct struct {
	seen  []uint32
	epoch uint32 // of the current page; 0 until the first
}

// page returns the marks of a dictionary of n values, and the current
// page's epoch, never 0.
func (d *distinct) page(n int) ([]uint32, uint32) {
	if d.epoch == 0 { // the first page, or the epochs wrapped around
		clear(d.seen)
		d.epoch = 1
	}
	if len(d.seen) < n {
		d.seen = append(d.seen, make([]uint32, n-len(d.seen))...)
	}
	return d.seen, d.epoch
}

// endPage ends the current page: its marks no longer count.
func (d *distinct) endPage() { d.epoch++ }

type bytesDict struct {
	*dictionary.BytesEncoder
	size int     // FIXED_LEN_BYTE_ARRAY value size, 0 for BYTE_ARRAY
	offs []int32 // offsets of fixed-size values, reused
	distinct
}

func (d *bytesDict) Put(v *Values, from, to int) (int, error) {
	if d.size == 0 {
		return d.BytesEncoder.Put(v.Bytes, v.Offsets[from:to+1])
	}
	d.offs = d.offs[:0]
	for i := from; i <= to; i++ {
		d.offs = append(d.offs, int32(i*d.size))
	}
	return d.BytesEncoder.Put(v.Bytes, d.offs)
}

func (d *bytesDict) TrackDistinct(bool) {} // AppendDistinct reads the pending indices

func (d *bytesDict) Reset() {
	d.BytesEncoder.Reset()
	d.endPage()
}

func (d *bytesDict) AppendDistinct(dst *Values) {
	defer d.endPage()
	seen, epoch := d.page(d.Len())
	if d.size == 0 && len(dst.Offsets) == 0 {
		dst.Offsets = append(dst.Offsets, int32(len(dst.Bytes)))
	}
	for _, ix := range d.Pending() {
		if seen[ix] != epoch {
			seen[ix] = epoch
			dst.Bytes = append(dst.Bytes, d.Value(int(ix))...)
			if d.size == 0 {
				dst.Offsets = append(dst.Offsets, int32(len(dst.Bytes)))
			}
		}
	}
}
