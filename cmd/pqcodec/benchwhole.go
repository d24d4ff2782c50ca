package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/pqcodec/pqcodec/column"
)

// wholeFile is what bench --workers measured: the fastest of count
// passes decoding every chunk of the file with column.File.ReadRowGroup,
// with one goroutine and with workers.
type wholeFile struct {
	workers     int
	one, many   time.Duration
	bytes, vals int64
}

// benchWhole times decoding the whole file, row group by row group, with
// every chunk of a row group read concurrently by up to workers goroutines,
// against the same read on one goroutine; the two are interleaved pass by
// pass so that load on the machine falls on both alike.
func benchWhole(f *column.File, count, workers int, p *progress) (wholeFile, error) {
	w := wholeFile{workers: workers, one: -1, many: -1}
	for _, rg := range f.MetaData().RowGroups {
		w.bytes += rg.TotalByteSize
		w.vals += rg.NumRows
	}
	noop := func(int, *column.Page) error { return nil }
	pass := func(n int) (time.Duration, error) {
		start := time.Now()
		for g := range f.NumRowGroups() {
			if err := f.ReadRowGroup(context.Background(), g, nil, n, noop); err != nil {
				return 0, err
			}
		}
		return time.Since(start), nil
	}
	for i := range count {
		p.update("bench: whole file, pass %d/%d", i+1, count)
		for _, c := range []struct {
			n    int
			best *time.Duration
		}{{1, &w.one}, {workers, &w.many}} {
			d, err := pass(c.n)
			if err != nil {
				return w, err
			}
			if *c.best < 0 || d < *c.best {
				*c.best = d
			}
		}
	}
	return w, nil
}

func writeWhole(out io.Writer, w wholeFile) error {
	speedup := "-"
	if w.many > 0 {
		speedup = fmt.Sprintf("%.2fx", float64(w.one)/float64(w.many))
	}
	_, err := fmt.Fprintf(out, "\nwhole file (every chunk of a row group concurrently, fastest pass): 1 goroutine %.2f ms (%s MB/s), %d goroutines %.2f ms (%s MB/s), speedup %s\n",
		float64(w.one)/float64(time.Millisecond), rate(float64(w.bytes)/1e6, w.one),
		w.workers, float64(w.many)/float64(time.Millisecond), rate(float64(w.bytes)/1e6, w.many), speedup)
	return err
}
