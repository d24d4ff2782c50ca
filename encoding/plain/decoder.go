package plain

import (
	"fmt"
	"io"

	"github.com/pqcodec/pqcodec/internal/unsafecast"
)

// Decoder decodes a PLAIN page of fixed-width values in pieces. The zero
// value is an empty decoder; call [Decoder.Reset] to give it a page. A
// Decoder retains src until the next Reset and is not safe for concurrent
// use.
type Decoder[T Fixed] struct {
	src []byte
}

// Reset makes d decode the values of src from the start. It returns an error
// wrapping [ErrCorrupt] when len(src) is not a multiple of the value size,
// as [Decode] does, leaving d empty: [Decoder.Decode] then returns 0,
// [io.EOF].
func (d *Decoder[T]) Reset(src []byte) error {
	if size := unsafecast.Size[T](); len(src)%size != 0 {
		d.src = nil
		return fmt.Errorf("%w: %d bytes is not a multiple of the %d-byte value size", ErrCorrupt, len(src), size)
	}
	d.src = src
	return nil
}

// Remaining returns the number of values not decoded yet.
func (d *Decoder[T]) Remaining() int { return len(d.src) / unsafecast.Size[T]() }

// Decode writes up to len(dst) next values into dst and returns how many it
// wrote; 0, [io.EOF] once every value is decoded.
func (d *Decoder[T]) Decode(dst []T) (int, error) {
	size := unsafecast.Size[T]()
	n := min(len(dst), len(d.src)/size)
	if n == 0 && len(dst) > 0 {
		return 0, io.EOF
	}
	unsafecast.Decode(dst[:n], d.src)
	d.src = d.src[n*size:]
	return n, nil
}
