package codecfactory

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"

	"github.com/klauspost/compress/gzip"
)

// GZIP: RFC 1952 members, several per page allowed when reading. Deflate
// expands at most 1032:1, which still lets 1.4 MB of garbage whose trailer
// repeats the declared size claim 1.4 GiB, so Decompress trusts a declared
// size only up to [growTrust] before the stream proves it produces more.

// deflateMaxExpansion bounds the bytes one byte of deflate data can decode
// to: a 258-byte match coded in two bits (zlib's documented 1032:1).
const deflateMaxExpansion = 1032

// gzipCheck rejects, before allocation, gzip data that cannot decode to n
// bytes: too short for a member, a wrong magic, a last member whose ISIZE
// trailer exceeds n, or n beyond what deflate can expand src to.
func gzipCheck(src []byte, n int) error {
	if len(src) < 18 {
		return fmt.Errorf("%w: %d bytes is too short for a gzip member", ErrCorrupt, len(src))
	}
	if src[0] != 0x1f || src[1] != 0x8b {
		return fmt.Errorf("%w: bad gzip magic %#02x%02x", ErrCorrupt, src[0], src[1])
	}
	// ISIZE is the last member's length modulo 2^32; n is below 2^31.
	if isize := binary.LittleEndian.Uint32(src[len(src)-4:]); uint64(isize) > uint64(n) {
		return fmt.Errorf("%w: gzip trailer declares %d bytes, header %d", ErrSizeMismatch, isize, n)
	}
	if uint64(n) > deflateMaxExpansion*uint64(len(src)) {
		return fmt.Errorf("%w: %d gzip bytes cannot decode to %d", ErrSizeMismatch, len(src), n)
	}
	return nil
}

// gzipBound bounds a gzip member of n bytes: stored deflate blocks cost 5
// bytes per block (blocks are at least a few KiB in both encoders), plus the
// 18-byte header and trailer.
func gzipBound(n int) int { return n + n>>8 + 64 }

// streamDecoder is the method set pureStreamDecompressor needs of a pure-Go
// stream decoder: *brotli.Reader or *gzip.Reader (whose Reset reads
// concatenated members, as a GZIP page may hold several).
type streamDecoder[R any] interface {
	*R
	io.Reader
	Reset(io.Reader) error
}

// pureStreamDecompressor decodes whole pages with the pure-Go stream decoder
// R (brotli.Reader or gzip.Reader), reset onto each page: both end in
// readStream and streamSize.
type pureStreamDecompressor[R any, P streamDecoder[R]] struct {
	r     R
	br    bytes.Reader
	probe [1]byte
}

func (s *pureStreamDecompressor[R, P]) decompress(dst, src []byte, n int) ([]byte, error) {
	s.br.Reset(src)
	if err := P(&s.r).Reset(&s.br); err != nil {
		return dst, corrupt(err)
	}
	out, err := readStream(dst, P(&s.r), s.probe[:], n)
	s.br.Reset(nil) // do not keep src reachable from the pool
	return out, err
}

func (s *pureStreamDecompressor[R, P]) decodedSize(src []byte, limit int) (int, error) {
	s.br.Reset(src)
	defer s.br.Reset(nil)
	if err := P(&s.r).Reset(&s.br); err != nil {
		return 0, corrupt(err)
	}
	return streamSize(P(&s.r), limit)
}

// readStream reads exactly n bytes from r into dst's spare capacity and
// checks that r then ends. A stream that ends cleanly early is a size
// mismatch; one the decoder finds truncated or malformed is corrupt.
func readStream(dst []byte, r io.Reader, probe []byte, n int) ([]byte, error) {
	base := len(dst)
	out := dst[base : base+n]
	for k, stalls := 0, 0; k < n; {
		m, err := r.Read(out[k:])
		k += m
		switch {
		case err == io.EOF && k == n:
			return dst[:base+n], nil
		case err == io.EOF:
			return dst, mismatch(k, n)
		case err != nil:
			return dst, corrupt(err)
		case m == 0:
			if stalls++; stalls > 100 {
				return dst, corrupt(io.ErrNoProgress)
			}
		}
	}
	for {
		m, err := r.Read(probe)
		if m > 0 {
			return dst, longer(n, nil)
		}
		if err == io.EOF {
			return dst[:base+n], nil
		}
		if err != nil {
			return dst, corrupt(err)
		}
	}
}

// streamSize counts the bytes r produces, up to limit+1, discarding them.
func streamSize(r io.Reader, limit int) (int, error) {
	k, err := io.CopyN(io.Discard, r, int64(limit)+1)
	if err != nil && err != io.EOF {
		return 0, corrupt(err)
	}
	return int(k), nil
}

func pureGzip(im *codecImpl, level int, compress, decompress bool) {
	if compress {
		im.compressLib = "github.com/klauspost/compress/gzip"
		im.newCompressor = func() (compressor, error) {
			w, err := gzip.NewWriterLevel(nil, level)
			if err != nil {
				return nil, err
			}
			return &streamCompressor[*gzip.Writer]{w: w, bound: gzipBound}, nil
		}
	}
	if decompress {
		im.decompressLib = "github.com/klauspost/compress/gzip"
		im.newDecompressor = func() (decompressor, error) { return new(pureStreamDecompressor[gzip.Reader, *gzip.Reader]), nil }
	}
}
