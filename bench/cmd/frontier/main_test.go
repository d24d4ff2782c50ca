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
	unmatched := report(&out, configs, tolerances{cpu: 1.1, ratio: 0.01})
	// "fastest" (900 ns, 1.9) is matched by level 1 (1100 ns <= 990? no:
	// 1100 > 1.1*900 = 990), so it is unmatched; "better" (4000 ns, 3.1)
	// is matched by nothing either (level 9: 5000 > 4400); "close" (4800
	// ns, 3.2) is matched by level 9 only if 3.0 >= 3.2*0.99: no.
	require.Len(t, unmatched, 3)
	// Beats: "better" needs 5000/4000 = 1.25x less CPU than level 9 and is
	// smaller; "close" is smaller but only 1.04x faster, within the margin;
	// "fastest" is faster than level 1 but larger.
	require.Contains(t, out.String(), "| zstd ints 64KiB | 9 | klauspost better | 1.25x | 3.000 | 3.100 |")
	require.NotContains(t, out.String(), "| 9 | klauspost close |")
	require.Contains(t, out.String(), "| ours 1 | 59578 / 2.00 |") // 65536 B in 1100 ns

	// A level of ours that is fast and small enough matches them all.
	configs = append(configs, &config{codec: "zstd", data: "ints", size: "64KiB", impl: "ours", level: "x",
		cpu: []float64{800}, ratio: 3.17})
	out.Reset()
	require.Empty(t, report(&out, configs, tolerances{cpu: 1.1, ratio: 0.01}))
	require.Contains(t, out.String(), "None: on every page, every peer configuration is matched")
}

func TestParseRejectsIncompleteLines(t *testing.T) {
	_, err := parse(strings.NewReader("BenchmarkCompressLevels/codec=zstd/data=ints/size=64KiB/impl=ours/level=1-2 100 1000 ns/op\n"))
	require.Error(t, err)
}
