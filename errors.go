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
