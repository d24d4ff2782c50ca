package codecfactory

import nbrotli "github.com/pqcodec/pqcodec/native/brotli"

// nativeBrotliDecompressor is the native adapter plus the sizer that
// libbrotli alone offers.
type nativeBrotliDecompressor struct {
	nativeDecompressor[*nbrotli.Decompressor]
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
	im.newCompressor = nativeCompressors(func() (*nbrotli.Compressor, error) { return nbrotli.NewCompressor(quality, window) })
	im.newDecompressor = func() (decompressor, error) {
		d, err := nbrotli.NewDecompressor()
		if err != nil {
			return nil, err
		}
		return nativeBrotliDecompressor{nativeDecompressor[*nbrotli.Decompressor]{d, nbrotli.ErrDstTooSmall}}, nil
	}
	return im
}
