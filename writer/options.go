package writer

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/pqcodec/pqcodec/codecfactory"
	"github.com/pqcodec/pqcodec/encryption"
	"github.com/pqcodec/pqcodec/format"
)

// Defaults of the options; see the package documentation for why.
const (
	DefaultCodec           = codecfactory.Zstd
	DefaultPageSize        = 1 << 20
	DefaultPageRows        = 20_000
	DefaultDictionaryLimit = 1 << 20
	DefaultRowGroupSize    = 128 << 20
	DefaultRowGroupRows    = 1 << 20
	DefaultPageVersion     = 1
	// DefaultMaxMemory is the default of [WithMaxMemory]: twice the default
	// row group size, the default of recompress.WithMaxMemory too.
	DefaultMaxMemory = 256 << 20
	// DefaultIndexTruncate is the length at which byte-array bounds of the
	// column index are truncated, as parquet-java and arrow-rs do.
	DefaultIndexTruncate = 64
)

// ErrOption is wrapped by the error of an invalid option.
var ErrOption = errors.New("writer: invalid option")

// Option configures a [Writer] (or, inside [WithColumn], one column).
// Options return an error for an invalid value.
type Option func(*config) error

// columnConfig holds the options that may differ per column.
type columnConfig struct {
	codec      codecfactory.Codec
	codecs     *codecfactory.Factory
	encoding   format.Encoding // values when no dictionary, and after fallback
	dictionary bool
	dictLimit  int
	pageSize   int
	pageRows   int
	version    int
	crc        bool
	statistics bool
	pageIndex  bool
	truncate   int
	statTrunc  int   // 0: statistics not truncated
	bloomNDV   int64 // 0: no bloom filter
	bloomFPP   float64
}

type config struct {
	col          columnConfig
	perColumn    map[string][]Option
	rowGroupSize int64
	rowGroupRows int64
	createdBy    string
	kv           []format.KeyValue
	inColumn     bool
	workers      int
	sorting      []SortingColumn
	maxMemory    int64                       // 0: no bound
	encrypt      *encryption.WriteProperties // WithEncryption, encrypt.go
}

func defaultConfig() config {
	return config{
		col: columnConfig{
			codec: DefaultCodec, encoding: format.Plain, dictionary: true, dictLimit: DefaultDictionaryLimit,
			pageSize: DefaultPageSize, pageRows: DefaultPageRows, version: DefaultPageVersion,
			crc: true, statistics: true, pageIndex: true, truncate: DefaultIndexTruncate,
		},
		rowGroupSize: DefaultRowGroupSize,
		rowGroupRows: DefaultRowGroupRows,
		workers:      1,
		maxMemory:    DefaultMaxMemory,
		createdBy:    "pqcodec version " + Version,
	}
}

// Version is the version of pqcodec that created_by names.
const Version = "0.1.0-dev"

func fileOnly(c *config, name string) error {
	if c.inColumn {
		return fmt.Errorf("%w: %s applies to the whole file, not inside WithColumn", ErrOption, name)
	}
	return nil
}

// WithCodec sets the compression codec of pages; the default is
// [DefaultCodec] (ZSTD). Every codec the Factory can compress is accepted;
// [Writer] fails at New when it cannot.
func WithCodec(c codecfactory.Codec) Option {
	return func(cfg *config) error {
		if c < codecfactory.Uncompressed || c > codecfactory.Lz4Raw {
			return fmt.Errorf("%w: codec %d", ErrOption, c)
		}
		cfg.col.codec = c
		return nil
	}
}

// WithCodecs sets the codec factory that compresses pages, and so the
// compression level (codecfactory.WithZstdLevel and its siblings). The
// default is a factory with default options shared by every Writer. Many
// Writers may share one Factory; a nil one is an error.
func WithCodecs(f *codecfactory.Factory) Option {
	return func(cfg *config) error {
		if f == nil {
			return fmt.Errorf("%w: nil codec factory", ErrOption)
		}
		cfg.col.codecs = f
		return nil
	}
}

