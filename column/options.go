package column

import (
	"fmt"

	"github.com/pqcodec/pqcodec/codecfactory"
)

// The options of [Open] follow the WithX convention of every pqcodec
// package (codecfactory.WithZstdLevel, ...).

// WithCodecs sets the codec factory used to decompress pages. The default is
// a factory with default options, shared by every File that does not set
// one. A nil factory makes Open fail.
func WithCodecs(f *codecfactory.Factory) Option {
	return func(o *options) error {
		if f == nil {
			return fmt.Errorf("column: WithCodecs(nil)")
		}
		o.codecs = f
		return nil
	}
}

// WithVerifyChecksums makes readers check the CRC32 of every page that
// carries one, failing with [ErrChecksum] on a mismatch. Off by default, as
// in parquet-java and Arrow.
func WithVerifyChecksums(on bool) Option {
	return func(o *options) error {
		o.verifyChecksums = on
		return nil
	}
}

// WithMaxPageValues sets the most values (levels included) a page may
// declare; the default is [DefaultMaxPageValues]. n must be positive.
func WithMaxPageValues(n int) Option {
	return func(o *options) error {
		if n <= 0 {
			return fmt.Errorf("column: WithMaxPageValues(%d): must be positive", n)
		}
		o.maxPageValues = n
		return nil
	}
}

// WithMaxMemory bounds the memory one [Reader] holds at once, in bytes: the
// window holding the current compressed page, the decompressed page, the
// dictionary and the values and levels of the current page (the caller's
// [Page]). Before a page is decompressed or its dictionary indices looked
// up, a Reader estimates what it will hold and, above n, fails with an
// error wrapping [ErrLimit] that gives the numbers. The default, 0, is no
// bound; reading any file then holds about twice its largest decompressed
// page, plus a compressed page, plus the dictionary. n must not be negative.
func WithMaxMemory(n int64) Option {
	return func(o *options) error {
		if n < 0 {
			return fmt.Errorf("column: WithMaxMemory(%d): must not be negative", n)
		}
		o.maxMemory = n
		return nil
	}
}

// WithKeepDictionary makes readers return dictionary-encoded pages as the
// chunk's dictionary and one index per non-null value ([Page.Indices] and
// [Page.Dictionary]) instead of resolving them into [Page.Values], for
// callers that keep dictionary-encoded data (Arrow dictionary arrays,
// grouping on codes). Pages in other encodings are unaffected. Indices are
// checked against the dictionary's size. Off by default.
func WithKeepDictionary(on bool) Option {
	return func(o *options) error {
		o.keepDictionary = on
		return nil
	}
}
