package codecfactory

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/pierrec/lz4/v4"

	"github.com/pqcodec/pqcodec/internal/hadoop"
	nlz4 "github.com/pqcodec/pqcodec/native/lz4"
)

// lz4MaxExpansion bounds the bytes one byte of an LZ4 block (or LZO1X
// block) can decode to: a match length grows by at most 255 per extension
// byte.
const lz4MaxExpansion = 256

// lz4ChunkSize is the largest chunk the Hadoop-framed LZ4 encoder writes:
// Hadoop's Lz4Codec buffer (256 KiB) less its compression overhead
// (bufferSize/255 + 16), which is what Hadoop's own BlockCompressorStream
// writes, so the compressed piece also fits Hadoop's decompression buffer.
const lz4ChunkSize = hadoop.DefaultBufferSize - (hadoop.DefaultBufferSize/255 + 16)

// lz4FrameMagic starts an LZ4 frame (little-endian 0x184D2204).
var lz4FrameMagic = []byte{0x04, 0x22, 0x4D, 0x18}

// lz4EmptyBlock is the LZ4 block of empty input: one token with no literals.
var lz4EmptyBlock = []byte{0}

// lz4Ratio rejects a declared size that src cannot decode to.
func lz4Ratio(src []byte, n int) error {
	if uint64(n) > lz4MaxExpansion*uint64(len(src)) {
		return fmt.Errorf("%w: %d compressed bytes cannot decode to %d", ErrSizeMismatch, len(src), n)
	}
	return nil
}

// lz4Bound is the most a single LZ4 block of n bytes needs.
func lz4Bound(n int) int { return max(lz4.CompressBlockBound(n), 1) }

// lz4Blocks is what the LZ4 codecs need of a block codec, the one inside
// Hadoop framing too: in cgo builds liblz4's compressor (nativeLz4Block,
// lz4_native.go) and a decoder choosing liblz4 or pierrec/lz4 per block
// (nativeLz4Decoder), pierrec/lz4's (lz4Block) otherwise.
type lz4Blocks interface {
	hadoop.BlockEncoder
	hadoop.BlockDecoder
}

// lz4Block compresses and decompresses single LZ4 blocks with pierrec/lz4.
// It is not safe for concurrent use.
type lz4Block struct {
	c  lz4.Compressor
	hc *lz4.CompressorHC // nil at level 0: the fast compressor
}

// newLz4Block returns a block codec compressing at level (0: pierrec's
// fast compressor; 1-9: its high-compression one at that search depth).
func newLz4Block(level int) *lz4Block {
	if level == 0 {
		return &lz4Block{}
	}
	return &lz4Block{hc: &lz4.CompressorHC{Level: lz4Levels[level-1]}}
}

// lz4Levels are pierrec's CompressionLevel constants for levels 1-9.
var lz4Levels = [...]lz4.CompressionLevel{lz4.Level1, lz4.Level2, lz4.Level3, lz4.Level4, lz4.Level5,
	lz4.Level6, lz4.Level7, lz4.Level8, lz4.Level9}

// EncodeBlock appends the LZ4 block of src to dst.
func (b *lz4Block) EncodeBlock(dst, src []byte) ([]byte, error) {
	if len(src) == 0 {
		return append(dst, lz4EmptyBlock...), nil
	}
	m := lz4.CompressBlockBound(len(src))
	dst = spare(dst, m)
	base := len(dst)
	var k int
	var err error
	if b.hc != nil {
		k, err = b.hc.CompressBlock(src, dst[base:base+m])
	} else {
		k, err = b.c.CompressBlock(src, dst[base:base+m])
	}
	if err != nil {
		return dst, fmt.Errorf("lz4: %w", err)
	}
	return dst[:base+k], nil
}

// DecodeBlock decodes the LZ4 block src into dst, at most len(dst) bytes:
// a piece of Hadoop framing, whose errors hadoop.Decode reports as corrupt
// framing.
func (*lz4Block) DecodeBlock(dst, src []byte) (int, error) {
	k, err := lz4.UncompressBlock(src, dst)
	if err != nil {
		return 0, fmt.Errorf("lz4: %w", err)
	}
	return k, nil
}

// lz4BlockError classifies a failed block decode: a well-formed block that
// decodes to more than limit bytes is a size mismatch, anything else corrupt.
func lz4BlockError(src []byte, limit int, err error) error {
	if m, ok := lz4BlockLen(src); ok && m != limit {
		return fmt.Errorf("%w: LZ4 block decodes to %d bytes, %d expected: %w", ErrSizeMismatch, m, limit, err)
	}
	return corrupt(err)
}

