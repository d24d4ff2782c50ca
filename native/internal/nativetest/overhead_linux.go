package nativetest

import (
	"bytes"
	"fmt"
	"os"
	"runtime"
	"syscall"
	"testing"
	"time"
	"unsafe"
)

// threadCPU returns the CPU time the calling OS thread has used, from
// clock_gettime(CLOCK_THREAD_CPUTIME_ID), which is precise to the
// nanosecond (getrusage's thread times move in scheduler-tick steps).
func threadCPU() time.Duration {
	const clockThreadCPUTimeID = 3
	var ts syscall.Timespec
	if _, _, errno := syscall.RawSyscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTimeID,
		uintptr(unsafe.Pointer(&ts)), 0); errno != 0 {
		panic(errno)
	}
	return time.Duration(ts.Nano())
}

// Overhead measures each impl's per-operation cost in CPU time of the
// calling thread, which, unlike wall time, does not count the time the
// thread waits for a CPU on a loaded machine. Impls run in alternating
// rounds and the cheapest round counts. It reports the overhead of every
// impl relative to the last one (the direct C call). It runs only when
// PQCODEC_OVERHEAD=1, as it takes a while.
func Overhead(t *testing.T, impls ...Impl) {
	if os.Getenv("PQCODEC_OVERHEAD") != "1" {
		t.Skip("set PQCODEC_OVERHEAD=1 to measure the binding overhead")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	const rounds = 25
	for _, op := range []string{"compress", "decompress"} {
		for _, n := range BenchSizes {
			src := ParquetPage(n, 42)
			z := impls[0].Compress(nil, src)
			dst := make([]byte, 0, max(2*n+1024, n+n/8+4096))
			run := func(im Impl) {
				if op == "compress" {
					im.Compress(dst, src)
				} else {
					im.Decompress(dst, z)
				}
			}
			for _, im := range impls {
				if got := im.Decompress(dst, z); !bytes.Equal(got, src) {
					t.Fatalf("%s: wrong output", im.Name)
				}
			}
			// Enough iterations for ~20 ms of work per round, timed warm.
			for _, im := range impls {
				run(im)
			}
			start := threadCPU()
			run(impls[0])
			iters := max(1, int(20*time.Millisecond/max(threadCPU()-start, time.Microsecond)))
			best := make([]time.Duration, len(impls))
			for range rounds {
				for i, im := range impls {
					start := threadCPU()
					for range iters {
						run(im)
					}
					if d := (threadCPU() - start) / time.Duration(iters); best[i] == 0 || d < best[i] {
						best[i] = d
					}
				}
			}
			base := best[len(best)-1]
			line := fmt.Sprintf("op=%s %s:", op, SizeName(n))
			for i, im := range impls {
				line += fmt.Sprintf("  %s %v (%+.2f%%)", im.Name, best[i],
					100*(float64(best[i])/float64(base)-1))
			}
			t.Log(line)
		}
	}
}
