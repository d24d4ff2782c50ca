package bitpack

// unpack32Ref is the reference implementation of [Unpack32]: one value at a
// time, reading at most the 4*width bytes of src.
func unpack32Ref(dst *[32]uint32, src []byte, width uint) {
	n := 4 * width
	mask := uint64(1)<<width - 1
	for i := range dst {
		bit := uint(i) * width
		var w uint64
		for j := uint(0); j < 5 && bit/8+j < n; j++ {
			w |= uint64(src[bit/8+j]) << (8 * j)
		}
		dst[i] = uint32(w >> (bit % 8) & mask)
	}
}

// pack32Ref is the reference implementation of [Pack32].
func pack32Ref(dst []byte, src *[32]uint32, width uint) {
	n := 4 * width
	clear(dst[:n])
	mask := uint64(1)<<width - 1
	for i, v := range src {
		bit := uint(i) * width
		w := (uint64(v) & mask) << (bit % 8)
		for j := uint(0); j < 5 && bit/8+j < n; j++ {
			dst[bit/8+j] |= byte(w >> (8 * j))
		}
	}
}
