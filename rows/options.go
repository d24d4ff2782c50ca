package rows

import (
	"fmt"
	"strings"

	"github.com/pqcodec/pqcodec/column"
)

// Option configures a [Reader]: the WithX functions below, as in column and
// codecfactory. An invalid value makes [NewReader] fail.
type Option func(*options) error

type options struct {
	paths        [][]string
	first, count int64
	ranges       []column.RowRange // WithRowRanges
	hasRange     bool              // WithRange was given
	maxValues    int64             // see WithMaxRow; 0: the default
	maxBytes     int64
	raw          bool // WithRaw
}

// DefaultMaxRowValues and DefaultMaxRowBytes are the defaults of
// [WithMaxRow] for a File without [column.WithMaxMemory]: 64 Mi values
// (column.DefaultMaxPageValues) and 1 GiB. Under WithMaxMemory(n) the
// default is n bytes and n/32 values.
const (
	DefaultMaxRowValues = column.DefaultMaxPageValues
	DefaultMaxRowBytes  = 1 << 30
)

// WithMaxRow bounds one row that [Reader.ReadRow] or [Reader.AppendRow]
// builds: at most values leaf values (nulls and list elements included) and
// about bytes bytes of Go values (ReadRow: 32 bytes per value plus the bytes
// of strings and byte slices) or of JSON text (AppendRow). A larger row
// fails, as soon as it passes the bound, with an error wrapping [ErrLimit]
// that gives the numbers; a row holding a list of 50M values took 3 GB
// through ReadRow. [Reader.WriteRow] streams a row and is not bounded. Both
// must be positive; the defaults are [DefaultMaxRowValues] and
// [DefaultMaxRowBytes], or derived from the File's WithMaxMemory.
func WithMaxRow(values, bytes int64) Option {
	return func(o *options) error {
		if values <= 0 || bytes <= 0 {
			return fmt.Errorf("rows: WithMaxRow(%d, %d): must be positive", values, bytes)
		}
		o.maxValues, o.maxBytes = values, bytes
		return nil
	}
}

// rowLimit counts what a sink has built of the current row against
// WithMaxRow.
type rowLimit struct {
	maxValues, maxBytes int64
	values, bytes       int64
}

func (l *rowLimit) reset() { l.values, l.bytes = 0, 0 }

// add counts one value of size bytes.
func (l *rowLimit) add(size int64) error {
	l.values++
	l.bytes += size
	if l.values > l.maxValues || l.bytes > l.maxBytes {
		return fmt.Errorf("%w: the row holds more than %d values or %d bytes (%d values, %d bytes so far; rows.WithMaxRow)",
			ErrLimit, l.maxValues, l.maxBytes, l.values, l.bytes)
	}
	return nil
}

// WithColumns keeps only the schema nodes at the given dotted paths ("id",
// "a.b", "int_map"), each with everything below it. Top-level fields come
// in the order of their first mention. The default keeps every field. A
// path that names no node makes [NewReader] fail with an error wrapping
// [ErrNoColumn].
func WithColumns(paths ...string) Option {
	return func(o *options) error {
		for _, p := range paths {
			if p == "" {
				return fmt.Errorf("%w: empty path", ErrNoColumn)
			}
			o.paths = append(o.paths, strings.Split(p, "."))
		}
		return nil
	}
}

// WithRange keeps count rows starting at row first (0-based, across row
// groups); a negative count keeps every row from first on. Row groups
// entirely before first are skipped without reading them, going by their
// num_rows in the footer (a row group that declares 0 rows is read), and
// in the row group holding first each column skips the pages before it
// with [column.Reader.SeekRow].
func WithRange(first, count int64) Option {
	return func(o *options) error {
		if first < 0 {
			return fmt.Errorf("%w: WithRange(%d, %d): negative first row", ErrRange, first, count)
		}
		o.first, o.count, o.hasRange = first, count, true
		return nil
	}
}

// WithRaw makes the Reader give physical values, as it did before it
// converted logical types: INT96 and other byte arrays than strings as
// bytes (lowercase hex in JSON), timestamps, dates, times and decimals as
// their stored integers or bytes, unsigned integers as their signed
// physical value. `pqcodec cat --raw` prints this form. The default
// converts (see the package documentation).
func WithRaw() Option {
	return func(o *options) error {
		o.raw = true
		return nil
	}
}
