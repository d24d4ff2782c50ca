// Package zstd compresses and decompresses whole Zstandard frames
// (RFC 8878) with reusable contexts, writing straight into caller memory.
//
// It binds the C library bundled in github.com/DataDog/zstd through that
// package's context type. A [Compressor] holds one context at a fixed level
// and a [Decompressor] another; both are meant to be reused across many
// pages (pool them rather than create one per page). Close drops the
// context, but github.com/DataDog/zstd has no explicit free: its finalizer
// releases the C memory at a later garbage collection. Neither type is safe
// for concurrent use: give each goroutine its own, or keep them in a
// sync.Pool.
//
// Without cgo the package still compiles: [Available] is false and the
// constructors return [ErrUnavailable]. [CompressBound],
// [ParseFrameHeader] and [FrameContentSize] are pure Go and work in both
// builds.
//
// Compress and Decompress keep the contract of every native binding
// (brotli, deflate, lzo, zstd), written once with its code in
// native/internal/cbuf: Compress appends to dst, growing it to the bound
// first when its spare capacity is smaller; Decompress writes only into
// dst's spare capacity, never past cap(dst), and reports content that does
// not fit with [ErrDstTooSmall]; Close is idempotent and later calls return
// [ErrClosed].
package zstd

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/pqcodec/pqcodec/native/internal/cbuf"
)

var (
	// ErrUnavailable is returned by the constructors when the package was
	// built without cgo.
	ErrUnavailable = errors.New("zstd: native zstd unavailable (built without cgo)")
	// ErrLevel reports a compression level outside [MinLevel, MaxLevel].
	ErrLevel = errors.New("zstd: invalid compression level")
)

// The errors of the contract in the package documentation, made for every
// binding by one function of native/internal/cbuf: ErrCorrupt reports input
// that is not a valid sequence of zstd frames (it also matches
// pqcodec.ErrCorrupt); ErrDstTooSmall reports that the decompressed content
// does not fit in dst's spare capacity; ErrClosed is returned by methods
// called after Close; ErrInternal reports any other failure of the C library.
var ErrCorrupt, ErrDstTooSmall, ErrClosed, ErrInternal = cbuf.Errors("zstd")

// The compression levels accepted by [NewCompressor]. Negative levels are
// libzstd's fast modes; 0 selects libzstd's default (3).
const (
	MinLevel     = -131072
	MaxLevel     = 22
	DefaultLevel = 3
)

// CompressBound returns the largest compressed size of an n-byte input: a
// dst with this much spare capacity never makes [Compressor.Compress]
// allocate. It follows ZSTD_COMPRESSBOUND from zstd.h.
func CompressBound(n int) int {
	margin := 0
	if n < 128<<10 {
		margin = (128<<10 - n) >> 11
	}
	return n + n>>8 + margin
}

// Frame magic numbers (RFC 8878, sections 3.1.1 and 3.1.2).
const (
	frameMagic          = 0xFD2FB528
	skippableMagicMask  = 0xFFFFFFF0
	skippableMagicValue = 0x184D2A50
	windowLogMax        = 31 // ZSTD_WINDOWLOG_MAX on 64-bit targets

	// Frames of zstd v0.4 to v0.7, which libzstd still decodes.
	legacyMagicFirst = 0xFD2FB524
	legacyMagicLast  = 0xFD2FB527
)

// FrameKind is the kind of frame a [FrameHeader] starts.
type FrameKind uint8

const (
	// FrameZstd is a Zstandard frame (RFC 8878, section 3.1.1).
	FrameZstd FrameKind = iota
	// FrameSkippable is a skippable frame (RFC 8878, section 3.1.2): it
	// carries no content.
	FrameSkippable
	// FrameLegacy is a frame of zstd v0.4 to v0.7. Its header is not
	// parsed: its size is unknown. libzstd (and so [Decompressor]) still
	// decodes it; codecfactory refuses it, as Parquet's ZSTD codec is
	// RFC 8878 and the pure-Go decoder cannot read it.
	FrameLegacy
)

// FrameHeader is the header of one frame, as [ParseFrameHeader] reads it.
type FrameHeader struct {
	Kind FrameKind
	// ContentSize is the content size the frame declares, valid when
	// SizeKnown. It is the writer's claim, not a checked fact.
	ContentSize uint64
	// SizeKnown is false when the header leaves the size out (streaming
	// writers do), and for skippable and legacy frames.
	SizeKnown bool
	// HeaderLen is the length of the header, magic number included: the
	// offset of the first block header of a zstd frame, or of the
	// skippable frame's payload. It is 4 for a legacy frame.
	HeaderLen int
	// SkippableSize is the payload length a skippable frame declares
	// (not checked against src).
	SkippableSize uint32
	// Checksum is set when a zstd frame ends with a 4-byte content
	// checksum after its last block.
	Checksum bool
}

