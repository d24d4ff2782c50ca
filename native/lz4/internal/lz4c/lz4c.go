//go:build cgo

// Package lz4c calls liblz4 directly through cgo, with none of the
// binding's Go-side logic, as the baseline the binding's benchmarks (and
// bench/'s codec rows) compare against. Only tests import it.
package lz4c

/*
#cgo LDFLAGS: -llz4
#include <stdlib.h>
#include <lz4.h>

static void *lc_alloc(void) { return malloc((size_t)LZ4_sizeofState()); }
*/
import "C"

import (
	"runtime"
	"unsafe"
)

// Ctx holds an LZ4_stream_t for LZ4_compress_fast_extState. Callers must
// Free it.
type Ctx struct{ state unsafe.Pointer }

// New returns a Ctx.
func New() *Ctx { return &Ctx{state: C.lc_alloc()} }

// Free releases the state.
func (x *Ctx) Free() { C.free(x.state) }

// Compress calls LZ4_compress_fast_extState (acceleration 1) on non-empty
// src and dst and returns the block size, 0 on failure.
func (x *Ctx) Compress(dst, src []byte) int {
	r := C.LZ4_compress_fast_extState(x.state, (*C.char)(unsafe.Pointer(&src[0])), (*C.char)(unsafe.Pointer(&dst[0])),
		C.int(len(src)), C.int(len(dst)), 1)
	runtime.KeepAlive(dst)
	runtime.KeepAlive(src)
	return int(r)
}

// Decompress calls LZ4_decompress_safe on non-empty dst and src and returns
// the content size, or a negative number on failure.
func Decompress(dst, src []byte) int {
	r := C.LZ4_decompress_safe((*C.char)(unsafe.Pointer(&src[0])), (*C.char)(unsafe.Pointer(&dst[0])),
		C.int(len(src)), C.int(len(dst)))
	runtime.KeepAlive(dst)
	runtime.KeepAlive(src)
	return int(r)
}
