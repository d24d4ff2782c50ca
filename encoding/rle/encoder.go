package rle

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"slices"

	"github.com/pqcodec/pqcodec/internal/bitpack"
	"github.com/pqcodec/pqcodec/internal/unsafecast"
)

// Value is the set of element types the encoder accepts. Every value must
// fit in the bit width, so negative values are rejected.
type Value interface {
	~uint8 | ~uint16 | ~uint32 | ~int8 | ~int16 | ~int32
}

// Encode appends the bare hybrid encoding of src with the given bit width to
// dst and returns the extended slice. Repetitions of at least 8 values
// (counted from a group boundary of the pending bit-packed values) become RLE
// runs (at width 1 from 16 values: see [minRun]), everything else
// bit-packed runs whose last group is padded with zeros. It fails, leaving
// dst unchanged, if width > 32 or a value does not fit in width bits. dst
// may be nil and must not overlap src.
func Encode[T Value](dst []byte, src []T, width uint) ([]byte, error) {
	if width > MaxBitWidth {
		return dst, fmt.Errorf("%w: bit width %d", ErrInvalidArgument, width)
	}
	switch s := any(src).(type) {
	case []uint8:
		return encodeBytes(dst, s, width)
	case []uint32:
		return encodeUint32(dst, s, width)
	case []int16:
		if width <= 8 {
			return encodeInt16(dst, s, width)
		}
	}
	start := len(dst)
	var or T // OR of every value, checked against the width at the end
	lit := 0 // start of the pending bit-packed values
	i := 0
	// Values go by groups of 8 from the start of the pending bit-packed
	// values, so that a bit-packed run always holds whole groups; a group of
	// 8 equal values starts an RLE run, which then extends as far as the
	// value repeats, unless the run is shorter than minRun.
	for i+8 <= len(src) {
		g := (*[8]T)(src[i : i+8])
		v := g[0]
		diff := (g[1] ^ v) | (g[2] ^ v) | (g[3] ^ v) | (g[4] ^ v) | (g[5] ^ v) | (g[6] ^ v) | (g[7] ^ v)
		if diff != 0 {
			or |= g[0] | g[1] | g[2] | g[3] | g[4] | g[5] | g[6] | g[7]
			i += 8
			continue
		}
		or |= v
		j := i + 8
		for j+8 <= len(src) {
			g := (*[8]T)(src[j : j+8])
			if (g[0]^v)|(g[1]^v)|(g[2]^v)|(g[3]^v)|(g[4]^v)|(g[5]^v)|(g[6]^v)|(g[7]^v) != 0 {
				break
			}
			j += 8
		}
		for j < len(src) && src[j] == v {
			j++
		}
		if j-i < minRun(width) {
			i += (j - i) &^ 7 // the groups inside the run stay bit-packed too
			continue
		}
		dst = appendPacked(dst, src[lit:i], width)
		dst = appendRepeat(dst, uint32(v), j-i, width)
		i, lit = j, j
	}
	for _, v := range src[i:] {
		or |= v
	}
	if width < 32 && uint32(or)>>width != 0 || or < 0 {
		return dst[:start], fmt.Errorf("%w: value wider than %d bits", ErrInvalidArgument, width)
	}
	return appendPacked(dst, src[lit:], width), nil
}

// encodeBytes is [Encode] of bytes, which it reads 8 at a time as one
// 64-bit word (by assembly where [encodeBytesFast] can).
func encodeBytes(dst []byte, src []uint8, width uint) ([]byte, error) {
	start := len(dst)
	if out, pos, or, ok := encodeBytesFast(dst[:cap(dst)], len(dst), src, width); ok {
		if width < 8 && or&(lsb*uint64(0xff<<width&0xff)) != 0 {
			return dst[:start], fmt.Errorf("%w: value wider than %d bits", ErrInvalidArgument, width)
		}
		return out[:pos], nil
	}
	var or uint64 // OR of every word, checked against the width at the end
	lit, i := 0, 0
	for i+8 <= len(src) {
		x := binary.LittleEndian.Uint64(src[i : i+8])
		or |= x
		b := uint64(uint8(x)) * lsb
		if x != b {
			i += 8
			continue
		}
		j := repeatEnd(src, i+8, b)
		if j-i < minRun(width) {
			i += (j - i) &^ 7 // the groups inside the run stay bit-packed too
			continue
		}
		if lit < i {
			dst = appendPackedBytes(dst, src[lit:i], width)
		}
		h := uint64(j-i) << 1
		dst = appendRunHeader(dst, h)
		if width > 0 {
			dst = append(dst, uint8(x))
		}
		i, lit = j, j
	}
	for _, v := range src[i:] {
		or |= uint64(v)
	}
	if width < 8 && or&(lsb*uint64(0xff<<width&0xff)) != 0 {
		return dst[:start], fmt.Errorf("%w: value wider than %d bits", ErrInvalidArgument, width)
	}
	return appendPackedBytes(dst, src[lit:], width), nil
}

