package bytestreamsplit

import "encoding/binary"

// The FIXED_LEN_BYTE_ARRAY coders split the k bytes of a value into chunks
// of at most 8 (k = 12 gives chunks of 8 and 4 bytes) and handle one chunk at
// a time, transposing blocks of 8 values in 64-bit words: one word per
// stream holds that stream's bytes of the 8 values, one word (or half word)
// per value holds that value's bytes of the chunk. A chunk of w < 8 streams
// is treated as one of 8 (or 4) whose missing streams repeat its last one;
// the extra bytes this reads or writes are dealt with where noted. Values
// near the end of the page, where the wide accesses would leave it, go a
// byte at a time.

// blockValues returns how many of the n k-byte values, a multiple of 8, the
// block loops handle: every access they make, at most 8 bytes from the start
// of a chunk of one of those values, stays inside the n*k bytes of the page.
// Values of 3 bytes go a byte at a time: for them a block is 24 bytes and
// transposing it costs more than it saves (callgrind, 64 KiB page of 2-byte
// values, before encode2 and decode2: 13.7 instructions per byte against
// 10).
func blockValues(n, k int) int {
	if k < 4 {
		return 0
	}
	return max(0, n-(8+k-1)/k) &^ 7
}

// encodeFixed writes the streams of the n k-byte values in src into out:
// out[j*n+i] = src[i*k+j].
func encodeFixed(out, src []byte, n, k int) {
	switch k {
	case 1:
		copy(out, src)
		return
	case 2:
		encode2(out, src, n)
		return
	}
	m := blockValues(n, k)
	for j0 := 0; j0 < k && m > 0; j0 += 8 {
		if w := min(8, k-j0); w > 4 {
			encodeChunk8(out, src[j0:], n, k, m, j0, w)
		} else {
			encodeChunk4(out, src[j0:], n, k, m, j0, w)
		}
	}
	for j := range k {
		stream := out[j*n+m : j*n+n]
		for i := range stream {
			stream[i] = src[(m+i)*k+j]
		}
	}
}

// encodeChunk8 writes streams j0 to j0+w-1 (4 < w <= 8) of the first m
// values of src, which starts at byte j0 of the first value. Each value is
// read with one 8-byte load; words for streams past the chunk hold bytes of
// the next chunk or value and are stored over stream j0+w-1 before its own
// word.
func encodeChunk8(out, src []byte, n, k, m, j0, w int) {
	le := binary.LittleEndian
	o := func(r int) []byte { return out[(j0+min(r, w-1))*n:][:m] }
	o0, o1, o2, o3, o4, o5, o6, o7 := o(0), o(1), o(2), o(3), o(4), o(5), o(6), o(7)
	for i := 0; i < m; i += 8 {
		v := src[i*k:]
		w0, w1, w2, w3, w4, w5, w6, w7 := transpose8(le.Uint64(v), le.Uint64(v[k:]), le.Uint64(v[2*k:]),
			le.Uint64(v[3*k:]), le.Uint64(v[4*k:]), le.Uint64(v[5*k:]), le.Uint64(v[6*k:]), le.Uint64(v[7*k:]))
		le.PutUint64(o7[i:], w7)
		le.PutUint64(o6[i:], w6)
		le.PutUint64(o5[i:], w5)
		le.PutUint64(o4[i:], w4)
		le.PutUint64(o3[i:], w3)
		le.PutUint64(o2[i:], w2)
		le.PutUint64(o1[i:], w1)
		le.PutUint64(o0[i:], w0)
	}
}

