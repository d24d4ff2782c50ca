package column

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sync"
)

// ReadRowGroup reads every data page of the chunks of the given leaf
// columns in row group rowGroup, with up to workers goroutines, each reading
// one whole chunk at a time, and calls fn with the column's index and each
// page, on the goroutine that read it.
//
// The pages of one chunk reach fn in order; pages of different columns reach
// it concurrently, so fn must be safe for concurrent use across columns. p
// and everything it holds are valid only until fn returns. A nil columns
// means every leaf column. workers <= 0 means runtime.GOMAXPROCS(0); it is
// capped at the number of columns. Every goroutine has one [Reader] and one
// [Page], reused across the chunks it reads, so the options of the File
// ([WithMaxMemory] included) bound each of them as they bound one Reader,
// and reading allocates nothing per page once warm.
//
// ReadRowGroup returns once every goroutine it started has ended. It stops
// at the first error: a *[PageError] from a Reader, or fn's error as fn
// returned it. It also stops when ctx is done, checked before each page,
// returning ctx.Err(). A non-nil error from fn that is [ErrStop] stops the
// read without error.
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
	for _, c := range columns {
		if c < 0 || c >= f.NumColumns() {
			return fmt.Errorf("column: column %d out of range [0, %d)", c, f.NumColumns())
		}
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, len(columns))
	if workers <= 1 {
		w := getWorker()
		defer workerPool.Put(w)
		for _, c := range columns {
			if err := w.readChunk(ctx, f, rowGroup, c, fn); err != nil {
				return stopped(err)
			}
		}
		return nil
	}
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
			w := getWorker()
			defer workerPool.Put(w)
			for {
				mu.Lock()
				i := next
				next++
				mu.Unlock()
				if i >= len(columns) {
					return
				}
				if err := w.readChunk(ctx, f, rowGroup, columns[i], fn); err != nil {
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
// the chunks it reads. Workers are pooled across calls, so that reading row
// group after row group allocates nothing per page once warm.
type rowGroupWorker struct {
	r Reader
	p Page
}

var workerPool sync.Pool

func getWorker() *rowGroupWorker {
	if w, ok := workerPool.Get().(*rowGroupWorker); ok {
		return w
	}
	return new(rowGroupWorker)
}

func (w *rowGroupWorker) readChunk(ctx context.Context, f *File, rowGroup, column int, fn func(int, *Page) error) error {
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
