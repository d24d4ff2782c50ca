// Package lzo compresses and decompresses raw LZO1X blocks with liblzo2,
// writing straight into caller memory with reusable contexts.
//
// Parquet's LZO codec stores each page as LZO1X data. A [Compressor] holds
// its liblzo2 working memory in C for its whole life (never allocated per
// call) and compresses with LZO1X-1 (fast) or LZO1X-999 (dense); the
// [Decompressor] only ever calls lzo1x_decompress_safe, which checks every
// read and write against the buffers' bounds. Neither is safe for
// concurrent use: give each goroutine its own, or keep them in a sync.Pool.
//
// # License
//
// liblzo2 is licensed under the GPL-2.0. Building this package with cgo
// links liblzo2 into the binary, which puts the whole binary under the
// terms of the GPL. Build with -tags nolzo to leave liblzo2 out: [Available]
// is then false and the constructors return [ErrUnavailable], as they do
// without cgo.
//
// Compress and Decompress keep the contract of every native binding
// (brotli, deflate, lzo, zstd), written once with its code in
// native/internal/cbuf: Compress appends to dst, growing it to the bound
// first when its spare capacity is smaller; Decompress writes only into
// dst's spare capacity, never past cap(dst), and reports content that does
// not fit with [ErrDstTooSmall]; Close is idempotent and later calls return
// [ErrClosed].
package lzo

import (
	"errors"
	"fmt"

	"github.com/pqcodec/pqcodec/native/internal/cbuf"
)

var (
	// ErrUnavailable is returned by the constructors when the package was
	// built without cgo or with the nolzo tag.
	ErrUnavailable = errors.New("lzo: liblzo2 unavailable (built without cgo or with -tags nolzo)")
	// ErrLevel reports a level other than [Level1] and [Level999].
	ErrLevel = errors.New("lzo: invalid compression level")
)

// The errors of the contract in the package documentation, made for every
// binding by one function of native/internal/cbuf: ErrCorrupt reports input
// that is not a valid LZO1X stream (it also matches pqcodec.ErrCorrupt);
// ErrDstTooSmall reports that the decompressed content does not fit in dst's
// spare capacity; ErrClosed is returned by methods called after Close;
// ErrInternal reports any other failure of liblzo2.
var ErrCorrupt, ErrDstTooSmall, ErrClosed, ErrInternal = cbuf.Errors("lzo")

// The levels accepted by [NewCompressor].
const (
	Level1   = 1   // LZO1X-1: fast
	Level999 = 999 // LZO1X-999: slow, denser; same format
)

// CompressBound returns the largest LZO1X output for an n-byte input,
// n + n/16 + 64 + 3 (liblzo2's documented worst case): a dst with this much
// spare capacity never makes [Compressor.Compress] allocate. n must not be
// negative.
func CompressBound(n int) int { return n + n/16 + 64 + 3 }

func checkLevel(level int) error {
	if level != Level1 && level != Level999 {
		return fmt.Errorf("%w: %d (want %d or %d)", ErrLevel, level, Level1, Level999)
	}
	return nil
}
