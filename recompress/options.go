package recompress

import (
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/pqcodec/pqcodec/codecfactory"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/internal/errs"
	"github.com/pqcodec/pqcodec/internal/rewriteopt"
)

// Errors returned by this package. Errors from reading the source wrap
// [ErrCorrupt] (and the sentinel of package format or codecfactory that
// found the problem); errors from dst are returned wrapped as they are.
var (
	// ErrCorrupt reports a source file whose pages or metadata cannot be
	// read: truncated, inconsistent sizes, pages that do not decompress.
	// It matches pqcodec.ErrCorrupt.
	ErrCorrupt = errs.Corrupt("recompress: corrupt input")
	// ErrChecksum reports a source page whose CRC32 does not match its
	// header (see [WithSourceChecksums]). It matches pqcodec.ErrCorrupt.
	ErrChecksum = errs.Corrupt("recompress: page checksum mismatch")
	// ErrEncrypted reports an encrypted file or column chunk without its
	// key (see [WithDecryption]).
	ErrEncrypted = errors.New("recompress: encrypted parquet file without its keys")
	// ErrUnsupported reports a file this package cannot rewrite, such as one
	// whose column chunks live in other files.
	ErrUnsupported = errors.New("recompress: unsupported file")
	// ErrOption reports an invalid option.
	ErrOption = errors.New("recompress: invalid option")
	// ErrMismatch is returned by [Verify] when the output differs from the
	// source.
	ErrMismatch = errors.New("recompress: output does not match the source")
	// ErrInternal reports a panic recovered in a rewrite's worker or page
	// walk (a bug: every decoder and codec returns errors for damaged
	// input); the error holds the panic's value and stack.
	ErrInternal = errors.New("recompress: internal error")
)

// DefaultMaxMemory is the default bound on the bytes held by pages in
// flight (see [WithMaxMemory]).
const DefaultMaxMemory = 256 << 20

// CRCMode says what [Rewrite] does with page checksums.
type CRCMode int

const (
	// CRCKeep writes a checksum, recomputed, on exactly the pages that had
	// one in the source. The default.
	CRCKeep CRCMode = iota
	// CRCAdd writes a checksum on every page.
	CRCAdd
	// CRCDrop writes no checksum.
	CRCDrop
)

// Keep is the [Target] codec that leaves a column's pages as they are:
// copied byte for byte, checksums included, with the column chunk's codec.
const Keep codecfactory.Codec = -1

// Target is a codec with its level. Level 0 means the codec's default
// ([codecfactory.DefaultZstdLevel], [codecfactory.DefaultGzipLevel],
// [codecfactory.DefaultBrotliQuality], [codecfactory.DefaultLzoLevel],
// LZ4's fast compressor, [codecfactory.DefaultSnappyLevel]); UNCOMPRESSED
// has no levels.
type Target struct {
	Codec codecfactory.Codec
	Level int
}

// String returns "ZSTD:9", or the codec name alone for level 0.
func (t Target) String() string {
	if t.Codec == Keep {
		return "keep"
	}
	if t.Level == 0 {
		return t.Codec.String()
	}
	return fmt.Sprintf("%v:%d", t.Codec, t.Level)
}

type config struct {
	target   Target
	columns  map[string]Target // by dotted path
	workers  int
	budget   int64
	crc      CRCMode
	srcCRC   bool
	decoder  *codecfactory.Factory
	progress func(done, total int64)
	maxPage  int
	keyValue []format.KeyValue // set in the output footer
	crypt    cryptConfig       // WithDecryption, WithEncryption: encrypt.go
}

func defaultConfig() config {
	return config{
		target:  Target{Codec: codecfactory.Zstd},
		workers: runtime.GOMAXPROCS(0),
		budget:  DefaultMaxMemory,
		srcCRC:  true,
		maxPage: codecfactory.DefaultMaxPageSize,
	}
}

// An Option configures [Rewrite]. An invalid value makes Rewrite return an
// error wrapping [ErrOption].
type Option func(*config) error

func checkTarget(t Target) error {
	if t.Codec == Keep {
		if t.Level != 0 {
			return fmt.Errorf("%w: keep has no level", ErrOption)
		}
		return nil
	}
	if !t.Codec.Valid() {
		return fmt.Errorf("%w: codec %v", ErrOption, t.Codec)
	}
	if t.Level < 0 {
		return fmt.Errorf("%w: %v level %d is negative", ErrOption, t.Codec, t.Level)
	}
	_, err := factoryOptions(t)
	return err
}

// WithCodec sets the target codec and level of every column not named by
// [WithColumnCodec]. The default is ZSTD at its default level.
func WithCodec(t Target) Option {
	return func(c *config) error {
		if err := checkTarget(t); err != nil {
			return err
		}
		c.target = t
		return nil
	}
}

