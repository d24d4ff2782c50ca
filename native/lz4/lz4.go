// Package lz4 compresses and decompresses raw LZ4 blocks with liblz4,
// writing straight into caller memory with reusable contexts.
//
// Parquet's LZ4_RAW codec stores each page as one LZ4 block, and its LZ4
// codec as LZ4 blocks in Hadoop framing. A [Compressor] holds its liblz4
// state in C for its whole life (never allocated per call) and compresses
// with LZ4_compress_fast_extState ([LevelFast]) or LZ4_compress_HC_extStateHC
// (levels 1 to [MaxLevel]); the [Decompressor] only ever calls
// LZ4_decompress_safe, which checks every read and write against the
// buffers' bounds and needs no context, after a walk of the block's
// sequences that rejects the match offsets of 0 liblz4 would accept. Neither is safe for concurrent use:
// give each goroutine its own, or keep them in a sync.Pool.
//
// Compress and Decompress keep the contract of every native binding
// (brotli, deflate, lz4, lzo, zstd), written once with its code in
// native/internal/cbuf: Compress appends to dst, growing it to the bound
// first when its spare capacity is smaller; Decompress writes only into
// dst's spare capacity, never past cap(dst), and reports content that does
// not fit with [ErrDstTooSmall]; Close is idempotent and later calls return
// [ErrClosed].
package lz4

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/pqcodec/pqcodec/native/internal/cbuf"
)

var (
	// ErrUnavailable is returned by the constructors when the package was
	// built without cgo.
	ErrUnavailable = errors.New("lz4: liblz4 unavailable (built without cgo)")
	// ErrLevel reports a level outside [LevelFast] to [MaxLevel].
	ErrLevel = errors.New("lz4: invalid compression level")
	// ErrTooLarge reports an input larger than liblz4 handles in one block
	// ([MaxInputSize]).
	ErrTooLarge = errors.New("lz4: input too large for one LZ4 block")
)

// The errors of the contract in the package documentation, made for every
// binding by one function of native/internal/cbuf: ErrCorrupt reports input
// that is not a valid LZ4 block (it also matches pqcodec.ErrCorrupt);
// ErrDstTooSmall reports that the decompressed content does not fit in dst's
// spare capacity; ErrClosed is returned by methods called after Close;
// ErrInternal reports any other failure of liblz4.
var ErrCorrupt, ErrDstTooSmall, ErrClosed, ErrInternal = cbuf.Errors("lz4")

// The levels accepted by [NewCompressor].
const (
	LevelFast = 0  // LZ4_compress_fast with acceleration 1 (the lz4 default)
	MaxLevel  = 12 // LZ4HC_CLEVEL_MAX; levels 1-9 are LZ4HC, 10-12 LZ4HC's optimal parser
)

// MaxInputSize is LZ4_MAX_INPUT_SIZE, the largest block liblz4 compresses,
// and the largest compressed block or content it decompresses.
const MaxInputSize = 0x7E000000

// MaxExpansion bounds the bytes one byte of an LZ4 block decodes to: a
// match length grows by at most 255 per extension byte.
const MaxExpansion = 256

// CompressBound returns the largest LZ4 block for an n-byte input,
// LZ4_COMPRESSBOUND: n + n/255 + 16, a dst with this much spare capacity
// never makes [Compressor.Compress] allocate. n must not be negative.
func CompressBound(n int) int { return n + n/255 + 16 }

func checkLevel(level int) error {
	if level < LevelFast || level > MaxLevel {
		return fmt.Errorf("%w: %d (want %d to %d)", ErrLevel, level, LevelFast, MaxLevel)
	}
	return nil
}

// DecodedLen returns the length the LZ4 block src decodes to, by walking its
// sequences without decoding them, and whether src is a well-formed block:
// every literal run within src, every match offset within the output so far,
// the block ending right after a literal run. (liblz4 additionally rejects
// some blocks that break the format's end-of-block rules when decoding into
// exactly their size; this walk does not.) It reads src only and allocates
// nothing.
func DecodedLen(src []byte) (int, bool) {
	pos, out := 0, 0
	ext := func(v int) (int, bool) {
		for {
			if pos >= len(src) {
				return 0, false
			}
			b := src[pos]
			pos++
			v += int(b)
			if b != 255 {
				return v, true
			}
		}
	}
	for {
		if pos >= len(src) {
			return 0, false
		}
		tok := src[pos]
		pos++
		lit := int(tok >> 4)
		if lit == 15 {
			var ok bool
			if lit, ok = ext(lit); !ok {
				return 0, false
			}
		}
		if lit > len(src)-pos {
			return 0, false
		}
		pos += lit
		out += lit
		if pos == len(src) {
			return out, true
		}
		if len(src)-pos < 2 {
			return 0, false
		}
		off := int(binary.LittleEndian.Uint16(src[pos:]))
		pos += 2
		ml := int(tok & 15)
		if ml == 15 {
			var ok bool
			if ml, ok = ext(ml); !ok {
				return 0, false
			}
		}
		if off == 0 || off > out {
			return 0, false
		}
		out += ml + 4
	}
}
