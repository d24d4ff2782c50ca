//go:build cgo && !nolzo

// Package lzoc calls liblzo2 directly through cgo, with none of the
// binding's Go-side logic, as the baseline the binding's benchmarks compare
// against. Only tests import it.
package lzoc

/*
#cgo LDFLAGS: -llzo2
#include <stdlib.h>
#include <lzo/lzo1x.h>

static int lc_init(void) { return lzo_init(); }
static void *lc_alloc(void) { return malloc(LZO1X_1_MEM_COMPRESS); }

// The wrappers return sizes by value, so no Go variable's address is handed
// to C (which would make it escape to the heap).
static size_t lc_compress(const unsigned char *in, size_t in_n, unsigned char *out, void *wrkmem) {
	lzo_uint n = 0;
	return lzo1x_1_compress(in, in_n, out, &n, wrkmem) == LZO_E_OK ? n : (size_t)-1;
}

static size_t lc_decompress(const unsigned char *in, size_t in_n, unsigned char *out, size_t out_n) {
	lzo_uint n = out_n;
	return lzo1x_decompress_safe(in, in_n, out, &n, NULL) == LZO_E_OK ? n : (size_t)-1;
}
*/
import "C"

import (
	"runtime"
	"unsafe"
)

// Ctx holds LZO1X-1 working memory. Callers must Free it.
type Ctx struct{ wrkmem unsafe.Pointer }

// New returns a Ctx.
func New() *Ctx {
	if C.lc_init() != C.LZO_E_OK {
		panic("lzo_init failed")
	}
	return &Ctx{wrkmem: C.lc_alloc()}
}

// Free releases the working memory.
func (x *Ctx) Free() { C.free(x.wrkmem) }

// Compress calls lzo1x_1_compress on non-empty src; dst must hold the worst
// case. It returns the output size, or -1 on failure.
func (x *Ctx) Compress(dst, src []byte) int {
	r := C.lc_compress((*C.uchar)(unsafe.Pointer(&src[0])), C.size_t(len(src)),
		(*C.uchar)(unsafe.Pointer(&dst[0])), x.wrkmem)
	runtime.KeepAlive(dst)
	runtime.KeepAlive(src)
	return int(r)
}

// Decompress calls lzo1x_decompress_safe on non-empty dst and src and
// returns the content size, or -1 on failure.
func Decompress(dst, src []byte) int {
	r := C.lc_decompress((*C.uchar)(unsafe.Pointer(&src[0])), C.size_t(len(src)),
		(*C.uchar)(unsafe.Pointer(&dst[0])), C.size_t(len(dst)))
	runtime.KeepAlive(dst)
	runtime.KeepAlive(src)
	return int(r)
}
