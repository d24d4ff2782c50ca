package codecfactory

import "errors"

// The native/... bindings share one contract (see native/internal/cbuf):
// Compress appends to dst, Decompress writes into dst's spare capacity and
// reports content that does not fit with the package's ErrDstTooSmall.
// nativeCompressor and nativeDecompressor adapt every such binding to the
// factory's compressor and decompressor, written once for brotli, gzip and
// zstd. (LZO is framed by internal/hadoop instead: see lzo_native.go.)

// nativeCompress and nativeDecompress are the method sets of the native
// Compressor and Decompressor types (the twins of nativetest.Compressor and
// nativetest.Decompressor, which the bindings' tests use).
type nativeCompress interface {
	Compress(dst, src []byte) ([]byte, error)
	Close() error
}

type nativeDecompress interface {
	Decompress(dst, src []byte) ([]byte, error)
	Close() error
}

// nativeCompressor adapts a native Compressor: on error dst comes back as
// it was.
type nativeCompressor[C nativeCompress] struct{ c C }

func (n nativeCompressor[C]) Close() error { return n.c.Close() }

// nativeCompressors returns the constructor of compressors adapting what
// newC makes.
func nativeCompressors[C nativeCompress](newC func() (C, error)) func() (compressor, error) {
	return func() (compressor, error) {
		c, err := newC()
		if err != nil {
			return nil, err
		}
		return nativeCompressor[C]{c}, nil
	}
}

func (n nativeCompressor[C]) compress(dst, src []byte) ([]byte, error) {
	out, err := n.c.Compress(dst, src)
	if err != nil {
		return dst, err
	}
	return out, nil
}

// nativeDecompressor adapts a native Decompressor whose content-too-large
// sentinel is tooSmall: that error becomes ErrSizeMismatch (longer), any
// other ErrCorrupt, and content of another length than n ErrSizeMismatch.
type nativeDecompressor[D nativeDecompress] struct {
	d        D
	tooSmall error
}

func (n nativeDecompressor[D]) Close() error { return n.d.Close() }

// nativeDecompressors returns the constructor of decompressors adapting
// what newD makes, whose content-too-large sentinel is tooSmall.
func nativeDecompressors[D nativeDecompress](newD func() (D, error), tooSmall error) func() (decompressor, error) {
	return func() (decompressor, error) {
		d, err := newD()
		if err != nil {
			return nil, err
		}
		return nativeDecompressor[D]{d, tooSmall}, nil
	}
}

func (n nativeDecompressor[D]) decompress(dst, src []byte, size int) ([]byte, error) {
	out, err := n.d.Decompress(dst, src)
	switch {
	case errors.Is(err, n.tooSmall):
		return dst, longer(size, err)
	case err != nil:
		return dst, corrupt(err)
	case len(out) != len(dst)+size:
		return dst, mismatch(len(out)-len(dst), size)
	}
	return out, nil
}
