package codecfactory

import (
	"fmt"

	"github.com/golang/snappy"
	"github.com/klauspost/compress/s2"
)

// UNCOMPRESSED: a copy (see [Factory.DecompressShared] for no copy).

type copyCodec struct{}

func (copyCodec) compress(dst, src []byte) ([]byte, error) { return append(dst, src...), nil }

func (copyCodec) decompress(dst, src []byte, n int) ([]byte, error) {
	if len(src) != n {
		return dst, mismatch(len(src), n)
	}
	return append(dst, src...), nil
}

func uncompressedImpl() codecImpl {
	return codecImpl{
		newCompressor:   func() (compressor, error) { return copyCodec{}, nil },
		newDecompressor: func() (decompressor, error) { return copyCodec{}, nil },
		check: func(src []byte, n int) error {
			if len(src) != n {
				return mismatch(len(src), n)
			}
			return nil
		},
		bound:         func(n int) int { return n },
		compressLib:   "copy",
		decompressLib: "copy",
	}
}

// SNAPPY: github.com/golang/snappy block format, whose preamble states the
// decoded length. Level 1 compresses with golang/snappy's encoder; levels 2
// and 3 with klauspost/compress/s2's Snappy-compatible "better" and "best"
// encoders (smaller blocks, slower to write, decoded by every Snappy
// decoder). Decoding stays with golang/snappy: s2.Decode, which also decodes
// Snappy blocks, measured at par on bench/'s codec rows (AMD EPYC Zen 5,
// CPU time, 0.98-1.0x), and it accepts a copy of offset 0 as S2's
// repeat-offset extension where Snappy decoders reject it as corrupt.

type snappyCodec struct{ level int }

// snappyBound bounds the block of n bytes for every level's encoder.
func snappyBound(n int) int {
	m := snappy.MaxEncodedLen(n)
	if m < 0 {
		return m
	}
	return max(m, s2.MaxEncodedLen(n))
}

func (c snappyCodec) compress(dst, src []byte) ([]byte, error) {
	m := snappyBound(len(src))
	if m < 0 {
		return dst, fmt.Errorf("snappy: %d bytes is too large to encode", len(src))
	}
	dst = spare(dst, m)
	base := len(dst)
	var out []byte
	switch c.level {
	case 2:
		out = s2.EncodeSnappyBetter(dst[base:base+m], src)
	case 3:
		out = s2.EncodeSnappyBest(dst[base:base+m], src)
	default:
		out = snappy.Encode(dst[base:base+m], src)
	}
	return dst[:base+len(out)], nil
}

func (snappyCodec) decompress(dst, src []byte, n int) ([]byte, error) {
	base := len(dst)
	// Decode writes into its dst when len(dst) >= the decoded length, which
	// snappyCheck has verified to be n.
	out, err := snappy.Decode(dst[base:base+n], src)
	if err != nil {
		return dst, corrupt(err)
	}
	if len(out) != n {
		return dst, mismatch(len(out), n)
	}
	return dst[:base+n], nil
}

// snappyMaxExpansion bounds the bytes one byte of a snappy block decodes
// to: a 3-byte copy element (tag and 2-byte offset) of 64 bytes.
const snappyMaxExpansion = 64.0 / 3

func snappyCheck(src []byte, n int) error {
	m, err := snappy.DecodedLen(src)
	if err != nil {
		return corrupt(err)
	}
	if m != n {
		return fmt.Errorf("%w: snappy preamble declares %d bytes, header %d", ErrSizeMismatch, m, n)
	}
	if float64(n) > snappyMaxExpansion*float64(len(src)) {
		return fmt.Errorf("%w: snappy preamble declares %d bytes, %d bytes of snappy cannot decode to more than %d",
			ErrCorrupt, n, len(src), int(snappyMaxExpansion*float64(len(src))))
	}
	return nil
}

func snappyImpl(cfg *config) codecImpl {
	level := cfg.snappyLevel
	lib := "github.com/golang/snappy"
	if level > 1 {
		lib = "github.com/klauspost/compress/s2 (Snappy-compatible)"
	}
	return codecImpl{
		newCompressor:   func() (compressor, error) { return snappyCodec{level}, nil },
		newDecompressor: func() (decompressor, error) { return snappyCodec{}, nil },
		check:           snappyCheck,
		bound:           snappyBound,
		compressLib:     lib,
		decompressLib:   "github.com/golang/snappy",
	}
}
