// Package pqcodec is the root of the pqcodec module, a Parquet page layer
// for Go: see the packages format (footer and page headers), codecfactory
// (every compression codec), encoding/... (every encoding) and column
// (column-chunk reader). It holds the sentinel errors shared by all of
// them.
package pqcodec

import "github.com/pqcodec/pqcodec/internal/errs"

// ErrCorrupt is matched, with errors.Is, by every error caused by damaged
// or inconsistent bytes, whichever layer finds them: malformed metadata
// (format.ErrCorrupt), compressed data that does not decode
// (codecfactory.ErrCorrupt) or decodes to another size than its header
// declares (codecfactory.ErrSizeMismatch), malformed encoded values (the
// ErrCorrupt of each encoding package), pages that contradict their header
// (column.ErrCorrupt, column.ErrChecksum) and the native libraries' reports
// of corrupt input. Each package's own sentinel still matches too. Limits
// (codecfactory.ErrPageTooLarge, column.ErrLimit), unsupported features,
// invalid arguments and I/O errors do not match it.
var ErrCorrupt = errs.ErrCorrupt

// ErrInvalidInput is matched, with errors.Is, by every error package writer
// returns for input its caller passed that cannot be written: a value of
// the wrong type for its column, a level outside its column's range, a null
// in a required column, a repetition level that opens no list, columns of
// one row group with different row counts, a value too large for the
// format. Each kind also matches its own sentinel (writer.ErrType,
// writer.ErrLevel, ...). I/O errors and writes after Close do not match it.
var ErrInvalidInput = errs.ErrInvalidInput
