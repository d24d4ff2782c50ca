package codecfactory

import (
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// rss returns the process's resident memory in bytes, from /proc.
func rss(t *testing.T) int64 {
	t.Helper()
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skip("no /proc/self/status")
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			require.NoError(t, err)
			return kb << 10
		}
	}
	t.Skip("no VmRSS")
	return 0
}

// settle collects Go garbage and returns freed pages to the OS, so that RSS
// differences are native memory and live Go memory.
func settle() {
	runtime.GC()
	debug.FreeOSMemory()
}

// TestWithMaxIdle checks that the idle lists never hold more than the
// option allows, under concurrent use, and that 0 still works.
func TestWithMaxIdle(t *testing.T) {
	_, err := New(WithMaxIdle(-1))
	require.ErrorIs(t, err, ErrOption)
	src := genData(datasets[1], 16<<10, 5)
	for _, n := range []int{0, 1, 3} {
		f, err := New(WithMaxIdle(n))
		require.NoError(t, err)
		for _, c := range allCodecs {
			comp := compressed(t, f, c, src)
			var wg sync.WaitGroup
			for range 8 {
				wg.Go(func() {
					for range 20 {
						out, err := f.Decompress(c, nil, comp, len(src))
						if err != nil || len(out) != len(src) {
							t.Errorf("%v: %v", c, err)
						}
						if canCompress(f, c) {
							if _, err := f.Compress(c, nil, src); err != nil {
								t.Errorf("%v: %v", c, err)
							}
						}
					}
				})
			}
			wg.Wait()
			require.LessOrEqual(t, len(f.decomp[c].items), n, "%v", c)
			require.LessOrEqual(t, len(f.comp[c].items), n, "%v", c)
		}
		require.NoError(t, f.Close())
	}
}

// borrowsEnv sets the number of borrows of TestBorrowRSS (default 5,000;
// the long run is 1,000,000).
const borrowsEnv = "PQCODEC_BORROWS"

// TestBorrowRSS borrows contexts of every codec many times from 4
// goroutines and checks that resident memory stays flat once warm: idle
// contexts are reused, not leaked.
func TestBorrowRSS(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's shadow memory grows")
	}
	borrows := 5000
	if v := os.Getenv(borrowsEnv); v != "" {
		var err error
		borrows, err = strconv.Atoi(v)
		require.NoError(t, err)
	}
	src := genData(datasets[1], 4<<10, 9)
	for _, nf := range testFactories(t) {
		for _, c := range allCodecs {
			comp := compressed(t, nf.f, c, src)
			run := func(n int) {
				var wg sync.WaitGroup
				for g := range 4 {
					wg.Go(func() {
						dst := make([]byte, 0, len(src))
						for i := g; i < n; i += 4 {
							if _, err := nf.f.Decompress(c, dst, comp, len(src)); err != nil {
								t.Error(err)
								return
							}
						}
					})
				}
				wg.Wait()
			}
			run(1000) // warm
			settle()
			before := rss(t)
			run(borrows)
			settle()
			after := rss(t)
			t.Logf("%s %v: %d borrows, RSS %d -> %d KiB", nf.name, c, borrows, before>>10, after>>10)
			require.Less(t, after-before, int64(8<<20), "%s %v: RSS grew by %d bytes", nf.name, c, after-before)
		}
	}
}

// nativeMemoryEnv enables TestNativeMemory, which measures and prints the
// resident memory of idle contexts (the README's table).
const nativeMemoryEnv = "PQCODEC_NATIVE_MEMORY"

// TestNativeMemory measures the resident memory one idle context of each
// kind holds after compressing or decompressing a 1 MiB page: 32 contexts
// are created, used once, and kept idle; the RSS growth divided by 32 is
// printed. Set PQCODEC_NATIVE_MEMORY=1 to run it.
func TestNativeMemory(t *testing.T) {
	if os.Getenv(nativeMemoryEnv) == "" {
		t.Skip("set " + nativeMemoryEnv + "=1 to measure the resident memory of idle contexts")
	}
	const k = 32
	src := genData(datasets[1], 1<<20, 7)
	for _, nf := range testFactories(t, WithMaxIdle(k)) {
		for _, c := range allCodecs {
			comp := compressed(t, nf.f, c, src)
			im := nf.f.impl[c]
			row := fmt.Sprintf("%-8s %-8v", nf.name, c)
			if canCompress(nf.f, c) {
				settle()
				before := rss(t)
				var keep []compressor
				for range k {
					e, err := im.newCompressor()
					require.NoError(t, err)
					_, err = e.compress(make([]byte, 0, nf.f.CompressBound(c, len(src))), src)
					require.NoError(t, err)
					keep = append(keep, e)
				}
				settle()
				row += fmt.Sprintf(" compress %7d KiB/context", (rss(t)-before)/k>>10)
				for _, e := range keep {
					closeContext(e)
				}
			}
			settle()
			before := rss(t)
			var keep []decompressor
			dst := make([]byte, 0, len(src))
			for range k {
				d, err := im.newDecompressor()
				require.NoError(t, err)
				_, err = d.decompress(dst, comp, len(src))
				require.NoError(t, err)
				keep = append(keep, d)
			}
			settle()
			row += fmt.Sprintf(" decompress %7d KiB/context", (rss(t)-before)/k>>10)
			for _, d := range keep {
				closeContext(d)
			}
			t.Log(row)
		}
	}
}

// TestNativeMemoryConcurrent measures the resident memory after 64
// goroutines compressed and decompressed 1 MiB pages with every native
// codec at once, with the idle lists bounded by PQCODEC_MAX_IDLE (default:
// the Factory's default). Run it with and without MALLOC_ARENA_MAX=2 to
// see what glibc's per-thread arenas cost. Set PQCODEC_NATIVE_MEMORY=1 to
// run it.
func TestNativeMemoryConcurrent(t *testing.T) {
	if os.Getenv(nativeMemoryEnv) == "" {
		t.Skip("set " + nativeMemoryEnv + "=1 to measure")
	}
	var opts []Option
	if v := os.Getenv("PQCODEC_MAX_IDLE"); v != "" {
		n, err := strconv.Atoi(v)
		require.NoError(t, err)
		opts = append(opts, WithMaxIdle(n))
	}
	f, err := New(opts...)
	require.NoError(t, err)
	src := genData(datasets[1], 1<<20, 11)
	settle()
	before := rss(t)
	var ms runtime.MemStats
	var wg sync.WaitGroup
	for g := range 64 {
		wg.Go(func() {
			for _, c := range allCodecs {
				if !canCompress(f, c) {
					continue
				}
				comp, err := f.Compress(c, nil, src)
				if err == nil {
					_, err = f.Decompress(c, nil, comp, len(src))
				}
				if err != nil {
					t.Errorf("goroutine %d %v: %v", g, c, err)
				}
			}
		})
	}
	wg.Wait()
	settle()
	runtime.ReadMemStats(&ms)
	t.Logf("MALLOC_ARENA_MAX=%q PQCODEC_MAX_IDLE=%q: RSS %d -> %d MiB, Go heap in use %d MiB",
		os.Getenv("MALLOC_ARENA_MAX"), os.Getenv("PQCODEC_MAX_IDLE"), before>>20, rss(t)>>20, ms.HeapInuse>>20)
}