// lz4BlockLen returns the length the LZ4 block src decodes to, by walking its
// sequences without decoding them, and whether src is a well-formed block.
func lz4BlockLen(src []byte) (int, bool) { return nlz4.DecodedLen(src) }

// LZ4_RAW: one LZ4 block, liblz4 or github.com/pierrec/lz4/v4.

type lz4RawCodec struct{ blk lz4Blocks }

// Close frees the block codec's native memory, if it has any.
func (c *lz4RawCodec) Close() error {
	closeContext(c.blk)
	return nil
}

func (c *lz4RawCodec) compress(dst, src []byte) ([]byte, error) { return c.blk.EncodeBlock(dst, src) }

func (c *lz4RawCodec) decompress(dst, src []byte, n int) ([]byte, error) {
	base := len(dst)
	k, err := c.blk.DecodeBlock(dst[base:base+n], src)
	if err != nil {
		return dst, lz4BlockError(src, n, err)
	}
	if k != n {
		return dst, mismatch(k, n)
	}
	return dst[:base+n], nil
}

func lz4RawImpl(cfg *config, native bool) codecImpl {
	return lz4Impl(cfg, native, lz4Bound, "", func(b lz4Blocks) lz4Codec { return &lz4RawCodec{blk: b} })
}

// lz4Codec is what both LZ4 codecs are: a compressor and a decompressor
// around one block codec.
type lz4Codec interface {
	compressor
	decompressor
}

// lz4Impl returns the codecImpl of an LZ4 codec bounded by bound, whose
// compressors and decompressors are codec of the block codecs of
// lz4BlockCodecs, and whose library names are theirs followed by framing.
func lz4Impl(cfg *config, native bool, bound func(int) int, framing string, codec func(lz4Blocks) lz4Codec) codecImpl {
	im := codecImpl{check: lz4Ratio, bound: bound}
	enc, dec, lib := lz4BlockCodecs(cfg, native)
	im.compressLib, im.decompressLib = lib+framing, lib+framing
	im.newCompressor = func() (compressor, error) {
		b, err := enc()
		if err != nil {
			return nil, err
		}
		return codec(b), nil
	}
	im.newDecompressor = func() (decompressor, error) {
		b, err := dec()
		if err != nil {
			return nil, err
		}
		return codec(b), nil
	}
	return im
}

// lz4BlockCodecs returns the constructors of the block compressors and
// decompressors of the LZ4 codecs, and the libraries' name: liblz4
// compresses when native and available (1.62x pierrec's CPU time on the
// codec rows, AMD EPYC Zen 5), pierrec/lz4 otherwise. When native, liblz4
// also decodes the blocks of mostly literals (lz4NativeDecodes), after
// native/lz4's scan for the match offsets of 0 liblz4 1.9.4 would copy
// from the reused destination (an earlier page's bytes); pierrec/lz4
// decodes every other block, and every block in other builds.
func lz4BlockCodecs(cfg *config, native bool) (enc, dec func() (lz4Blocks, error), lib string) {
	level := cfg.lz4Level
	if native && nlz4.Available {
		return func() (lz4Blocks, error) { return newNativeLz4Compressor(level) },
			func() (lz4Blocks, error) { return newNativeLz4Decoder() },
			"liblz4 (compression; decompression of blocks of mostly literals), github.com/pierrec/lz4/v4 (other decompression)"
	}
	return func() (lz4Blocks, error) { return newLz4Block(level), nil },
		func() (lz4Blocks, error) { return newLz4Block(0), nil }, "github.com/pierrec/lz4/v4"
}

// LZ4: Hadoop framing over LZ4 blocks, with the LZ4 frame format and a raw
// block as fallbacks when reading.

type lz4HadoopCodec struct {
	blk   lz4Blocks
	frame *lz4.Reader // created on first use of the frame fallback
	br    bytes.Reader
	probe [1]byte
}

// hadoopBound is the most Hadoop framing of n bytes in chunks of chunk bytes
// needs, given the block bound.
func hadoopBound(n, chunk int, block func(int) int) int {
	full, rest := n/chunk, n%chunk
	b := full * (8 + block(chunk))
	if rest > 0 || n == 0 {
		b += 8 + block(rest)
	}
	return b
}

