package codecfactory

import "github.com/andybalholm/brotli"

// BROTLI: libbrotli through native/brotli, or github.com/andybalholm/brotli.
// The brotli format states no size up front and can expand a few bytes to
// gigabytes (parquet-testing's large_string_map.brotli.parquet stores 1 GiB
// pages in 1.6 KB), so a declared size is bounded only by the maximum page
// size, and Decompress trusts it only up to [growTrust] before the stream
// proves it produces more.

func brotliCheck([]byte, int) error { return nil }

// brotliBound is BrotliEncoderMaxCompressedSize: the input plus 4 bytes per
// 16 KiB metablock and 6 bytes of stream overhead.
func brotliBound(n int) int { return n + 4*(n>>14) + 16 }

func pureBrotli(im *codecImpl, quality, window int) {
	im.compressLib, im.decompressLib = "github.com/andybalholm/brotli", "github.com/andybalholm/brotli"
	im.newCompressor = func() (compressor, error) {
		w := brotli.NewWriterOptions(nil, brotli.WriterOptions{Quality: quality, LGWin: window})
		return &streamCompressor[*brotli.Writer]{w: w, bound: brotliBound}, nil
	}
	im.newDecompressor = func() (decompressor, error) { return new(pureStreamDecompressor[brotli.Reader, *brotli.Reader]), nil }
}
