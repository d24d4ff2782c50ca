package testalloc

import (
	"testing"

	"github.com/stretchr/testify/require"
)

var sink []byte

func TestBytesPerRun(t *testing.T) {
	// Nothing allocates but the rest of the process: a stray allocation
	// elsewhere (up to 100 KiB over the 100 runs) stays under 1 KiB per run.
	require.Less(t, BytesPerRun(100, func() {}), 1024.0)
	// A 64 KiB make is rounded to its size class (64 KiB exactly); a few
	// stray bytes from elsewhere in the process may add to the average.
	got := BytesPerRun(100, func() { sink = make([]byte, 64<<10) })
	require.GreaterOrEqual(t, got, float64(64<<10))
	require.Less(t, got, float64(65<<10))
	// The warm-up call is not counted: a cache filled once costs nothing.
	var cache []byte
	got = BytesPerRun(100, func() {
		if cache == nil {
			cache = make([]byte, 1<<20)
		}
	})
	require.Less(t, got, 1024.0)
}
