package codecfactory

import (
	"errors"

	"github.com/pqcodec/pqcodec/internal/errs"
)

// Errors returned by the Factory. Each is wrapped with the codec, the
// operation and, where there is one, the underlying library's error, so
// errors.Is matches both the sentinel here and the library's own.
var (
	// ErrUnknownCodec reports a Codec value or name outside the eight
	// Parquet codecs.
	ErrUnknownCodec = errors.New("codecfactory: unknown codec")
	// ErrSizeMismatch reports a page whose decompressed length differs from
	// the uncompressed size its header declares, whether the format states
	// the size up front (zstd frame header, snappy preamble, Hadoop chunk
	// lengths, gzip ISIZE) or decompression finds it.
	ErrSizeMismatch = errs.Corrupt("codecfactory: decompressed size does not match the page header")
	// ErrPageTooLarge reports a declared uncompressed size above the
	// factory's maximum page size (see [WithMaxPageSize]).
	ErrPageTooLarge = errors.New("codecfactory: page larger than the maximum page size")
	// ErrCorrupt reports compressed data that does not decode.
	ErrCorrupt = errs.Corrupt("codecfactory: corrupt compressed page")
	// ErrUnavailable reports a codec operation this build cannot do: LZO
	// compression without cgo or under the nolzo build tag.
	ErrUnavailable = errors.New("codecfactory: codec unavailable in this build")
	// ErrOverlap reports a dst whose spare capacity overlaps src, which
	// Compress and Decompress refuse instead of writing garbage.
	ErrOverlap = errors.New("codecfactory: dst overlaps src")
	// ErrOption reports an invalid option value passed to [New].
	ErrOption = errors.New("codecfactory: invalid option")
)