// appendPackedBytes appends src as one bit-packed run, padding the last
// group of 8 with zeros: [putPackedBytes] at the end of dst.
func appendPackedBytes(dst []byte, src []uint8, width uint) []byte {
	if len(src) == 0 {
		return dst
	}
	out, pos := putPackedBytes(dst[:cap(dst)], len(dst), src, width)
	return out[:pos]
}

// growOut returns out (a slice to its capacity whose first pos bytes are
// written) with at least n bytes past pos.
func growOut(out []byte, pos, n int) []byte {
	out = slices.Grow(out[:pos], n)
	return out[:cap(out)]
}

// encodeInt16 is [Encode] of int16 values of width up to 8 (levels): the
// loop of [encodeBytes] over groups of 8 int16 values.
func encodeInt16(dst []byte, src []int16, width uint) ([]byte, error) {
	start := len(dst)
	if out, pos, or, ok := encodeInt16Fast(dst[:cap(dst)], len(dst), src, width); ok {
		if or < 0 || uint16(or)>>width != 0 {
			return dst[:start], fmt.Errorf("%w: value wider than %d bits", ErrInvalidArgument, width)
		}
		return out[:pos], nil
	}
	vb := int(width+7) / 8
	var or int16 // OR of every value, checked against the width at the end
	out, pos := dst[:cap(dst)], len(dst)
	lit, i := 0, 0
	for i+8 <= len(src) {
		g := (*[8]int16)(src[i:])
		v := g[0]
		if g[1] != v || g[2] != v || g[3] != v || g[4] != v || g[5] != v || g[6] != v || g[7] != v {
			or |= g[0] | g[1] | g[2] | g[3] | g[4] | g[5] | g[6] | g[7]
			i += 8
			continue
		}
		or |= v
		j := i + 8
		for j+8 <= len(src) {
			g := (*[8]int16)(src[j:])
			if (g[0]^v)|(g[1]^v)|(g[2]^v)|(g[3]^v)|(g[4]^v)|(g[5]^v)|(g[6]^v)|(g[7]^v) != 0 {
				break
			}
			j += 8
		}
		for j < len(src) && src[j] == v {
			j++
		}
		if j-i < minRun(width) {
			i += (j - i) &^ 7 // the groups inside the run stay bit-packed too
			continue
		}
		if lit < i {
			out, pos = putPackedInt16(out, pos, src[lit:i], width)
		}
		if len(out)-pos < binary.MaxVarintLen64+1 {
			out = growOut(out, pos, binary.MaxVarintLen64+1)
		}
		pos += putRunHeader(out[pos:], uint64(j-i)<<1)
		out[pos] = uint8(v)
		pos += vb
		i, lit = j, j
	}
	for _, v := range src[i:] {
		or |= v
	}
	if or < 0 || uint16(or)>>width != 0 {
		return dst[:start], fmt.Errorf("%w: value wider than %d bits", ErrInvalidArgument, width)
	}
	if lit < len(src) {
		out, pos = putPackedInt16(out, pos, src[lit:], width)
	}
	return out[:pos], nil
}

