package writer_test

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/internal/testexec"
	"github.com/pqcodec/pqcodec/writer"
)

// rssChildEnv and rssWorkersEnv carry the budget and the workers of a
// child run of TestWriteRSSChild.
const (
	rssChildEnv   = "PQCODEC_WRITE_RSS_BUDGET"
	rssWorkersEnv = "PQCODEC_WRITE_RSS_WORKERS"
)

// rssBound is the peak RSS the package documentation states for a Writer
// of cols columns under budget with the default page and dictionary
// sizes: twice (Go's heap target at GOGC=100) the budget, the capacity of
// the buffers of compressed pages beyond it (up to the budget again), and
// per column the scratch of an encoded and a compressed page (and of up to
// w pages in compression, each as much, under WithWorkers(w)) and the
// dictionary page; plus 64 MiB for the runtime, the native codecs and the
// caller's batches (with their copies in flight under workers).
func rssBound(budget int64, cols, workers int) int64 {
	pages := 2
	if workers > 1 {
		pages = 2 * (workers + 1)
	}
	perColumn := int64(pages*writer.DefaultPageSize + writer.DefaultDictionaryLimit)
	return 2*(2*budget+int64(cols)*perColumn) + 64<<20
}

// TestWriteRSS writes 2 GB of generated rows (genSchema: incompressible
// and compressible columns, a list) with 128 MiB row groups in a
// subprocess, under the default budget and a 64 MiB one, without and
// under ulimit -v 2 GiB, and with WithWorkers(2) without the ulimit (the Go runtime and glibc reserve about 1.5 GiB
// of address space that they do not use: ulimit -v 1 GiB fails on any
// budget), and fails when the child's peak RSS (VmHWM) passes rssBound. Set PQCODEC_LARGE=1 to run it (make test-memory):
// about a minute of CPU per run.
func TestWriteRSS(t *testing.T) {
	if os.Getenv("PQCODEC_LARGE") == "" {
		t.Skip("PQCODEC_LARGE not set (make test-memory)")
	}
	if runtime.GOOS != "linux" || raceEnabled {
		t.Skip("needs linux /proc and bash ulimit; the race detector reserves too much address space")
	}
	exe := testexec.Executable(t)
	type run struct {
		budget  int64
		ulimit  string
		workers int
	}
	var runs []run
	for _, budget := range []int64{writer.DefaultMaxMemory, 64 << 20} {
		for _, ulimit := range []string{"unlimited", strconv.Itoa(2 << 20)} {
			runs = append(runs, run{budget, ulimit, 1})
		}
		runs = append(runs, run{budget, "unlimited", 2})
	}
	for _, r := range runs {
		budget, ulimit := r.budget, r.ulimit
		cmd := exec.Command("bash", "-c", `ulimit -v `+ulimit+` && exec "$0" "$@"`, exe, "-test.run=^TestWriteRSSChild$", "-test.v")
		cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%d", rssChildEnv, budget), fmt.Sprintf("%s=%d", rssWorkersEnv, r.workers))
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "budget %d, ulimit -v %s, %d workers:\n%s", budget, ulimit, r.workers, out)
		var line string
		sc := bufio.NewScanner(bytes.NewReader(out))
		for sc.Scan() {
			if s := sc.Text(); strings.Contains(s, "write-rss:") {
				line = s[strings.Index(s, "write-rss:"):]
			}
		}
		require.NotEmpty(t, line, "%s", out)
		var hwm, input, output, groups, maxGroup, peak int64
		var cpu float64
		_, err = fmt.Sscanf(line, "write-rss: vmhwm=%d input=%d output=%d rowgroups=%d maxrowgroup=%d cpu=%f vmpeak=%d",
			&hwm, &input, &output, &groups, &maxGroup, &cpu, &peak)
		require.NoError(t, err, line)
		bound := rssBound(budget, 6, r.workers)
		t.Logf("WithWorkers(%d), budget %d MiB, ulimit -v %s KiB: peak RSS %d MiB (bound %d MiB), peak address space %d MiB, %d MB of rows into %d MB, %d row groups of at most %d MiB, %.0f s CPU",
			r.workers, budget>>20, ulimit, hwm>>20, bound>>20, peak>>20, input/1e6, output/1e6, groups, maxGroup>>20, cpu)
		require.LessOrEqual(t, hwm, bound, "peak RSS past the documented bound")
		require.GreaterOrEqual(t, input, int64(2e9))
		require.LessOrEqual(t, maxGroup, min(budget, writer.DefaultRowGroupSize+16<<20))
	}
}

// tailWriter counts the bytes written to it and keeps the last ones, for
// the footer.
type tailWriter struct {
	n    int64
	tail []byte
}

func (w *tailWriter) Write(p []byte) (int, error) {
	w.n += int64(len(p))
	w.tail = append(w.tail, p...)
	if len(w.tail) > 16<<20 {
		w.tail = append(w.tail[:0], w.tail[len(w.tail)-8<<20:]...)
	}
	return len(p), nil
}

func (w *tailWriter) ReadAt(p []byte, off int64) (int, error) {
	base := w.n - int64(len(w.tail))
	if off < base || off+int64(len(p)) > w.n {
		return 0, fmt.Errorf("offset %d outside the last %d bytes", off, len(w.tail))
	}
	return copy(p, w.tail[off-base:]), nil
}

// TestWriteRSSChild is TestWriteRSS's subprocess.
func TestWriteRSSChild(t *testing.T) {
	b := os.Getenv(rssChildEnv)
	if b == "" {
		t.Skip("run by TestWriteRSS")
	}
	budget, err := strconv.ParseInt(b, 10, 64)
	require.NoError(t, err)
	workers, err := strconv.Atoi(os.Getenv(rssWorkersEnv))
	require.NoError(t, err)
	var out tailWriter
	s, err := format.ParseSchema(genSchema)
	require.NoError(t, err)
	w, err := writer.New(&out, s, writer.WithMaxMemory(budget), writer.WithRowGroupSize(128<<20),
		writer.WithRowGroupRows(1<<40), writer.WithWorkers(workers)) // the size decides
	require.NoError(t, err)
	g := newGen(3)
	var input int64
	for input < 2e9 {
		input += g.batch(8192)
		require.NoError(t, g.write(w))
	}
	require.NoError(t, w.Close())
	meta, err := format.ReadFooter(&out, out.n)
	require.NoError(t, err)
	var maxGroup int64
	for _, rg := range meta.RowGroups {
		maxGroup = max(maxGroup, *rg.TotalCompressedSize)
	}
	var ru syscall.Rusage
	require.NoError(t, syscall.Getrusage(syscall.RUSAGE_SELF, &ru))
	cpu := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	status, err := os.ReadFile("/proc/self/status")
	require.NoError(t, err)
	var hwm, peak int64
	for _, l := range strings.Split(string(status), "\n") {
		if f := strings.Fields(l); len(f) == 3 && (f[0] == "VmHWM:" || f[0] == "VmPeak:") {
			kib, err := strconv.ParseInt(f[1], 10, 64)
			require.NoError(t, err)
			if f[0] == "VmHWM:" {
				hwm = kib << 10
			} else {
				peak = kib << 10
			}
		}
	}
	require.NotZero(t, hwm)
	fmt.Printf("write-rss: vmhwm=%d input=%d output=%d rowgroups=%d maxrowgroup=%d cpu=%.1f vmpeak=%d\n",
		hwm, input, out.n, len(meta.RowGroups), maxGroup, cpu.Seconds(), peak)
}
