package writer_test

import (
	"bytes"
	"errors"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/codecfactory"
	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/writer"
)

// workerSets are option sets whose files must not depend on the number of
// workers: row groups cut by size and by rows between windows, dictionary
// fallbacks, v2 pages and bloom filters. A set with maxInput applies to
// the files of at most that many bytes.
func workerSets() []struct {
	name     string
	window   int
	maxInput int
	opts     []writer.Option
} {
	return []struct {
		name     string
		window   int
		maxInput int
		opts     []writer.Option
	}{
		{"default-window-700-rowgroup-64KiB", 700, 0, []writer.Option{writer.WithRowGroupSize(64 << 10)}},
		{"v2-snappy-smallpages-dictlimit-bloom", 300, 0, []writer.Option{writer.WithPageVersion(2), writer.WithCodec(codecfactory.Snappy),
			writer.WithPageRows(100), writer.WithDictionaryLimit(200), writer.WithBloomFilter(500, 0.05), writer.WithRowGroupRows(1000)}},
		// Many small batches per column and tiny pages in the fallback
		// encoding: more pages in compression per column than workers,
		// pages still in compression at the ends of rounds, row groups cut
		// by the budget and by size on counts that bound them.
		{"v2-zstd-tinypages-nodict-budget", 40, 32 << 10, []writer.Option{writer.WithPageVersion(2), writer.WithCodec(codecfactory.Zstd),
			writer.WithPageSize(512), writer.WithDictionary(false), writer.WithMaxMemory(48 << 10)}},
		{"tinypages-rowgroup-16KiB", 25, 32 << 10, []writer.Option{writer.WithCodec(codecfactory.Snappy), writer.WithPageSize(256),
			writer.WithDictionaryLimit(1 << 10), writer.WithRowGroupSize(16 << 10)}},
	}
}

// TestWorkersSameBytes writes every corpus file with 1, 2 and 4 workers
// under each of workerSets and requires the same bytes.
func TestWorkersSameBytes(t *testing.T) {
	f, err := codecfactory.New()
	require.NoError(t, err)
	files := 0
	for _, path := range corpusInputs(t) {
		b, err := os.ReadFile(path)
		require.NoError(t, err)
		if strings.HasSuffix(path, "large_string_map.brotli.parquet") || testing.Short() && len(b) > 1<<20 {
			continue
		}
		src, err := readFile(b)
		if err != nil {
			continue
		}
		files++
		for _, set := range workerSets() {
			if set.maxInput > 0 && len(b) > set.maxInput {
				continue
			}
			var want []byte
			for _, n := range []int{1, 2, 4} {
				opts := append(set.opts[:len(set.opts):len(set.opts)], writer.WithCodecs(f), writer.WithWorkers(n))
				out, err := writeFile(src, set.window, opts...)
				require.NoError(t, err, "%s, %s, %d workers", path, set.name, n)
				if n == 1 {
					want = out
					continue
				}
				require.True(t, bytes.Equal(want, out), "%s, %s: %d workers write %d bytes, 1 worker %d", path, set.name, n, len(out), len(want))
			}
		}
	}
	t.Logf("%d files the same with 1, 2 and 4 workers under %d option sets", files, len(workerSets()))
	require.Greater(t, files, 100)
}

// TestWorkersConcurrentWriters runs Writers with workers on several
// goroutines at once, sharing one codec factory (run it with -race), and
// requires the files each writes alone.
func TestWorkersConcurrentWriters(t *testing.T) {
	f, err := codecfactory.New()
	require.NoError(t, err)
	type job struct {
		src  *fileData
		want []byte
	}
	var jobs []job
	set := workerSets()[1]
	for _, path := range corpusInputs(t) {
		b, err := os.ReadFile(path)
		require.NoError(t, err)
		if len(b) > 64<<10 || len(jobs) == 24 {
			continue
		}
		src, err := readFile(b)
		if err != nil {
			continue
		}
		want, err := writeFile(src, set.window, append(set.opts, writer.WithCodecs(f))...)
		require.NoError(t, err)
		jobs = append(jobs, job{src, want})
	}
	require.Len(t, jobs, 24)
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := g; k < len(jobs); k += 2 { // every job twice, on two goroutines
				out, err := writeFile(jobs[k].src, set.window, append(set.opts, writer.WithCodecs(f), writer.WithWorkers(g+2))...)
				if err == nil && !bytes.Equal(out, jobs[k].want) {
					err = errors.New("different bytes")
				}
				if err != nil {
					errs[g] = err
					return
				}
			}
		}()
	}
	wg.Wait()
	require.NoError(t, errors.Join(errs...))
}