// putPackedInt16 is [putPackedBytes] of int16 values of width up to 8,
// narrowed to bytes 512 at a time.
func putPackedInt16(out []byte, pos int, src []int16, width uint) ([]byte, int) {
	out, pos, size := openPackedRun(out, pos, len(src), width)
	o := out[pos:]
	var buf [8 * 64]byte
	for len(src) > 0 {
		c := min(len(src), len(buf))
		for k, v := range src[:c] {
			buf[k] = uint8(v)
		}
		packBytes(o, buf[:c], width)
		o = o[c/8*int(width):]
		src = src[c:]
	}
	return out, pos + size
}

// minRun returns the length from which a run of equal values found at a
// group boundary is written as an RLE run at the given width: 16 at width
// 1, 8 otherwise. An RLE run costs its header, its value and the header of
// the bit-packed run after it, and ends the group alignment there; at width
// 1 runs of 8-15 values cost more than their bits. Measured on 16,384-value
// pages (runs of 1-16, 8-64, 8-200 and geometric lengths, levels with 10%
// and 50% nulls): at width 1, 16 gives pages 11% smaller than 8 overall
// (5-19% smaller on each but runs of 8-64 and 8-200 values, +2.4% and
// +0.3%); at widths 2-4 every threshold above 8 makes them larger overall
// (13 at width 2: +1.6%, +10% on runs of 1-16; 9 at width 3: +0.7%).
func minRun(width uint) int {
	if width == 1 {
		return 16
	}
	return 8
}

// lsb has the low bit of each byte of a word set: lsb*v repeats byte v.
const lsb = 0x0101010101010101

// repeatEnd returns the end of the run of the byte repeated in b that goes
// on at src[j].
func repeatEnd(src []uint8, j int, b uint64) int {
	for j+16 <= len(src) {
		w := (*[16]byte)(src[j : j+16])
		d0 := binary.LittleEndian.Uint64(w[:8]) ^ b
		d1 := binary.LittleEndian.Uint64(w[8:]) ^ b
		if d0 != 0 {
			return j + bits.TrailingZeros64(d0)/8
		}
		if d1 != 0 {
			return j + 8 + bits.TrailingZeros64(d1)/8
		}
		j += 16
	}
	for j < len(src) && src[j] == uint8(b) {
		j++
	}
	return j
}

// encodeUint32 is [Encode] of uint32 values, packed straight from src.
// Its loop is that of Encode's generic path and of [encodeInt16], kept per
// type: each writes its runs its own way (appendPacked32 packs blocks of 32
// from src, encodeInt16 writes into a slice to its capacity).
func encodeUint32(dst []byte, src []uint32, width uint) ([]byte, error) {
	start := len(dst)
	var or uint32 // OR of every value, checked against the width at the end
	lit, i := 0, 0
	for i+8 <= len(src) {
		g := (*[8]uint32)(src[i : i+8])
		v := g[0]
		// Most groups of random values differ early.
		if g[1] != v || g[2] != v || g[3] != v || g[4] != v || g[5] != v || g[6] != v || g[7] != v {
			or |= g[0] | g[1] | g[2] | g[3] | g[4] | g[5] | g[6] | g[7]
			i += 8
			continue
		}
		or |= v
		j := i + 8
		for j+8 <= len(src) {
			g := (*[8]uint32)(src[j : j+8])
			if (g[0]^v)|(g[1]^v)|(g[2]^v)|(g[3]^v)|(g[4]^v)|(g[5]^v)|(g[6]^v)|(g[7]^v) != 0 {
				break
			}
			j += 8
		}
		for j < len(src) && src[j] == v {
			j++
		}
		if j-i < minRun(width) {
			i += (j - i) &^ 7 // the groups inside the run stay bit-packed too
			continue
		}
		if lit < i {
			dst = appendPacked32(dst, src, lit, i, width)
		}
		dst = appendRepeat(dst, v, j-i, width)
		i, lit = j, j
	}
	for _, v := range src[i:] {
		or |= v
	}
	if width < 32 && or>>width != 0 {
		return dst[:start], fmt.Errorf("%w: value wider than %d bits", ErrInvalidArgument, width)
	}
	return appendPacked32(dst, src, lit, len(src), width), nil
}

