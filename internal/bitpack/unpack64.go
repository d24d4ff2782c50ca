package bitpack

// Unpack64 unpacks the 32 values of width bits (0..64) packed LSB first at
// the start of src into dst. It reads exactly 4*width bytes of src.
//
// Unpack64 panics if width > 64 or len(src) < 4*width; src is not modified.
func Unpack64(dst *[32]uint64, src []byte, width uint) {
	if width > 64 {
		panic("bitpack: Unpack64 width out of range")
	}
	src = src[:4*width] // panics on a short src
	unpack64(dst, src, width)
}

// unpack64Ref is the reference implementation of [Unpack64]: one value at a
// time, one byte at a time, reading at most the 4*width bytes of src.
func unpack64Ref(dst *[32]uint64, src []byte, width uint) {
	n := 4 * width
	for i := range dst {
		var v uint64
		for j := uint(0); j < width; j++ {
			bit := uint(i)*width + j
			if bit/8 < n && src[bit/8]>>(bit%8)&1 != 0 {
				v |= 1 << j
			}
		}
		dst[i] = v
	}
}
