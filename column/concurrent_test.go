package column

import (
	"context"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/internal/testcorpus"
)

// pageHash folds everything a page holds into h.
func pageHash(h uint64, p *Page) uint64 {
	mix := func(x uint64) { h = (h ^ x) * 1099511628211 }
	mix(uint64(p.NumLevels))
	mix(uint64(p.Encoding))
	mix(uint64(p.Version))
	for _, l := range p.DefLevels {
		mix(uint64(l))
	}
	mix(1 << 40)
	for _, l := range p.RepLevels {
		mix(uint64(l))
	}
	mix(2 << 40)
	for _, i := range p.Indices {
		mix(uint64(i))
	}
	v := &p.Values
	mix(uint64(v.Type))
	mix(uint64(v.Len()))
	for _, b := range v.Booleans {
		if b {
			mix(1)
		} else {
			mix(0)
		}
	}
	for _, x := range v.Int32s {
		mix(uint64(x))
	}
	for _, x := range v.Int64s {
		mix(uint64(x))
	}
	for _, x := range v.Int96s {
		for _, b := range x {
			mix(uint64(b))
		}
	}
	for _, x := range v.Floats {
		mix(uint64(math.Float32bits(x)))
	}
	for _, x := range v.Doubles {
		mix(math.Float64bits(x))
	}
	for _, b := range v.Bytes {
		mix(uint64(b))
	}
	for _, o := range v.Offsets {
		mix(uint64(o))
	}
	return h
}

// chunkResult is what reading one column chunk found: a hash of its pages
// in order and the error that ended it.
type chunkResult struct {
	hash  uint64
	pages int
	err   string
}

func sequentialRowGroup(f *File, rg int) []chunkResult {
	out := make([]chunkResult, f.NumColumns())
	var p Page
	for col := range out {
		res := &out[col]
		r, err := f.Column(rg, col)
		for err == nil {
			if err = r.ReadPage(&p); err == nil {
				res.hash = pageHash(res.hash, &p)
				res.pages++
			}
		}
		if !errors.Is(err, io.EOF) {
			res.err = err.Error()
		}
	}
	return out
}

// TestReadRowGroupCorpus checks that ReadRowGroup, with 1, 2 and 4
// goroutines, delivers the same pages in the same order per column as
// reading each chunk with its own Reader, on every file of the
// parquet-testing corpus and of the foreign-writer corpus, and that it
// fails with one of the errors the sequential read meets.
func TestReadRowGroupCorpus(t *testing.T) {
	files := corpusFiles(t, "data")
	require.NoError(t, filepath.WalkDir("../testdata/foreign", func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".parquet") {
			files = append(files, p)
		}
		return err
	}))
	for _, path := range files {
		name := filepath.Base(path)
		if name == "large_string_map.brotli.parquet" && os.Getenv("PQCODEC_LARGE") == "" {
			continue // two 1 GiB pages
		}
		t.Run(filepath.Base(filepath.Dir(path))+"/"+name, func(t *testing.T) {
			f, err := openFile(t, path)
			if err != nil {
				t.Skipf("not opened: %v", err)
			}
			for rg := range f.NumRowGroups() {
				want := sequentialRowGroup(f, rg)
				var wantErrs []string
				for _, w := range want {
					if w.err != "" {
						wantErrs = append(wantErrs, w.err)
					}
				}
				for _, workers := range []int{1, 2, 4} {
					got := make([]chunkResult, f.NumColumns())
					err := f.ReadRowGroup(context.Background(), rg, nil, workers, func(col int, p *Page) error {
						got[col].hash = pageHash(got[col].hash, p)
						got[col].pages++
						return nil
					})
					if len(wantErrs) > 0 {
						require.Error(t, err, "row group %d, %d workers", rg, workers)
						assert.Contains(t, wantErrs, err.Error(), "row group %d, %d workers", rg, workers)
						var pe *PageError
						assert.ErrorAs(t, err, &pe)
						continue
					}
					require.NoError(t, err, "row group %d, %d workers", rg, workers)
					assert.Equal(t, want, got, "row group %d, %d workers", rg, workers)
				}
			}
		})
	}
}

// TestReadRowGroupColumns checks a projection: only the named columns are
// read, each as the sequential read sees it.
func TestReadRowGroupColumns(t *testing.T) {
	f, err := OpenFile(nestedFile)
	require.NoError(t, err)
	defer f.Close()
	require.Greater(t, f.NumColumns(), 2)
	want := sequentialRowGroup(f, 0)
	cols := []int{f.NumColumns() - 1, 0}
	got := make([]chunkResult, f.NumColumns())
	require.NoError(t, f.ReadRowGroup(context.Background(), 0, cols, 2, func(col int, p *Page) error {
		got[col].hash = pageHash(got[col].hash, p)
		got[col].pages++
		return nil
	}))
	for col := range got {
		if col == cols[0] || col == cols[1] {
			assert.Equal(t, want[col], got[col], "column %d", col)
		} else {
			assert.Zero(t, got[col], "column %d", col)
		}
	}
	assert.Error(t, f.ReadRowGroup(context.Background(), 0, []int{f.NumColumns()}, 2, nil))
	assert.Error(t, f.ReadRowGroup(context.Background(), f.NumRowGroups(), nil, 2, nil))
	assert.Error(t, f.ReadRowGroup(context.Background(), 0, []int{1, 0, 1}, 2, nil))
}