// encodeChunk4 is encodeChunk8 for chunks of w <= 4 streams, read with
// 4-byte loads.
func encodeChunk4(out, src []byte, n, k, m, j0, w int) {
	le := binary.LittleEndian
	o := func(r int) []byte { return out[(j0+min(r, w-1))*n:][:m] }
	o0, o1, o2, o3 := o(0), o(1), o(2), o(3)
	for i := 0; i < m; i += 8 {
		v := src[i*k:]
		b := func(c int) uint64 { return uint64(le.Uint32(v[c*k:])) }
		w0, w1, w2, w3 := transpose4(b(0)|b(4)<<32, b(1)|b(5)<<32, b(2)|b(6)<<32, b(3)|b(7)<<32)
		le.PutUint64(o3[i:], w3)
		le.PutUint64(o2[i:], w2)
		le.PutUint64(o1[i:], w1)
		le.PutUint64(o0[i:], w0)
	}
}

// decodeFixed sets out[i*k+j] = src[j*n+i] for the k streams of n bytes of
// src.
//
// A chunk of w < 8 (or 4) streams is stored with 8-byte (4-byte) stores
// whose extra bytes land on the start of the following values. The chunks
// go last to first, and the values in increasing order, so each such byte
// is overwritten later by the store of the chunk it belongs to.
//
// decodeFixed is the inverse of encodeFixed, its twin in shape; the two stay
// separate because the chunks go in opposite orders (see above).
func decodeFixed(out, src []byte, n, k int) {
	switch k {
	case 1:
		copy(out, src)
		return
	case 2:
		decode2(out, src, n)
		return
	}
	m := blockValues(n, k)
	for j0 := (k - 1) &^ 7; j0 >= 0 && m > 0; j0 -= 8 {
		if w := k - j0; w > 4 {
			decodeChunk8(out[j0:], src, n, k, m, j0, w)
		} else {
			decodeChunk4(out[j0:], src, n, k, m, j0, w)
		}
	}
	for j := range k {
		stream := src[j*n+m : j*n+n]
		for i, b := range stream {
			out[(m+i)*k+j] = b
		}
	}
}

// decodeChunk8 writes streams j0 to j0+w-1 (4 < w <= 8) of src into the
// first m values of out, which starts at byte j0 of the first value.
func decodeChunk8(out, src []byte, n, k, m, j0, w int) {
	le := binary.LittleEndian
	s := func(r int) []byte { return src[(j0+min(r, w-1))*n:][:m] }
	s0, s1, s2, s3, s4, s5, s6, s7 := s(0), s(1), s(2), s(3), s(4), s(5), s(6), s(7)
	for i := 0; i < m; i += 8 {
		w0, w1, w2, w3, w4, w5, w6, w7 := transpose8(le.Uint64(s0[i:]), le.Uint64(s1[i:]), le.Uint64(s2[i:]),
			le.Uint64(s3[i:]), le.Uint64(s4[i:]), le.Uint64(s5[i:]), le.Uint64(s6[i:]), le.Uint64(s7[i:]))
		v := out[i*k:]
		le.PutUint64(v, w0)
		le.PutUint64(v[k:], w1)
		le.PutUint64(v[2*k:], w2)
		le.PutUint64(v[3*k:], w3)
		le.PutUint64(v[4*k:], w4)
		le.PutUint64(v[5*k:], w5)
		le.PutUint64(v[6*k:], w6)
		le.PutUint64(v[7*k:], w7)
	}
}

// decodeChunk4 is decodeChunk8 for chunks of w <= 4 streams, stored with
// 4-byte stores.
func decodeChunk4(out, src []byte, n, k, m, j0, w int) {
	le := binary.LittleEndian
	s := func(r int) []byte { return src[(j0+min(r, w-1))*n:][:m] }
	s0, s1, s2, s3 := s(0), s(1), s(2), s(3)
	for i := 0; i < m; i += 8 {
		w0, w1, w2, w3 := transpose4(le.Uint64(s0[i:]), le.Uint64(s1[i:]), le.Uint64(s2[i:]), le.Uint64(s3[i:]))
		v := out[i*k:]
		le.PutUint32(v, uint32(w0))
		le.PutUint32(v[k:], uint32(w1))
		le.PutUint32(v[2*k:], uint32(w2))
		le.PutUint32(v[3*k:], uint32(w3))
		le.PutUint32(v[4*k:], uint32(w0>>32))
		le.PutUint32(v[5*k:], uint32(w1>>32))
		le.PutUint32(v[6*k:], uint32(w2>>32))
		le.PutUint32(v[7*k:], uint32(w3>>32))
	}
}

