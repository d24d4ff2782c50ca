//go:build cgo

// Package deflatec calls libdeflate directly through cgo, with none of the
// binding's Go-side logic, as the baseline the binding's benchmarks compare
// against and as the reference for its tests. Only tests import it.
package deflatec

/*
#cgo LDFLAGS: -ldeflate
#include <libdeflate.h>

typedef struct { int result; size_t out; } dc_result;

// dc_gunzip returns the output size by value, so no Go variable's address
// is handed to C (which would make it escape to the heap).
static dc_result dc_gunzip(struct libdeflate_decompressor *d, const void *in, size_t in_n,
		void *out, size_t out_n) {
	dc_result r;
	r.result = libdeflate_gzip_decompress(d, in, in_n, out, out_n, &r.out);
	return r;
}
*/
import "C"

import (
	"runtime"
	"unsafe"
)

// Ctx pairs a libdeflate compressor and decompressor. Callers must Free it.
type Ctx struct {
	c *C.struct_libdeflate_compressor
	d *C.struct_libdeflate_decompressor
}

// New returns a Ctx compressing at level.
func New(level int) *Ctx {
	return &Ctx{c: C.libdeflate_alloc_compressor(C.int(level)), d: C.libdeflate_alloc_decompressor()}
}

// Free releases the contexts.
func (x *Ctx) Free() {
	C.libdeflate_free_compressor(x.c)
	C.libdeflate_free_decompressor(x.d)
}

// Compress calls libdeflate_gzip_compress on non-empty dst and src and
// returns its result (0 when dst is too small).
func (x *Ctx) Compress(dst, src []byte) int {
	r := C.libdeflate_gzip_compress(x.c, unsafe.Pointer(&src[0]), C.size_t(len(src)),
		unsafe.Pointer(&dst[0]), C.size_t(len(dst)))
	runtime.KeepAlive(dst)
	runtime.KeepAlive(src)
	return int(r)
}

// Decompress calls libdeflate_gzip_decompress on the first member of src
// and returns the result code and the output size.
func (x *Ctx) Decompress(dst, src []byte) (result, n int) {
	r := C.dc_gunzip(x.d, unsafe.Pointer(&src[0]), C.size_t(len(src)),
		unsafe.Pointer(&dst[0]), C.size_t(len(dst)))
	runtime.KeepAlive(dst)
	runtime.KeepAlive(src)
	return int(r.result), int(r.out)
}

// Bound returns libdeflate_gzip_compress_bound(NULL, n).
func Bound(n int) int { return int(C.libdeflate_gzip_compress_bound(nil, C.size_t(n))) }
