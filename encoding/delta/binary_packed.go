package delta

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"math/bits"
	"slices"

	"github.com/pqcodec/pqcodec/internal/bitpack"
	"github.com/pqcodec/pqcodec/internal/unsafecast"
)

//go:generate go run ./internal/gen -out unpack_gen.go -asm deltas_amd64.s

// Integer is the set of physical types DELTA_BINARY_PACKED encodes.
type Integer interface{ int32 | int64 }

const (
	// MaxBlockSize is the largest block size, in values, the decoders
	// accept. Reference writers use 128 (parquet-java, arrow, parquet-go) or
	// 2048 (DuckDB); the cap bounds how many values a byte of input may
	// declare, and so how much a hostile page can make a decoder allocate.
	MaxBlockSize = 1 << 16

	encBlockSize  = 128
	encMiniblocks = 4
	encMiniSize   = encBlockSize / encMiniblocks
)

// header is a parsed DELTA_BINARY_PACKED page header.
type header struct {
	blockSize int    // values per block
	miniCount int    // miniblocks per block
	miniSize  int    // values per miniblock, a multiple of 32
	total     int    // values in the page, first value included
	first     uint64 // first value, wrapped to 64 bits
}

func uvarint(src []byte, pos int, what string) (uint64, int, error) {
	if pos >= len(src) {
		return 0, pos, fmt.Errorf("%w: truncated %s at offset %d", ErrCorrupt, what, pos)
	}
	if b := src[pos]; b < 0x80 { // fast path: one byte
		return uint64(b), pos + 1, nil
	}
	v, n := binary.Uvarint(src[pos:])
	if n == 0 {
		return 0, pos, fmt.Errorf("%w: truncated %s at offset %d", ErrCorrupt, what, pos)
	}
	if n < 0 {
		return 0, pos, fmt.Errorf("%w: %s overflows 64 bits at offset %d", ErrCorrupt, what, pos)
	}
	return v, pos + n, nil
}

// zigzag decodes a zig-zag ULEB128 value, returning its two's complement
// bits.
func zigzag(src []byte, pos int, what string) (uint64, int, error) {
	u, pos, err := uvarint(src, pos, what)
	return u>>1 ^ -(u & 1), pos, err
}

func parseHeader(src []byte) (h header, pos int, err error) {
	var bs, mc, tv uint64
	if bs, pos, err = uvarint(src, pos, "block size"); err != nil {
		return h, pos, err
	}
	if mc, pos, err = uvarint(src, pos, "miniblock count"); err != nil {
		return h, pos, err
	}
	if tv, pos, err = uvarint(src, pos, "value count"); err != nil {
		return h, pos, err
	}
	if h.first, pos, err = zigzag(src, pos, "first value"); err != nil {
		return h, pos, err
	}
	switch {
	case bs == 0 || bs%128 != 0:
		return h, pos, fmt.Errorf("%w: block size %d is not a positive multiple of 128", ErrCorrupt, bs)
	case bs > MaxBlockSize:
		return h, pos, fmt.Errorf("%w: block size %d exceeds %d", ErrCorrupt, bs, MaxBlockSize)
	case mc == 0 || bs%mc != 0 || (bs/mc)%32 != 0:
		return h, pos, fmt.Errorf("%w: %d miniblocks do not split a block of %d into multiples of 32", ErrCorrupt, mc, bs)
	case tv > math.MaxInt32:
		return h, pos, fmt.Errorf("%w: value count %d exceeds %d", ErrCorrupt, tv, math.MaxInt32)
	}
	h.blockSize, h.miniCount, h.total = int(bs), int(mc), int(tv)
	h.miniSize = h.blockSize / h.miniCount
	// Every block holds at least a one-byte min delta and its widths.
	if h.total > 1 {
		blocks := (h.total - 2 + h.blockSize) / h.blockSize
		if blocks > (len(src)-pos)/(1+h.miniCount) {
			return h, pos, fmt.Errorf("%w: %d values need %d blocks, more than %d bytes can hold",
				ErrCorrupt, h.total, blocks, len(src)-pos)
		}
	}
	return h, pos, nil
}