// transpose8 transposes the 8x8 byte matrix whose row r is word r.
func transpose8(w0, w1, w2, w3, w4, w5, w6, w7 uint64) (uint64, uint64, uint64, uint64, uint64, uint64, uint64, uint64) {
	const (
		m8  = 0x00ff00ff00ff00ff
		m16 = 0x0000ffff0000ffff
		m32 = 0x00000000ffffffff
	)
	w0, w1 = swap(w0, w1, 8, m8)
	w2, w3 = swap(w2, w3, 8, m8)
	w4, w5 = swap(w4, w5, 8, m8)
	w6, w7 = swap(w6, w7, 8, m8)
	w0, w2 = swap(w0, w2, 16, m16)
	w1, w3 = swap(w1, w3, 16, m16)
	w4, w6 = swap(w4, w6, 16, m16)
	w5, w7 = swap(w5, w7, 16, m16)
	w0, w4 = swap(w0, w4, 32, m32)
	w1, w5 = swap(w1, w5, 32, m32)
	w2, w6 = swap(w2, w6, 32, m32)
	w3, w7 = swap(w3, w7, 32, m32)
	return w0, w1, w2, w3, w4, w5, w6, w7
}

// Two-byte values (FLOAT16) have their own coders: 4 values are one word,
// [a0 b0 a1 b1 a2 b2 a3 b3] with a and b the bytes of streams 0 and 1, and
// zip turns the 4 bytes of each stream, [a0 a1 a2 a3 b0 b1 b2 b3], into it.

// encode2 is encodeFixed for k = 2.
func encode2(out, src []byte, n int) {
	le := binary.LittleEndian
	s0, s1 := out[:n:n], out[n:2*n:2*n]
	i := 0
	for ; i+8 <= len(s0); i += 8 {
		v := src[2*i : 2*i+16]
		w0, w1 := unzip(le.Uint64(v)), unzip(le.Uint64(v[8:]))
		le.PutUint64(s0[i:i+8], lo(w0, w1))
		le.PutUint64(s1[i:i+8], hi(w0, w1))
	}
	for ; i < n; i++ {
		s0[i], s1[i] = src[2*i], src[2*i+1]
	}
}

// decode2 is decodeFixed for k = 2.
func decode2(out, src []byte, n int) {
	le := binary.LittleEndian
	s0, s1 := src[:n:n], src[n:2*n:2*n]
	i := 0
	for ; i+8 <= len(s0); i += 8 {
		a, b := le.Uint64(s0[i:i+8]), le.Uint64(s1[i:i+8])
		v := out[2*i : 2*i+16]
		le.PutUint64(v, zip(lo(a, b)))
		le.PutUint64(v[8:], zip(hi(a, b)))
	}
	for ; i < n; i++ {
		out[2*i], out[2*i+1] = s0[i], s1[i]
	}
}

// deltaSwap swaps the bits of x selected by mask with those s bits above
// them.
func deltaSwap(x uint64, s uint, mask uint64) uint64 {
	t := (x>>s ^ x) & mask
	return x ^ t ^ t<<s
}

// zip interleaves the low and the high 4 bytes of x: byte i of the low half
// goes to byte 2i, byte i of the high half to byte 2i+1.
func zip(x uint64) uint64 {
	x = deltaSwap(x, 16, 0x00000000ffff0000) // a0 a1 b0 b1 a2 a3 b2 b3
	return deltaSwap(x, 8, 0x0000ff000000ff00)
}

// unzip is the inverse of zip.
func unzip(x uint64) uint64 {
	x = deltaSwap(x, 8, 0x0000ff000000ff00)
	return deltaSwap(x, 16, 0x00000000ffff0000)
}
