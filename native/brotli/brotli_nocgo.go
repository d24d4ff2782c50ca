//go:build !cgo

package brotli

// The placeholders of a build without the C library are twins in every native
// package (brotli, deflate, lzo, zstd): each package declares its own types.

// Available reports whether the package was built with cgo and binds
// libbrotli. When false every constructor returns [ErrUnavailable].
const Available = false

// Compressor is the cgo-less placeholder: [NewCompressor] never returns one.
type Compressor struct{}

// NewCompressor returns [ErrUnavailable] (or [ErrOption] for bad options).
func NewCompressor(quality, window int) (*Compressor, error) {
	if err := checkOptions(quality, window); err != nil {
		return nil, err
	}
	return nil, ErrUnavailable
}

// Compress returns [ErrUnavailable].
func (c *Compressor) Compress(dst, src []byte) ([]byte, error) { return nil, ErrUnavailable }

// Close does nothing.
func (c *Compressor) Close() error { return nil }

// Decompressor is the cgo-less placeholder: [NewDecompressor] never returns
// one.
type Decompressor struct{}

// NewDecompressor returns [ErrUnavailable].
func NewDecompressor() (*Decompressor, error) { return nil, ErrUnavailable }

// Decompress returns [ErrUnavailable].
func (d *Decompressor) Decompress(dst, src []byte) ([]byte, error) { return nil, ErrUnavailable }

// Close does nothing.
func (d *Decompressor) Close() error { return nil }

// DecodedSize returns [ErrUnavailable].
func (d *Decompressor) DecodedSize(src []byte, limit int) (int, error) { return 0, ErrUnavailable }