// maxWidth is the widest miniblock bit width the decoders accept. For
// INT32, widths 33 to 64 come from writers that compute the deltas in 64
// bits (DuckDB): a value is the low 32 bits of the 64-bit running sum, so
// the decoder unpacks such miniblocks in 64 bits and keeps the low 32 bits
// of each delta, which gives the same values (sums are taken modulo 2^32).
const maxWidth = 64

// fastWidth returns the widest miniblock bit width the unrolled kernels of
// T handle; wider INT32 miniblocks take [unpackWide].
func fastWidth[T Integer]() uint {
	var z T
	switch any(z).(type) {
	case int32:
		return 32
	default:
		return 64
	}
}

// Decoder decodes one DELTA_BINARY_PACKED page in pieces. The zero value is
// ready for [Decoder.Reset]. A Decoder keeps a reference to the page passed to
// Reset and must not be used concurrently.
type Decoder[T Integer] struct {
	src       []byte
	pos       int // next unread byte of src
	hdr       header
	err       error // sticky error
	remaining int   // values not yet delivered, first value included
	started   bool  // the first value was delivered
	last      T     // last delivered value
	minDelta  T
	widths    []byte // bit widths of the current block
	mini      int    // index of the next miniblock in the current block
	width     uint   // bit width of the current miniblock
	chunks    int    // 32-value chunks left in the current miniblock
	buf       [32]T  // decoded values not yet delivered: buf[bufPos:bufLen]
	bufPos    int
	bufLen    int
}

// Reset starts decoding page src, a complete DELTA_BINARY_PACKED stream. It
// returns an error wrapping [ErrCorrupt] for a bad page header, leaving d
// empty: [Decoder.Decode] then returns 0, [io.EOF].
func (d *Decoder[T]) Reset(src []byte) error {
	*d = Decoder[T]{src: src}
	var err error
	if d.hdr, d.pos, err = parseHeader(src); err != nil {
		d.src, d.pos = nil, 0
		return err
	}
	d.remaining = d.hdr.total
	return nil
}

// Remaining returns the number of values the page declares and not yet
// decoded.
func (d *Decoder[T]) Remaining() int { return d.remaining + d.bufLen - d.bufPos }

// Decode writes up to len(dst) of the next values of the page into dst and
// returns how many it wrote. Once every value is decoded it returns 0,
// [io.EOF]. On corrupt input it returns the values decoded before the fault
// and an error wrapping [ErrCorrupt]; the error is sticky.
func (d *Decoder[T]) Decode(dst []T) (int, error) {
	n := 0
	if d.bufPos < d.bufLen {
		n = copy(dst, d.buf[d.bufPos:d.bufLen])
		d.bufPos += n
	}
	if d.err != nil {
		return n, d.err
	}
	if !d.started && d.remaining > 0 && n < len(dst) {
		d.started = true
		d.last = T(d.hdr.first)
		dst[n] = d.last
		n++
		d.remaining--
	}
	for n+32 <= len(dst) && d.remaining >= 32 {
		if n = d.decodeChunks(dst, n); d.err != nil {
			return n, d.err
		}
		if n+32 > len(dst) || d.remaining < 32 {
			break
		}
		// decodeChunks stopped at a miniblock it leaves to chunk: a
		// truncated one (chunk reports it) or an INT32 one wider than 32
		// bits.
		if err := d.chunk((*[32]T)(dst[n : n+32])); err != nil {
			return n, err
		}
		n += 32
	}
	if n < len(dst) && d.remaining > 0 {
		c := min(32, d.remaining)
		if err := d.chunk(&d.buf); err != nil {
			return n, err
		}
		d.bufLen = c
		d.bufPos = copy(dst[n:], d.buf[:c])
		n += d.bufPos
	}
	if n == 0 && len(dst) > 0 {
		return 0, io.EOF
	}
	return n, nil
}

