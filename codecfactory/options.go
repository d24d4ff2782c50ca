package codecfactory

import (
	"cmp"
	"fmt"
	"math"

	nbrotli "github.com/pqcodec/pqcodec/native/brotli"
	ndeflate "github.com/pqcodec/pqcodec/native/deflate"
	nlzo "github.com/pqcodec/pqcodec/native/lzo"
	nzstd "github.com/pqcodec/pqcodec/native/zstd"
)

// Defaults of the options of [New]. The codec ones are those of the native
// packages, so that the two layers never disagree; the pure-Go
// implementations are configured from the same values.
const (
	DefaultZstdLevel     = nzstd.DefaultLevel     // 3, libzstd's
	DefaultBrotliQuality = nbrotli.DefaultQuality // 8, see there
	DefaultBrotliWindow  = nbrotli.DefaultWindow  // 22
	DefaultGzipLevel     = ndeflate.DefaultLevel  // 6, zlib's
	DefaultLzoLevel      = nlzo.Level1
	// DefaultMaxPageSize is 1.5 GiB: above the largest page in the
	// apache/parquet-testing corpus (large_string_map.brotli.parquet holds
	// pages of 1 GiB + 16 bytes), below the 2 GiB - 1 the int32 page header
	// field allows.
	DefaultMaxPageSize = 3 << 29
)

// config holds the option values of a Factory.
type config struct {
	zstdLevel     int
	brotliQuality int
	brotliWindow  int
	gzipLevel     int
	lz4Level      int
	snappyLevel   int
	lzoLevel      int
	maxPageSize   int
	maxIdle       int // -1: idleCapacity()
	pureGo        bool
}

func defaultConfig() config {
	return config{
		zstdLevel:     DefaultZstdLevel,
		brotliQuality: DefaultBrotliQuality,
		brotliWindow:  DefaultBrotliWindow,
		gzipLevel:     DefaultGzipLevel,
		snappyLevel:   DefaultSnappyLevel,
		lzoLevel:      DefaultLzoLevel,
		maxPageSize:   DefaultMaxPageSize,
		maxIdle:       -1,
	}
}

// An Option configures a Factory in [New]. Options are fixed for the
// Factory's lifetime; an invalid value makes New return an error wrapping
// [ErrOption].
type Option func(*config) error

// inRange returns nil when v is in [lo, hi], and otherwise an error
// wrapping [ErrOption] that names what.
func inRange(what string, v, lo, hi int) error {
	if v < lo || v > hi {
		return fmt.Errorf("%w: %s %d not in [%d, %d]", ErrOption, what, v, lo, hi)
	}
	return nil
}

// intOption returns the Option that calls set when v is in [lo, hi] and
// fails as [inRange] does otherwise.
func intOption(what string, v, lo, hi int, set func(*config)) Option {
	return func(c *config) error {
		if err := inRange(what, v, lo, hi); err != nil {
			return err
		}
		set(c)
		return nil
	}
}

// WithZstdLevel sets the ZSTD compression level, in [nzstd.MinLevel,
// nzstd.MaxLevel] of package native/zstd (-131072 to 22): negative levels are
// libzstd's fast levels, 0 selects the default, 3. The pure-Go encoder maps
// levels onto its four speed classes as
// github.com/klauspost/compress/zstd.EncoderLevelFromZstd does.
func WithZstdLevel(level int) Option {
	return intOption("zstd level", level, nzstd.MinLevel, nzstd.MaxLevel, func(c *config) {
		// 0 is the default level, as in libzstd, and the pure-Go encoder too.
		c.zstdLevel = cmp.Or(level, DefaultZstdLevel)
	})
}

// WithBrotli sets the BROTLI quality, in [nbrotli.MinQuality,
// nbrotli.MaxQuality] of package native/brotli (0 to 11, default 8), and
// window, the base-2 logarithm of the window size, in [nbrotli.MinWindow,
// nbrotli.MaxWindow] (10 to 24, default 22).
func WithBrotli(quality, window int) Option {
	return func(c *config) error {
		if err := inRange("brotli quality", quality, nbrotli.MinQuality, nbrotli.MaxQuality); err != nil {
			return err
		}
		if err := inRange("brotli window", window, nbrotli.MinWindow, nbrotli.MaxWindow); err != nil {
			return err
		}
		c.brotliQuality, c.brotliWindow = quality, window
		return nil
	}
}

// The GZIP levels [WithGzipLevel] accepts: the levels both implementations
// have, a narrower range than libdeflate's [ndeflate.MinLevel,
// ndeflate.MaxLevel] (0 to 12): the pure-Go klauspost/compress encoder
// stops at 9, and level 0 only stores.
const (
	minGzipLevel = 1
	maxGzipLevel = 9
)

// WithGzipLevel sets the GZIP compression level, 1 (fastest) to 9 (best);
// the default is 6, zlib's.
func WithGzipLevel(level int) Option {
	return intOption("gzip level", level, minGzipLevel, maxGzipLevel, func(c *config) { c.gzipLevel = level })
}

