//go:build !purego

package rle

import (
	"encoding/binary"
	"math"

	"github.com/klauspost/cpuid/v2"
)

// encodeChunk is the number of values the assembly scans per call, so that
// the room it needs stays bounded by the chunk, not the page.
const encodeChunk = 1 << 16

// encodeBytesFast is [encodeBytes] by assembly where the CPU has BMI2: it
// writes the whole encoding of src at out[pos:] (out is a slice to its
// capacity, grown as needed) and returns out, the end of the encoding and
// the OR of every value, or ok false if it did nothing.
func encodeBytesFast(out []byte, pos int, src []uint8, width uint) (_ []byte, end int, or uint64, ok bool) {
	if !hasBMI2 || width > 8 {
		return out, pos, 0, false
	}
	if hasAVX {
		zeroUpper() // the SSE2 run loops, after a peer's AVX code
	}
	vb := int(width+7) / 8
	mask := (uint64(1)<<width - 1) * lsb
	i, lit, hdr := 0, 0, 0
	for i+8 <= len(src) {
		limit := min(len(src), i+encodeChunk)
		if room := (limit-i)/8*(int(width)+2) + 32; len(out)-pos < room {
			out = growOut(out, pos, room)
		}
		var o uint64
		pos, i, lit, hdr, o = encodeBytesBMI2(&out[0], &src[0], len(src), int(width), mask, vb, pos, i, lit, hdr, limit, minRun(width))
		or |= o
		if lit < i && i+8 <= limit {
			// A run of 64 groups or more ends before the RLE run at i.
			out, pos = closeRun(out, pos, hdr, (i-lit)/8)
			lit = i
		}
	}
	if i < len(src) {
		var last [8]byte
		copy(last[:], src[i:])
		for _, v := range last {
			or |= uint64(v)
		}
		out, pos, hdr = putLastGroup(out, pos, i, lit, hdr, width, &last)
	}
	if lit < len(src) {
		out, pos = closeRun(out, pos, hdr, (len(src)-lit+7)/8)
	}
	return out, pos, or, true
}

// int16Stretch is the number of values in a row that encodeInt16BMI2 packs
// before it tests the groups narrowed to bytes (its loop scanv): fewer
// instructions per group than the test on the int16 words, but a longer
// path to the group's branch, which short runs mispredict. On a Xeon of the
// Sapphire Rapids class (family 6 model 167), from 64 values: bit-packed
// pages 1.45x faster (callgrind: 26% fewer instructions), pages of runs of
// 1-200 values unchanged; from 32, pages of RLE runs of 8-200 values between
// bit-packed stretches of 1-64 values took 5% longer and, at width 8, 10%
// more instructions. Other vendors keep the one loop (no limit) until it is
// measured there.
var int16Stretch = math.MaxInt

func init() {
	if cpuid.CPU.VendorID == cpuid.Intel {
		int16Stretch = 64
	}
}

// encodeInt16Fast is [encodeBytesFast] for [encodeInt16] (width <= 8); the
// OR is of the values, as int16. The two are twins kept per type, each
// calling its own assembly kernel.
func encodeInt16Fast(out []byte, pos int, src []int16, width uint) (_ []byte, end int, or int16, ok bool) {
	if !hasBMI2 || width > 8 {
		return out, pos, 0, false
	}
	if hasAVX {
		zeroUpper() // the SSE2 run loops, after a peer's AVX code
	}
	vb := int(width+7) / 8
	mask := (uint64(1)<<width - 1) * lsb
	i, lit, hdr := 0, 0, 0
	var or64 uint64
	for i+8 <= len(src) {
		limit := min(len(src), i+encodeChunk)
		if room := (limit-i)/8*(int(width)+2) + 32; len(out)-pos < room {
			out = growOut(out, pos, room)
		}
		var o uint64
		pos, i, lit, hdr, o = encodeInt16BMI2(&out[0], &src[0], len(src), int(width), mask, vb, pos, i, lit, hdr, limit, minRun(width), int16Stretch)
		or64 |= o
		if lit < i && i+8 <= limit {
			out, pos = closeRun(out, pos, hdr, (i-lit)/8)
			lit = i
		}
	}
	or = int16(or64 | or64>>16 | or64>>32 | or64>>48)
	if i < len(src) {
		var last [8]byte
		for k, v := range src[i:] {
			or |= v
			last[k] = uint8(v)
		}
		out, pos, hdr = putLastGroup(out, pos, i, lit, hdr, width, &last)
	}
	if lit < len(src) {
		out, pos = closeRun(out, pos, hdr, (len(src)-lit+7)/8)
	}
	return out, pos, or, true
}

// putLastGroup packs the last values of a page (fewer than 8, padded with
// zeros in last) at out[pos:] into the pending bit-packed run src[lit:i],
// opening one (its header byte reserved at the returned hdr) if there is
// none.
func putLastGroup(out []byte, pos, i, lit, hdr int, width uint, last *[8]byte) ([]byte, int, int) {
	if len(out)-pos < 16 {
		out = growOut(out, pos, 16)
	}
	if lit == i {
		hdr = pos
		pos++
	}
	packWords(out[pos:], last[:], width)
	return out, pos + int(width), hdr
}

// closeRun writes the header of the bit-packed run of groups groups whose
// header byte was reserved at out[hdr] and whose data ends at pos, moving
// the data if the header takes more than one byte. It returns out and the
// run's new end.
func closeRun(out []byte, pos, hdr, groups int) ([]byte, int) {
	h := uint64(groups)<<1 | 1
	if h < 0x80 {
		out[hdr] = byte(h)
		return out, pos
	}
	var b [binary.MaxVarintLen64]byte
	l := binary.PutUvarint(b[:], h)
	if len(out)-pos < l+8 {
		out = growOut(out, pos, l+8)
	}
	copy(out[hdr+l:], out[hdr+1:pos])
	copy(out[hdr:], b[:l])
	return out, pos + l - 1
}

//go:noescape
func encodeBytesBMI2(dst *byte, src *byte, n int, width int, mask uint64, vb int, pos int, i int, lit int, hdr int, limit int, minrun int) (npos int, ni int, nlit int, nhdr int, or uint64)

//go:noescape
func encodeInt16BMI2(dst *byte, src *int16, n int, width int, mask uint64, vb int, pos int, i int, lit int, hdr int, limit int, minrun int, vstretch int) (npos int, ni int, nlit int, nhdr int, or uint64)

// zeroUpper executes VZEROUPPER; only where the CPU has AVX (hasAVX).
//
//go:noescape
func zeroUpper()
