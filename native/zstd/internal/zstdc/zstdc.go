//go:build cgo

// Package zstdc calls libzstd directly through cgo, with none of the
// binding's Go-side logic, as the baseline the binding's benchmarks compare
// against and as the reference for differential tests. Only tests import it.
//
// It declares the few libzstd prototypes it needs itself and links against
// the copy of libzstd compiled into github.com/DataDog/zstd, the same code
// the binding runs. Because the symbols come from another package, cmd/go
// links binaries that import zstdc with the external linker.
package zstdc

/*
#include <stddef.h>

typedef struct ZSTD_CCtx_s ZSTD_CCtx;
typedef struct ZSTD_DCtx_s ZSTD_DCtx;
ZSTD_CCtx* ZSTD_createCCtx(void);
size_t ZSTD_freeCCtx(ZSTD_CCtx* cctx);
size_t ZSTD_compressCCtx(ZSTD_CCtx* cctx, void* dst, size_t dstCapacity,
                         const void* src, size_t srcSize, int compressionLevel);
ZSTD_DCtx* ZSTD_createDCtx(void);
size_t ZSTD_freeDCtx(ZSTD_DCtx* dctx);
size_t ZSTD_decompressDCtx(ZSTD_DCtx* dctx, void* dst, size_t dstCapacity,
                           const void* src, size_t srcSize);
unsigned long long ZSTD_getFrameContentSize(const void* src, size_t srcSize);
unsigned ZSTD_isError(size_t code);
*/
import "C"

import (
	"runtime"
	"unsafe"

	_ "github.com/DataDog/zstd" // provides the libzstd symbols
)

// Ctx pairs a ZSTD_CCtx and a ZSTD_DCtx. Callers must Free it.
type Ctx struct {
	c *C.ZSTD_CCtx
	d *C.ZSTD_DCtx
}

// New returns a Ctx.
func New() *Ctx { return &Ctx{c: C.ZSTD_createCCtx(), d: C.ZSTD_createDCtx()} }

// Free releases both contexts.
func (x *Ctx) Free() {
	C.ZSTD_freeCCtx(x.c)
	C.ZSTD_freeDCtx(x.d)
}

// Compress calls ZSTD_compressCCtx on non-empty dst and src and returns its
// raw result (a size or an error code, see IsError).
func (x *Ctx) Compress(dst, src []byte, level int) uint64 {
	r := C.ZSTD_compressCCtx(x.c, unsafe.Pointer(&dst[0]), C.size_t(len(dst)),
		unsafe.Pointer(&src[0]), C.size_t(len(src)), C.int(level))
	runtime.KeepAlive(dst)
	runtime.KeepAlive(src)
	return uint64(r)
}

// Decompress calls ZSTD_decompressDCtx on non-empty dst and src and returns
// its raw result.
func (x *Ctx) Decompress(dst, src []byte) uint64 {
	r := C.ZSTD_decompressDCtx(x.d, unsafe.Pointer(&dst[0]), C.size_t(len(dst)),
		unsafe.Pointer(&src[0]), C.size_t(len(src)))
	runtime.KeepAlive(dst)
	runtime.KeepAlive(src)
	return uint64(r)
}

// IsError reports whether a raw result is a libzstd error code.
func IsError(r uint64) bool { return C.ZSTD_isError(C.size_t(r)) != 0 }

// The special results of FrameContentSize.
const (
	ContentSizeUnknown = ^uint64(0)
	ContentSizeError   = ^uint64(0) - 1
)

// FrameContentSize calls ZSTD_getFrameContentSize.
func FrameContentSize(src []byte) uint64 {
	if len(src) == 0 {
		return uint64(C.ZSTD_getFrameContentSize(nil, 0))
	}
	r := C.ZSTD_getFrameContentSize(unsafe.Pointer(&src[0]), C.size_t(len(src)))
	runtime.KeepAlive(src)
	return uint64(r)
}