// EncodeWithPrefix is [Encode] followed by patching in the 4-byte length
// prefix used by DataPage v1 levels and RLE-encoded booleans.
func EncodeWithPrefix[T Value](dst []byte, src []T, width uint) ([]byte, error) {
	start := len(dst)
	dst = append(dst, 0, 0, 0, 0)
	out, err := Encode(dst, src, width)
	if err != nil {
		return dst[:start], err
	}
	binary.LittleEndian.PutUint32(out[start:], uint32(len(out)-start-4))
	return out, nil
}

// EncodeBoolean appends an RLE-encoded BOOLEAN page (4-byte length prefix
// then a stream of width 1) holding src to dst.
func EncodeBoolean(dst []byte, src []bool) []byte {
	out, _ := EncodeWithPrefix(dst, unsafecast.BoolBytes(src), 1) // 0/1 always fit width 1
	return out
}

// appendRepeat appends an RLE run of count copies of v.
func appendRepeat(dst []byte, v uint32, count int, width uint) []byte {
	h := uint64(count) << 1
	dst = appendRunHeader(dst, h)
	switch (width + 7) / 8 {
	case 0:
		return dst
	case 1:
		return append(dst, byte(v))
	case 2:
		return append(dst, byte(v), byte(v>>8))
	case 3:
		return append(dst, byte(v), byte(v>>8), byte(v>>16))
	default:
		return binary.LittleEndian.AppendUint32(dst, v)
	}
}

// appendRunHeader appends the run header h (a uvarint), a byte without a
// call for most runs. It and putRunHeader are the one writer of run
// headers (closeRun moves a bit-packed run's data for a long one).
func appendRunHeader(dst []byte, h uint64) []byte {
	if h < 0x80 {
		return append(dst, byte(h))
	}
	return binary.AppendUvarint(dst, h)
}

// putRunHeader writes the run header h at the start of out, which has room
// for binary.MaxVarintLen64 bytes, and returns its length.
func putRunHeader(out []byte, h uint64) int {
	if h < 0x80 {
		out[0] = byte(h)
		return 1
	}
	return binary.PutUvarint(out, h)
}

// appendHeader appends the header of a bit-packed run of groups groups of
// 8 values and makes room for its size bytes and the 4*MaxBitWidth bytes a
// block of 32 values may write past them. It returns dst extended by the
// header and the room, which starts at len(dst).
func appendHeader(dst []byte, groups, size int) []byte {
	h := uint64(groups)<<1 | 1
	dst = appendRunHeader(dst, h)
	if cap(dst)-len(dst) < size+4*MaxBitWidth {
		dst = slices.Grow(dst, size+4*MaxBitWidth)
	}
	return dst
}

// appendPacked32 appends src[lit:end] as one bit-packed run, padding the
// last group of 8 with zeros. Whole blocks of 32 values are packed straight
// from src, reading past end when src goes on: end-lit is then a multiple
// of 8, and the bytes of the values past end are not kept.
func appendPacked32(dst []byte, src []uint32, lit, end int, width uint) []byte {
	if lit == end {
		return dst
	}
	groups := (end - lit + 7) / 8
	size := groups * int(width)
	if room := size + 4*MaxBitWidth + binary.MaxVarintLen64; cap(dst)-len(dst) < room {
		dst = slices.Grow(dst, room)
	}
	h := uint64(groups)<<1 | 1
	dst = appendRunHeader(dst, h)
	n := len(dst)
	out := dst[n:cap(dst)]
	w := int(4 * width)
	for pos := 0; lit < end; lit, pos = lit+32, pos+w {
		if len(src)-lit >= 32 {
			bitpack.Pack32(out[pos:], (*[32]uint32)(src[lit:lit+32]), width)
		} else {
			var block [32]uint32
			copy(block[:], src[lit:end])
			bitpack.Pack32(out[pos:], &block, width)
		}
	}
	return dst[:n+size]
}

// putPackedBytes writes src as one bit-packed run at out[pos:], growing
// out (a slice to its capacity) if needed, and returns out and the end of
// the run.
func putPackedBytes(out []byte, pos int, src []uint8, width uint) ([]byte, int) {
	out, pos, size := openPackedRun(out, pos, len(src), width)
	packBytes(out[pos:], src, width)
	return out, pos + size
}

