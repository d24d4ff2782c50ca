package rows

import (
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/pqcodec/pqcodec/column"
)

// ErrRange is wrapped by the errors of options and seeks naming rows that
// cannot be: negative rows, ranges out of order.
var ErrRange = errors.New("rows: invalid row range")

// WithRowRanges keeps only the rows of the given ranges of file rows
// ([First, End), rows numbered from 0 across row groups in footer order,
// as [column.File.MatchingFileRows] returns them and
// [column.File.FirstRow] counts them). The ranges must be in order and not
// overlap; empty ones are ignored. Row groups and pages before each range
// are skipped unread as [WithRange] skips them; rows between two ranges of
// one row group are skipped by seeking each column. It cannot be combined
// with WithRange.
func WithRowRanges(ranges ...column.RowRange) Option {
	return func(o *options) error {
		for i, rg := range ranges {
			if rg.First < 0 || rg.End < rg.First || i > 0 && rg.First < ranges[i-1].End {
				return fmt.Errorf("%w: WithRowRanges: range %d [%d, %d) negative, reversed or overlapping the one before",
					ErrRange, i, rg.First, rg.End)
			}
		}
		if ranges == nil {
			ranges = []column.RowRange{}
		}
		o.ranges = ranges
		return nil
	}
}

// setRanges sets r's ranges from WithRange or WithRowRanges.
func (r *Reader) setRanges(o *options) error {
	switch {
	case o.ranges != nil && o.hasRange:
		return fmt.Errorf("%w: WithRange and WithRowRanges together", ErrRange)
	case o.ranges != nil:
		for _, rg := range o.ranges {
			if rg.End > rg.First {
				r.ranges = append(r.ranges, rg)
			}
		}
	case o.count >= 0 && o.first > math.MaxInt64-o.count:
		r.ranges = []column.RowRange{{First: o.first, End: math.MaxInt64}}
	case o.count >= 0:
		r.ranges = []column.RowRange{{First: o.first, End: o.first + o.count}}
	default:
		r.ranges = []column.RowRange{{First: o.first, End: math.MaxInt64}}
	}
	return nil
}

// toRange moves to the first row of the ranges at or after r.pos, or
// returns io.EOF when none is left.
func (r *Reader) toRange() error {
	for r.ri < len(r.ranges) && r.ranges[r.ri].End <= r.pos {
		r.ri++
	}
	if r.ri == len(r.ranges) {
		return io.EOF
	}
	if first := r.ranges[r.ri].First; first > r.pos {
		return r.seekTo(first)
	}
	return nil
}

// SeekRow makes the next row returned file row row (rows numbered from 0
// across row groups, as [column.File.FirstRow] counts them), or the first
// row at or after it that [WithRange] or [WithRowRanges] keeps; those
// still bound the rows returned. Forward within the current row group each
// column seeks to the row; elsewhere the row group holding row is opened
// and each column seeks within it. A row past the end is not an error: the
// next read returns io.EOF. A negative row returns an error wrapping
// [ErrRange]. After an error of a read, the Reader must not be used again,
// SeekRow included.
func (r *Reader) SeekRow(row int64) error {
	if row < 0 {
		return fmt.Errorf("%w: SeekRow(%d)", ErrRange, row)
	}
	r.ri = 0
	if err := r.seekTo(row); err != nil {
		return err
	}
	return nil
}

// seekTo positions the cursors so that the next row read is file row row.
func (r *Reader) seekTo(row int64) error {
	meta := r.file.MetaData()
	if r.rowGroup >= 0 && r.rowGroup < len(meta.RowGroups) && r.skip == 0 && len(r.cursors) > 0 && row > r.pos {
		start := r.file.FirstRow(r.rowGroup)
		if n := meta.RowGroups[r.rowGroup].NumRows; n > 0 && r.pos >= start && row < start+n {
			for _, c := range r.cursors {
				if err := c.seekRow(row - start); err != nil {
					return err
				}
				c.afterSeek()
			}
			r.pos = row
			return nil
		}
	}
	// Anywhere else: start again from the row group holding row, which
	// nextRow (or nextEmpty) finds by the footer's row counts.
	r.rowGroup, r.skip, r.pos, r.emptyPos = -1, row, row, 0
	return nil
}

// afterSeek empties c's page after its reader seeked within the chunk, so
// that fill reads the page the seek stopped on.
func (c *cursor) afterSeek() {
	c.pos, c.val, c.nvals, c.eof = 0, 0, 0, false
	c.page.NumLevels = 0
}
