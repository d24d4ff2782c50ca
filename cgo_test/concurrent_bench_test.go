package cgotest

import (
	"bytes"
	"context"
	"errors"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/pqcodec/pqcodec/column"
)

// wideRows is the row count of the file BenchmarkReadRowGroup decodes.
const wideRows = 1 << 20

// wideFile is genRecord(wideRows) (eight leaf columns: booleans, nullable
// ints and floats, dictionary strings, fixed-size binary, a list) written
// by arrow-go with ZSTD and dictionaries in one row group of 1 MiB pages
// (the pqarrow write is the twin of writeGenerated's, bench_test.go).
var wideFile = sync.OnceValues(func() ([]byte, error) {
	rec := genRecord(wideRows, 11)
	defer rec.Release()
	props := parquet.NewWriterProperties(
		parquet.WithCompression(compress.Codecs.Zstd),
		parquet.WithDictionaryDefault(true),
		parquet.WithDataPageSize(1<<20),
		parquet.WithMaxRowGroupLength(wideRows),
		parquet.WithStats(false),
	)
	var out bytes.Buffer
	w, err := pqarrow.NewFileWriter(rec.Schema(), &out, props, pqarrow.DefaultWriterProps())
	if err != nil {
		return nil, err
	}
	if err := w.Write(rec); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
})

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkReadRowGroup decodes every chunk of wideFile with
// column.File.ReadRowGroup on 1 and 2 goroutines (run with -count and
// compare the workers= rows with benchstat). cpu-ns/op is the process's
// user+system CPU time per op, which the load of a shared machine affects
// less than wall time. The output is checked against the sequential read
// before timing.
func BenchmarkReadRowGroup(b *testing.B) {
	data, err := wideFile()
	if err != nil {
		b.Fatal(err)
	}
	f, err := column.Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		b.Fatal(err)
	}
	size, err := uncompressedSize(data)
	if err != nil {
		b.Fatal(err)
	}
	var want benchSum
	o, err := newOursBench(data)
	if err != nil {
		b.Fatal(err)
	}
	if err := o.run(&want); err != nil {
		b.Fatal(err)
	}
	for _, workers := range []int{1, 2} {
		b.Run("workers="+string(rune('0'+workers)), func(b *testing.B) {
			// Per-column sums, merged in column order: the same as the
			// sequential read's when every column's pages came in order.
			sums := make([]benchSum, f.NumColumns())
			check := func(col int, p *column.Page) error {
				sumOurPage(&sums[col], p)
				return nil
			}
			for g := range f.NumRowGroups() {
				if err := f.ReadRowGroup(context.Background(), g, nil, workers, check); err != nil {
					b.Fatal(err)
				}
			}
			if got := mergeSums(sums); got.levels != want.levels || got.values != want.values {
				b.Fatalf("read %+v, sequential read %+v", got, want)
			}
			noop := func(int, *column.Page) error { return nil }
			// Warm up: a goroutine reads other chunks on each call and its
			// reader's buffers grow for each kind of chunk once; the timed
			// loop measures the steady state of a long-running reader.
			for range 8 {
				for g := range f.NumRowGroups() {
					if err := f.ReadRowGroup(context.Background(), g, nil, workers, noop); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.SetBytes(size)
			b.ReportAllocs()
			b.ResetTimer()
			cpu := cpuTime()
			for b.Loop() {
				for g := range f.NumRowGroups() {
					if err := f.ReadRowGroup(context.Background(), g, nil, workers, noop); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op")
		})
	}
	// The ceiling of two goroutines for this work on this machine: two
	// sequential reads of the whole file at once, each by its own File, with
	// no work shared and nothing to wait for. Its MB/s over workers=1's is
	// what the machine gives a second goroutine (its cores share caches,
	// memory and, on a virtual machine, maybe a physical core);
	// workers=2's over workers=1's falls short of it only by the loss of
	// ReadRowGroup itself.
	b.Run("pair", func(b *testing.B) {
		var files [2]*column.File
		for i := range files {
			if files[i], err = column.Open(bytes.NewReader(data), int64(len(data))); err != nil {
				b.Fatal(err)
			}
		}
		noop := func(int, *column.Page) error { return nil }
		readAll := func(f *column.File) error {
			for g := range f.NumRowGroups() {
				if err := f.ReadRowGroup(context.Background(), g, nil, 1, noop); err != nil {
					return err
				}
			}
			return nil
		}
		pair := func() error {
			var wg sync.WaitGroup
			var errs [2]error
			for i, f := range files {
				wg.Go(func() { errs[i] = readAll(f) })
			}
			wg.Wait()
			return errors.Join(errs[:]...)
		}
		for range 8 {
			if err := pair(); err != nil {
				b.Fatal(err)
			}
		}
		b.SetBytes(2 * size)
		b.ReportAllocs()
		b.ResetTimer()
		cpu := cpuTime()
		for b.Loop() {
			if err := pair(); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op")
	})
}

func mergeSums(s []benchSum) benchSum {
	var m benchSum
	for _, x := range s {
		m.levels += x.levels
		m.values += x.values
	}
	return m
}
