package codecfactory

import (
	"errors"

	nbrotli "github.com/pqcodec/pqcodec/native/brotli"
)

type nativeBrotliCompressor struct{ c *nbrotli.Compressor }

func (b nativeBrotliCompressor) Close() error { return b.c.Close() }

func (b nativeBrotliCompressor) compress(dst, src []byte) ([]byte, error) {
	out, err := b.c.Compress(dst, src)
	if err != nil {
		return dst, err
	}
	return out, nil
}

type nativeBrotliDecompressor struct{ d *nbrotli.Decompressor }

func (b nativeBrotliDecompressor) Close() error { return b.d.Close() }

func (b nativeBrotliDecompressor) decompress(dst, src []byte, n int) ([]byte, error) {
	out, err := b.d.Decompress(dst, src)
	switch {
	case errors.Is(err, nbrotli.ErrDstTooSmall):
		return dst, longer(n, err)
	case err != nil:
		return dst, corrupt(err)
	case len(out) != len(dst)+n:
		return dst, mismatch(len(out)-len(dst), n)
	}
	return out, nil
}

func (b nativeBrotliDecompressor) decodedSize(src []byte, limit int) (int, error) {
	n, err := b.d.DecodedSize(src, limit)
	if err != nil {
		return 0, corrupt(err)
	}
	return n, nil
}

func brotliImpl(cfg *config, native bool) codecImpl {
	im := codecImpl{check: brotliCheck, trust: growTrust, bound: func(n int) int { return max(brotliBound(n), nbrotli.CompressBound(n)) }}
	if !native || !nbrotli.Available {
		pureBrotli(&im, cfg.brotliQuality, cfg.brotliWindow)
		return im
	}
	quality, window := cfg.brotliQuality, cfg.brotliWindow
	im.compressLib, im.decompressLib = "libbrotli", "libbrotli"
	im.newCompressor = func() (compressor, error) {
		c, err := nbrotli.NewCompressor(quality, window)
		if err != nil {
			return nil, err
		}
		return nativeBrotliCompressor{c}, nil
	}
	im.newDecompressor = func() (decompressor, error) {
		d, err := nbrotli.NewDecompressor()
		if err != nil {
			return nil, err
		}
		return nativeBrotliDecompressor{d}, nil
	}
	return im
}