// The SNAPPY levels of [WithSnappyLevel].
const (
	DefaultSnappyLevel = 1
	MaxSnappyLevel     = 3
)

// WithSnappyLevel selects the SNAPPY compressor: 1, the default, for
// golang/snappy's encoder; 2 and 3 for klauspost/compress/s2's
// Snappy-compatible "better" and "best" encoders, whose blocks are smaller
// (3-8% on the benchmark pages) and take about two (2) and twenty (3) times
// longer to write; "best" is not always smaller than "better". Every
// Snappy decoder reads all three, at the same speed.
func WithSnappyLevel(level int) Option {
	return intOption("snappy level", level, 1, MaxSnappyLevel, func(c *config) { c.snappyLevel = level })
}

// MaxLz4Level is the highest level of [WithLz4Level].
const MaxLz4Level = 9

// WithLz4Level sets the compression level of LZ4_RAW and (Hadoop-framed)
// LZ4 pages: 0, the default, for the fast compressor (liblz4's
// LZ4_compress_fast in cgo builds, pierrec/lz4's otherwise), or 1 to
// [MaxLz4Level] for the high-compression one (liblz4's LZ4HC at that level,
// pierrec/lz4's at that search depth): smaller pages, several times slower
// to write; reading speed is the same.
func WithLz4Level(level int) Option {
	return intOption("lz4 level", level, 0, MaxLz4Level, func(c *config) { c.lz4Level = level })
}

// WithLzoLevel selects the LZO compressor: 1 for LZO1X-1 (fast, the
// default) or 999 for LZO1X-999 (slow, smaller). Both decode with the same
// decompressor.
func WithLzoLevel(level int) Option {
	return func(c *config) error {
		if level != nlzo.Level1 && level != nlzo.Level999 {
			return fmt.Errorf("%w: lzo level %d is neither %d nor %d", ErrOption, level, nlzo.Level1, nlzo.Level999)
		}
		c.lzoLevel = level
		return nil
	}
}

// WithMaxPageSize sets the largest uncompressed page size, in bytes, that
// Decompress accepts from a page header, 1 to 2^31-1; the default is
// [DefaultMaxPageSize]. Larger declared sizes fail with [ErrPageTooLarge]
// before anything is allocated.
func WithMaxPageSize(n int) Option {
	return func(c *config) error {
		if n < 1 || n > math.MaxInt32 {
			return fmt.Errorf("%w: max page size %d not in [1, 2^31-1]", ErrOption, n)
		}
		c.maxPageSize = n
		return nil
	}
}

// WithMaxIdle sets how many idle contexts of each kind (per codec, one list
// for compression and one for decompression) the Factory keeps for reuse,
// 0 to 4096; the default is max(4, 2*GOMAXPROCS), more than the goroutines
// that can run at once. A context returned to a full list is closed at
// once, freeing its native memory; 0 keeps none, so every call creates and
// frees a context (slower, and allocating, but holding no memory between
// calls). Idle native contexts hold C memory the Go runtime does not see
// (see the README's section on native memory): lower this to bound it.
func WithMaxIdle(n int) Option {
	return intOption("max idle", n, 0, 4096, func(c *config) { c.maxIdle = n })
}

// WithPureGo makes the Factory use the pure-Go implementation of every
// codec even when cgo bindings are available: github.com/klauspost/compress
// for ZSTD and GZIP, github.com/andybalholm/brotli for BROTLI and pqcodec's
// own LZO1X decoder. LZO compression is then unavailable. A build without
// cgo always behaves as if WithPureGo(true) were given.
func WithPureGo(pureGo bool) Option {
	return func(c *config) error {
		c.pureGo = pureGo
		return nil
	}
}

// WithLevel sets the level of codec c: WithZstdLevel, WithGzipLevel,
// WithBrotli (with [DefaultBrotliWindow]), WithLzoLevel, WithLz4Level (for
// LZ4 and LZ4_RAW alike) or WithSnappyLevel, with their ranges. It is the
// one mapping from a (codec, level) pair, such as `--codec zstd:9`, to an
// option: recompress, pqcodec's commands and the adapters use it. A codec
// without levels (UNCOMPRESSED) makes the option fail with an error
// wrapping [ErrOption].
func WithLevel(c Codec, level int) Option {
	if !HasLevels(c) {
		return func(*config) error { return fmt.Errorf("%w: %v has no levels", ErrOption, c) }
	}
	switch c {
	case Zstd:
		return WithZstdLevel(level)
	case Gzip:
		return WithGzipLevel(level)
	case Brotli:
		return WithBrotli(level, DefaultBrotliWindow)
	case Lzo:
		return WithLzoLevel(level)
	case Lz4, Lz4Raw:
		return WithLz4Level(level)
	}
	return WithSnappyLevel(level)
}

// HasLevels reports whether codec c has levels to set with [WithLevel]:
// every codec the factory compresses with but UNCOMPRESSED.
func HasLevels(c Codec) bool {
	switch c {
	case Zstd, Gzip, Brotli, Lzo, Lz4, Lz4Raw, Snappy:
		return true
	}
	return false
}
