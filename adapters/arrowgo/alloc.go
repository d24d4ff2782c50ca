package arrowgo

import (
	"strings"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// bufferAllocator returns the allocator the reader takes its buffers from:
// mem itself, except arrow-go's Go allocator (memory.DefaultAllocator),
// which zeroes every buffer (make) before the reader overwrites it; in its
// place the reader allocates the same Go memory, 64-byte aligned and freed
// by the garbage collector, without zeroing it. Every byte of the length
// of a buffer the reader hands out is written; a buffer's padding past its
// length is not. Any other allocator (a CheckedAllocator, a pool, C
// memory) is used as it is.
func bufferAllocator(mem memory.Allocator) memory.Allocator {
	if _, ok := mem.(*memory.GoAllocator); ok {
		return noZeroAllocator{}
	}
	return mem
}

// noZeroAllocator is memory.GoAllocator without the zeroing.
type noZeroAllocator struct{}

const noZeroAlign = 64

// Allocate returns size bytes of uninitialized Go memory, 64-byte aligned.
func (noZeroAllocator) Allocate(size int) []byte {
	if size <= 0 {
		return []byte{}
	}
	buf := makeNoZero(size + noZeroAlign)
	shift := int(-uintptr(unsafe.Pointer(unsafe.SliceData(buf))) & (noZeroAlign - 1))
	return buf[shift : shift+size : shift+size]
}

// Reallocate returns b grown to size bytes, its contents kept.
func (a noZeroAllocator) Reallocate(size int, b []byte) []byte {
	if cap(b) >= size {
		return b[:size]
	}
	out := a.Allocate(size)
	copy(out, b)
	return out
}

// Free leaves the memory to the garbage collector.
func (noZeroAllocator) Free([]byte) {}

// makeNoZero returns n bytes of Go memory holding no pointers, not zeroed:
// strings.Builder.Grow allocates them so (the runtime's MakeNoZero, which
// the standard library keeps for itself). The builder is dropped; the bytes
// are only ever reached through the slice returned.
func makeNoZero(n int) []byte {
	var sb strings.Builder
	sb.Grow(n)
	sb.WriteByte(0)
	s := sb.String()
	return unsafe.Slice(unsafe.StringData(s), n)
}

// makeInt32s returns a slice of n int32s, not zeroed: for scratch whose
// elements are written before they are read.
func makeInt32s(n int) []int32 {
	if n <= 0 {
		return nil
	}
	b := makeNoZero(4 * n)
	return unsafe.Slice((*int32)(unsafe.Pointer(unsafe.SliceData(b))), n)
}

// makeInt16s is makeInt32s for int16s.
func makeInt16s(n int) []int16 {
	if n <= 0 {
		return nil
	}
	b := makeNoZero(2 * n)
	return unsafe.Slice((*int16)(unsafe.Pointer(unsafe.SliceData(b))), n)
}
