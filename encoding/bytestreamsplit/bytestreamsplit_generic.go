package bytestreamsplit

import (
	"encoding/binary"
	"math"
)

// decodeGeneric sets dst[i] to the value whose byte j is src[j*stride+i].
// src must hold size[T]()-1 strides plus len(dst) bytes.
func decodeGeneric[T Value](dst []T, src []byte, stride int) {
	n := len(dst)
	if n == 0 {
		return
	}
	switch d := any(dst).(type) {
	case []float32:
		s0, s1, s2, s3 := streams4(src, stride, n)
		for i := range d {
			d[i] = math.Float32frombits(uint32(s0[i]) | uint32(s1[i])<<8 | uint32(s2[i])<<16 | uint32(s3[i])<<24)
		}
	case []int32:
		s0, s1, s2, s3 := streams4(src, stride, n)
		for i := range d {
			d[i] = int32(uint32(s0[i]) | uint32(s1[i])<<8 | uint32(s2[i])<<16 | uint32(s3[i])<<24)
		}
	case []float64:
		for i := range d {
			d[i] = math.Float64frombits(word64(src, stride, i))
		}
	case []int64:
		for i := range d {
			d[i] = int64(word64(src, stride, i))
		}
	}
}

// streams4 returns the n bytes at the start of each of 4 streams stride
// bytes apart in src.
func streams4(src []byte, stride, n int) (s0, s1, s2, s3 []byte) {
	return src[:n:n], src[stride : stride+n : stride+n], src[2*stride : 2*stride+n : 2*stride+n],
		src[3*stride : 3*stride+n : 3*stride+n]
}

func word64(src []byte, stride, i int) uint64 {
	var b [8]byte
	for j := range b {
		b[j] = src[j*stride+i]
	}
	return binary.LittleEndian.Uint64(b[:])
}

// encodeGeneric writes the streams of src into out, which holds len(src)
// values: byte j of src[i] goes to out[j*len(src)+i].
//
// Blocks of 8 values are transposed in 64-bit words (see transpose4) and
// each stream receives 8 bytes with one store; the last len(src)%8 values
// are scattered a byte at a time.
func encodeGeneric[T Value](out []byte, src []T) {
	n := len(src)
	m := n &^ 7
	le := binary.LittleEndian
	switch s := any(src).(type) {
	case []float32:
		o0, o1, o2, o3 := streams4(out, n, m)
		s = s[:m:m]
		for i := 0; i+8 <= len(o0); i += 8 {
			v := s[i : i+8 : i+8]
			b := func(k int) uint64 { return uint64(math.Float32bits(v[k])) }
			w0, w1, w2, w3 := transpose4(b(0)|b(4)<<32, b(1)|b(5)<<32, b(2)|b(6)<<32, b(3)|b(7)<<32)
			le.PutUint64(o0[i:i+8], w0)
			le.PutUint64(o1[i:i+8], w1)
			le.PutUint64(o2[i:i+8], w2)
			le.PutUint64(o3[i:i+8], w3)
		}
	case []int32:
		o0, o1, o2, o3 := streams4(out, n, m)
		s = s[:m:m]
		for i := 0; i+8 <= len(o0); i += 8 {
			v := s[i : i+8 : i+8]
			b := func(k int) uint64 { return uint64(uint32(v[k])) }
			w0, w1, w2, w3 := transpose4(b(0)|b(4)<<32, b(1)|b(5)<<32, b(2)|b(6)<<32, b(3)|b(7)<<32)
			le.PutUint64(o0[i:i+8], w0)
			le.PutUint64(o1[i:i+8], w1)
			le.PutUint64(o2[i:i+8], w2)
			le.PutUint64(o3[i:i+8], w3)
		}
	case []float64:
		o0, o1, o2, o3 := streams4(out, n, m)
		o4, o5, o6, o7 := streams4(out[4*n:], n, m)
		s = s[:m:m]
		for i := 0; i+8 <= len(o0); i += 8 {
			v := s[i : i+8 : i+8]
			b := func(k int) uint64 { return math.Float64bits(v[k]) }
			w0, w1, w2, w3 := transpose4(lo(b(0), b(4)), lo(b(1), b(5)), lo(b(2), b(6)), lo(b(3), b(7)))
			le.PutUint64(o0[i:i+8], w0)
			le.PutUint64(o1[i:i+8], w1)
			le.PutUint64(o2[i:i+8], w2)
			le.PutUint64(o3[i:i+8], w3)
			w0, w1, w2, w3 = transpose4(hi(b(0), b(4)), hi(b(1), b(5)), hi(b(2), b(6)), hi(b(3), b(7)))
			le.PutUint64(o4[i:i+8], w0)
			le.PutUint64(o5[i:i+8], w1)
			le.PutUint64(o6[i:i+8], w2)
			le.PutUint64(o7[i:i+8], w3)
		}
	case []int64:
		// Twin of the []float64 case above but for the bit conversion: a type
		// switch per element type keeps each loop free of generic dictionary calls.
		o0, o1, o2, o3 := streams4(out, n, m)
		o4, o5, o6, o7 := streams4(out[4*n:], n, m)
		s = s[:m:m]
		for i := 0; i+8 <= len(o0); i += 8 {
			v := s[i : i+8 : i+8]
			b := func(k int) uint64 { return uint64(v[k]) }
			w0, w1, w2, w3 := transpose4(lo(b(0), b(4)), lo(b(1), b(5)), lo(b(2), b(6)), lo(b(3), b(7)))
			le.PutUint64(o0[i:i+8], w0)
			le.PutUint64(o1[i:i+8], w1)
			le.PutUint64(o2[i:i+8], w2)
			le.PutUint64(o3[i:i+8], w3)
			w0, w1, w2, w3 = transpose4(hi(b(0), b(4)), hi(b(1), b(5)), hi(b(2), b(6)), hi(b(3), b(7)))
			le.PutUint64(o4[i:i+8], w0)
			le.PutUint64(o5[i:i+8], w1)
			le.PutUint64(o6[i:i+8], w2)
			le.PutUint64(o7[i:i+8], w3)
		}
	}
	encodeTail(out, src, m)
}

