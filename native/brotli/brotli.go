// Package brotli compresses and decompresses whole Brotli streams
// (RFC 7932) with libbrotli, writing straight into caller memory.
//
// Every call is one-shot: [Compressor.Compress] runs BrotliEncoderCompress
// and [Decompressor.Decompress] decodes the whole input in a single
// BrotliDecoderDecompressStream call, each directly between the caller's
// buffers. libbrotli 1.0 cannot reset an encoder or decoder state, so each
// call sets one up in C memory and frees it before returning; the Go side
// allocates nothing. Compressor and Decompressor are still the unit of
// reuse and are not safe for concurrent use: give each goroutine its own, or
// keep them in a sync.Pool.
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
package brotli

import (
	"errors"
	"fmt"

	"github.com/pqcodec/pqcodec/native/internal/cbuf"
)

var (
	// ErrUnavailable is returned by the constructors when the package was
	// built without cgo.
	ErrUnavailable = errors.New("brotli: libbrotli unavailable (built without cgo)")
	// ErrOption reports a quality or window outside the accepted range.
	ErrOption = errors.New("brotli: invalid option")
)

// The errors of the contract in the package documentation, made for every
// binding by one function of native/internal/cbuf: ErrCorrupt reports input
// that is not a complete, valid Brotli stream (it also matches
// pqcodec.ErrCorrupt); ErrDstTooSmall reports that the decompressed content
// does not fit in dst's spare capacity; ErrClosed is returned by methods
// called after Close; ErrInternal reports any other failure of libbrotli,
// such as memory exhaustion.
var ErrCorrupt, ErrDstTooSmall, ErrClosed, ErrInternal = cbuf.Errors("brotli")

// The options accepted by [NewCompressor]: quality from 0 (fastest) to 11
// (densest), window as the base-2 logarithm of the sliding window size.
//
// DefaultQuality is pqcodec's default for every layer (codecfactory uses it),
// 8 rather than libbrotli's 11: on Parquet pages quality 11 compresses many
// times slower for a few percent smaller output, and 8 is what arrow-cpp
// chose for Parquet for the same reason.
const (
	MinQuality     = 0
	MaxQuality     = 11
	DefaultQuality = 8
	MinWindow      = 10
	MaxWindow      = 24
	DefaultWindow  = 22
)

// MaxCompressedSize returns the largest stream [Compressor.Compress]
// produces for an n-byte input, as libbrotli's BrotliEncoderMaxCompressedSize
// computes it: the input stored in uncompressed meta-blocks of at most
// 16 KiB, 4 bytes of header each, plus 6 bytes of stream framing (2 bytes in
// all for an empty input). n must not be negative.
func MaxCompressedSize(n int) int {
	if n == 0 {
		return 2
	}
	return n + 4*(n>>14) + 6
}

// CompressBound is [MaxCompressedSize]: a dst with this much spare capacity
// never makes [Compressor.Compress] allocate.
func CompressBound(n int) int { return MaxCompressedSize(n) }

func checkOptions(quality, window int) error {
	if quality < MinQuality || quality > MaxQuality {
		return fmt.Errorf("%w: quality %d not in [%d, %d]", ErrOption, quality, MinQuality, MaxQuality)
	}
	if window < MinWindow || window > MaxWindow {
		return fmt.Errorf("%w: window %d not in [%d, %d]", ErrOption, window, MinWindow, MaxWindow)
	}
	return nil
}