// WithEncoding sets the encoding of values that are not dictionary-encoded:
// of every page when the dictionary is off, of the pages after the
// dictionary passed its limit otherwise. The default is PLAIN. The
// encoding must apply to the column's type (see encoding/doc.go), checked
// at New; the dictionary encodings are chosen with [WithDictionary].
func WithEncoding(e format.Encoding) Option {
	return func(cfg *config) error {
		if e == format.PlainDictionary || e == format.RLEDictionary || e == format.BitPacked {
			return fmt.Errorf("%w: value encoding %v (use WithDictionary for dictionaries)", ErrOption, e)
		}
		cfg.col.encoding = e
		return nil
	}
}

// WithDictionary turns dictionary encoding on or off; on by default.
// BOOLEAN columns are never dictionary-encoded.
func WithDictionary(on bool) Option {
	return func(cfg *config) error { cfg.col.dictionary = on; return nil }
}

// WithDictionaryLimit sets the size in bytes of the dictionary page past
// which a column chunk falls back to the encoding of [WithEncoding] for the
// rest of the chunk; the default is [DefaultDictionaryLimit] (1 MiB). The
// dictionary may pass the limit by the values of one batch step (at most
// 1024 values), as in arrow-cpp.
func WithDictionaryLimit(n int) Option {
	return func(cfg *config) error {
		if n <= 0 || n > math.MaxInt32 {
			return fmt.Errorf("%w: dictionary limit %d", ErrOption, n)
		}
		cfg.col.dictLimit = n
		return nil
	}
}

// WithPageSize sets the size in bytes, before compression, at which a data
// page is cut (estimated from the values and levels buffered); the default
// is [DefaultPageSize] (1 MiB).
func WithPageSize(n int) Option {
	return func(cfg *config) error {
		if n <= 0 || n > 1<<30 {
			return fmt.Errorf("%w: page size %d", ErrOption, n)
		}
		cfg.col.pageSize = n
		return nil
	}
}

// WithPageRows sets the most rows a data page holds; the default is
// [DefaultPageRows] (20,000, as parquet-java and arrow-rs).
func WithPageRows(n int) Option {
	return func(cfg *config) error {
		if n <= 0 {
			return fmt.Errorf("%w: page rows %d", ErrOption, n)
		}
		cfg.col.pageRows = n
		return nil
	}
}

// WithPageVersion chooses data pages v1 (DATA_PAGE, the default) or v2
// (DATA_PAGE_V2).
func WithPageVersion(v int) Option {
	return func(cfg *config) error {
		if v != 1 && v != 2 {
			return fmt.Errorf("%w: page version %d", ErrOption, v)
		}
		cfg.col.version = v
		return nil
	}
}

// WithChecksums turns page CRC32 checksums on or off; on by default (as
// parquet-java since 1.12).
func WithChecksums(on bool) Option {
	return func(cfg *config) error { cfg.col.crc = on; return nil }
}

// WithStatistics turns statistics on or off: min, max and null count per
// page header and per column chunk. On by default.
func WithStatistics(on bool) Option {
	return func(cfg *config) error { cfg.col.statistics = on; return nil }
}

// WithStatisticsTruncate truncates the byte-array min and max of the
// chunk's statistics and of the page headers' to n bytes (the min cut, the
// max cut and rounded up, so that both still bound the values), marking a
// truncated bound inexact (is_min_value_exact, is_max_value_exact false).
// Off (0) by default, as in parquet-java; arrow-rs truncates to 64. The
// column index is truncated to 64 bytes either way.
func WithStatisticsTruncate(n int) Option {
	return func(cfg *config) error {
		if n < 0 {
			return fmt.Errorf("%w: statistics truncation %d", ErrOption, n)
		}
		cfg.col.statTrunc = n
		return nil
	}
}

// WithPageIndex turns the page index (ColumnIndex and OffsetIndex) on or
// off; on by default. Without statistics the ColumnIndex is left out and
// the OffsetIndex still written.
func WithPageIndex(on bool) Option {
	return func(cfg *config) error { cfg.col.pageIndex = on; return nil }
}

// Defaults of [WithBloomFilter]'s arguments, arrow-rs's: a filter for a
// million distinct values at a 5% false-positive probability is 1 MiB.
const (
	DefaultBloomNDV = 1_000_000
	DefaultBloomFPP = 0.05
)

