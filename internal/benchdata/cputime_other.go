//go:build !unix

package benchdata

import "time"

var processStart = time.Now()

// CPUTime falls back to the wall-clock time since the process started where
// getrusage is not available.
func CPUTime() time.Duration { return time.Since(processStart) }
