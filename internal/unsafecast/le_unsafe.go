//go:build (386 || amd64 || arm || arm64 || loong64 || mips64le || mipsle || ppc64le || riscv64 || wasm) && !purego

package unsafecast

import "unsafe"

// Native reports whether this build copies memory directly (true) or
// converts value by value (false).
const Native = true

// Decode sets dst[i] to the little-endian value at src[i*size:], for every i
// in dst. It panics if len(src) < len(dst)*Size[T](); src and dst must not
// overlap.
func Decode[T Fixed](dst []T, src []byte) {
	if len(dst) == 0 {
		return
	}
	n := len(dst) * Size[T]()
	_ = src[n-1]
	copy(unsafe.Slice((*byte)(unsafe.Pointer(&dst[0])), n), src)
}

// Encode writes the little-endian image of src into dst[:len(src)*Size[T]()].
// It panics if dst is too short; src and dst must not overlap.
func Encode[T Fixed](dst []byte, src []T) {
	if len(src) == 0 {
		return
	}
	n := len(src) * Size[T]()
	_ = dst[n-1]
	copy(dst, unsafe.Slice((*byte)(unsafe.Pointer(&src[0])), n))
}

// BoolBytes returns the bytes (0 or 1) of the booleans of b. On this build
// the result aliases b; callers must treat it as read-only.
func BoolBytes(b []bool) []byte {
	if len(b) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&b[0])), len(b))
}

// ExpandBits sets dst[i] to bit i of src, least significant bit first. It
// panics if len(src) < ceil(len(dst)/8).
func ExpandBits(dst []bool, src []byte) {
	if len(dst) == 0 {
		return
	}
	ExpandBitsToBytes(unsafe.Slice((*byte)(unsafe.Pointer(&dst[0])), len(dst)), src)
}

// PackBits sets bit i of dst, least significant bit first, to src[i], and
// the padding bits of the last byte to zero. It panics if
// len(dst) < ceil(len(src)/8).
func PackBits(dst []byte, src []bool) {
	if len(src) == 0 {
		return
	}
	PackBytesToBits(dst, unsafe.Slice((*byte)(unsafe.Pointer(&src[0])), len(src)))
}

// Uint32Tail returns the last len(s) 4-byte slots of s's memory as a
// []uint32, and true, when T is at least 4 bytes wide (every [Fixed] type);
// it returns nil and false for narrower T and empty s, and in portable
// builds. It lets a caller decode indices into the memory of the values
// they will become: writing s[i] front to back never overwrites slot j > i
// of the result (value i ends at byte (i+1)*size, slot i+1 starts at byte
// len(s)*(size-4) + (i+1)*4, which is not less because i < len(s)). T must
// not hold pointers.
func Uint32Tail[T bool | Fixed](s []T) ([]uint32, bool) {
	if !HasUint32Tail[T]() || len(s) == 0 {
		return nil, false
	}
	var z T
	size := int(unsafe.Sizeof(z))
	base := unsafe.Pointer(unsafe.SliceData(s))
	return unsafe.Slice((*uint32)(unsafe.Add(base, len(s)*(size-4))), len(s)), true
}

// HasUint32Tail reports whether [Uint32Tail] views slices of T: T is at
// least 4 bytes wide (a constant for each instantiation).
func HasUint32Tail[T bool | Fixed]() bool {
	var z T
	return unsafe.Sizeof(z) >= 4
}

// String returns a string sharing b's memory, without copying: b must not
// be modified while the string is in use (le_other.go copies instead).
func String(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// Bits32 returns the memory of s, whose values are 4 bytes wide, as their
// bits, without copying, and true; nil and false for other widths. The
// result aliases s: read-only. (The bits of a value are those of its
// memory on any byte order, but portable builds copy: le_other.go.)
func Bits32[T Fixed](s []T) ([]uint32, bool) {
	if Size[T]() != 4 {
		return nil, false
	}
	return unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(s))), len(s)), true
}

// Bits64 is [Bits32] for values 8 bytes wide.
func Bits64[T Fixed](s []T) ([]uint64, bool) {
	if Size[T]() != 8 {
		return nil, false
	}
	return unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(s))), len(s)), true
}
