package codecfactory

import (
	"bytes"

	"github.com/andybalholm/brotli"
)

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

// pureBrotliDecompressor is the twin of pureGzipDecompressor (gzip.go), kept
// apart for gzip's Multistream; both end in readStream and streamSize.
type pureBrotliDecompressor struct {
	r     brotli.Reader
	br    bytes.Reader
	probe [1]byte
}

func (b *pureBrotliDecompressor) decompress(dst, src []byte, n int) ([]byte, error) {
	b.br.Reset(src)
	if err := b.r.Reset(&b.br); err != nil {
		return dst, corrupt(err)
	}
	out, err := readStream(dst, &b.r, b.probe[:], n)
	b.br.Reset(nil) // do not keep src reachable from the pool
	return out, err
}

func (b *pureBrotliDecompressor) decodedSize(src []byte, limit int) (int, error) {
	b.br.Reset(src)
	defer b.br.Reset(nil)
	if err := b.r.Reset(&b.br); err != nil {
		return 0, corrupt(err)
	}
	return streamSize(&b.r, limit)
}

func pureBrotli(im *codecImpl, quality, window int) {
	im.compressLib, im.decompressLib = "github.com/andybalholm/brotli", "github.com/andybalholm/brotli"
	im.newCompressor = func() (compressor, error) {
		w := brotli.NewWriterOptions(nil, brotli.WriterOptions{Quality: quality, LGWin: window})
		return &streamCompressor[*brotli.Writer]{w: w, bound: brotliBound}, nil
	}
	im.newDecompressor = func() (decompressor, error) { return new(pureBrotliDecompressor), nil }
}
