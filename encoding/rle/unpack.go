package rle

import (
	"encoding/binary"

	"github.com/pqcodec/pqcodec/internal/bitpack"
)

// The kernels of this file unpack bit-packed runs by groups of 8 values,
// the unit of the hybrid encoding, so that a run of any length costs the
// groups it holds and no more. Each reads the bytes of the values it
// writes; none writes past the end of its dst.

// spread returns the 8 values of width w (1..8), packed LSB first in the
// low 8w bits of x, one per byte, value i in byte i: halves of 4 values go
// to 32-bit lanes, quarters of 2 to 16-bit lanes, then single values to
// bytes. m4, m2 and m1 are the masks of one lane's values at each step (see
// [spreadMasks]).
func spread(x, m4, m2, m1 uint64, w uint) uint64 {
	x = x&m4 | (x>>(4*w&63)&m4)<<32
	x = x&m2 | (x>>(2*w&63)&m2)<<16
	return x&m1 | (x>>(w&63)&m1)<<8
}

// spreadMasks returns the masks of [spread] for width w.
func spreadMasks(w uint) (m4, m2, m1 uint64) {
	return uint64(1)<<(4*w) - 1,
		(uint64(1)<<(2*w) - 1) * (1 | 1<<32),
		(uint64(1)<<w - 1) * 0x0001_0001_0001_0001
}

// load8 returns the first 8 bytes of src as a little-endian word, padded
// with zero bytes past the end of src.
func load8(src []byte) uint64 {
	if len(src) >= 8 {
		return binary.LittleEndian.Uint64(src)
	}
	var b [8]byte
	copy(b[:], src)
	return binary.LittleEndian.Uint64(b[:])
}

// unpackBytes sets dst to the first len(dst) values of width w (1..8)
// packed at the start of src, which holds at least their bytes.
func unpackBytes(dst []uint8, src []byte, w uint) {
	if w == 8 {
		copy(dst, src)
		return
	}
	i := unpackBytesFast(dst, src, w)
	if i == len(dst) {
		return
	}
	m4, m2, m1 := spreadMasks(w)
	step := int(w)
	src = src[i/8*step:]
	for ; len(dst)-i >= 8 && len(src) >= 8; i += 8 {
		x := spread(binary.LittleEndian.Uint64(src), m4, m2, m1, w)
		binary.LittleEndian.PutUint64(dst[i:i+8], x)
		src = src[step:]
	}
	for ; i < len(dst); i += 8 {
		x := spread(load8(src), m4, m2, m1, w)
		for k := range dst[i:min(i+8, len(dst))] {
			dst[i+k] = uint8(x >> (8 * k))
		}
		src = src[min(step, len(src)):]
	}
}

// unpackInt16 sets dst to the first len(dst) values of width w (2..8)
// packed at the start of src, which holds at least their bytes. It is the
// twin of [unpackBytes] with int16 stores, kept per type: the generic form
// would choose the store of each group of 8 at run time.
func unpackInt16(dst []int16, src []byte, w uint) {
	i := unpackInt16Fast(dst, src, w)
	if i == len(dst) {
		return
	}
	m4, m2, m1 := spreadMasks(w)
	step := int(w)
	src = src[i/8*step:]
	for ; len(dst)-i >= 8 && len(src) >= 8; i += 8 {
		x := spread(binary.LittleEndian.Uint64(src), m4, m2, m1, w)
		d := (*[8]int16)(dst[i : i+8])
		d[0], d[1], d[2], d[3] = int16(x&0xff), int16(x>>8&0xff), int16(x>>16&0xff), int16(x>>24&0xff)
		d[4], d[5], d[6], d[7] = int16(x>>32&0xff), int16(x>>40&0xff), int16(x>>48&0xff), int16(x>>56)
		src = src[step:]
	}
	for ; i < len(dst); i += 8 {
		x := spread(load8(src), m4, m2, m1, w)
		for k := range dst[i:min(i+8, len(dst))] {
			dst[i+k] = int16(x >> (8 * k) & 0xff)
		}
		src = src[min(step, len(src)):]
	}
}

// unpackUint32 sets dst to the first len(dst) values of width w (0..32)
// packed at the start of src, which holds at least their bytes, and, if
// check, returns their largest value (else any value): groups of 8 by SIMD where available, then blocks of
// 32 by [bitpack.Unpack32], the rest by groups of 8.
func unpackUint32(dst []uint32, src []byte, w uint, check bool) uint32 {
	k, top := unpackUint32Fast(dst, src, w)
	dst, src = dst[k:], src[k/8*int(w):]
	out := dst
	bw := int(4 * w)
	for len(dst) >= 32 && len(src) >= bw {
		bitpack.Unpack32((*[32]uint32)(dst[:32]), src, w)
		dst, src = dst[32:], src[bw:]
	}
	mask := uint64(1)<<w - 1
	for len(dst) > 0 {
		// The 8 values of a group start within its first w bytes and
		// each ends at most 39 bits past its first byte: 40 bytes hold the
		// 8-byte loads of a whole group.
		var tmp [40]byte
		g := src
		if len(g) < 40 {
			copy(tmp[:], src)
			g = tmp[:]
		}
		p := (*[40]byte)(g[:40])
		var v [8]uint32
		for k := range uint(8) {
			b := k * w
			v[k] = uint32(binary.LittleEndian.Uint64(p[b>>3&31:]) >> (b & 7) & mask)
		}
		if len(dst) >= 8 {
			*(*[8]uint32)(dst) = v
			dst = dst[8:]
		} else {
			dst = dst[copy(dst, v[:]):]
		}
		src = src[min(int(w), len(src)):]
	}
	if !check {
		return 0
	}
	return max(top, maxUint32(out))
}

// maxUint32 returns the largest value of s, 0 if s is empty.
func maxUint32(s []uint32) uint32 {
	var a, b, c, d uint32
	for ; len(s) >= 4; s = s[4:] {
		a, b, c, d = max(a, s[0]), max(b, s[1]), max(c, s[2]), max(d, s[3])
	}
	for _, v := range s {
		a = max(a, v)
	}
	return max(a, b, c, d)
}
