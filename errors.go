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

// ErrDecrypt is matched, with errors.Is, by every error of an encrypted
// file (Parquet Modular Encryption) whose bytes do not decrypt: a wrong
// key, ciphertext, nonce or AAD that fails its AES-GCM tag, a plaintext
// footer whose signature does not verify, a module shorter than its nonce
// and tag (encryption.ErrDecrypt matches it). It is separate from
// [ErrCorrupt]. A column for which no key was given is not a decryption
// failure: its error wraps format.ErrEncrypted and encryption.ErrNoKey.
var ErrDecrypt = errs.ErrDecrypt

// ErrInvalidInput is matched, with errors.Is, by every error package writer
// returns for input its caller passed that cannot be written: a value of
// the wrong type for its column, a level outside its column's range, a null
// in a required column, a repetition level that opens no list, columns of
// one row group with different row counts, a value too large for the
// format. Each kind also matches its own sentinel (writer.ErrType,
// writer.ErrLevel, ...). I/O errors and writes after Close do not match it.
var ErrInvalidInput = errs.ErrInvalidInput
