package main

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
)

// sample holds every measurement of one implementation of one row, by unit
// ("ns/op", "MB/s", "B/op", "allocs/op", "ratio").
type sample map[string][]float64

// median returns the median of the unit's values and whether there are any.
func (s sample) median(unit string) (float64, bool) {
	v := s[unit]
	if len(v) == 0 {
		return 0, false
	}
	v = slices.Clone(v)
	slices.Sort(v)
	if len(v)%2 == 1 {
		return v[len(v)/2], true
	}
	return (v[len(v)/2-1] + v[len(v)/2]) / 2, true
}

// spread returns (max-min)/median of the unit's values: how far the
// repeated measurements of one implementation moved.
func (s sample) spread(unit string) float64 {
	v := s[unit]
	m, ok := s.median(unit)
	if !ok || m == 0 || len(v) < 2 {
		return 0
	}
	return (slices.Max(v) - slices.Min(v)) / m
}

// row is every implementation measured for one benchmark row, such as
// "Decompress/codec=zstd/data=ts/size=1MiB".
type row struct {
	name  string
	impls []string // in order of first appearance
	by    map[string]sample
}

// key returns the value of the key=value element k of the row name, or "".
func (r *row) key(k string) string {
	for _, part := range strings.Split(r.name, "/") {
		if name, v, ok := strings.Cut(part, "="); ok && name == k {
			return v
		}
	}
	return ""
}

// kind returns the benchmark function of the row: Decompress, Compress,
// Decode or Encode.
func (r *row) kind() string {
	k, _, _ := strings.Cut(r.name, "/")
	return k
}

// label returns the row name without its kind and without the keys in drop.
func (r *row) label(drop ...string) string {
	parts := strings.Split(r.name, "/")[1:]
	var keep []string
	for _, p := range parts {
		k, v, _ := strings.Cut(p, "=")
		if slices.Contains(drop, k) {
			continue
		}
		keep = append(keep, v)
	}
	return strings.Join(keep, " ")
}

// nsop returns the median ns/op of impl in the row.
func (r *row) nsop(impl string) (float64, bool) {
	s, ok := r.by[impl]
	if !ok {
		return 0, false
	}
	return s.median("ns/op")
}

// ratio returns ours/impl speed: impl's median ns/op over ours'.
func (r *row) ratio(impl string) (float64, bool) {
	o, ok1 := r.nsop("ours")
	p, ok2 := r.nsop(impl)
	if !ok1 || !ok2 || o == 0 {
		return 0, false
	}
	return p / o, true
}

// overlaps reports whether the ns/op samples of ours and impl overlap: the
// slowest run of the faster implementation is slower than the fastest run of
// the other, so the order of the two is not settled by this run.
func (r *row) overlaps(impl string) bool { return r.overlap("ours", impl) }

// overlap reports whether the ns/op samples of implementations a and b
// overlap.
func (r *row) overlap(a, b string) bool {
	o, p := r.by[a]["ns/op"], r.by[b]["ns/op"]
	if len(o) < 2 || len(p) < 2 {
		return false
	}
	return slices.Min(o) <= slices.Max(p) && slices.Min(p) <= slices.Max(o)
}

// noisy reports whether the gap between ours and impl is within noise:
// below the fixed threshold, or with overlapping samples.
func (r *row) noisy(impl string) bool {
	q, ok := r.ratio(impl)
	return ok && (q < noise && q > 1/noise || r.overlaps(impl))
}

// peer reports whether impl is another library's implementation of the row,
// rather than ours (ours, native, purego), the physical limit (copy), or an
// implementation that does different work (a _bitmap suffix).
func peer(impl string) bool {
	switch impl {
	case "ours", "native", "purego", "copy":
		return false
	}
	return !strings.HasSuffix(impl, "_bitmap")
}

// bestPeer returns the fastest peer of the row and ours/that peer's speed.
func (r *row) bestPeer() (string, float64, bool) {
	best, bestRatio, found := "", math.Inf(1), false
	for _, im := range r.impls {
		if !peer(im) {
			continue
		}
		if q, ok := r.ratio(im); ok && q < bestRatio {
			best, bestRatio, found = im, q, true
		}
	}
	return best, bestRatio, found
}

// results is the parsed output of one or more benchmark runs.
type results struct {
	cpu   string
	rows  []*row
	index map[string]*row
}

func newResults() *results { return &results{index: map[string]*row{}} }

// parse reads `go test -bench` output, adding every result line to res.
// Lines that are not results (headers, PASS, ok) are skipped, except cpu:.
func (res *results) parse(r io.Reader) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		if cpu, ok := strings.CutPrefix(text, "cpu:"); ok && res.cpu == "" {
			res.cpu = strings.TrimSpace(cpu)
			continue
		}
		if !strings.HasPrefix(text, "Benchmark") {
			continue
		}
		f := strings.Fields(text)
		if len(f) < 4 || len(f)%2 != 0 {
			continue // a benchmark that printed its name only (a failure or a log line)
		}
		if _, err := strconv.Atoi(f[1]); err != nil {
			continue
		}
		name := strings.TrimPrefix(f[0], "Benchmark")
		// Drop the -GOMAXPROCS suffix.
		if i := strings.LastIndexByte(name, '-'); i > 0 {
			if _, err := strconv.Atoi(name[i+1:]); err == nil {
				name = name[:i]
			}
		}
		rowName, impl, ok := strings.Cut(name, "/impl=")
		if !ok || impl == "" || strings.Contains(impl, "/") {
			return fmt.Errorf("line %d: benchmark %q has no final /impl= key", line, f[0])
		}
		rw := res.index[rowName]
		if rw == nil {
			rw = &row{name: rowName, by: map[string]sample{}}
			res.index[rowName] = rw
			res.rows = append(res.rows, rw)
		}
		s := rw.by[impl]
		if s == nil {
			s = sample{}
			rw.by[impl] = s
			rw.impls = append(rw.impls, impl)
		}
		for i := 2; i+1 < len(f); i += 2 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				return fmt.Errorf("line %d: value %q: %v", line, f[i], err)
			}
			s[f[i+1]] = append(s[f[i+1]], v)
		}
	}
	return sc.Err()
}

// ofKind returns the rows of one benchmark function, in input order.
func (res *results) ofKind(kind string) []*row {
	var out []*row
	for _, r := range res.rows {
		if r.kind() == kind {
			out = append(out, r)
		}
	}
	return out
}

// geomean returns the geometric mean of v, or NaN for an empty v.
func geomean(v []float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	var s float64
	for _, x := range v {
		s += math.Log(x)
	}
	return math.Exp(s / float64(len(v)))
}
