package reencode

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/rows"
)

// ErrMismatch is returned by [Verify] when the output's rows differ from
// the source's.
var ErrMismatch = errors.New("reencode: output does not match the source")

// Verify checks that out holds the rows of src, value for value (physical
// values, as rows.WithRaw reads them), in order: what a re-encoding must
// keep. A difference returns an error wrapping [ErrMismatch].
func Verify(ctx context.Context, src io.ReaderAt, srcSize int64, out io.ReaderAt, outSize int64) error {
	sf, err := column.Open(src, srcSize)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrCorrupt, err)
	}
	of, err := column.Open(out, outSize)
	if err != nil {
		return fmt.Errorf("%w: output: %w", ErrMismatch, err)
	}
	sr, err := rows.NewReader(sf, rows.WithRaw())
	if err != nil {
		return fmt.Errorf("%w: %w", ErrCorrupt, err)
	}
	or, err := rows.NewReader(of, rows.WithRaw())
	if err != nil {
		return fmt.Errorf("%w: output: %w", ErrMismatch, err)
	}
	var a, b []byte
	for row := int64(0); ; row++ {
		a, err = sr.AppendRowContext(ctx, a[:0])
		if err != nil && err != io.EOF {
			return fmt.Errorf("%w: row %d: %w", ErrCorrupt, row, err)
		}
		var oerr error
		b, oerr = or.AppendRowContext(ctx, b[:0])
		if err == io.EOF {
			if oerr != io.EOF {
				return fmt.Errorf("%w: the output has more than %d rows", ErrMismatch, row)
			}
			return nil
		}
		if oerr != nil {
			return fmt.Errorf("%w: row %d: %w", ErrMismatch, row, oerr)
		}
		if !bytes.Equal(a, b) {
			return fmt.Errorf("%w: row %d: %s, output %s", ErrMismatch, row, a, b)
		}
	}
}
