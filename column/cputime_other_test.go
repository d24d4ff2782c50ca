//go:build !unix

package column

import "time"

var processStart = time.Now()

// processCPUTime falls back to the wall-clock time since the process started
// where getrusage is not available.
func processCPUTime() time.Duration { return time.Since(processStart) }
