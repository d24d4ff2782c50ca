//go:build !cgo

package brotli

import "github.com/pqcodec/pqcodec/native/internal/nocgo"

// Available reports whether the package was built with cgo and binds
// libbrotli. When false every constructor returns [ErrUnavailable].
const Available = false

// Compressor is the cgo-less placeholder (package native/internal/nocgo holds
// the placeholders of every native package): [NewCompressor] never returns
// one. Its Compress returns [ErrUnavailable].
type Compressor = nocgo.Compressor[unavailable]

// NewCompressor returns [ErrUnavailable] (or [ErrOption] for bad options).
func NewCompressor(quality, window int) (*Compressor, error) {
	return nocgo.New[Compressor, unavailable](checkOptions(quality, window))
}

// Decompressor is the cgo-less placeholder: [NewDecompressor] never returns
// one. Its methods return [ErrUnavailable]. It is brotli's own, for
// DecodedSize, which the other packages' decompressors lack.
type Decompressor struct {
	nocgo.Decompressor[unavailable]
}

// NewDecompressor returns [ErrUnavailable].
func NewDecompressor() (*Decompressor, error) { return nocgo.New[Decompressor, unavailable](nil) }

// DecodedSize returns [ErrUnavailable].
func (d *Decompressor) DecodedSize(src []byte, limit int) (int, error) { return 0, ErrUnavailable }

// unavailable gives the placeholders [ErrUnavailable].
type unavailable struct{}

func (unavailable) Err() error { return ErrUnavailable }
