// Package hadoop reads and writes the block framing that Hadoop's
// BlockCompressorStream puts around LZ4 and LZO blocks, which parquet-java
// writes for the LZ4 (deprecated) and LZO Parquet codecs.
//
// A framed page is a sequence of chunks. A chunk is a big-endian uint32
// giving the chunk's uncompressed length, followed by one or more pieces,
// each a big-endian uint32 compressed length and that many bytes of one
// independently compressed block, until the pieces have produced the chunk's
// uncompressed length. Hadoop writes several pieces in one chunk when a single
// write exceeds its buffer, and several chunks when a page is larger than the
// buffer; [Decode] accepts both.
package hadoop

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/pqcodec/pqcodec/internal/errs"
)

var (
	// ErrCorrupt reports framing that cannot be parsed: a truncated header,
	// a piece length past the end of the input, or a piece whose block does
	// not decode.
	ErrCorrupt = errs.Corrupt("hadoop: corrupt framing")
	// ErrSizeMismatch reports framing whose chunk lengths do not add up to
	// the expected size, or a piece producing more than its chunk declares.
	ErrSizeMismatch = errs.Corrupt("hadoop: size mismatch")
)

// DefaultBufferSize is the buffer size of Hadoop's Lz4Codec and hadoop-lzo's
// LzoCodec (io.compression.codec.{lz4,lzo}.buffersize): its decompressors
// cannot produce more than this many bytes from one piece.
const DefaultBufferSize = 256 << 10

// headerLen is the size of a chunk or piece length prefix.
const headerLen = 4

// A BlockDecoder decompresses one independently compressed block.
type BlockDecoder interface {
	// DecodeBlock decompresses src into dst[:len(dst)], whose length is the
	// most the block may produce, and returns the number of bytes written.
	// A block producing more than len(dst) bytes is an error.
	DecodeBlock(dst, src []byte) (int, error)
}

// A BlockEncoder compresses one independently compressed block.
type BlockEncoder interface {
	// EncodeBlock appends the compressed form of src to dst.
	EncodeBlock(dst, src []byte) ([]byte, error)
}

// frameLen returns the length in the 4-byte big-endian header at src[ip:]
// of a chunk or a piece (what), or an error wrapping [ErrCorrupt] when the
// header is cut short.
func frameLen(src []byte, ip int, what string) (int64, error) {
	if len(src)-ip < headerLen {
		return 0, fmt.Errorf("%w: truncated %s header at offset %d", ErrCorrupt, what, ip)
	}
	return int64(binary.BigEndian.Uint32(src[ip:])), nil
}

// Decode decodes the framed page src into dst, which must have exactly the
// page's expected uncompressed length. It returns an error wrapping
// [ErrSizeMismatch] when the chunks produce fewer or more bytes than len(dst)
// (it never writes past len(dst)), and one wrapping [ErrCorrupt] when the
// framing or a block is malformed; block errors are wrapped as well. An
// empty src decodes to an empty dst. Decode is safe for concurrent use if d
// is; dst and src must not overlap.
func Decode(dst, src []byte, d BlockDecoder) error {
	op, ip := 0, 0
	for ip < len(src) {
		chunk, err := frameLen(src, ip, "chunk")
		if err != nil {
			return err
		}
		ip += headerLen
		if chunk > int64(len(dst)-op) {
			return fmt.Errorf("%w: chunk at offset %d claims %d bytes, %d left of the page",
				ErrSizeMismatch, ip-headerLen, chunk, len(dst)-op)
		}
		end := op + int(chunk)
		for first := true; op < end || first; first = false {
			if chunk == 0 && ip == len(src) {
				break // an empty chunk with no piece
			}
			n, err := frameLen(src, ip, "piece")
			if err != nil {
				return err
			}
			ip += headerLen
			if n > int64(len(src)-ip) {
				return fmt.Errorf("%w: piece at offset %d claims %d bytes, %d left of the input",
					ErrCorrupt, ip-headerLen, n, len(src)-ip)
			}
			got, err := d.DecodeBlock(dst[op:end], src[ip:ip+int(n)])
			if err != nil {
				return fmt.Errorf("%w: piece at offset %d: %w", ErrCorrupt, ip-headerLen, err)
			}
			if got < 0 || got > end-op {
				return fmt.Errorf("%w: piece at offset %d overflows its chunk", ErrSizeMismatch, ip-headerLen)
			}
			op += got
			ip += int(n)
		}
	}
	if op != len(dst) {
		return fmt.Errorf("%w: chunks hold %d bytes, want %d", ErrSizeMismatch, op, len(dst))
	}
	return nil
}

// FirstChunkLen returns the uncompressed length the first chunk of src
// declares, or -1 if src is shorter than a chunk header. A reader can
// compare it with the page's declared size before allocating.
func FirstChunkLen(src []byte) int64 {
	if len(src) < headerLen {
		return -1
	}
	return int64(binary.BigEndian.Uint32(src))
}

// Encode appends the framed form of src to dst: chunks of at most chunkSize
// uncompressed bytes, each compressed as a single piece. An empty src
// produces one empty chunk holding the compressed empty block, which every
// Hadoop-framing reader accepts. chunkSize must be positive; Encode panics
// otherwise. dst and src must not overlap.
func Encode(dst, src []byte, chunkSize int, e BlockEncoder) ([]byte, error) {
	if chunkSize <= 0 {
		panic("hadoop: non-positive chunk size")
	}
	for first := true; len(src) > 0 || first; first = false {
		n := min(len(src), chunkSize)
		if uint64(n) > math.MaxUint32 {
			return dst, fmt.Errorf("hadoop: chunk of %d bytes", n)
		}
		dst = binary.BigEndian.AppendUint32(dst, uint32(n))
		at := len(dst)
		dst = binary.BigEndian.AppendUint32(dst, 0)
		var err error
		if dst, err = e.EncodeBlock(dst, src[:n]); err != nil {
			return dst[:at-headerLen], err
		}
		c := len(dst) - at - headerLen
		if uint64(c) > math.MaxUint32 {
			return dst[:at-headerLen], fmt.Errorf("hadoop: piece of %d bytes", c)
		}
		binary.BigEndian.PutUint32(dst[at:], uint32(c))
		src = src[n:]
	}
	return dst, nil
}
