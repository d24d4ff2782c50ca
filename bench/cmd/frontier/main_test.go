package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

const sample = `goos: linux
cpu: Test CPU
BenchmarkCompressLevels/codec=zstd/data=ints/size=64KiB/impl=ours/level=1-2   100  1000 ns/op  65.5 MB/s  1000 cpu-ns/op  2.000 ratio  0 B/op  0 allocs/op
BenchmarkCompressLevels/codec=zstd/data=ints/size=64KiB/impl=ours/level=1-2   100  1000 ns/op  65.5 MB/s  1200 cpu-ns/op  2.000 ratio  0 B/op  0 allocs/op
BenchmarkCompressLevels/codec=zstd/data=ints/size=64KiB/impl=ours/level=1-2   100  1000 ns/op  65.5 MB/s  1100 cpu-ns/op  2.000 ratio  0 B/op  0 allocs/op
BenchmarkCompressLevels/codec=zstd/data=ints/size=64KiB/impl=ours/level=9-2   100  1000 ns/op  65.5 MB/s  5000 cpu-ns/op  3.000 ratio  0 B/op  0 allocs/op
BenchmarkCompressLevels/codec=zstd/data=ints/size=64KiB/impl=klauspost/level=fastest-2   100  1000 ns/op  65.5 MB/s  900 cpu-ns/op  1.900 ratio  0 B/op  0 allocs/op
BenchmarkCompressLevels/codec=zstd/data=ints/size=64KiB/impl=klauspost/level=better-2   100  1000 ns/op  65.5 MB/s  4000 cpu-ns/op  3.100 ratio  0 B/op  0 allocs/op
BenchmarkCompressLevels/codec=zstd/data=ints/size=64KiB/impl=klauspost/level=close-2   100  1000 ns/op  65.5 MB/s  4800 cpu-ns/op  3.200 ratio  0 B/op  0 allocs/op
`

func TestReport(t *testing.T) {
	configs, err := parse(strings.NewReader(sample))
	require.NoError(t, err)
	require.Len(t, configs, 5)
	require.Equal(t, []float64{1000, 1200, 1100}, configs[0].cpu)
	require.Equal(t, 1100.0, configs[0].medianCPU())
	require.Equal(t, ", cpu Test CPU", cpuName)

	var out strings.Builder
	beats := report(&out, configs, 1.1)
	// "better" needs 5000/4000 = 1.25x less CPU than level 9 and is
	// smaller: a beat. "close" is smaller but only 1.04x faster: within
	// the margin. "fastest" is faster than level 1 but larger.
	require.Len(t, beats, 1)
	require.Equal(t, "9", beats[0].ours.level)
	require.Equal(t, "better", beats[0].peer.level)
	require.Contains(t, out.String(), "| ours 1 | 59578 / 2.00 |") // 65536 B in 1100 ns
	require.Contains(t, out.String(), "| zstd ints 64KiB | 9 | klauspost better | 1.25x | 3.000 | 3.100 |")
}

func TestParseRejectsIncompleteLines(t *testing.T) {
	_, err := parse(strings.NewReader("BenchmarkCompressLevels/codec=zstd/data=ints/size=64KiB/impl=ours/level=1-2 100 1000 ns/op\n"))
	require.Error(t, err)
}