// settledGoroutines waits for the goroutine count to come down to at most
// n, and returns the count.
func settledGoroutines(n int) int {
	deadline := time.Now().Add(10 * time.Second)
	for {
		g := runtime.NumGoroutine()
		if g <= n || time.Now().After(deadline) {
			return g
		}
		runtime.Gosched()
		time.Sleep(time.Millisecond)
	}
}

// TestReadRowGroupStop checks early stops: an error from fn, ErrStop, and a
// cancelled context each end the read with every goroutine gone.
func TestReadRowGroupStop(t *testing.T) {
	f, err := OpenFile(nestedFile)
	require.NoError(t, err)
	defer f.Close()
	base := runtime.NumGoroutine()
	boom := errors.New("boom")
	for _, workers := range []int{1, 2, 4} {
		var calls atomic.Int64
		err := f.ReadRowGroup(context.Background(), 0, nil, workers, func(int, *Page) error {
			calls.Add(1)
			return boom
		})
		assert.ErrorIs(t, err, boom)
		assert.LessOrEqual(t, calls.Load(), int64(workers))

		err = f.ReadRowGroup(context.Background(), 0, nil, workers, func(int, *Page) error { return ErrStop })
		assert.NoError(t, err)

		ctx, cancel := context.WithCancel(context.Background())
		calls.Store(0)
		err = f.ReadRowGroup(ctx, 0, nil, workers, func(int, *Page) error {
			calls.Add(1)
			cancel()
			return nil
		})
		assert.ErrorIs(t, err, context.Canceled)
		assert.LessOrEqual(t, calls.Load(), int64(workers))

		assert.LessOrEqual(t, settledGoroutines(base), base, "%d workers", workers)
	}
}

// TestReadRowGroupAllocs checks that a warm read of a row group allocates
// per call, not per page.
func TestReadRowGroupAllocs(t *testing.T) {
	f, err := OpenFile("../testdata/foreign/parquet-go/small_pages.parquet")
	require.NoError(t, err)
	defer f.Close()
	var pages atomic.Int64
	fn := func(int, *Page) error { pages.Add(1); return nil }
	require.NoError(t, f.ReadRowGroup(context.Background(), 0, nil, 1, fn))
	require.Greater(t, pages.Load(), int64(20))
	allocs := testing.AllocsPerRun(5, func() {
		if err := f.ReadRowGroup(context.Background(), 0, nil, 1, fn); err != nil {
			t.Fatal(err)
		}
	})
	// Readers and Pages are pooled: once warm, a call allocates a few
	// times per chunk at most (opening it), nothing per page.
	limit := float64(2 * f.NumColumns())
	assert.LessOrEqual(t, allocs, limit, "%d pages", pages.Load())
	allocs = testing.AllocsPerRun(5, func() {
		if err := f.ReadRowGroup(context.Background(), 0, nil, 2, fn); err != nil {
			t.Fatal(err)
		}
	})
	assert.LessOrEqual(t, allocs, limit+16, "%d pages, 2 goroutines", pages.Load())
}

// TestReadRowGroupMaxMemory checks that WithMaxMemory bounds each goroutine
// of ReadRowGroup as it bounds a Reader: the error is the Reader's, a
// *PageError naming the column, row group and page, wrapping ErrLimit.
func TestReadRowGroupMaxMemory(t *testing.T) {
	path := testcorpus.Data(t, "alltypes_tiny_pages.parquet")
	f, err := openFile(t, path, WithMaxMemory(4<<10))
	require.NoError(t, err)
	for _, workers := range []int{1, 2} {
		err = f.ReadRowGroup(context.Background(), 0, nil, workers, func(int, *Page) error { return nil })
		require.ErrorIs(t, err, ErrLimit)
		var pe *PageError
		require.ErrorAs(t, err, &pe)
		assert.Equal(t, 0, pe.RowGroup)
		assert.GreaterOrEqual(t, pe.Page, 0)
		assert.NotEmpty(t, pe.Column)
	}
	f, err = openFile(t, path, WithMaxMemory(16<<20))
	require.NoError(t, err)
	assert.NoError(t, f.ReadRowGroup(context.Background(), 0, nil, 2, func(int, *Page) error { return nil }))
}
