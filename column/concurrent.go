package column

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"slices"
	"sync"

	"github.com/pqcodec/pqcodec/format"
)

// ReadRowGroup reads every data page of the chunks of the given leaf
// columns in row group rowGroup, with up to workers goroutines, each reading
// one whole chunk at a time, costliest first, and calls fn with the
// column's index and each page, on the goroutine that read it.
//
// The pages of one chunk reach fn in order; pages of different columns reach
// it concurrently, so fn must be safe for concurrent use across columns. p
// and everything it holds are valid only until fn returns. A nil columns
// means every leaf column; a column named twice is an error. workers <= 0 means runtime.GOMAXPROCS(0); it is
// capped at the number of columns. Every goroutine has one [Reader] and one
// [Page], reused across the chunks it reads and kept by the File for the
// next call, so reading allocates nothing per page once warm. The options
// of the File bound each goroutine as they bound one Reader: under
// [WithMaxMemory](n) a call holds at most about workers times n.
//
// ReadRowGroup returns once every goroutine it started has ended. It stops
// at the first error: a *[PageError] from a Reader, or fn's error as fn
// returned it. It also stops when ctx is done, checked before each page,
// returning ctx.Err(). A non-nil error from fn that is [ErrStop] stops the
// read without error. A panic while reading a chunk, in fn or below it, is
// returned as a *[PageError] wrapping [ErrInternal] for that chunk, on every
// goroutine, instead of ending the process.
func (f *File) ReadRowGroup(ctx context.Context, rowGroup int, columns []int, workers int, fn func(column int, p *Page) error) error {
	if rowGroup < 0 || rowGroup >= len(f.meta.RowGroups) {
		return fmt.Errorf("column: row group %d out of range [0, %d)", rowGroup, len(f.meta.RowGroups))
	}
	if columns == nil {
		columns = make([]int, f.NumColumns())
		for i := range columns {
			columns[i] = i
		}
	}
	seen := make([]bool, f.NumColumns())
	for _, c := range columns {
		if c < 0 || c >= f.NumColumns() {
			return fmt.Errorf("column: column %d out of range [0, %d)", c, f.NumColumns())
		}
		if seen[c] {
			return fmt.Errorf("column: column %d named twice", c)
		}
		seen[c] = true
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, len(columns))
	if workers <= 1 {
		w := f.workers.get()
		for _, c := range columns {
			if err := w.readChunk(ctx, f, rowGroup, c, fn); err != nil {
				f.workers.putUnlessPanicked(w, err)
				return stopped(err)
			}
		}
		f.workers.put(w)
		return nil
	}
	// The costliest chunks go first, so that the last chunk to finish is a
	// cheap one and no goroutine idles long while another reads (longest
	// processing time first). The cost is a rough model of decoding:
	// uncompressed bytes plus a cost per value, higher for byte arrays,
	// whose values are gathered one by one (measured on cgo_test's
	// BenchmarkReadRowGroup file: its dictionary strings are 5% of the
	// bytes and 30% of the time).
	order := slices.Clone(columns)
	chunks := f.meta.RowGroups[rowGroup].Columns
	size := func(c int) int64 {
		m := chunks[c].MetaData
		if m == nil {
			return 0
		}
		perValue := int64(2)
		if m.Type == format.ByteArray {
			perValue = 16
		}
		return m.TotalUncompressedSize + perValue*m.NumValues
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(size(b), size(a)) })
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		next  int
		first error
	)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := f.workers.get()
			for {
				mu.Lock()
				i := next
				next++
				mu.Unlock()
				if i >= len(order) {
					f.workers.put(w)
					return
				}
				if err := w.readChunk(ctx, f, rowGroup, order[i], fn); err != nil {
					f.workers.putUnlessPanicked(w, err)
					mu.Lock()
					if first == nil {
						first = err
						cancel()
					}
					mu.Unlock()
					return
				}
			}
		}()
	}
	wg.Wait()
	return stopped(first)
}

// ErrStop is returned by the fn of [File.ReadRowGroup] to stop reading
// early without an error.
var ErrStop = errors.New("column: stop")

func stopped(err error) error {
	if errors.Is(err, ErrStop) {
		return nil
	}
	return err
}

// rowGroupWorker is the state one goroutine of ReadRowGroup keeps across
// the chunks it reads.
type rowGroupWorker struct {
	r Reader
	p Page
}

// workerList keeps a File's idle rowGroupWorkers across ReadRowGroup calls,
// so that reading row group after row group allocates nothing per page once
// warm. It holds at most as many as ran at once, and goes with the File (a
// sync.Pool, emptied by every other garbage collection, would drop buffers
// of many MiB between calls).
type workerList struct {
	mu   sync.Mutex
	idle []*rowGroupWorker
}

func (l *workerList) get() *rowGroupWorker {
	l.mu.Lock()
	defer l.mu.Unlock()
	if n := len(l.idle); n > 0 {
		w := l.idle[n-1]
		l.idle = l.idle[:n-1]
		return w
	}
	return new(rowGroupWorker)
}

func (l *workerList) put(w *rowGroupWorker) {
	l.mu.Lock()
	l.idle = append(l.idle, w)
	l.mu.Unlock()
}

// putUnlessPanicked returns w to the list unless err is a recovered
// panic: the state of a worker that panicked is not trusted again.
func (l *workerList) putUnlessPanicked(w *rowGroupWorker, err error) {
	if !errors.Is(err, ErrInternal) {
		l.put(w)
	}
}

// ErrInternal is wrapped by the error of [File.ReadRowGroup] for a chunk
// whose reading panicked (in this package, a library below it or fn): a
// bug, reported for that chunk, with the panic's value and stack, instead
// of a panic on a goroutine nothing can recover, which would end the
// whole process. It does not match pqcodec.ErrCorrupt.
var ErrInternal = errors.New("column: internal error")

// readChunk reads one chunk with w, turning a panic into an error wrapping
// ErrInternal (defence in depth: every decoder returns errors for damaged
// input).
func (w *rowGroupWorker) readChunk(ctx context.Context, f *File, rowGroup, column int, fn func(int, *Page) error) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = &PageError{Column: f.columnName(column), RowGroup: rowGroup, Page: w.r.PageIndex(),
				Err: fmt.Errorf("%w: panic: %v\n%s", ErrInternal, v, debug.Stack())}
		}
	}()
	return w.readChunkPages(ctx, f, rowGroup, column, fn)
}

func (w *rowGroupWorker) readChunkPages(ctx context.Context, f *File, rowGroup, column int, fn func(int, *Page) error) error {
	if err := f.ResetReader(&w.r, rowGroup, column); err != nil {
		return err
	}
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		err := w.r.ReadPage(&w.p)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if err := fn(column, &w.p); err != nil {
			return err
		}
	}
}
