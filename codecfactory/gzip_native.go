package codecfactory

import ndeflate "github.com/pqcodec/pqcodec/native/deflate"

// gzipNativeCompress selects libdeflate over klauspost/compress/gzip for
// GZIP compression when both are available; see the package documentation
// for the measurements behind the choice.
const gzipNativeCompress = true

func gzipImpl(cfg *config, native bool) codecImpl {
	im := codecImpl{check: gzipCheck, trust: growTrust, bound: func(n int) int { return max(gzipBound(n), ndeflate.CompressBound(n)) }}
	level := cfg.gzipLevel
	native = native && ndeflate.Available
	pureGzip(&im, level, !native || !gzipNativeCompress, !native)
	if native {
		im.decompressLib = "libdeflate"
		im.newDecompressor = nativeDecompressors(ndeflate.NewDecompressor, ndeflate.ErrDstTooSmall)
		if gzipNativeCompress {
			im.compressLib = "libdeflate"
			im.newCompressor = nativeCompressors(func() (*ndeflate.Compressor, error) { return ndeflate.NewCompressor(level) })
		}
	}
	return im
}
