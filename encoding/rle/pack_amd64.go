//go:build !purego

package rle

// packBytesFast packs the groups of 8 values of src (a multiple of 8 of
// them, width 2..7) into out like [packWords], by PEXT where the CPU has
// BMI2, and reports whether it did.
func packBytesFast(out []byte, src []uint8, w uint) bool {
	g := len(src) / 8
	if !hasBMI2 || g == 0 {
		return false
	}
	_ = out[(g-1)*int(w)+7] // the assembly writes up to here
	packBytesPEXT(&out[0], &src[0], g, int(w), (uint64(1)<<w-1)*lsb)
	return true
}

// packInt16Fast is [packBytesFast] for [packInt16Words] (width 1..8).
func packInt16Fast(out []byte, src []int16, w uint) bool {
	g := len(src) / 8
	if !hasBMI2 || g == 0 {
		return false
	}
	_ = out[(g-1)*int(w)+7]
	packInt16PEXT(&out[0], &src[0], g, int(w), (uint64(1)<<w-1)*lsb16)
	return true
}

//go:noescape
func packBytesPEXT(dst *byte, src *byte, groups int, w int, mask uint64)

//go:noescape
func packInt16PEXT(dst *byte, src *int16, groups int, w int, mask uint64)

// encodeChunk is the number of values encodeBytesBMI2 scans per call, so
// that the room it needs stays bounded by the chunk, not the page.
const encodeChunk = 1 << 16

// encodeBytesFast runs the main loop of [encodeBytes] on the whole groups
// of src by assembly where the CPU has BMI2, writing at out[pos:] (out is
// a slice to its capacity, grown as needed). It returns out, the end of
// what it wrote, the next value to scan, the start of the pending
// bit-packed values and the OR of the values scanned; all zero but out and
// pos if it did nothing.
func encodeBytesFast(out []byte, pos int, src []uint8, width uint) ([]byte, int, int, int, uint64) {
	if !hasBMI2 || len(src) < 8 || width > 8 {
		return out, pos, 0, 0, 0
	}
	vb := int(width+7) / 8
	mask := (uint64(1)<<width - 1) * lsb
	i, lit := 0, 0
	var or uint64
	for i+8 <= len(src) {
		limit := min(len(src), i+encodeChunk)
		if room := (limit-lit)/8*(int(width)+2) + 32; len(out)-pos < room {
			out = growOut(out, pos, room)
		}
		var end int
		var o uint64
		end, i, lit, o = encodeBytesBMI2(&out[pos], &src[0], len(src), int(width), mask, vb, i, lit, limit)
		pos += end
		or |= o
	}
	return out, pos, i, lit, or
}

//go:noescape
func encodeBytesBMI2(dst *byte, src *byte, n int, width int, mask uint64, vb int, i int, lit int, limit int) (end int, next int, nlit int, or uint64)

// encodeInt16Fast is [encodeBytesFast] for [encodeInt16] (width <= 8); the
// OR it returns is of the values, as int16.
func encodeInt16Fast(out []byte, pos int, src []int16, width uint) ([]byte, int, int, int, int16) {
	if !hasBMI2 || len(src) < 8 || width > 8 {
		return out, pos, 0, 0, 0
	}
	vb := int(width+7) / 8
	mask := (uint64(1)<<width - 1) * lsb16
	i, lit := 0, 0
	var or uint64
	for i+8 <= len(src) {
		limit := min(len(src), i+encodeChunk)
		if room := (limit-lit)/8*(int(width)+2) + 32; len(out)-pos < room {
			out = growOut(out, pos, room)
		}
		var end int
		var o uint64
		end, i, lit, o = encodeInt16BMI2(&out[pos], &src[0], len(src), int(width), mask, vb, i, lit, limit)
		pos += end
		or |= o
	}
	return out, pos, i, lit, int16(or | or>>16 | or>>32 | or>>48)
}

//go:noescape
func encodeInt16BMI2(dst *byte, src *int16, n int, width int, mask uint64, vb int, i int, lit int, limit int) (end int, next int, nlit int, or uint64)
