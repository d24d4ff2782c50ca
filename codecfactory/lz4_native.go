package codecfactory

import (
	"errors"

	nlz4 "github.com/pqcodec/pqcodec/native/lz4"
)

// nativeLz4Block compresses LZ4 blocks with liblz4 (native/lz4). It does
// not decompress: nativeLz4Decoder does (see lz4BlockCodecs).
type nativeLz4Block struct {
	c *nlz4.Compressor
}

// newNativeLz4Compressor returns a block compressor at the factory's LZ4
// level: 0 for LZ4_compress_fast, 1 to MaxLz4Level for LZ4HC at that level.
func newNativeLz4Compressor(level int) (*nativeLz4Block, error) {
	c, err := nlz4.NewCompressor(level)
	if err != nil {
		return nil, err
	}
	return &nativeLz4Block{c: c}, nil
}

// Close frees the compressor's liblz4 state.
func (b *nativeLz4Block) Close() error { return b.c.Close() }

// EncodeBlock appends the LZ4 block of src to dst; on error dst comes back
// as it was.
func (b *nativeLz4Block) EncodeBlock(dst, src []byte) ([]byte, error) {
	out, err := b.c.Compress(dst, src)
	if err != nil {
		return dst, err
	}
	return out, nil
}

// errNativeLz4Decode is what nativeLz4Block.DecodeBlock returns: the
// factory decodes with nativeLz4Decoder.
var errNativeLz4Decode = errors.New("codecfactory: liblz4 block compressors only compress")

// DecodeBlock is never called (lz4BlockCodecs decodes with nativeLz4Decoder).
func (b *nativeLz4Block) DecodeBlock(dst, src []byte) (int, error) { return 0, errNativeLz4Decode }

// nativeLz4Decoder decodes LZ4 blocks with liblz4 where it is the faster
// decoder, blocks made mostly of literals, and with pierrec/lz4 (the
// embedded lz4Block) otherwise; see lz4NativeDecodes. It never encodes.
type nativeLz4Decoder struct {
	lz4Block
	d *nlz4.Decompressor
}

func newNativeLz4Decoder() (*nativeLz4Decoder, error) {
	d, err := nlz4.NewDecompressor()
	if err != nil {
		return nil, err
	}
	return &nativeLz4Decoder{d: d}, nil
}

// lz4NativeDecodes reports whether liblz4 decodes the block src of n bytes:
// when it expands by at most 1/8, that is when literal runs make up most of
// it. There native/lz4's scan for match offsets of 0 costs nothing
// measurable, and liblz4 1.9.4 decodes at least as fast as pierrec/lz4
// (random doubles, ratio 1.0: at par to 3% faster on AMD EPYC, Zen 5; 1.5x
// and more on the Intel Xeon of issue 34). On blocks of short sequences
// (small-delta ints and timestamps, ratio 1.4-1.6; strings, 2.9) pierrec's
// assembly decoder is 7-25% faster than liblz4 alone here, and the scan
// would double liblz4's time. Deciding by the sizes costs nothing.
func lz4NativeDecodes(n, src int) bool { return n-src <= src/8 }

// DecodeBlock decodes the LZ4 block src into dst, at most len(dst) bytes.
// Whatever liblz4 rejects is decoded again by pierrec/lz4, so both decoders
// accept the same blocks (they differ at the format's edges: liblz4 enforces
// the end-of-block rules, pierrec the last token's match nibble) and the
// errors are pierrec's.
func (b *nativeLz4Decoder) DecodeBlock(dst, src []byte) (int, error) {
	if lz4NativeDecodes(len(dst), len(src)) {
		if out, err := b.d.Decompress(dst[:0:len(dst)], src); err == nil {
			return len(out), nil
		}
	}
	return b.lz4Block.DecodeBlock(dst, src)
}

// Close marks the liblz4 decoder closed.
func (b *nativeLz4Decoder) Close() error { return b.d.Close() }
