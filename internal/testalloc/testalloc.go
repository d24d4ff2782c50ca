// Package testalloc measures the heap bytes a function allocates, for tests
// that bound allocation sizes rather than counts.
//
// runtime.MemStats counts the allocations of the whole process, not of one
// goroutine: a delta taken around a single call also holds whatever the
// runtime, the testing package or another goroutine allocated meanwhile, and
// it moves from run to run. [BytesPerRun] measures the way
// [testing.AllocsPerRun] counts: with GOMAXPROCS set to 1, after a warm-up
// call, averaged over many calls, so that a few stray kilobytes spread over
// the runs instead of failing a check.
package testalloc

import "runtime"

// BytesPerRun returns the average number of heap bytes allocated per call of
// f, over runs calls after one warm-up call (which fills caches and pools
// and is not counted). It sets GOMAXPROCS to 1 while measuring, as
// [testing.AllocsPerRun] does, and restores it on return. runs must be
// positive.
func BytesPerRun(runs int, f func()) float64 {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	f()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range runs {
		f()
	}
	runtime.ReadMemStats(&after)
	return float64(after.TotalAlloc-before.TotalAlloc) / float64(runs)
}