// WithBloomFilter writes a split-block bloom filter (package bloom) for
// each column chunk, sized for ndv distinct values at false-positive
// probability fpp (bloom.NumBytesFor: a power of two from 32 bytes to 128
// MiB), or turns filters off when ndv is 0. Off by default, as in every
// peer; use it inside [WithColumn] for the columns that readers look up by
// equality ([DefaultBloomNDV] and [DefaultBloomFPP] are arrow-rs's
// defaults). The filter is sized before the chunk's values are known, as
// arrow-rs and arrow-cpp size it: more distinct values than ndv raise the
// false-positive rate, never give a false negative. BOOLEAN columns get no
// filter (the specification defines none). Each chunk's filter is written
// after its row group's column chunks, where arrow-rs writes it by default.
func WithBloomFilter(ndv int64, fpp float64) Option {
	return func(cfg *config) error {
		if ndv < 0 || (ndv > 0 && !(fpp > 0 && fpp < 1)) {
			return fmt.Errorf("%w: bloom filter for %d values at probability %v", ErrOption, ndv, fpp)
		}
		cfg.col.bloomNDV, cfg.col.bloomFPP = ndv, fpp
		return nil
	}
}

// WithRowGroupSize sets the compressed size in bytes of the pages buffered
// at which a row group is flushed; the default is [DefaultRowGroupSize]
// (128 MiB, parquet-java's block size).
func WithRowGroupSize(n int64) Option {
	return func(cfg *config) error {
		if err := fileOnly(cfg, "WithRowGroupSize"); err != nil {
			return err
		}
		if n <= 0 {
			return fmt.Errorf("%w: row group size %d", ErrOption, n)
		}
		cfg.rowGroupSize = n
		return nil
	}
}

// WithRowGroupRows sets the number of rows at which a row group is flushed;
// the default is [DefaultRowGroupRows] (1 Mi rows, as arrow-cpp and
// arrow-rs).
func WithRowGroupRows(n int64) Option {
	return func(cfg *config) error {
		if err := fileOnly(cfg, "WithRowGroupRows"); err != nil {
			return err
		}
		if n <= 0 {
			return fmt.Errorf("%w: row group rows %d", ErrOption, n)
		}
		cfg.rowGroupRows = n
		return nil
	}
}

// WithMaxMemory bounds the bytes a Writer buffers, across all its
// columns, to n: the compressed pages of the row group, each column's
// current page (levels and values) and each column's dictionary, counted
// as the package documentation states. The default is [DefaultMaxMemory]
// (256 MiB); 0 is no bound. Where every column holds the same rows (after
// a Write that evens them, the place row groups are cut), the row group is
// flushed early, below [WithRowGroupSize] and [WithRowGroupRows], when a
// round of batches as large as the largest so far would pass n, as
// parquet-java's memory manager shrinks row groups. Where the columns hold
// different rows, no row group can be cut: a round of batches (a batch of
// each column) larger than what the budget leaves is buffered whole and
// the row group flushed when the round ends; no Write fails for the
// budget. n must not be
// negative; it applies to the whole file, not inside [WithColumn].
func WithMaxMemory(n int64) Option {
	return func(cfg *config) error {
		if err := fileOnly(cfg, "WithMaxMemory"); err != nil {
			return err
		}
		if n < 0 {
			return fmt.Errorf("%w: WithMaxMemory(%d): must not be negative", ErrOption, n)
		}
		cfg.maxMemory = n
		return nil
	}
}

// WithWorkers sets the number of goroutines that cut, encode and compress
// the columns of a row group at once; the default, 1, does all the work
// inside the calls, on the caller's goroutine. With n > 1, Write checks a
// batch, copies it and returns while the column's work goes on in the
// background, so that the next column's batch can start: write a batch of
// each column in turn. A column's batches still run one at a time in the
// order written; the data pages of a column that are not
// dictionary-encoded are compressed on the workers, up to n of them at
// once, while the column's next page fills, and appended in order (a
// column writing PLAIN values without a dictionary or bloom filter fills
// its pages inside Write, in a worker's turn: its work there is about the
// copy Write would make). Row
// groups are cut where they are without workers, so the file is the same,
// byte for byte, for any n. Each column holds a copy of its batch in
// flight in memory, and up to n pages in compression (each encoded and
// compressed), and an error of that work (a codec's) is returned by a
// later call (Write of the same column, the Write that ends a row of
// batches, Flush or Close). The Writer itself is still for one goroutine
// at a time.
func WithWorkers(n int) Option {
	return func(cfg *config) error {
		if err := fileOnly(cfg, "WithWorkers"); err != nil {
			return err
		}
		if n <= 0 {
			return fmt.Errorf("%w: workers %d", ErrOption, n)
		}
		cfg.workers = n
		return nil
	}
}

