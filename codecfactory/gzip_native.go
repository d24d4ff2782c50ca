package codecfactory

import (
	"errors"

	ndeflate "github.com/pqcodec/pqcodec/native/deflate"
)

// gzipNativeCompress selects libdeflate over klauspost/compress/gzip for
// GZIP compression when both are available; see the package documentation
// for the measurements behind the choice.
const gzipNativeCompress = true

type nativeGzipCompressor struct{ c *ndeflate.Compressor }

func (g nativeGzipCompressor) Close() error { return g.c.Close() }

func (g nativeGzipCompressor) compress(dst, src []byte) ([]byte, error) {
	out, err := g.c.Compress(dst, src)
	if err != nil {
		return dst, err
	}
	return out, nil
}

type nativeGzipDecompressor struct{ d *ndeflate.Decompressor }

func (g nativeGzipDecompressor) Close() error { return g.d.Close() }

func (g nativeGzipDecompressor) decompress(dst, src []byte, n int) ([]byte, error) {
	out, err := g.d.Decompress(dst, src)
	switch {
	case errors.Is(err, ndeflate.ErrDstTooSmall):
		return dst, longer(n, err)
	case err != nil:
		return dst, corrupt(err)
	case len(out) != len(dst)+n:
		return dst, mismatch(len(out)-len(dst), n)
	}
	return out, nil
}

func gzipImpl(cfg *config, native bool) codecImpl {
	im := codecImpl{check: gzipCheck, trust: growTrust, bound: func(n int) int { return max(gzipBound(n), ndeflate.CompressBound(n)) }}
	level := cfg.gzipLevel
	native = native && ndeflate.Available
	pureGzip(&im, level, !native || !gzipNativeCompress, !native)
	if native {
		im.decompressLib = "libdeflate"
		im.newDecompressor = func() (decompressor, error) {
			d, err := ndeflate.NewDecompressor()
			if err != nil {
				return nil, err
			}
			return nativeGzipDecompressor{d}, nil
		}
		if gzipNativeCompress {
			im.compressLib = "libdeflate"
			im.newCompressor = func() (compressor, error) {
				c, err := ndeflate.NewCompressor(level)
				if err != nil {
					return nil, err
				}
				return nativeGzipCompressor{c}, nil
			}
		}
	}
	return im
}