// ParseFrameHeader reads the header of the frame at the start of src. It is
// the one zstd frame-header parser of pqcodec: [FrameContentSize] and
// codecfactory's frame walk both call it. It is pure Go (both builds).
//
// err wraps [ErrCorrupt] when src is too short to hold the header, does not
// start with a zstd, skippable or legacy magic number, or sets a reserved
// bit or an oversized window. It never reads outside src and never
// allocates.
func ParseFrameHeader(src []byte) (FrameHeader, error) {
	if len(src) < 4 {
		return FrameHeader{}, fmt.Errorf("%w: %d bytes, too short for a frame header", ErrCorrupt, len(src))
	}
	magic := binary.LittleEndian.Uint32(src)
	if magic&skippableMagicMask == skippableMagicValue {
		if len(src) < 8 {
			return FrameHeader{}, fmt.Errorf("%w: truncated skippable frame header", ErrCorrupt)
		}
		return FrameHeader{Kind: FrameSkippable, HeaderLen: 8, SkippableSize: binary.LittleEndian.Uint32(src[4:])}, nil
	}
	if magic >= legacyMagicFirst && magic <= legacyMagicLast {
		return FrameHeader{Kind: FrameLegacy, HeaderLen: 4}, nil
	}
	if magic != frameMagic {
		return FrameHeader{}, fmt.Errorf("%w: unknown frame magic %#08x", ErrCorrupt, magic)
	}
	if len(src) < 5 {
		return FrameHeader{}, fmt.Errorf("%w: truncated frame header", ErrCorrupt)
	}
	fhd := src[4]
	fcsFlag := fhd >> 6
	singleSegment := fhd&0x20 != 0
	if fhd&0x08 != 0 {
		return FrameHeader{}, fmt.Errorf("%w: reserved bit set in frame header descriptor", ErrCorrupt)
	}
	dictIDSize := [4]int{0, 1, 2, 4}[fhd&3]
	fcsSize := [4]int{0, 2, 4, 8}[fcsFlag]
	if fcsFlag == 0 && singleSegment {
		fcsSize = 1
	}
	pos := 5
	headerSize := pos + dictIDSize + fcsSize
	if !singleSegment {
		headerSize++
	}
	if len(src) < headerSize {
		return FrameHeader{}, fmt.Errorf("%w: truncated frame header (%d of %d bytes)", ErrCorrupt, len(src), headerSize)
	}
	if !singleSegment {
		if windowLog := 10 + int(src[pos]>>3); windowLog > windowLogMax {
			return FrameHeader{}, fmt.Errorf("%w: window log %d too large", ErrCorrupt, windowLog)
		}
		pos++
	}
	pos += dictIDSize
	h := FrameHeader{Kind: FrameZstd, HeaderLen: headerSize, SizeKnown: fcsSize > 0, Checksum: fhd&0x04 != 0}
	switch fcsSize {
	case 1:
		h.ContentSize = uint64(src[pos])
	case 2:
		h.ContentSize = uint64(binary.LittleEndian.Uint16(src[pos:])) + 256
	case 4:
		h.ContentSize = uint64(binary.LittleEndian.Uint32(src[pos:]))
	case 8:
		h.ContentSize = binary.LittleEndian.Uint64(src[pos:])
	}
	return h, nil
}

// FrameContentSize reads the header of the frame at the start of src with
// [ParseFrameHeader] and returns the content size it declares. known is
// false when the header leaves the size out (streaming writers do), when
// src starts with a skippable frame, which carries no content, or with a
// legacy (v0.4 to v0.7) frame, whose header is not parsed (as libzstd's
// ZSTD_getFrameContentSize). Only the first frame is read: src holding
// several concatenated frames may decompress to more. The declared size is
// the writer's claim, not a checked fact: use it to refuse or size a
// buffer, never to trust the data.
//
// err is that of [ParseFrameHeader]. It never reads outside src and never
// allocates.
func FrameContentSize(src []byte) (size uint64, known bool, err error) {
	h, err := ParseFrameHeader(src)
	return h.ContentSize, h.SizeKnown, err
}

func checkLevel(level int) error {
	if level < MinLevel || level > MaxLevel {
		return fmt.Errorf("%w: %d not in [%d, %d]", ErrLevel, level, MinLevel, MaxLevel)
	}
	return nil
}
