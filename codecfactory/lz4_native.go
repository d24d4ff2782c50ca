package codecfactory

import (
	nlz4 "github.com/pqcodec/pqcodec/native/lz4"
)

// nativeLz4Block compresses or decompresses LZ4 blocks with liblz4
// (native/lz4): a compressor context holds c, a decompressor context d.
type nativeLz4Block struct {
	c *nlz4.Compressor
	d *nlz4.Decompressor
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

func newNativeLz4Decompressor() (*nativeLz4Block, error) {
	d, err := nlz4.NewDecompressor()
	if err != nil {
		return nil, err
	}
	return &nativeLz4Block{d: d}, nil
}

// Close frees the compressor's liblz4 state.
func (b *nativeLz4Block) Close() error {
	if b.c != nil {
		return b.c.Close()
	}
	return b.d.Close()
}

// EncodeBlock appends the LZ4 block of src to dst; on error dst comes back
// as it was.
func (b *nativeLz4Block) EncodeBlock(dst, src []byte) ([]byte, error) {
	out, err := b.c.Compress(dst, src)
	if err != nil {
		return dst, err
	}
	return out, nil
}

// DecodeBlock decodes the LZ4 block src into dst, at most len(dst) bytes;
// a block that decodes to more is an error (nlz4.ErrDstTooSmall).
func (b *nativeLz4Block) DecodeBlock(dst, src []byte) (int, error) {
	out, err := b.d.Decompress(dst[:0:len(dst)], src)
	if err != nil {
		return 0, err
	}
	return len(out), nil
}
