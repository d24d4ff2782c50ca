//go:build cgo

// Package lz4bare calls liblz4's LZ4_decompress_safe straight through cgo,
// without native/lz4's scan for match offsets of 0: the lz4raw rows'
// `liblz4` implementation, liblz4's speed limit on the suite's pages. It
// copies a match offset of 0 from dst, so no reader can use it bare.
package lz4bare

/*
#cgo LDFLAGS: -llz4
#include <lz4.h>
*/
import "C"

import (
	"runtime"
	"unsafe"
)

// Available reports whether Decompress binds liblz4 (cgo builds).
const Available = true

// Decompress decodes the block src into dst with LZ4_decompress_safe and
// returns the content size, or a negative number on failure.
func Decompress(dst, src []byte) int {
	if len(dst) == 0 || len(src) == 0 {
		return -1
	}
	r := C.LZ4_decompress_safe((*C.char)(unsafe.Pointer(&src[0])), (*C.char)(unsafe.Pointer(&dst[0])),
		C.int(len(src)), C.int(len(dst)))
	runtime.KeepAlive(dst)
	runtime.KeepAlive(src)
	return int(r)
}