// decodeChunks decodes whole 32-value chunks straight into dst[n:] while
// both dst and the page have 32 more values, and returns the new n. It stops
// early, leaving the error to [Decoder.chunk], at a truncated miniblock, and
// on a bad block header, which makes d.err sticky.
func (d *Decoder[T]) decodeChunks(dst []T, n int) int {
	src, pos, rem, last, md := d.src, d.pos, d.remaining, d.last, d.minDelta
	widths, mini, chunks, width := d.widths, d.mini, d.chunks, d.width
	fastW := fastWidth[T]()
	miniChunks := d.hdr.miniSize / 32
	if chunks > 0 && width > fastW {
		return n // inside a wide INT32 miniblock: chunk decodes it
	}
	for n+32 <= len(dst) && rem >= 32 {
		if chunks == 0 {
			if mini == len(widths) {
				m, ws, p, err := blockHeader(src, pos, d.hdr.miniCount)
				if err != nil {
					d.pos = p
					d.fail(err)
					return n
				}
				md, widths, pos, mini = T(m), ws, p, 0
			}
			w := uint(widths[mini])
			if w > fastW {
				// A wide INT32 miniblock (chunk decodes it) or a bad
				// width (nextMiniblock reports it). The loop keeps its
				// state in locals for speed and mirrors nextMiniblock
				// otherwise.
				break
			}
			mini++
			width = w
			chunks = miniChunks
		}
		need := int(4 * width)
		if len(src)-pos < need {
			break // truncated: chunk reports it
		}
		// unpackDeltas by hand: the compiler does not inline it.
		if o, ok := any((*[32]T)(dst[n : n+32])).(*[32]int32); ok {
			last = T(deltas32(o, src[pos:pos+need], width, uint32(md), uint32(last)))
		} else {
			o := any((*[32]T)(dst[n : n+32])).(*[32]int64)
			last = T(deltas64(o, src[pos:pos+need], width, uint64(md), uint64(last)))
		}
		n += 32
		pos += need
		chunks--
		rem -= 32
	}
	if rem == 0 {
		// Skip the padding chunks of the last miniblock, as advance does.
		pos = min(pos+chunks*int(4*width), len(src))
		chunks = 0
	}
	d.pos, d.remaining, d.last, d.minDelta = pos, rem, last, md
	d.widths, d.mini, d.chunks, d.width = widths, mini, chunks, width
	return n
}

// End returns the offset in the page just past the DELTA_BINARY_PACKED data,
// valid once every value was decoded.
func (d *Decoder[T]) End() int { return d.pos }

// blockHeader parses the block header at src[pos:] (the zigzag min delta
// and miniCount bit widths) and returns the min delta, the widths and the
// offset past them; on error the offset is where parsing stopped. It is the
// one block-header parser, used by [Decoder.nextMiniblock] and by the
// decodeChunks fast path.
func blockHeader(src []byte, pos, miniCount int) (md uint64, widths []byte, next int, err error) {
	if md, pos, err = zigzag(src, pos, "min delta"); err != nil {
		return 0, nil, pos, err
	}
	if len(src)-pos < miniCount {
		return 0, nil, pos, fmt.Errorf("%w: truncated miniblock widths at offset %d", ErrCorrupt, pos)
	}
	return md, src[pos : pos+miniCount], pos + miniCount, nil
}

// nextMiniblock moves to the next miniblock, reading a block header when
// the current block is done. d.remaining must be positive.
func (d *Decoder[T]) nextMiniblock() error {
	if d.mini == len(d.widths) {
		md, widths, pos, err := blockHeader(d.src, d.pos, d.hdr.miniCount)
		d.pos = pos
		if err != nil {
			return d.fail(err)
		}
		d.minDelta, d.widths, d.mini = T(md), widths, 0
	}
	w := d.widths[d.mini]
	if w > maxWidth {
		return d.fail(fmt.Errorf("%w: miniblock bit width %d exceeds %d", ErrCorrupt, w, maxWidth))
	}
	d.mini++
	d.width = uint(w)
	d.chunks = d.hdr.miniSize / 32
	return nil
}

// chunk decodes the next min(32, d.remaining) values into out; values past
// them are garbage. d.remaining must be positive.
func (d *Decoder[T]) chunk(out *[32]T) error {
	if d.chunks == 0 {
		if err := d.nextMiniblock(); err != nil {
			return err
		}
	}
	c := min(32, d.remaining)
	need := int(4 * d.width)
	src := d.src[d.pos:]
	if len(src) < need {
		// Only a page's last chunk may lack its padding.
		if c != d.remaining || len(src) < bitpack.ByteCount(c, d.width) {
			return d.fail(fmt.Errorf("%w: truncated miniblock at offset %d", ErrCorrupt, d.pos))
		}
		var tmp [256]byte
		copy(tmp[:], src)
		src = tmp[:]
	}
	d.last = unpackDeltas(out, src, d.width, d.minDelta, d.last)
	d.advance(c, need)
	return nil
}

