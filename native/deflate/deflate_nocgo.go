//go:build !cgo

package deflate

import "github.com/pqcodec/pqcodec/native/internal/nocgo"

// Available reports whether the package was built with cgo and binds
// libdeflate. When false every constructor returns [ErrUnavailable].
const Available = false

// Compressor is the cgo-less placeholder (package native/internal/nocgo holds
// the placeholders of every native package): [NewCompressor] never returns
// one. Its Compress returns [ErrUnavailable].
type Compressor = nocgo.Compressor[unavailable]

// Decompressor is the cgo-less placeholder: [NewDecompressor] never returns
// one. Its Decompress returns [ErrUnavailable].
type Decompressor = nocgo.Decompressor[unavailable]

// NewCompressor returns [ErrUnavailable] (or [ErrLevel] for a bad level).
func NewCompressor(level int) (*Compressor, error) {
	return nocgo.New[Compressor, unavailable](checkLevel(level))
}

// NewDecompressor returns [ErrUnavailable].
func NewDecompressor() (*Decompressor, error) { return nocgo.New[Decompressor, unavailable](nil) }

// unavailable gives the placeholders [ErrUnavailable].
type unavailable struct{}

func (unavailable) Err() error { return ErrUnavailable }
