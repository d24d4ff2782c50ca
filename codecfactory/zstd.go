package codecfactory

import (
	"errors"
	"fmt"

	kzstd "github.com/klauspost/compress/zstd"

	nzstd "github.com/pqcodec/pqcodec/native/zstd"
)

// ZSTD: libzstd through native/zstd, or github.com/klauspost/compress/zstd.

// zstdBlockMax is the most one zstd block decodes to (RFC 8878 3.1.1.2.3).
const zstdBlockMax = 128 << 10

// zstdSize walks the frames of src (zstd and skippable frames) reading only
// frame and block headers; frame headers are parsed by
// [nzstd.ParseFrameHeader], the one parser. It returns the total content
// size the frames declare and true when every zstd frame declares it, or
// otherwise an upper bound on what src can decode to and false. Malformed
// framing, and a legacy (v0.4 to v0.7) frame, is an error wrapping
// ErrCorrupt.
func zstdSize(src []byte) (uint64, bool, error) {
	var total uint64
	exact := true
	for p := 0; p < len(src); {
		h, err := nzstd.ParseFrameHeader(src[p:])
		switch {
		case err != nil:
			return 0, false, fmt.Errorf("%w: zstd frame at offset %d: %w", ErrCorrupt, p, err)
		case h.Kind == nzstd.FrameSkippable:
			if uint64(h.SkippableSize) > uint64(len(src)-p-h.HeaderLen) {
				return 0, false, fmt.Errorf("%w: skippable frame past end of input", ErrCorrupt)
			}
			p += h.HeaderLen + int(h.SkippableSize)
			continue
		case h.Kind == nzstd.FrameLegacy:
			// Parquet's ZSTD is RFC 8878, and the pure-Go decoder cannot
			// read these: both builds refuse them alike.
			return 0, false, fmt.Errorf("%w: legacy zstd frame (v0.4 to v0.7) at offset %d", ErrCorrupt, p)
		}
		fcs, fcsKnown := h.ContentSize, h.SizeKnown
		p += h.HeaderLen
		var blocks uint64 // upper bound of this frame's content
		for last := false; !last; {
			if len(src)-p < 3 {
				return 0, false, fmt.Errorf("%w: truncated zstd block header", ErrCorrupt)
			}
			bh := uint32(src[p]) | uint32(src[p+1])<<8 | uint32(src[p+2])<<16
			p += 3
			last = bh&1 != 0
			size := int(bh >> 3)
			if size > zstdBlockMax {
				return 0, false, fmt.Errorf("%w: zstd block of %d bytes, the maximum is %d", ErrCorrupt, size, zstdBlockMax)
			}
			switch (bh >> 1) & 3 {
			case 0: // raw
				blocks += uint64(size)
			case 1: // RLE: one byte repeated size times
				blocks += uint64(size)
				size = 1
			case 2: // compressed
				blocks += zstdBlockMax
			default:
				return 0, false, fmt.Errorf("%w: reserved zstd block type", ErrCorrupt)
			}
			if size > len(src)-p {
				return 0, false, fmt.Errorf("%w: zstd block past end of input", ErrCorrupt)
			}
			p += size
		}
		if h.Checksum {
			if len(src)-p < 4 {
				return 0, false, fmt.Errorf("%w: truncated zstd checksum", ErrCorrupt)
			}
			p += 4
		}
		if fcsKnown {
			total += min(fcs, blocks)
			if fcs > blocks {
				return 0, false, fmt.Errorf("%w: zstd frame declares %d bytes, its blocks hold at most %d",
					ErrCorrupt, fcs, blocks)
			}
		} else {
			exact = false
			total += blocks
		}
	}
	return total, exact, nil
}

func zstdCheck(src []byte, n int) error {
	size, exact, err := zstdSize(src)
	if err != nil {
		return err
	}
	if exact && size != uint64(n) {
		return fmt.Errorf("%w: zstd frames declare %d bytes, header %d", ErrSizeMismatch, size, n)
	}
	if !exact && size < uint64(n) {
		return fmt.Errorf("%w: zstd frames hold at most %d bytes, header declares %d", ErrSizeMismatch, size, n)
	}
	return nil
}

type pureZstdCompressor struct{ e *kzstd.Encoder }

func (z pureZstdCompressor) Close() error { return z.e.Close() }

func (z pureZstdCompressor) compress(dst, src []byte) ([]byte, error) {
	return z.e.EncodeAll(src, dst), nil
}

// pureZstdDecompressor maps errors as nativeDecompressor (native.go) does,
// its twin; kept apart for DecodeAll's argument order and the check that
// the output stayed in dst.
type pureZstdDecompressor struct{ d *kzstd.Decoder }

func (z pureZstdDecompressor) Close() error { z.d.Close(); return nil }

func (z pureZstdDecompressor) decompress(dst, src []byte, n int) ([]byte, error) {
	out, err := z.d.DecodeAll(src, dst)
	switch {
	case errors.Is(err, kzstd.ErrDecoderSizeExceeded):
		return dst, longer(n, err)
	case err != nil:
		return dst, corrupt(err)
	case len(out) != len(dst)+n || n > 0 && &out[len(dst)] != &dst[:len(dst)+n][len(dst)]:
		return dst, mismatch(len(out)-len(dst), n)
	}
	return out, nil
}

func zstdImpl(cfg *config, native bool) codecImpl {
	im := codecImpl{check: zstdCheck, bound: nzstd.CompressBound}
	level := cfg.zstdLevel
	maxPage := uint64(cfg.maxPageSize)
	if native && nzstd.Available {
		im.compressLib, im.decompressLib = "libzstd", "libzstd"
		im.newCompressor = nativeCompressors(func() (*nzstd.Compressor, error) { return nzstd.NewCompressor(level) })
		im.newDecompressor = nativeDecompressors(nzstd.NewDecompressor, nzstd.ErrDstTooSmall)
		return im
	}
	im.compressLib, im.decompressLib = "github.com/klauspost/compress/zstd", "github.com/klauspost/compress/zstd"
	im.newCompressor = func() (compressor, error) {
		e, err := kzstd.NewWriter(nil, kzstd.WithEncoderConcurrency(1),
			kzstd.WithEncoderLevel(kzstd.EncoderLevelFromZstd(level)))
		if err != nil {
			return nil, err
		}
		return pureZstdCompressor{e}, nil
	}
	im.newDecompressor = func() (decompressor, error) {
		d, err := kzstd.NewReader(nil, kzstd.WithDecoderConcurrency(1),
			kzstd.WithDecodeAllCapLimit(true), kzstd.WithDecoderMaxMemory(maxPage))
		if err != nil {
			return nil, err
		}
		return pureZstdDecompressor{d}, nil
	}
	return im
}
