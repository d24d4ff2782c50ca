package writer

import (
	"errors"

	"github.com/pqcodec/pqcodec/internal/errs"
)

// Errors of the writer. Each error for input the caller passed (ErrType,
// ErrLevel, ErrNull, ErrRepetition, ErrRowCount, ErrTooLarge, ErrSchema)
// also matches pqcodec.ErrInvalidInput. Errors of the io.Writer and of the
// codec factory are wrapped as they are, so errors.Is finds them too.
var (
	// ErrType reports values of another physical type (or FIXED_LEN_BYTE_ARRAY
	// length) than their column's, or a column index out of range.
	ErrType = errs.Invalid("writer: values of the wrong type for the column")
	// ErrLevel reports a definition or repetition level outside
	// 0..max of its column, levels given where the column has none, or
	// levels that disagree with the number of values.
	ErrLevel = errs.Invalid("writer: level out of range")
	// ErrNull reports a null in a column whose every value is required.
	ErrNull = errs.Invalid("writer: null in a required column")
	// ErrRepetition reports a repetition level that opens no list: a
	// batch that does not start a row, or a level repeating a list that the
	// previous level left null or empty.
	ErrRepetition = errs.Invalid("writer: repetition level opens no list")
	// ErrRowCount reports columns of one row group with different numbers
	// of rows when the row group is flushed.
	ErrRowCount = errs.Invalid("writer: columns of a row group have different row counts")
	// ErrTooLarge reports a value, page or chunk too large for the format's
	// 32-bit sizes (a byte array over 2 GiB, a page over 2 GiB).
	ErrTooLarge = errs.Invalid("writer: too large for the format")
	// ErrSchema reports a schema the writer cannot write (a leaf without a
	// type, a FIXED_LEN_BYTE_ARRAY without a positive length) or a message
	// type text that does not parse.
	ErrSchema = errs.Invalid("writer: invalid schema")
	// ErrClosed reports a call on a Writer after Close.
	ErrClosed = errors.New("writer: writer closed")
)
