// Package cbuf is the buffer prologue and the ownership of C memory that
// every native binding (brotli, deflate, lz4, lzo, zstd) shares, written
// once. It does not import "C" (only the binding packages do): it hands out
// unsafe.Pointers that the caller converts to its own C types, and frees C
// memory through a function the caller supplies.
//
// The contract of every native Compress: dst is grown to the codec's bound
// first when its spare capacity is smaller (a new backing array, dst's own
// spare capacity left untouched), and the output is written straight into
// dst[len(dst):cap(dst)]. Of every native Decompress: the content goes into
// dst's spare capacity only, never past cap(dst). Of both: C is never given
// a nil pointer for an empty slice (some libraries reject it even with a
// zero length), but a one-byte scratch of the caller's. Every Decompress
// starts with [CheckInput]: after Close it fails with the binding's
// ErrClosed, on an empty src with its ErrCorrupt. [Errors] makes the
// sentinel errors the contract speaks of.
package cbuf

import (
	"errors"
	"fmt"
	"runtime"
	"slices"
	"unsafe"

	"github.com/pqcodec/pqcodec/internal/errs"
)

// Errors returns the sentinels every binding declares, with texts prefixed
// by its package name pkg: corrupt ("pkg: corrupt input", which errors.Is
// also matches to pqcodec.ErrCorrupt) for input the library rejects,
// dstTooSmall ("pkg: destination too small") for content that does not fit
// in dst's spare capacity, closed ("pkg: use after Close") for a call after
// Close, and internal ("pkg: library error") for any other failure of the
// library. Each call returns new values, distinct from every other
// binding's.
func Errors(pkg string) (corrupt, dstTooSmall, closed, internal error) {
	return errs.Corrupt(pkg + ": corrupt input"),
		errors.New(pkg + ": destination too small"),
		errors.New(pkg + ": use after Close"),
		errors.New(pkg + ": library error")
}

// CheckInput is the start of every binding's Decompress: it returns
// closed when the caller was closed (isClosed), an error wrapping corrupt
// when src is empty (no binding's stream or block is), and nil otherwise.
func CheckInput(isClosed bool, src []byte, closed, corrupt error) error {
	if isClosed {
		return closed
	}
	if len(src) == 0 {
		return emptyInput(corrupt)
	}
	return nil
}

// emptyInput is apart from CheckInput so that CheckInput inlines.
func emptyInput(corrupt error) error { return fmt.Errorf("%w: empty input", corrupt) }

// Grow returns dst with at least bound bytes of spare capacity: dst itself
// when it has them, otherwise a copy in a new, larger backing array.
func Grow(dst []byte, bound int) []byte {
	if cap(dst)-len(dst) < bound {
		dst = slices.Grow(dst, bound)
	}
	return dst
}

// Spare returns a pointer to dst[len(dst)] within dst's capacity and the
// number of spare bytes, or scratch and 0 when dst has no spare capacity.
// scratch may be nil where dst is known to have spare capacity (after
// [Grow] to a positive bound).
func Spare(dst []byte, scratch *[1]byte) (unsafe.Pointer, int) {
	n := cap(dst) - len(dst)
	if n == 0 {
		return unsafe.Pointer(scratch), 0
	}
	return unsafe.Pointer(&dst[:cap(dst)][len(dst)]), n
}

// In returns a pointer to the first byte of src, or scratch when src is
// empty. scratch may be nil where src is known not to be empty.
func In(src []byte, scratch *[1]byte) unsafe.Pointer {
	if len(src) == 0 {
		return unsafe.Pointer(scratch)
	}
	return unsafe.Pointer(unsafe.SliceData(src))
}

// Handle owns one C allocation P (a C pointer type of the binding): Close
// frees it once, and a cleanup frees it if the owner becomes unreachable
// unclosed. The zero Handle owns nothing.
type Handle[P comparable] struct {
	p       P
	free    func(P)
	cleanup runtime.Cleanup
}

// Own makes h, a field of *owner, the owner of p, freed by free. free must
// not keep owner reachable.
func Own[O any, P comparable](owner *O, h *Handle[P], p P, free func(P)) {
	h.p, h.free = p, free
	h.cleanup = runtime.AddCleanup(owner, free, p)
}

// Get returns the owned pointer, or the zero P after Close.
func (h *Handle[P]) Get() P { return h.p }

// Close frees the allocation unless it was already freed. It is
// idempotent.
func (h *Handle[P]) Close() {
	var zero P
	if h.p != zero {
		h.cleanup.Stop()
		h.free(h.p)
		h.p = zero
	}
}
