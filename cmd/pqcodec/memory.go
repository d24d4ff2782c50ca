package main

import (
	"flag"
	"fmt"
	"strconv"
	"strings"
	"syscall"
)

// defaultMaxMemory is the default of --max-memory: 4 GiB, or, under an
// address-space limit (ulimit -v), half of the largest block the process
// can still map when it starts. Half of the limit itself was too much: a
// pqcodec process maps 1.0-1.5 GiB of address space it never touches (the
// Go runtime's reservations, the C libraries' malloc arenas), so under
// ulimit -v 2 GiB a reader allowed 1 GiB died in the runtime ("fatal error:
// out of memory", cannot allocate a 1.06 GiB block with 7 MiB in use)
// instead of failing with the limit.
func defaultMaxMemory() int64 {
	const def = 4 << 30
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &rl); err != nil || rl.Cur == ^uint64(0) {
		return def
	}
	return min(def, int64(rl.Cur/2), mappable(int64(rl.Cur))/2)
}

// mappable returns about the largest block of address space, up to limit
// bytes, that the process can map now: found by mapping (without touching)
// and unmapping blocks, to 1 MiB.
func mappable(limit int64) int64 {
	lo, hi := int64(0), limit+1
	for hi-lo > 1<<20 {
		mid := lo + (hi-lo)/2
		b, err := syscall.Mmap(-1, 0, int(mid), syscall.PROT_NONE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
		if err != nil {
			hi = mid
			continue
		}
		_ = syscall.Munmap(b)
		lo = mid
	}
	return lo
}

// byteSize is a flag value of bytes, with an optional unit: 512MiB, 2GiB,
// 1.5GB, 0 (no bound).
type byteSize int64

func (b *byteSize) String() string { return formatBytes(int64(*b)) }

func (b *byteSize) Set(s string) error {
	v, err := parseBytes(s)
	if err != nil {
		return err
	}
	*b = byteSize(v)
	return nil
}

// memoryFlag adds --max-memory to fs.
func memoryFlag(fs *flag.FlagSet) *byteSize {
	b := byteSize(defaultMaxMemory())
	fs.Var(&b, "max-memory", "bound the memory of each column reader to `SIZE` bytes (units KiB, MiB, GiB, KB, MB, GB; 0: no bound); "+
		"a file that needs more fails with one line and exit status 1")
	return &b
}

var units = []struct {
	suffix string
	mult   float64
}{
	{"kib", 1 << 10}, {"mib", 1 << 20}, {"gib", 1 << 30}, {"tib", 1 << 40},
	{"kb", 1e3}, {"mb", 1e6}, {"gb", 1e9}, {"tb", 1e12},
	{"k", 1 << 10}, {"m", 1 << 20}, {"g", 1 << 30}, {"b", 1},
}

func parseBytes(s string) (int64, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	mult := 1.0
	for _, u := range units {
		if rest, ok := strings.CutSuffix(t, u.suffix); ok {
			t, mult = strings.TrimSpace(rest), u.mult
			break
		}
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || v < 0 || v*mult > 1<<62 {
		return 0, fmt.Errorf("invalid size %q", s)
	}
	return int64(v * mult), nil
}

func formatBytes(n int64) string {
	switch {
	case n == 0:
		return "0"
	case n%(1<<30) == 0:
		return strconv.FormatInt(n>>30, 10) + "GiB"
	case n%(1<<20) == 0:
		return strconv.FormatInt(n>>20, 10) + "MiB"
	}
	return strconv.FormatInt(n, 10)
}
