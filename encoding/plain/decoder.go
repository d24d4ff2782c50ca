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

// Reset makes d decode the values of src from the start.
func (d *Decoder[T]) Reset(src []byte) { d.src = src }

// Remaining returns the number of whole values not decoded yet.
func (d *Decoder[T]) Remaining() int { return len(d.src) / unsafecast.Size[T]() }

// Decode writes up to len(dst) next values into dst and returns how many it
// wrote. At the end of the page it returns 0, [io.EOF]; if the page ends
// with a partial value it returns an error wrapping [ErrCorrupt] once the
// whole values are consumed.
func (d *Decoder[T]) Decode(dst []T) (int, error) {
	size := unsafecast.Size[T]()
	n := min(len(dst), len(d.src)/size)
	if n == 0 && len(dst) > 0 {
		if len(d.src) != 0 {
			return 0, fmt.Errorf("%w: %d trailing bytes", ErrCorrupt, len(d.src))
		}
		return 0, io.EOF
	}
	unsafecast.Decode(dst[:n], d.src)
	d.src = d.src[n*size:]
	return n, nil
}
