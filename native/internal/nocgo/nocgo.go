// Package nocgo holds, once, the placeholders that every native binding
// (brotli, deflate, lz4, lzo, zstd) declares when it is built without its C
// library: a Compressor and a Decompressor that no constructor returns, and
// the constructors' body, all reporting the binding's own ErrUnavailable. A
// binding names that error by a type of its own with an Err method (U) and
// declares its placeholders as aliases: type Compressor =
// nocgo.Compressor[unavailable].
package nocgo

// Unavailable gives a binding's ErrUnavailable.
type Unavailable interface{ Err() error }

// Compressor is the placeholder of a binding's Compressor.
type Compressor[U Unavailable] struct{}

// Compress returns the binding's ErrUnavailable.
func (*Compressor[U]) Compress(dst, src []byte) ([]byte, error) { return nil, unavailable[U]() }

// Close does nothing.
func (*Compressor[U]) Close() error { return nil }

// Decompressor is the placeholder of a binding's Decompressor.
type Decompressor[U Unavailable] struct{}

// Decompress returns the binding's ErrUnavailable.
func (*Decompressor[U]) Decompress(dst, src []byte) ([]byte, error) { return nil, unavailable[U]() }

// Close does nothing.
func (*Decompressor[U]) Close() error { return nil }

// New is the body of a placeholder constructor: it returns err, the
// constructor's check of its options (nil when they are valid or it has
// none), so that a bad option is reported as the cgo build reports it, and
// the binding's ErrUnavailable otherwise. It never returns a *T.
func New[T any, U Unavailable](err error) (*T, error) {
	if err != nil {
		return nil, err
	}
	return nil, unavailable[U]()
}

func unavailable[U Unavailable]() error {
	var u U
	return u.Err()
}
