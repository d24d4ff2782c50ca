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
