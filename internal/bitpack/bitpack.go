package bitpack

// ByteCount returns the number of bytes needed to hold n values of width
// bits packed back to back: ceil(n*width/8). n must be non-negative.
func ByteCount(n int, width uint) int {
	return int((uint64(n)*uint64(width) + 7) / 8)
}

// Unpack32 unpacks the 32 values of width bits (0..32) packed LSB first at
// the start of src into dst. It reads exactly 4*width bytes of src.
//
// Unpack32 panics if width > 32 or len(src) < 4*width; src and dst never
// alias (they have different types), and src is not modified.
func Unpack32(dst *[32]uint32, src []byte, width uint) {
	if width > 32 {
		panic("bitpack: Unpack32 width out of range")
	}
	src = src[:4*width] // panics on a short src
	unpack32(dst, src, width)
}

// Pack32 packs the low width bits (0..32) of each of the 32 values in src
// into the first 4*width bytes of dst, LSB first, overwriting them. Bits of
// src above width are ignored.
//
// Pack32 panics if width > 32 or len(dst) < 4*width.
func Pack32(dst []byte, src *[32]uint32, width uint) {
	if width > 32 {
		panic("bitpack: Pack32 width out of range")
	}
	dst = dst[:4*width]
	pack32(dst, src, width)
}
