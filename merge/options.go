package merge

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"

	"github.com/pqcodec/pqcodec/codecfactory"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/internal/errs"
	"github.com/pqcodec/pqcodec/internal/rewriteopt"
	"github.com/pqcodec/pqcodec/writer"
)

// Errors returned by this package. Errors from reading an input wrap
// [ErrCorrupt] (and the sentinel of the package that found the problem);
// errors of the io.Writer are returned wrapped as they are.
var (
	// ErrCorrupt reports an input whose metadata or pages cannot be read.
	// It matches pqcodec.ErrCorrupt.
	ErrCorrupt = errs.Corrupt("merge: corrupt input")
	// ErrSchemaMismatch reports inputs of different schemas (see
	// [SchemaError]).
	ErrSchemaMismatch = errors.New("merge: schemas differ")
	// ErrEncrypted reports an encrypted input.
	ErrEncrypted = errors.New("merge: encrypted parquet files are not supported")
	// ErrUnsupported reports an input this package cannot merge, such as
	// one whose column chunks live in other files.
	ErrUnsupported = errors.New("merge: unsupported file")
	// ErrOption reports an invalid option or no inputs.
	ErrOption = errors.New("merge: invalid option")
	// ErrMismatch is returned by [Verify] when the output differs from the
	// inputs.
	ErrMismatch = errors.New("merge: output does not match the inputs")
)

// DefaultMaxMemory is the default of [WithMaxMemory].
const DefaultMaxMemory = 256 << 20

// DefaultMinRowGroupSize is the default of [WithMinRowGroupSize]: 8 MiB of
// compressed pages. Below it the footer, page index and per-row-group
// overhead of readers (one read per column chunk) start to dominate a scan;
// DuckDB's default row groups of 122,880 rows of a few columns are about
// this size.
const DefaultMinRowGroupSize = 8 << 20

// Input is one source file: Open returns its contents and size. Merge calls
// Open once to read the footer (parsed only then), once for every row group
// it copies and once for every run of its row groups that it combines
// (shared by the workers combining them), and closes what Open returned
// when it implements io.Closer as soon as no worker reads it, so that
// thousands of inputs do not hold thousands of open files. A size other
// than the first is an error.
type Input struct {
	Name string
	Open func() (io.ReaderAt, int64, error)
}

// File returns the Input of the file at path, opened with os.Open.
func File(path string) Input {
	return Input{Name: path, Open: func() (io.ReaderAt, int64, error) {
		f, err := os.Open(path)
		if err != nil {
			return nil, 0, err
		}
		st, err := f.Stat()
		if err != nil {
			f.Close()
			return nil, 0, err
		}
		return f, st.Size(), nil
	}}
}

// Reader returns the Input of size bytes read from r, which must allow
// concurrent ReadAt calls (as *os.File and *bytes.Reader do). Merge does not
// close it.
func Reader(name string, r io.ReaderAt, size int64) Input {
	type noClose struct{ io.ReaderAt }
	return Input{Name: name, Open: func() (io.ReaderAt, int64, error) { return noClose{r}, size, nil }}
}

type config struct {
	workers  int
	budget   int64
	minSize  int64
	groupMax int64
	writer   []writer.Option
	keyValue []format.KeyValue
	progress func(done, total int64)
	decoder  *codecfactory.Factory
}

func defaultConfig() config {
	return config{
		workers:  runtime.GOMAXPROCS(0),
		budget:   DefaultMaxMemory,
		minSize:  DefaultMinRowGroupSize,
		groupMax: writer.DefaultRowGroupSize,
	}
}

// An Option configures [Merge]. An invalid value makes Merge return an
// error wrapping [ErrOption].
type Option func(*config) error

// WithWorkers sets the number of goroutines that read and combine row
// groups; the default is GOMAXPROCS. The output does not depend on it.
func WithWorkers(n int) Option {
	return func(c *config) error { return rewriteopt.SetWorkers(&c.workers, n, ErrOption) }
}

// WithMaxMemory bounds the bytes held by row groups in flight (read and not
// yet written, and for combined row groups the pages of the new one) to
// about n, default [DefaultMaxMemory]. A row group larger than the budget is
// still processed, alone. Row groups that are combined are read with
// column.WithMaxMemory of n or DefaultMaxMemory, whichever is larger: a
// page whose values need more fails with an error wrapping
// column.ErrLimit.
func WithMaxMemory(n int64) Option {
	return func(c *config) error { return rewriteopt.SetMaxMemory(&c.budget, n, ErrOption) }
}

// WithMinRowGroupSize sets the compressed size below which a row group is
// combined with its neighbours (default [DefaultMinRowGroupSize]): runs of
// consecutive small row groups, across inputs, are decoded and written
// again as row groups of at least n bytes (the last one of a run may be
// smaller), as long as a run holds more than one row group; a lone small
// row group between large ones is copied. 0 copies every row group as it is.
func WithMinRowGroupSize(n int64) Option {
	return func(c *config) error {
		if n < 0 {
			return fmt.Errorf("%w: WithMinRowGroupSize(%d): negative", ErrOption, n)
		}
		c.minSize = n
		return nil
	}
}

// WithWriterOptions adds options of package writer for the row groups that
// are combined (page size, page version, encoding, statistics...). By
// default each column keeps its codec and the writer's defaults apply
// otherwise.
func WithWriterOptions(opts ...writer.Option) Option {
	return func(c *config) error {
		c.writer = append(c.writer, opts...)
		return nil
	}
}

// WithKeyValue sets key to value in the output footer's key-value
// metadata, after the entries kept from the inputs (an entry of the same
// key is replaced).
func WithKeyValue(key, value string) Option {
	return func(c *config) error { return rewriteopt.AddKeyValue(&c.keyValue, key, value, ErrOption) }
}

// WithProgress sets a function called by the writing goroutine after each
// row group is written with the input bytes of the row groups done so far
// and their total.
func WithProgress(fn func(done, total int64)) Option {
	return func(c *config) error {
		c.progress = fn
		return nil
	}
}

// WithCodecs sets the factory used to decompress and compress the pages of
// combined row groups; the default is a factory with default options.
func WithCodecs(f *codecfactory.Factory) Option {
	return func(c *config) error {
		if f == nil {
			return fmt.Errorf("%w: WithCodecs(nil)", ErrOption)
		}
		c.decoder = f
		return nil
	}
}
