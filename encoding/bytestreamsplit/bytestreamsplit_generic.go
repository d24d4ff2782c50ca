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

func streams4(src []byte, stride, n int) (s0, s1, s2, s3 []byte) {
	return src[:n], src[stride : stride+n], src[2*stride : 2*stride+n], src[3*stride : 3*stride+n]
}

func word64(src []byte, stride, i int) uint64 {
	var b [8]byte
	for j := range b {
		b[j] = src[j*stride+i]
	}
	return binary.LittleEndian.Uint64(b[:])
}

// encode writes the streams of src into out, which holds len(src) values.
func encode[T Value](out []byte, src []T) {
	n := len(src)
	switch s := any(src).(type) {
	case []float32:
		o0, o1, o2, o3 := streams4(out, n, n)
		for i, v := range s {
			u := math.Float32bits(v)
			o0[i], o1[i], o2[i], o3[i] = byte(u), byte(u>>8), byte(u>>16), byte(u>>24)
		}
	case []int32:
		o0, o1, o2, o3 := streams4(out, n, n)
		for i, v := range s {
			u := uint32(v)
			o0[i], o1[i], o2[i], o3[i] = byte(u), byte(u>>8), byte(u>>16), byte(u>>24)
		}
	case []float64:
		for i, v := range s {
			put64(out, n, i, math.Float64bits(v))
		}
	case []int64:
		for i, v := range s {
			put64(out, n, i, uint64(v))
		}
	}
}

func put64(out []byte, n, i int, u uint64) {
	_ = out[7*n+i]
	for j := range 8 {
		out[j*n+i] = byte(u >> (8 * j))
	}
}
