//go:build !cgo

package lz4

// The placeholders of a build without the C library are twins in every native
// package (brotli, deflate, lz4, lzo, zstd): each package declares its own types.

// Available reports whether the package was built with cgo and binds
// liblz4. When false every constructor returns [ErrUnavailable].
const Available = false

// Compressor is the cgo-less placeholder: [NewCompressor] never returns one.
type Compressor struct{}

// NewCompressor returns [ErrUnavailable] (or [ErrLevel] for a bad level).
func NewCompressor(level int) (*Compressor, error) {
	if err := checkLevel(level); err != nil {
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
