// Package unsafecast moves fixed-width values between typed slices and their
// little-endian byte encoding, with one unsafe memory copy on little-endian
// machines and a portable per-value loop elsewhere.
//
// It is the only package of the module that imports "unsafe" for this
// purpose. Build with the purego tag to use the portable loop everywhere; the
// tests of the callers compare both.
package unsafecast

import (
	"encoding/binary"
	"unsafe"
)

// Fixed lists the types whose little-endian image is handled here: integers
// and floats in IEEE 754 form, and 12-byte INT96 values stored as bytes.
type Fixed interface {
	int32 | uint32 | int64 | uint64 | float32 | float64 | [12]byte
}

// Size returns the encoded size in bytes of one value of type T. It is the
// in-memory size of T, which the compiler knows for each instantiation, so
// it costs nothing at run time (a type switch on T would be evaluated on
// every call of a generic function).
func Size[T Fixed]() int {
	var z T
	return int(unsafe.Sizeof(z))
}

// expandTable[b] holds the eight bits of b, least significant first, one per
// byte.
var expandTable = func() (t [256]uint64) {
	for v := range t {
		for k := range 8 {
			t[v] |= uint64(v>>k&1) << (8 * k)
		}
	}
	return t
}()

// packMul gathers the low bits of the eight bytes of a word into its top
// byte (bit k of the result's top byte is bit 0 of byte k).
const packMul = 0x0102040810204080

// ExpandBitsToBytes sets dst[i] to bit i of src (0 or 1), least significant
// bit first. It panics if len(src) < ceil(len(dst)/8).
func ExpandBitsToBytes(dst []byte, src []byte) {
	n := len(dst)
	if n == 0 {
		return
	}
	src = src[:(n+7)/8]
	i := expandBlocks(dst, src) // a multiple of 8
	for ; i+8 <= n; i += 8 {
		binary.LittleEndian.PutUint64(dst[i:i+8], expandTable[src[i/8]])
	}
	for ; i < n; i++ {
		dst[i] = src[i/8] >> (i % 8) & 1
	}
}

// PackBytesToBits is the inverse of ExpandBitsToBytes, its twin in shape.
//
// PackBytesToBits sets bit i of dst, least significant bit first, to src[i],
// which must be 0 or 1, and the padding bits of the last byte to zero. It
// panics if len(dst) < ceil(len(src)/8).
func PackBytesToBits(dst []byte, src []byte) {
	n := len(src)
	if n == 0 {
		return
	}
	dst = dst[:(n+7)/8]
	i := packBlocks(dst, src) // a multiple of 8
	for ; i+8 <= n; i += 8 {
		dst[i/8] = byte(binary.LittleEndian.Uint64(src[i:i+8]) * packMul >> 56)
	}
	if i < n {
		var v byte
		for k, x := range src[i:] {
			v |= x << k
		}
		dst[i/8] = v
	}
}

// Overlap reports whether a and b (their lengths, not capacities) share a
// byte of memory: a constant-time check that a destination does not alias
// a source.
func Overlap(a, b []byte) bool {
	if len(a) == 0 || len(b) == 0 {
		return false
	}
	pa := uintptr(unsafe.Pointer(unsafe.SliceData(a)))
	pb := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	return pa < pb+uintptr(len(b)) && pb < pa+uintptr(len(a))
}