// advance records that a chunk of c values and need bytes was consumed.
func (d *Decoder[T]) advance(c, need int) {
	d.pos += need
	d.chunks--
	d.remaining -= c
	if d.remaining == 0 {
		// Skip the padding chunks of the last miniblock; a writer that
		// dropped them is tolerated.
		d.pos = min(d.pos+d.chunks*need, len(d.src))
		d.chunks = 0
	}
}

// skip consumes the rest of the page without decoding values, checking the
// same structure [Decoder.Decode] checks (but not the values), so that
// [Decoder.End] is known. It is how the byte array decoders find the data
// following a lengths section.
func (d *Decoder[T]) skip() error {
	if d.err != nil {
		return d.err
	}
	if !d.started && d.remaining > 0 {
		d.started = true
		d.remaining--
	}
	for d.remaining > 0 {
		if d.chunks == 0 {
			if err := d.nextMiniblock(); err != nil {
				return err
			}
		}
		need := int(4 * d.width)
		if d.remaining > 32*d.chunks {
			// Whole miniblock, all values used.
			if len(d.src)-d.pos < d.chunks*need {
				return d.fail(fmt.Errorf("%w: truncated miniblock at offset %d", ErrCorrupt, d.pos))
			}
			d.pos += d.chunks * need
			d.remaining -= 32 * d.chunks
			d.chunks = 0
			continue
		}
		c := min(32, d.remaining)
		if len(d.src)-d.pos < need && (c != d.remaining || len(d.src)-d.pos < bitpack.ByteCount(c, d.width)) {
			return d.fail(fmt.Errorf("%w: truncated miniblock at offset %d", ErrCorrupt, d.pos))
		}
		d.advance(c, need)
	}
	return nil
}

func (d *Decoder[T]) fail(err error) error {
	d.err = err
	d.remaining = 0
	return err
}

// unpackDeltas unpacks 32 deltas of width bits from src and stores the
// running sums last + minDelta + delta in out, returning the last sum.
func unpackDeltas[T Integer](out *[32]T, src []byte, width uint, minDelta, last T) T {
	switch o := any(out).(type) {
	case *[32]int32:
		if width > 32 {
			return T(unpackWide(o, src, width, uint32(minDelta), uint32(last)))
		}
		return T(deltas32(o, src, width, uint32(minDelta), uint32(last)))
	case *[32]int64:
		return T(deltas64(o, src, width, uint64(minDelta), uint64(last)))
	}
	panic("unreachable")
}

// unpackWide is deltas32 for widths 33 to 64: it unpacks the deltas in 64
// bits and sums their low 32 bits, which is exact modulo 2^32.
func unpackWide(out *[32]int32, src []byte, width uint, m, last uint32) uint32 {
	var d [32]uint64
	bitpack.Unpack64(&d, src, width)
	for i, x := range d {
		last += m + uint32(x)
		out[i] = int32(last)
	}
	return last
}

// DecodeInt32 decodes the DELTA_BINARY_PACKED page src and appends its values
// to dst, returning the extended slice. dst may be nil; it is grown by
// capacity only when needed, and never beyond the page's declared count.
func DecodeInt32(dst []int32, src []byte) ([]int32, error) {
	dst, _, err := decodeAll(dst, src)
	return dst, err
}

// DecodeInt64 is [DecodeInt32] for INT64 pages.
func DecodeInt64(dst []int64, src []byte) ([]int64, error) {
	dst, _, err := decodeAll(dst, src)
	return dst, err
}

// decodeAll appends every value of the DELTA_BINARY_PACKED stream at the
// start of src to dst and returns the offset just past the stream. On error
// dst is returned with its original length.
func decodeAll[T Integer](dst []T, src []byte) ([]T, int, error) {
	var d Decoder[T]
	if err := d.Reset(src); err != nil {
		return dst, 0, err
	}
	n0 := len(dst)
	dst = slices.Grow(dst, d.remaining)
	out := dst[n0 : n0+d.remaining]
	n, err := d.Decode(out)
	if err != nil {
		return dst[:n0], 0, err
	}
	if n != len(out) {
		return dst[:n0], 0, fmt.Errorf("%w: decoded %d of %d values", ErrCorrupt, n, len(out))
	}
	return dst[:n0+n], d.End(), nil
}

