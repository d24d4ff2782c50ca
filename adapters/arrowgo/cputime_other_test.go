//go:build !unix

package arrowgo

import "time"

// processCPUTime is 0 where getrusage is missing: cpu-ns/op reads 0.
func processCPUTime() time.Duration { return 0 }