// WithKeyValue adds a key-value pair to the file's metadata; pairs keep
// the order of the options.
func WithKeyValue(key, value string) Option {
	return func(cfg *config) error {
		if err := fileOnly(cfg, "WithKeyValue"); err != nil {
			return err
		}
		cfg.kv = append(cfg.kv, format.KeyValue{Key: key, Value: &value})
		return nil
	}
}

// WithCreatedBy replaces the footer's created_by, "pqcodec version "
// followed by [Version] by default. Readers use it to work around known
// bugs of a writer: set it only to name an application built on pqcodec
// in the same "name version x.y.z" form.
func WithCreatedBy(s string) Option {
	return func(cfg *config) error {
		if err := fileOnly(cfg, "WithCreatedBy"); err != nil {
			return err
		}
		cfg.createdBy = s
		return nil
	}
}

// SortingColumn is one column of the sort order that [WithSortingColumns]
// declares: the leaf column at the dotted Path ("a.list.element"), sorted
// in descending order when Descending is set, nulls before the values
// when NullsFirst is set.
type SortingColumn struct {
	Path       string
	Descending bool
	NullsFirst bool
}

// WithSortingColumns declares the order of the rows of every row group,
// written as each RowGroup's sorting_columns (the shape of arrow-go's
// WithSortingColumns and parquet-java's sorting columns): by cols[0], then
// cols[1] among equal values, and so on. Each Path must name a leaf column
// and appear once, checked at New (ErrOption). The Writer writes the
// declaration as given and does not check the rows' order, as
// parquet-java, arrow-cpp and arrow-go do not; a reader may rely on it,
// so declare only an order the rows have. None by default; a later call
// replaces the list.
func WithSortingColumns(cols ...SortingColumn) Option {
	return func(cfg *config) error {
		if err := fileOnly(cfg, "WithSortingColumns"); err != nil {
			return err
		}
		cfg.sorting = append([]SortingColumn(nil), cols...)
		return nil
	}
}

// sortingColumns resolves the paths of sorting against the leaves' paths.
func sortingColumns(sorting []SortingColumn, paths []string) ([]format.SortingColumn, error) {
	if len(sorting) == 0 {
		return nil, nil
	}
	out := make([]format.SortingColumn, len(sorting))
	for i, s := range sorting {
		idx := -1
		for k, p := range paths {
			if p == s.Path {
				idx = k
				break
			}
		}
		if idx < 0 {
			return nil, fmt.Errorf("%w: sorting column %q names no leaf column", ErrOption, s.Path)
		}
		for _, prev := range out[:i] {
			if prev.ColumnIdx == int32(idx) {
				return nil, fmt.Errorf("%w: sorting column %q given twice", ErrOption, s.Path)
			}
		}
		out[i] = format.SortingColumn{ColumnIdx: int32(idx), Descending: s.Descending, NullsFirst: s.NullsFirst}
	}
	return out, nil
}

// WithColumn applies opts to the leaf column at the dotted path
// ("a.list.element") only, after the options that apply to every column.
// Only column options are allowed inside: codec, codec factory, encoding,
// dictionary, page size, rows and version, checksums, statistics and
// their truncation, page index and bloom filter. A path that names no leaf fails at New.
func WithColumn(path string, opts ...Option) Option {
	return func(cfg *config) error {
		if err := fileOnly(cfg, "WithColumn"); err != nil {
			return err
		}
		if cfg.perColumn == nil {
			cfg.perColumn = map[string][]Option{}
		}
		cfg.perColumn[path] = append(cfg.perColumn[path], opts...)
		return nil
	}
}

// columnConfigFor returns the options of the leaf at path.
func (c *config) columnConfigFor(path []string) (columnConfig, error) {
	opts := c.perColumn[strings.Join(path, ".")]
	if len(opts) == 0 {
		return c.col, nil
	}
	sub := config{col: c.col, inColumn: true}
	for _, o := range opts {
		if err := o(&sub); err != nil {
			return columnConfig{}, fmt.Errorf("column %s: %w", strings.Join(path, "."), err)
		}
	}
	return sub.col, nil
}