// WithColumnCodec sets the target codec and level of the leaf column whose
// dotted path (as in the schema, "a.list.element") is path. A path that
// names no leaf makes Rewrite fail.
func WithColumnCodec(path string, t Target) Option {
	return func(c *config) error {
		if err := checkTarget(t); err != nil {
			return err
		}
		if c.columns == nil {
			c.columns = make(map[string]Target)
		}
		c.columns[path] = t
		return nil
	}
}

// WithWorkers sets the number of goroutines that recompress pages; the
// default is GOMAXPROCS. The output does not depend on it.
func WithWorkers(n int) Option {
	return func(c *config) error { return rewriteopt.SetWorkers(&c.workers, n, ErrOption) }
}

// WithMaxMemory bounds the bytes held by pages in flight (source page,
// decompressed page and the bound of the compressed page, for every page
// read and not yet written) to n, default [DefaultMaxMemory]. A page
// larger than the budget is still processed, alone.
func WithMaxMemory(n int64) Option {
	return func(c *config) error { return rewriteopt.SetMaxMemory(&c.budget, n, ErrOption) }
}

// WithChecksums sets what happens to page checksums; the default is
// [CRCKeep].
func WithChecksums(m CRCMode) Option {
	return func(c *config) error {
		if m < CRCKeep || m > CRCDrop {
			return fmt.Errorf("%w: checksum mode %d", ErrOption, m)
		}
		c.crc = m
		return nil
	}
}

// WithSourceChecksums sets whether the CRC32 of source pages that carry one
// is checked (a mismatch fails with [ErrChecksum]), so that a damaged page
// is not given a fresh valid checksum. On by default.
func WithSourceChecksums(on bool) Option {
	return func(c *config) error {
		c.srcCRC = on
		return nil
	}
}

// WithCodecs sets the factory used to decompress source pages (and whose
// [codecfactory.Factory.MaxPageSize] bounds them), as column.WithCodecs
// does for a reader; the factories of the targets are [Target]'s. The
// default is a factory with default options.
func WithCodecs(f *codecfactory.Factory) Option {
	return func(c *config) error {
		if f == nil {
			return fmt.Errorf("%w: WithCodecs(nil)", ErrOption)
		}
		c.decoder = f
		c.maxPage = f.MaxPageSize()
		return nil
	}
}

// WithProgress sets a function called by the writing goroutine after each
// page is written with the source bytes processed so far and the total.
func WithProgress(fn func(done, total int64)) Option {
	return func(c *config) error {
		c.progress = fn
		return nil
	}
}

// WithKeyValue sets key to value in the output footer's key_value_metadata:
// the source's entries of that key are dropped and the new entry comes
// after the others. It may be given for several keys (for the same key,
// the last one wins). Everything else of the footer is carried over as
// the package documentation says. pqcodec rewrite records its options this
// way, to know later whether an output is already done.
func WithKeyValue(key, value string) Option {
	return func(c *config) error { return rewriteopt.AddKeyValue(&c.keyValue, key, value, ErrOption) }
}

// setKeyValues applies kvs (see [WithKeyValue]) to the key-value metadata
// m, returning the new list; m is not modified.
func setKeyValues(m []format.KeyValue, kvs []format.KeyValue) []format.KeyValue {
	if len(kvs) == 0 {
		return m
	}
	out := make([]format.KeyValue, 0, len(m)+len(kvs))
	for _, e := range m {
		if !slices.ContainsFunc(kvs, func(kv format.KeyValue) bool { return kv.Key == e.Key }) {
			out = append(out, e)
		}
	}
	for _, kv := range kvs {
		out = slices.DeleteFunc(out, func(e format.KeyValue) bool { return e.Key == kv.Key })
		out = append(out, kv)
	}
	return out
}

// factoryOptions returns the codecfactory options that give t's level.
func factoryOptions(t Target) ([]codecfactory.Option, error) {
	if t.Level == 0 || t.Codec == Keep {
		return nil, nil
	}
	if !codecfactory.HasLevels(t.Codec) {
		return nil, fmt.Errorf("%w: %v has no levels", ErrOption, t.Codec)
	}
	return []codecfactory.Option{codecfactory.WithLevel(t.Codec, t.Level)}, nil
}

// ParseTarget parses "codec" or "codec:level" ("zstd:9", "gzip", "keep"),
// codec names as [codecfactory.Parse] reads them. The level's range is
// checked by the codec factory when [Rewrite] starts.
func ParseTarget(s string) (Target, error) {
	name, level, hasLevel := strings.Cut(s, ":")
	var t Target
	if strings.EqualFold(strings.TrimSpace(name), "keep") {
		t.Codec = Keep
	} else {
		c, err := codecfactory.Parse(name)
		if err != nil {
			return t, fmt.Errorf("%w: %w", ErrOption, err)
		}
		t.Codec = c
	}
	if hasLevel {
		l, err := strconv.Atoi(strings.TrimSpace(level))
		if err != nil || l <= 0 {
			return t, fmt.Errorf("%w: level %q in %q", ErrOption, level, s)
		}
		t.Level = l
	}
	return t, checkTarget(t)
}
