package rows

import (
	"context"
	"io"
)

// The Context variants below are the reading methods under a context,
// checked before each page any column reads (and before each page header
// a seek walks past, see [column.Reader.SeekRowContext]): when ctx is done
// they return its error, wrapped in a *column.PageError (errors.Is(err,
// context.Canceled) holds). As after any error, the Reader must not be
// used again.

// ReadRowContext is [Reader.ReadRow] under ctx.
func (r *Reader) ReadRowContext(ctx context.Context, dst Group) (Group, error) {
	defer r.withContext(ctx)()
	return r.ReadRow(dst)
}

// AppendRowContext is [Reader.AppendRow] under ctx.
func (r *Reader) AppendRowContext(ctx context.Context, dst []byte) ([]byte, error) {
	defer r.withContext(ctx)()
	return r.AppendRow(dst)
}

// WriteRowContext is [Reader.WriteRow] under ctx.
func (r *Reader) WriteRowContext(ctx context.Context, w io.Writer) error {
	defer r.withContext(ctx)()
	return r.WriteRow(w)
}

// SkipRowsContext is [Reader.SkipRows] under ctx.
func (r *Reader) SkipRowsContext(ctx context.Context, n int64) (int64, error) {
	defer r.withContext(ctx)()
	return r.SkipRows(n)
}

// withContext gives ctx to every cursor until the returned function runs.
func (r *Reader) withContext(ctx context.Context) func() {
	for _, c := range r.cursors {
		c.ctx = ctx
	}
	return func() {
		for _, c := range r.cursors {
			c.ctx = nil
		}
	}
}

// readPage reads c's next page, under c.ctx when set.
func (c *cursor) readPage() error {
	if c.ctx != nil {
		return c.rd.ReadPageContext(c.ctx, &c.page)
	}
	return c.rd.ReadPage(&c.page)
}

// seekRow seeks c's column to row of its row group, under c.ctx when set.
func (c *cursor) seekRow(row int64) error {
	if c.ctx != nil {
		return c.rd.SeekRowContext(c.ctx, row)
	}
	return c.rd.SeekRow(row)
}