// TestWorkersErrors checks that a codec's error in the background fails
// the Writer, and WithWorkers' bounds.
func TestWorkersErrors(t *testing.T) {
	s := testSchema(t)
	_, err := writer.New(&bytes.Buffer{}, s, writer.WithWorkers(0))
	require.ErrorIs(t, err, writer.ErrOption)
	_, err = writer.New(&bytes.Buffer{}, s, writer.WithColumn("id", writer.WithWorkers(2)))
	require.ErrorIs(t, err, writer.ErrOption)
	// Failing io.Writer: the error surfaces at Flush, and Close after it
	// writes nothing.
	fw := &failWriter{after: 10}
	w, err := writer.New(fw, s, writer.WithWorkers(3))
	require.NoError(t, err)
	require.NoError(t, w.Write(0, int64s(1, 2, 3), nil, nil))
	require.NoError(t, w.Write(1, strs("x", "y"), []int16{1, 0, 1}, nil))
	require.NoError(t, w.Write(2, strs("a"), []int16{3, 2, 0, 1}, []int16{0, 1, 0, 0}))
	require.NoError(t, w.Write(3, &testFLBA, nil, nil))
	require.ErrorIs(t, w.Flush(), errDisk)
	require.ErrorIs(t, w.Close(), errDisk)
	// A batch that fails its checks fails at once, with batches of other
	// columns in flight.
	w, err = writer.New(&bytes.Buffer{}, s, writer.WithWorkers(2))
	require.NoError(t, err)
	require.NoError(t, w.Write(0, int64s(1, 2, 3), nil, nil))
	require.ErrorIs(t, w.Write(1, strs("x"), []int16{1, 0, 1}, nil), writer.ErrLevel)
	require.Error(t, w.Close())
}

var testFLBA = column.Values{Type: format.FixedLenByteArray, TypeLength: 2, Bytes: []byte{0, 0x3c, 0, 0xc0, 0xff, 0x7f}}

// TestWorkersPagesInCompression fails a Writer while data pages are in
// compression on workers (tiny pages in the fallback encoding): through
// its io.Writer and through a bad batch. The error comes back, Close
// writes no footer, and no goroutine is left behind.
func TestWorkersPagesInCompression(t *testing.T) {
	s := testSchema(t)
	before := runtime.NumGoroutine()
	opts := []writer.Option{writer.WithWorkers(2), writer.WithDictionary(false), writer.WithPageSize(64),
		writer.WithCodec(codecfactory.Zstd), writer.WithRowGroupSize(4 << 10)}
	k := int64(0)
	round := func(w *writer.Writer) error {
		k++
		return errors.Join(w.Write(0, int64s(k*k, k*k*k, -k), nil, nil),
			w.Write(1, strs("x", "y"), []int16{1, 0, 1}, nil),
			w.Write(2, strs("a"), []int16{3, 2, 0, 1}, []int16{0, 1, 0, 0}),
			w.Write(3, &testFLBA, nil, nil))
	}
	for at := 0; at < 8<<10; at += 997 {
		fw := &breakingWriter{failAt: at, failCall: -1}
		w, err := writer.New(fw, s, opts...)
		require.NoError(t, err)
		for err == nil {
			err = round(w)
		}
		require.ErrorIs(t, err, errDisk)
		require.ErrorIs(t, w.Close(), errDisk)
		require.Zero(t, fw.callsAfter)
	}
	var buf bytes.Buffer
	w, err := writer.New(&buf, s, opts...)
	require.NoError(t, err)
	for range 50 {
		require.NoError(t, round(w))
	}
	require.NoError(t, w.Write(0, int64s(1, 2, 3), nil, nil))
	require.ErrorIs(t, w.Write(1, strs("x"), []int16{1, 0, 1}, nil), writer.ErrLevel)
	require.ErrorIs(t, w.Close(), writer.ErrLevel)
	_, err = column.Open(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	require.Error(t, err, "a failed Writer's bytes open as a file")
	for range 200 {
		if runtime.NumGoroutine() <= before {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	require.LessOrEqual(t, runtime.NumGoroutine(), before, "goroutines left running")
}

// TestWorkersRecycled writes the same file again and again with one and
// with two workers: once warm, two workers allocate about what one does.
// What WithWorkers adds (the copy of each batch, the buffers of the pages
// in compression) is reused from file to file, through recycle.go and
// jobPool, rather than allocated again by each Writer.
func TestWorkersRecycled(t *testing.T) {
	if raceEnabled {
		t.Skip("under the race detector sync.Pool drops what it is given at random")
	}
	s := sampleSchema(t)
	batches := sampleBatches(16, 4000)
	perFile := func(workers int) uint64 {
		write := func() {
			w, err := writer.New(io.Discard, s, writer.WithWorkers(workers), writer.WithDictionary(false),
				writer.WithCodec(codecfactory.Snappy), writer.WithPageSize(64<<10))
			require.NoError(t, err)
			for i := range batches {
				b := &batches[i]
				for c := range 3 {
					require.NoError(t, w.Write(c, &b[c].v, b[c].def, b[c].rep))
				}
			}
			require.NoError(t, w.Close())
		}
		write()
		// No collection in the window: it would empty the pools.
		defer debug.SetGCPercent(debug.SetGCPercent(-1))
		least := uint64(1 << 62)
		for range 10 { // the least of 10: the pools take a few files to spread over the Ps
			var m0, m1 runtime.MemStats
			runtime.ReadMemStats(&m0)
			write()
			runtime.ReadMemStats(&m1)
			least = min(least, m1.TotalAlloc-m0.TotalAlloc)
		}
		return least
	}
	one, two := perFile(1), perFile(2)
	t.Logf("bytes allocated per warm file: %d with one worker, %d with two", one, two)
	require.LessOrEqual(t, two, one+one/4+64<<10)
}