// openPackedRun writes the header of a bit-packed run of n values at
// out[pos:], growing out (a slice to its capacity) for the header, the
// run's size bytes and 8 more (every group stores a whole word). It
// returns out, the start of the run's data and its size.
func openPackedRun(out []byte, pos, n int, width uint) ([]byte, int, int) {
	groups := (n + 7) / 8
	size := groups * int(width)
	if len(out)-pos < size+8+binary.MaxVarintLen64 {
		out = growOut(out, pos, size+8+binary.MaxVarintLen64)
	}
	return out, pos + putRunHeader(out[pos:], uint64(groups)<<1|1), size
}

// packBytes packs src into o, which holds its packed size and 8 more bytes.
// Each group of 8 values, read as one 64-bit word, is packed by shifts and
// masks (SWAR) into width bytes, by multiplication at width 1, or copied
// at width 8; the last group is padded with zeros.
func packBytes(o []byte, src []uint8, width uint) {
	k := len(src) &^ 7
	switch {
	case width == 1:
		// Levels and booleans: a byte of 8 values by multiplication, which
		// gathers the low bit of byte k of a word into bit 56+k.
		o := o[:k/8]
		for g := range o {
			o[g] = byte(binary.LittleEndian.Uint64(src[8*g:]) * 0x0102040810204080 >> 56)
		}
	case width == 8:
		copy(o, src[:k])
	default:
		packWords(o, src[:k], width)
	}
	if k < len(src) {
		var last [8]byte
		copy(last[:], src[k:])
		packWords(o[k/8*int(width):], last[:], width)
	}
}

// packWords packs each group of 8 bytes of src (whose length is a multiple
// of 8), values below 1<<width, into width bytes of out, storing a whole
// word per group: out must hold 8 bytes more than the packed size. Bits of
// values wider than width are lost.
func packWords(out []byte, src []uint8, width uint) {
	w := width
	pos := 0
	if w <= 4 {
		// Neighbouring values cannot overlap when shifted together: three
		// shift-or-mask steps gather 2, 4, then 8 values.
		m1 := lsb16 * (uint64(1)<<(2*w) - 1)
		m2 := lsb32 * (uint64(1)<<(4*w) - 1)
		for i := 0; i+8 <= len(src); i += 8 {
			x := binary.LittleEndian.Uint64(src[i : i+8])
			x = (x | x>>((8-w)&63)) & m1
			x = (x | x>>((16-2*w)&63)) & m2
			x = x | x>>((32-4*w)&63)
			binary.LittleEndian.PutUint64(out[pos:pos+8], x)
			pos += int(w)
		}
		return
	}
	m1 := lsb16 * (uint64(1)<<w - 1)
	m2 := lsb32 * (uint64(1)<<(2*w) - 1)
	for i := 0; i+8 <= len(src); i += 8 {
		x := binary.LittleEndian.Uint64(src[i : i+8])
		x = x&m1 | (x>>8&m1)<<(w&63)
		x = x&m2 | (x>>16&m2)<<(2*w&63)
		x = x&0xffffffff | x>>32<<(4*w&63)
		binary.LittleEndian.PutUint64(out[pos:pos+8], x)
		pos += int(w)
	}
}

// lsb16 and lsb32 have the low bit of each 16-bit and 32-bit lane of a
// word set.
const (
	lsb16 = 0x0001000100010001
	lsb32 = 0x0000000100000001
)

// appendPacked appends src as one bit-packed run, padding the last group of
// 8 with zeros.
func appendPacked[T Value](dst []byte, src []T, width uint) []byte {
	if len(src) == 0 {
		return dst
	}
	groups := (len(src) + 7) / 8
	size := groups * int(width)
	dst = appendHeader(dst, groups, size)
	out := dst[len(dst) : len(dst)+size+4*MaxBitWidth]
	var block [32]uint32
	pos := 0
	for len(src) > 0 {
		c := min(32, len(src))
		for k, v := range src[:c] {
			block[k] = uint32(v)
		}
		clear(block[c:])
		bitpack.Pack32(out[pos:], &block, width)
		pos += bitpack.ByteCount((c+7)/8*8, width)
		src = src[c:]
	}
	return dst[:len(dst)+size]
}