// EncodeInt32 appends the DELTA_BINARY_PACKED encoding of src to dst and
// returns the extended slice. dst may be nil; it must not overlap src.
func EncodeInt32(dst []byte, src []int32) []byte { return encode(dst, src) }

// EncodeInt64 is [EncodeInt32] for INT64 values.
func EncodeInt64(dst []byte, src []int64) []byte { return encode(dst, src) }

// maxEncodedLen bounds the encoded size of n values of T.
func maxEncodedLen[T Integer](n int) int {
	size := int(fastWidth[T]()) / 8
	blocks := (n + encBlockSize - 1) / encBlockSize
	return 4*binary.MaxVarintLen64 + blocks*(binary.MaxVarintLen64+encMiniblocks+encBlockSize*size)
}

func encode[T Integer](dst []byte, src []T) []byte {
	n0 := len(dst)
	dst = slices.Grow(dst, maxEncodedLen[T](len(src)))
	buf := dst[:cap(dst)]
	var first T
	if len(src) > 0 {
		first = src[0]
	}
	pos := encodeHeader(buf, n0, len(src), int64(first))
	i := 0
	for ; len(src)-i > encBlockSize; i += encBlockSize {
		pos = encodeFullBlock(buf, pos, (*[encBlockSize + 1]T)(src[i:]))
	}
	if len(src)-i > 1 {
		pos = encodeBlock(buf, pos, src[i:])
	}
	return dst[:pos]
}

// encodeHeader writes the page header of n values at buf[pos:] and returns
// the new position.
func encodeHeader(buf []byte, pos, n int, first int64) int {
	pos += binary.PutUvarint(buf[pos:], encBlockSize)
	pos += binary.PutUvarint(buf[pos:], encMiniblocks)
	pos += binary.PutUvarint(buf[pos:], uint64(n))
	return pos + binary.PutVarint(buf[pos:], first)
}

// encodeBlock writes the block of the deltas between consecutive values of
// src (2 to encBlockSize+1 values) at buf[pos:] and returns the new
// position. buf[pos:] must hold a block of maxEncodedLen.
func encodeBlock[T Integer](buf []byte, pos int, src []T) int {
	if len(src) == encBlockSize+1 {
		return encodeFullBlock(buf, pos, (*[encBlockSize + 1]T)(src))
	}
	switch s := any(src).(type) {
	case []int32:
		return encodePartialBlock[int32, uint32](buf, pos, s)
	case []int64:
		return encodePartialBlock[int64, uint64](buf, pos, s)
	}
	panic("unreachable")
}

// encodeFullBlock is encodeBlock for a whole block.
func encodeFullBlock[T Integer](buf []byte, pos int, src *[encBlockSize + 1]T) int {
	switch s := any(src).(type) {
	case *[encBlockSize + 1]int32:
		return encodeFull[int32, uint32](buf, pos, s)
	case *[encBlockSize + 1]int64:
		return encodeFull[int64, uint64](buf, pos, s)
	}
	panic("unreachable")
}

// word is the unsigned type the deltas of T are packed from: U(x) keeps the
// bits of x.
type word interface{ uint32 | uint64 }

// encodeFull writes the block of the 128 deltas of src.
func encodeFull[T Integer, U word](buf []byte, pos int, src *[encBlockSize + 1]T) int {
	var d [encBlockSize]U
	lo, hi := blockDeltas(&d, src)
	return writeFull(buf, pos, &d, lo, hi)
}

// writeFull writes a whole block given the results of blockDeltas.
func writeFull[T Integer, U word](buf []byte, pos int, d *[encBlockSize]U, lo T, hi [encMiniblocks]T) int {
	pos += binary.PutVarint(buf[pos:], int64(lo))
	widths := buf[pos : pos+encMiniblocks : pos+encMiniblocks]
	pos += encMiniblocks
	m := U(lo)
	for mb := range encMiniblocks {
		widths[mb] = byte(bits.Len64(uint64(U(hi[mb]) - m)))
	}
	return packBlock(buf, pos, d, (*[encMiniblocks]byte)(widths))
}

