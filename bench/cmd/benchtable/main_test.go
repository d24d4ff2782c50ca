package main

import (
	"bufio"
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const sampleOutput = `goos: linux
cpu: Test CPU
BenchmarkDecompress/codec=zstd/data=ts/size=64KiB/impl=ours-2         	     904	    100 ns/op	 500.00 MB/s	       0 B/op	       0 allocs/op
BenchmarkDecompress/codec=zstd/data=ts/size=64KiB/impl=klauspost-2    	     182	    300 ns/op	 166.00 MB/s	       1 B/op	       0 allocs/op
BenchmarkDecompress/codec=zstd/data=ts/size=64KiB/impl=ours-2         	     904	    120 ns/op	 450.00 MB/s	       0 B/op	       0 allocs/op
BenchmarkDecompress/codec=zstd/data=ts/size=64KiB/impl=klauspost-2    	     182	    320 ns/op	 160.00 MB/s	       1 B/op	       0 allocs/op
BenchmarkDecompress/codec=zstd/data=ts/size=64KiB/impl=ours-2         	     904	    110 ns/op	 480.00 MB/s	       0 B/op	       0 allocs/op
BenchmarkDecompress/codec=zstd/data=ts/size=64KiB/impl=klauspost-2    	     182	    330 ns/op	 150.00 MB/s	       1 B/op	       0 allocs/op
BenchmarkDecode/enc=plain/type=int32/data=ints/size=64KiB/impl=ours-2  	 100	 1000 ns/op	 65.00 MB/s	 0 B/op	 2 allocs/op
BenchmarkDecode/enc=plain/type=int32/data=ints/size=64KiB/impl=parquetgo-2  	 100	 900 ns/op	 72.00 MB/s	 0 B/op	 0 allocs/op
BenchmarkDecode/enc=plain/type=int32/data=ints/size=64KiB/impl=copy-2  	 100	 500 ns/op	 130.00 MB/s	 0 B/op	 0 allocs/op
BenchmarkCompress/codec=zstd/data=ts/size=64KiB/impl=ours-2  	 100	 1000 ns/op	 65.00 MB/s	 0 B/op	 0 allocs/op	 3.5 ratio
PASS
ok  	github.com/pqcodec/pqcodec/bench	7.942s
`

func TestParse(t *testing.T) {
	res := newResults()
	require.NoError(t, res.parse(strings.NewReader(sampleOutput)))
	assert.Equal(t, "Test CPU", res.cpu)
	require.Len(t, res.rows, 3)
	r := res.rows[0]
	assert.Equal(t, "Decompress/codec=zstd/data=ts/size=64KiB", r.name)
	assert.Equal(t, []string{"ours", "klauspost"}, r.impls)
	m, ok := r.nsop("ours")
	require.True(t, ok)
	assert.Equal(t, 110.0, m)
	q, ok := r.ratio("klauspost")
	require.True(t, ok)
	assert.InDelta(t, 320.0/110, q, 1e-9)
	best, q, ok := r.bestPeer()
	require.True(t, ok)
	assert.Equal(t, "klauspost", best)
	assert.InDelta(t, 320.0/110, q, 1e-9)
	assert.Equal(t, "zstd", r.key("codec"))
	assert.Equal(t, "ts 64KiB", r.label("codec"))

	ratio, ok := res.rows[2].by["ours"].median("ratio")
	require.True(t, ok)
	assert.Equal(t, 3.5, ratio)
}

func TestParseRejectsMissingImpl(t *testing.T) {
	res := newResults()
	err := res.parse(strings.NewReader("BenchmarkX/a=1-2 \t 10 \t 5 ns/op\n"))
	require.Error(t, err)
}

func TestBestPeerSkipsOursAndLimits(t *testing.T) {
	res := newResults()
	require.NoError(t, res.parse(strings.NewReader(sampleOutput)))
	best, q, ok := res.rows[1].bestPeer()
	require.True(t, ok)
	assert.Equal(t, "parquetgo", best, "copy is a limit, not a peer")
	assert.InDelta(t, 0.9, q, 1e-9)
}

func TestGoals(t *testing.T) {
	res := newResults()
	require.NoError(t, res.parse(strings.NewReader(sampleOutput)))
	goals := checkGoals(res)
	byGoal := map[string]goalCheck{}
	for _, g := range goals {
		byGoal[strings.SplitN(g.goal, " (", 2)[0]] = g
	}
	enc := byGoal["every encoding row >= 1.0x the best Go peer"]
	assert.Equal(t, 1, enc.rows)
	assert.Len(t, enc.misses, 1, "ours is 0.9x parquetgo")
	cp := byGoal["PLAIN fixed-width decode >= 0.9x copy"]
	assert.Len(t, cp.misses, 1, "ours is 0.5x copy")
	allocs := byGoal["0 allocs/op on every warm path"]
	assert.Len(t, allocs.misses, 1)
	assert.Contains(t, allocs.misses[0], "2 allocs/op")
	zstd := byGoal["ZSTD and BROTLI decompress >= the best peer"]
	assert.Equal(t, 1, zstd.rows)
	assert.Empty(t, zstd.misses)
}

func TestReport(t *testing.T) {
	res := newResults()
	require.NoError(t, res.parse(strings.NewReader(sampleOutput)))
	var buf bytes.Buffer
	w := bufio.NewWriter(&buf)
	writeReport(w, res, machineInfo{goVersion: "go1.x", cpu: "Test CPU", nproc: 2, cmd: "bench.sh",
		versions: []string{"github.com/klauspost/compress v1.20.4"}})
	require.NoError(t, w.Flush())
	out := buf.String()
	assert.Contains(t, out, "| ts 64KiB | 480 | 160 (2.91x) | **2.91x** klauspost |")
	assert.Contains(t, out, "github.com/klauspost/compress v1.20.4")
	assert.Contains(t, out, "0.90x~ vs parquetgo (within noise)")
	assert.Contains(t, out, "| ts 64KiB | 3.50 |")
}

func TestRequires(t *testing.T) {
	mod := "module x\n\nrequire (\n\tgithub.com/a/b v1.0.0\n\tgithub.com/pqcodec/pqcodec v0.0.0\n\tgithub.com/c/d v2.0.0 // indirect\n)\n\nrequire github.com/e/f v0.1.0\n"
	assert.Equal(t, []string{"github.com/a/b v1.0.0", "github.com/e/f v0.1.0"}, requires(mod))
}

func TestOverlapMarksNoise(t *testing.T) {
	in := `BenchmarkDecode/enc=x/impl=ours-2 	 10 	 100 ns/op
BenchmarkDecode/enc=x/impl=peer-2 	 10 	 250 ns/op
BenchmarkDecode/enc=x/impl=ours-2 	 10 	 400 ns/op
BenchmarkDecode/enc=x/impl=peer-2 	 10 	 260 ns/op
BenchmarkDecode/enc=x/impl=ours-2 	 10 	 110 ns/op
BenchmarkDecode/enc=x/impl=peer-2 	 10 	 270 ns/op
`
	res := newResults()
	require.NoError(t, res.parse(strings.NewReader(in)))
	r := res.rows[0]
	q, ok := r.ratio("peer")
	require.True(t, ok)
	assert.InDelta(t, 260.0/110, q, 1e-9, "2.4x by medians")
	assert.True(t, r.overlaps("peer"), "ours ran 400 ns once: the runs overlap")
	assert.Equal(t, "2.36x~", rowRatio(r, "peer"))

	res = newResults()
	require.NoError(t, res.parse(strings.NewReader(sampleOutput)))
	assert.False(t, res.rows[0].overlaps("klauspost"))
	assert.Equal(t, "2.91x", rowRatio(res.rows[0], "klauspost"))
}