// lz4HadoopBound allows for the one chunk more of lz4HadoopCodec.compress's
// layout.
func lz4HadoopBound(n int) int { return hadoopBound(n, lz4ChunkSize, lz4Bound) + 8 + lz4Bound(0) + 16 }

// compress writes a page of more than one chunk with a full chunk last and
// one of at most half a chunk before it (the rest in full chunks, then what
// remains, first): [rest..., half, full]. Hadoop reads any layout, but
// arrow-rs (try_decompress_hadoop) leaves its frame loop as soon as the
// input left is not larger than the frame it just read, and then reads the
// page as one raw block and fails; with a smaller chunk before a full one
// it reads every frame unless the data compresses very unevenly. Hadoop's
// own layout, full chunks and the remainder last, fails it almost always.
func (c *lz4HadoopCodec) compress(dst, src []byte) ([]byte, error) {
	dst = spare(dst, lz4HadoopBound(len(src)))
	if len(src) <= lz4ChunkSize {
		return hadoop.Encode(dst, src, lz4ChunkSize, c.blk)
	}
	last := len(src) - lz4ChunkSize
	mid := max(last-lz4ChunkSize/2, 0)
	var err error
	for _, part := range [][]byte{src[:mid], src[mid:last], src[last:]} {
		if len(part) == 0 {
			continue
		}
		if dst, err = hadoop.Encode(dst, part, lz4ChunkSize, c.blk); err != nil {
			return dst, err
		}
	}
	return dst, nil
}

func (c *lz4HadoopCodec) decompress(dst, src []byte, n int) ([]byte, error) {
	base := len(dst)
	out := dst[base : base+n]
	herr := hadoop.Decode(out, src, c.blk)
	if herr == nil {
		return dst[:base+n], nil
	}
	if bytes.HasPrefix(src, lz4FrameMagic) {
		k, err := c.decodeFrame(out, src)
		c.br.Reset(nil) // do not keep src reachable from the pool
		if err != nil {
			return dst, err
		}
		if k != n {
			return dst, mismatch(k, n)
		}
		return dst[:base+n], nil
	}
	k, rerr := c.blk.DecodeBlock(out, src)
	if rerr == nil {
		if k != n {
			return dst, mismatch(k, n)
		}
		return dst[:base+n], nil
	}
	// Neither parse worked. A well-formed raw block or Hadoop framing of the
	// wrong size is a size mismatch; anything else is corrupt.
	if m, ok := lz4BlockLen(src); ok {
		return dst, fmt.Errorf("%w: raw LZ4 block decodes to %d bytes: %w", ErrSizeMismatch, m, rerr)
	}
	if errors.Is(herr, hadoop.ErrSizeMismatch) {
		return dst, fmt.Errorf("%w: %w", ErrSizeMismatch, herr)
	}
	return dst, fmt.Errorf("%w: neither Hadoop-framed LZ4 (%w) nor a raw LZ4 block (%w)", ErrCorrupt, herr, rerr)
}

// decodeFrame decodes the LZ4 frame src into out, failing if it holds more
// than len(out) bytes.
func (c *lz4HadoopCodec) decodeFrame(out, src []byte) (int, error) {
	c.br.Reset(src)
	if c.frame == nil {
		c.frame = lz4.NewReader(&c.br)
	} else {
		c.frame.Reset(&c.br)
	}
	k, err := io.ReadFull(c.frame, out)
	switch {
	case err == io.ErrUnexpectedEOF || err == io.EOF:
		return k, nil // shorter than declared: the caller reports it
	case err != nil:
		return 0, fmt.Errorf("%w: LZ4 frame: %w", ErrCorrupt, err)
	}
	if m, err := c.frame.Read(c.probe[:]); m > 0 {
		return 0, fmt.Errorf("%w: LZ4 frame longer than the %d bytes declared", ErrSizeMismatch, len(out))
	} else if err != io.EOF {
		return 0, fmt.Errorf("%w: LZ4 frame: %w", ErrCorrupt, err)
	}
	return k, nil
}

// Close frees the block codec's native memory, if it has any.
func (c *lz4HadoopCodec) Close() error {
	closeContext(c.blk)
	return nil
}

func lz4HadoopImpl(cfg *config, native bool) codecImpl {
	return lz4Impl(cfg, native, lz4HadoopBound, " in Hadoop framing", func(b lz4Blocks) lz4Codec { return &lz4HadoopCodec{blk: b} })
}