// blockDeltasGo is the reference for blockDeltas: it stores the 128 deltas
// of src less their minimum in d, and returns that minimum and the maximum
// delta of each miniblock. The bit width of a miniblock is that of its
// maximum less the minimum, which fits U even where the subtraction
// overflows T. A miniblock whose maximum is the minimum (width 0) may be left
// holding anything.
func blockDeltasGo[T Integer, U word](d *[encBlockSize]U, src *[encBlockSize + 1]T) (lo T, hi [encMiniblocks]T) {
	lo = src[1] - src[0]
	for mb := range encMiniblocks {
		lo, hi[mb] = miniDeltas((*[encMiniSize]U)(d[mb*encMiniSize:]), (*[encMiniSize + 1]T)(src[mb*encMiniSize:]), lo)
	}
	for mb := range encMiniblocks {
		if hi[mb] != lo {
			subMin((*[encMiniSize]U)(d[mb*encMiniSize:]), U(lo))
		}
	}
	return lo, hi
}

// miniDeltas stores the 32 deltas of the 33 values of s in d and returns the
// minimum of lo and the deltas, and the maximum of the deltas. It is kept
// out of line, where its loop has every register.
//
//go:noinline
func miniDeltas[T Integer, U word](d *[encMiniSize]U, s *[encMiniSize + 1]T, lo T) (T, T) {
	h0, h1 := s[1]-s[0], s[1]-s[0]
	lo1 := lo
	for j := range encMiniSize / 2 {
		x0, x1 := s[2*j+1]-s[2*j], s[2*j+2]-s[2*j+1]
		d[2*j], d[2*j+1] = U(x0), U(x1)
		lo, h0 = min(lo, x0), max(h0, x0)
		lo1, h1 = min(lo1, x1), max(h1, x1)
	}
	return min(lo, lo1), max(h0, h1)
}

// subMin subtracts m from the 32 values of d.
//
//go:noinline
func subMin[U word](d *[encMiniSize]U, m U) {
	for j := range encMiniSize / 4 {
		v := (*[4]U)(d[4*j:])
		v[0], v[1], v[2], v[3] = v[0]-m, v[1]-m, v[2]-m, v[3]-m
	}
}

// encodePartialBlock writes the block of the fewer than 128 deltas of src
// (2 to 128 values). Miniblocks past the last delta get width 0 and no data;
// the padding of the last one packs as zeros.
func encodePartialBlock[T Integer, U word](buf []byte, pos int, src []T) int {
	var d [encBlockSize]U
	n := len(src) - 1
	lo := src[1] - src[0]
	for j := range n {
		x := src[j+1] - src[j]
		d[j] = U(x)
		lo = min(lo, x)
	}
	m := U(lo)
	for j := n; j < len(d); j++ {
		d[j] = m
	}
	pos += binary.PutVarint(buf[pos:], int64(lo))
	widths := buf[pos : pos+encMiniblocks : pos+encMiniblocks]
	pos += encMiniblocks
	for mb := range encMiniblocks {
		if mb*encMiniSize >= n {
			widths[mb] = 0
			continue
		}
		dm := (*[encMiniSize]U)(d[mb*encMiniSize:])
		var or U
		for j := range dm {
			dm[j] -= m
			or |= dm[j]
		}
		widths[mb] = byte(bits.Len64(uint64(or)))
	}
	return packBlock(buf, pos, &d, (*[encMiniblocks]byte)(widths))
}

// packBlock packs each miniblock of d with its width at buf[pos:] and
// returns the new position. A miniblock of width 0 takes no bytes; one of
// the full width of U is its little-endian image.
func packBlock[U word](buf []byte, pos int, d *[encBlockSize]U, widths *[encMiniblocks]byte) int {
	switch d := any(d).(type) {
	case *[encBlockSize]uint32:
		for mb, w := range widths {
			m := (*[32]uint32)(d[mb*32:])
			if w == 32 {
				unsafecast.Encode(buf[pos:pos+128], m[:])
			} else {
				bitpack.Pack32(buf[pos:], m, uint(w))
			}
			pos += 4 * int(w)
		}
	case *[encBlockSize]uint64: // twin of the uint32 case, for Pack64
		for mb, w := range widths {
			m := (*[32]uint64)(d[mb*32:])
			if w == 64 {
				unsafecast.Encode(buf[pos:pos+256], m[:])
			} else {
				bitpack.Pack64(buf[pos:], m, uint(w))
			}
			pos += 4 * int(w)
		}
	}
	return pos
}
