// Package deflate compresses and decompresses gzip streams (RFC 1952) with
// libdeflate, writing straight into caller memory with reusable contexts.
//
// Parquet's GZIP codec stores each page as a gzip stream, which may hold
// several concatenated members; [Decompressor.Decompress] decodes them all.
// A [Compressor] holds one libdeflate compressor at a fixed level and a
// [Decompressor] one libdeflate decompressor; both are meant to be reused
// across many pages and released with Close. Neither is safe for concurrent
// use: give each goroutine its own, or keep them in a sync.Pool.
//
// Without cgo the package still compiles: [Available] is false and the
// constructors return [ErrUnavailable].
//
// Compress and Decompress keep the contract of every native binding
// (brotli, deflate, lzo, zstd), written once with its code in
// native/internal/cbuf: Compress appends to dst, growing it to the bound
// first when its spare capacity is smaller; Decompress writes only into
// dst's spare capacity, never past cap(dst), and reports content that does
// not fit with [ErrDstTooSmall]; Close is idempotent and later calls return
// [ErrClosed].
package deflate

import (
	"errors"
	"fmt"

	"github.com/pqcodec/pqcodec/native/internal/cbuf"
)

var (
	// ErrUnavailable is returned by the constructors when the package was
	// built without cgo.
	ErrUnavailable = errors.New("deflate: libdeflate unavailable (built without cgo)")
	// ErrLevel reports a compression level outside [MinLevel, MaxLevel].
	ErrLevel = errors.New("deflate: invalid compression level")
)

// The errors of the contract in the package documentation, made for every
// binding by one function of native/internal/cbuf: ErrCorrupt reports input
// that is not a valid sequence of gzip members (it also matches
// pqcodec.ErrCorrupt); ErrDstTooSmall reports that the decompressed content
// does not fit in dst's spare capacity; ErrClosed is returned by methods
// called after Close; ErrInternal reports any other failure of libdeflate.
var ErrCorrupt, ErrDstTooSmall, ErrClosed, ErrInternal = cbuf.Errors("deflate")

// The compression levels accepted by [NewCompressor]: 0 stores the data
// uncompressed, 1 is fastest, 6 is zlib's default, 12 compresses best.
const (
	MinLevel     = 0
	MaxLevel     = 12
	DefaultLevel = 6
)

// CompressBound returns the largest gzip stream [Compressor.Compress]
// produces for an n-byte input at any level: a dst with this much spare
// capacity never makes it allocate. It equals libdeflate 1.14's
// libdeflate_gzip_compress_bound: 5 bytes per (at least one) 5000-byte block,
// 9 bytes of end padding and 18 bytes of gzip header and trailer. n must not
// be negative.
func CompressBound(n int) int {
	blocks := max((n+4999)/5000, 1)
	return n + 5*blocks + 1 + 8 + 18
}

func checkLevel(level int) error {
	if level < MinLevel || level > MaxLevel {
		return fmt.Errorf("%w: %d not in [%d, %d]", ErrLevel, level, MinLevel, MaxLevel)
	}
	return nil
}
