//go:build unix

package column

import (
	"syscall"
	"time"
)

// processCPUTime returns the user and system CPU time this process has used.
// Unlike the wall clock it does not run on while the machine is busy with
// other work.
func processCPUTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		panic(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
