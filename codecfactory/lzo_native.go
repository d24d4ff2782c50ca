package codecfactory

import (
	"errors"

	"github.com/pqcodec/pqcodec/internal/hadoop"
	nlzo "github.com/pqcodec/pqcodec/native/lzo"
)

// nativeLzoBlock decodes LZO1X blocks with liblzo2.
type nativeLzoBlock struct{ d *nlzo.Decompressor }

func (b nativeLzoBlock) Close() error { return b.d.Close() }

func (b nativeLzoBlock) DecodeBlock(dst, src []byte) (int, error) {
	out, err := b.d.Decompress(dst[:0:len(dst)], src)
	if errors.Is(err, nlzo.ErrDstTooSmall) {
		// The piece decodes to more than its chunk declares: the framing
		// is corrupt, which hadoop.Decode reports.
		return 0, err
	}
	if err != nil {
		return 0, err
	}
	return len(out), nil
}

// nativeLzoCompressor writes Hadoop-framed LZO1X blocks with liblzo2.
type nativeLzoCompressor struct{ c *nlzo.Compressor }

func (l nativeLzoCompressor) Close() error { return l.c.Close() }

func (l nativeLzoCompressor) EncodeBlock(dst, src []byte) ([]byte, error) {
	out, err := l.c.Compress(dst, src)
	if err != nil {
		return dst, err
	}
	return out, nil
}

func (l nativeLzoCompressor) compress(dst, src []byte) ([]byte, error) {
	return hadoop.Encode(spare(dst, lzoBound(len(src))), src, lzoChunkSize, l)
}

func lzoImpl(cfg *config, native bool) codecImpl {
	im := codecImpl{check: hadoopCheck, bound: lzoBound}
	if !native || !nlzo.Available {
		pureLzo(&im)
		return im
	}
	level := cfg.lzoLevel
	im.compressLib, im.decompressLib = "liblzo2 in Hadoop framing", "liblzo2 in Hadoop framing"
	im.newCompressor = func() (compressor, error) {
		c, err := nlzo.NewCompressor(level)
		if err != nil {
			return nil, err
		}
		return nativeLzoCompressor{c}, nil
	}
	im.newDecompressor = func() (decompressor, error) {
		d, err := nlzo.NewDecompressor()
		if err != nil {
			return nil, err
		}
		return hadoopDecompressor{nativeLzoBlock{d}}, nil
	}
	return im
}
