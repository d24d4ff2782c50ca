//go:build unix

package benchdata

import (
	"syscall"
	"time"
)

// CPUTime returns the user and system CPU time the process has used so far:
// on a shared machine it measures a benchmark better than wall time (the
// benchmarks report it per op as cpu-ns/op).
func CPUTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
