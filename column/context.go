package column

import "context"

// ReadPageContext is [Reader.ReadPage] under ctx: when ctx is done before
// the page is read it returns ctx's error (wrapped in a [*PageError], so
// errors.Is(err, context.Canceled) holds) and reads nothing. A Reader
// stopped so may go on reading with a live context.
func (r *Reader) ReadPageContext(ctx context.Context, p *Page) error {
	if err := ctx.Err(); err != nil {
		return r.errorf(r.page, "%w", err)
	}
	return r.ReadPage(p)
}

// SeekRowContext is [Reader.SeekRow] under ctx, which it checks before
// each page header it walks past: a seek without an offset index visits
// every page before row. When ctx is done it returns ctx's error (wrapped
// in a [*PageError]) having stopped between two pages, and the Reader
// stays usable: seek again before reading.
func (r *Reader) SeekRowContext(ctx context.Context, row int64) error {
	if err := ctx.Err(); err != nil {
		return r.errorf(-1, "%w", err)
	}
	r.ctx = ctx
	defer func() { r.ctx = nil }()
	return r.SeekRow(row)
}

// ctxErr is the error of the context of a running SeekRowContext, if any.
func (r *Reader) ctxErr() error {
	if r.ctx == nil {
		return nil
	}
	return r.ctx.Err()
}
