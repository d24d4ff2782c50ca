//go:build cgo

// Package brotlic calls libbrotli's one-shot functions directly through
// cgo, with none of the binding's Go-side logic, as the baseline the
// binding's benchmarks compare against and as the reference for its tests.
// Only tests import it.
package brotlic

/*
#cgo pkg-config: libbrotlienc libbrotlidec
#include <brotli/encode.h>
#include <brotli/decode.h>

// The wrappers return sizes by value, so no Go variable's address is handed
// to C (which would make it escape to the heap).
static size_t bc_compress(int q, int lgwin, const uint8_t *in, size_t in_n, uint8_t *out, size_t out_n) {
	size_t n = out_n;
	return BrotliEncoderCompress(q, lgwin, BROTLI_MODE_GENERIC, in_n, in, &n, out) ? n : 0;
}

static size_t bc_decompress(const uint8_t *in, size_t in_n, uint8_t *out, size_t out_n) {
	size_t n = out_n;
	return BrotliDecoderDecompress(in_n, in, &n, out) == BROTLI_DECODER_RESULT_SUCCESS ? n : (size_t)-1;
}
*/
import "C"

import (
	"runtime"
	"unsafe"
)

// Compress calls BrotliEncoderCompress on non-empty dst and src and returns
// the stream size, or 0 on failure.
func Compress(dst, src []byte, quality, window int) int {
	r := C.bc_compress(C.int(quality), C.int(window),
		(*C.uint8_t)(unsafe.Pointer(&src[0])), C.size_t(len(src)),
		(*C.uint8_t)(unsafe.Pointer(&dst[0])), C.size_t(len(dst)))
	runtime.KeepAlive(dst)
	runtime.KeepAlive(src)
	return int(r)
}

// Decompress calls BrotliDecoderDecompress on non-empty dst and src and
// returns the content size, or -1 on failure.
func Decompress(dst, src []byte) int {
	r := C.bc_decompress((*C.uint8_t)(unsafe.Pointer(&src[0])), C.size_t(len(src)),
		(*C.uint8_t)(unsafe.Pointer(&dst[0])), C.size_t(len(dst)))
	runtime.KeepAlive(dst)
	runtime.KeepAlive(src)
	return int(r)
}

// MaxCompressedSize calls BrotliEncoderMaxCompressedSize.
func MaxCompressedSize(n int) int { return int(C.BrotliEncoderMaxCompressedSize(C.size_t(n))) }
