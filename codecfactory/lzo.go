package codecfactory

import (
	"errors"
	"fmt"

	"github.com/pqcodec/pqcodec/internal/hadoop"
	"github.com/pqcodec/pqcodec/internal/lzo"
)

// LZO: LZO1X blocks in Hadoop framing, through native/lzo (liblzo2), or
// decoded by pqcodec's pure-Go LZO1X decoder (internal/lzo); there is no
// pure-Go LZO compressor.

// lzoChunkSize is the largest chunk the LZO encoder writes: hadoop-lzo's
// LzoCodec buffer (256 KiB) less its compression overhead
// (bufferSize/16 + 64 + 3), as its BlockCompressorStream writes.
const lzoChunkSize = hadoop.DefaultBufferSize - (hadoop.DefaultBufferSize/16 + 64 + 3)

// lzoBlockBound is LZO1X's worst case for n bytes.
func lzoBlockBound(n int) int { return n + n/16 + 64 + 3 }

func lzoBound(n int) int { return hadoopBound(n, lzoChunkSize, lzoBlockBound) }

// pureLzoBlock decodes LZO1X blocks with internal/lzo.
type pureLzoBlock struct{}

func (pureLzoBlock) DecodeBlock(dst, src []byte) (int, error) {
	out, err := lzo.Decompress(dst[:0:len(dst)], src)
	if errors.Is(err, lzo.ErrDstTooSmall) {
		// The piece decodes to more than its chunk declares: the framing
		// is corrupt, which hadoop.Decode reports.
		return 0, err
	}
	if err != nil {
		return 0, err
	}
	return len(out), nil
}

// hadoopDecompressor decodes Hadoop-framed pages with a block decoder.
type hadoopDecompressor struct{ block hadoop.BlockDecoder }

// Close closes the block decoder when it holds native memory.
func (h hadoopDecompressor) Close() error {
	closeContext(h.block)
	return nil
}

func (h hadoopDecompressor) decompress(dst, src []byte, n int) ([]byte, error) {
	base := len(dst)
	if err := hadoop.Decode(dst[base:base+n], src, h.block); err != nil {
		return dst, hadoopError(err)
	}
	return dst[:base+n], nil
}

// hadoopCheck rejects framing whose first chunk claims more than the page,
// or a page beyond what LZ4 and LZO can expand src to.
func hadoopCheck(src []byte, n int) error {
	if first := hadoop.FirstChunkLen(src); first > int64(n) {
		return hadoopError(fmt.Errorf("%w: first chunk claims %d bytes, page %d", hadoop.ErrSizeMismatch, first, n))
	}
	return lz4Ratio(src, n)
}

// hadoopError maps a framing error to the package sentinels.
func hadoopError(err error) error {
	if errors.Is(err, hadoop.ErrSizeMismatch) || errors.Is(err, ErrSizeMismatch) {
		return fmt.Errorf("%w: %w", ErrSizeMismatch, err)
	}
	return corrupt(err)
}

// unavailableLib is the compress library name of a codec this build cannot
// compress.
const unavailableLib = "unavailable"

type unavailableCompressor struct{}

func (unavailableCompressor) compress(dst, _ []byte) ([]byte, error) {
	return dst, fmt.Errorf("%w: LZO compression needs cgo and liblzo2", ErrUnavailable)
}

func pureLzo(im *codecImpl) {
	im.compressLib, im.decompressLib = unavailableLib, "pqcodec internal/lzo in Hadoop framing"
	im.newCompressor = func() (compressor, error) { return unavailableCompressor{}, nil }
	im.newDecompressor = func() (decompressor, error) { return hadoopDecompressor{pureLzoBlock{}}, nil }
}
