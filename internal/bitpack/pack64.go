package bitpack

// Pack64 packs the low width bits (0..64) of each of the 32 values in src
// into the first 4*width bytes of dst, LSB first, overwriting them. Bits of
// src above width are ignored.
//
// Pack64 panics if width > 64 or len(dst) < 4*width.
func Pack64(dst []byte, src *[32]uint64, width uint) {
	if width > 64 {
		panic("bitpack: Pack64 width out of range")
	}
	dst = dst[:4*width]
	pack64(dst, src, width)
}

// pack64Ref is the reference implementation of [Pack64]: one bit at a time.
func pack64Ref(dst []byte, src *[32]uint64, width uint) {
	clear(dst[:4*width])
	for i, v := range src {
		for j := uint(0); j < width; j++ {
			if v>>j&1 != 0 {
				bit := uint(i)*width + j
				dst[bit/8] |= 1 << (bit % 8)
			}
		}
	}
}
