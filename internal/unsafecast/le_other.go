//go:build !((386 || amd64 || arm || arm64 || loong64 || mips64le || mipsle || ppc64le || riscv64 || wasm) && !purego)

package unsafecast

import (
	"encoding/binary"
	"math"
)

// Native reports whether this build copies memory directly (true) or
// converts value by value (false).
const Native = false

// Decode sets dst[i] to the little-endian value at src[i*size:], for every i
// in dst. It panics if len(src) < len(dst)*Size[T](); src and dst must not
// overlap. This is the portable twin of le_unsafe.go, with the same
// semantics.
func Decode[T Fixed](dst []T, src []byte) {
	if len(dst) == 0 {
		return
	}
	_ = src[len(dst)*Size[T]()-1]
	le := binary.LittleEndian
	// One loop per type, twins but for width and conversion, so that none
	// goes through a generic dictionary (Encode below mirrors them).
	switch d := any(dst).(type) {
	case []int32:
		for i := range d {
			d[i] = int32(le.Uint32(src[4*i:]))
		}
	case []uint32:
		for i := range d {
			d[i] = le.Uint32(src[4*i:])
		}
	case []float32:
		for i := range d {
			d[i] = math.Float32frombits(le.Uint32(src[4*i:]))
		}
	case []int64:
		for i := range d {
			d[i] = int64(le.Uint64(src[8*i:]))
		}
	case []uint64:
		for i := range d {
			d[i] = le.Uint64(src[8*i:])
		}
	case []float64:
		for i := range d {
			d[i] = math.Float64frombits(le.Uint64(src[8*i:]))
		}
	case [][12]byte:
		for i := range d {
			copy(d[i][:], src[12*i:])
		}
	}
}

// Encode writes the little-endian image of src into dst[:len(src)*Size[T]()].
// It panics if dst is too short; src and dst must not overlap.
func Encode[T Fixed](dst []byte, src []T) {
	if len(src) == 0 {
		return
	}
	_ = dst[len(src)*Size[T]()-1]
	le := binary.LittleEndian
	switch s := any(src).(type) {
	case []int32:
		for i, v := range s {
			le.PutUint32(dst[4*i:], uint32(v))
		}
	case []uint32:
		for i, v := range s {
			le.PutUint32(dst[4*i:], v)
		}
	case []float32:
		for i, v := range s {
			le.PutUint32(dst[4*i:], math.Float32bits(v))
		}
	case []int64:
		for i, v := range s {
			le.PutUint64(dst[8*i:], uint64(v))
		}
	case []uint64:
		for i, v := range s {
			le.PutUint64(dst[8*i:], v)
		}
	case []float64:
		for i, v := range s {
			le.PutUint64(dst[8*i:], math.Float64bits(v))
		}
	case [][12]byte:
		for i := range s {
			copy(dst[12*i:], s[i][:])
		}
	}
}

// BoolBytes returns the bytes (0 or 1) of the booleans of b. On this build
// the result is a new slice; callers must treat it as read-only.
func BoolBytes(b []bool) []byte {
	if len(b) == 0 {
		return nil
	}
	out := make([]byte, len(b))
	for i, v := range b {
		if v {
			out[i] = 1
		}
	}
	return out
}

// ExpandBits sets dst[i] to bit i of src, least significant bit first. It
// panics if len(src) < ceil(len(dst)/8).
func ExpandBits(dst []bool, src []byte) {
	if len(dst) == 0 {
		return
	}
	src = src[:(len(dst)+7)/8]
	i := 0
	for ; i+8 <= len(dst); i += 8 {
		w := expandTable[src[i/8]]
		d := dst[i : i+8 : i+8]
		for k := range d {
			d[k] = w>>(8*k)&1 != 0
		}
	}
	for ; i < len(dst); i++ {
		dst[i] = src[i/8]>>(i%8)&1 != 0
	}
}

// PackBits sets bit i of dst, least significant bit first, to src[i], and
// the padding bits of the last byte to zero. It panics if
// len(dst) < ceil(len(src)/8).
func PackBits(dst []byte, src []bool) {
	if len(src) == 0 {
		return
	}
	dst = dst[:(len(src)+7)/8]
	clear(dst)
	for i, v := range src {
		if v {
			dst[i/8] |= 1 << (i % 8)
		}
	}
	_ = packMul
}

// Uint32Tail returns nil and false: portable builds gather through a
// separate index buffer (see the unsafe build's Uint32Tail).
func Uint32Tail[T bool | Fixed](s []T) ([]uint32, bool) { return nil, false }

// HasUint32Tail reports false: see [Uint32Tail].
func HasUint32Tail[T bool | Fixed]() bool { return false }

// String returns b as a string: a copy in this build (le_unsafe.go shares
// b's memory).
func String(b []byte) string { return string(b) }

// Bits32 returns nil and false: portable builds copy the bits of values
// value by value (see the unsafe build's Bits32).
func Bits32[T Fixed](s []T) ([]uint32, bool) { return nil, false }

// Bits64 returns nil and false, as [Bits32].
func Bits64[T Fixed](s []T) ([]uint64, bool) { return nil, false }
