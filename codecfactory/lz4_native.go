package codecfactory

import (
	"errors"

	nlz4 "github.com/pqcodec/pqcodec/native/lz4"
)

// nativeLz4Block compresses LZ4 blocks with liblz4 (native/lz4). It does
// not decompress: pierrec/lz4 does, in every build (see lz4BlockCodecs).
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

// errNativeLz4Decode is what DecodeBlock returns: the factory never asks a
// native block codec to decode.
var errNativeLz4Decode = errors.New("codecfactory: liblz4 block codecs only compress")

// DecodeBlock is never called (lz4BlockCodecs decodes with pierrec/lz4).
func (b *nativeLz4Block) DecodeBlock(dst, src []byte) (int, error) { return 0, errNativeLz4Decode }
