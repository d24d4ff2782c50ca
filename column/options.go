package column

import "github.com/pqcodec/pqcodec/codecfactory"

// The options of [Open] follow the WithX convention of every pqcodec
// package (codecfactory.WithZstdLevel, ...). The option bodies still live in
// file.go under their first names, kept as deprecated aliases.

// WithCodecs sets the codec factory used to decompress pages. The default is
// a factory with default options, shared by every File that does not set
// one. A nil factory makes Open fail.
func WithCodecs(f *codecfactory.Factory) Option { return Codecs(f) }

// WithVerifyChecksums makes readers check the CRC32 of every page that
// carries one, failing with [ErrChecksum] on a mismatch. Off by default, as
// in parquet-java and Arrow.
func WithVerifyChecksums(on bool) Option { return VerifyChecksums(on) }

// WithMaxPageValues sets the most values (levels included) a page may
// declare; the default is [DefaultMaxPageValues]. n must be positive.
func WithMaxPageValues(n int) Option { return MaxPageValues(n) }