// encodeTail scatters the values of src from index m on into the streams of
// out a byte at a time.
func encodeTail[T Value](out []byte, src []T, m int) {
	n := len(src)
	for i := m; i < n; i++ {
		var u uint64
		switch s := any(src).(type) {
		case []float32:
			u = uint64(math.Float32bits(s[i]))
		case []int32:
			u = uint64(uint32(s[i]))
		case []float64:
			u = math.Float64bits(s[i])
		case []int64:
			u = uint64(s[i])
		}
		for j := range size[T]() {
			out[j*n+i] = byte(u >> (8 * j))
		}
	}
}

// lo returns the low halves of a and b as one word, a's first.
func lo(a, b uint64) uint64 { return a&0xffffffff | b<<32 }

// hi returns the high halves of a and b as one word, a's first.
func hi(a, b uint64) uint64 { return a>>32 | b&^0xffffffff }

// swap views a and b as the rows of 2x2 matrices of s-bit cells, one per
// 2s-bit group selected by mask, and transposes each of those matrices.
func swap(a, b uint64, s uint, mask uint64) (uint64, uint64) {
	t := (a>>s ^ b) & mask
	return a ^ t<<s, b ^ t
}

// transpose4 transposes the 4x4 byte matrices held in the low and in the
// high halves of w0..w3 (row k in word k). When word k holds 4-byte value k
// of a block of 8 in its low half and value k+4 in its high half, word j of
// the result holds byte j of the 8 values in order: 8 bytes of stream j.
func transpose4(w0, w1, w2, w3 uint64) (uint64, uint64, uint64, uint64) {
	w0, w1 = swap(w0, w1, 8, 0x00ff00ff00ff00ff)
	w2, w3 = swap(w2, w3, 8, 0x00ff00ff00ff00ff)
	w0, w2 = swap(w0, w2, 16, 0x0000ffff0000ffff)
	w1, w3 = swap(w1, w3, 16, 0x0000ffff0000ffff)
	return w0, w1, w2, w3
}
