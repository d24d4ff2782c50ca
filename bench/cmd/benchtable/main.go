// Command benchtable turns the output of `go test -bench` runs of the
// github.com/pqcodec/pqcodec/bench suite into BENCHMARKS.md: per table, the
// median of every implementation and its ratio to ours, compression ratios,
// the goals of issue 10 with every row below them, and the machine and
// versions the numbers were taken on.
//
// Usage:
//
//	benchtable [-o BENCHMARKS.md] [-gomod bench/go.mod] [-env env.txt] [-cmd "..."] raw.txt...
//
// Benchmark names must end in an /impl=NAME key; everything before it names
// the row. Ratios are ours/peer speed ratios: peer ns/op divided by ours
// ns/op, so > 1 means ours is faster.
package main

import (
	"bufio"
	"flag"
	"io"
	"log"
	"os"
	"runtime"
	"strings"
)

func main() {
	log.SetFlags(0)
	log.SetPrefix("benchtable: ")
	out := flag.String("o", "", "output file (default standard output)")
	gomod := flag.String("gomod", "", "go.mod of the bench module, for the peer versions")
	envFile := flag.String("env", "", "file of `key: value` lines describing the run, copied into the report")
	cmd := flag.String("cmd", "scripts/bench.sh", "command that reproduces the run, quoted in the report")
	gapsFile := flag.String("gaps", "", "Markdown file explaining the rows below goal, copied into the report")
	otherFile := flag.String("other", "", "Markdown file of measurements on other machines, copied after how to read the tables")
	flag.Parse()
	if flag.NArg() == 0 {
		log.Fatal("no input files")
	}
	res := newResults()
	for _, name := range flag.Args() {
		f, err := os.Open(name)
		if err != nil {
			log.Fatal(err)
		}
		err = res.parse(f)
		f.Close()
		if err != nil {
			log.Fatalf("%s: %v", name, err)
		}
	}
	if len(res.rows) == 0 {
		log.Fatal("no benchmark results in the input")
	}
	info := machineInfo{goVersion: runtime.Version(), nproc: runtime.NumCPU(), cpu: cpuModel(res.cpu), cmd: *cmd}
	if *gomod != "" {
		b, err := os.ReadFile(*gomod)
		if err != nil {
			log.Fatal(err)
		}
		info.versions = requires(string(b))
	}
	if *gapsFile != "" {
		b, err := os.ReadFile(*gapsFile)
		if err != nil {
			log.Fatal(err)
		}
		info.gaps = string(b)
	}
	if *otherFile != "" {
		b, err := os.ReadFile(*otherFile)
		if err != nil {
			log.Fatal(err)
		}
		info.other = string(b)
	}
	if *envFile != "" {
		b, err := os.ReadFile(*envFile)
		if err != nil {
			log.Fatal(err)
		}
		info.env = strings.Split(strings.TrimSpace(string(b)), "\n")
	}
	var w io.Writer = os.Stdout
	if *out != "" {
		f, err := os.Create(*out)
		if err != nil {
			log.Fatal(err)
		}
		defer func() {
			if err := f.Close(); err != nil {
				log.Fatal(err)
			}
		}()
		w = f
	}
	bw := bufio.NewWriter(w)
	writeReport(bw, res, info)
	if err := bw.Flush(); err != nil {
		log.Fatal(err)
	}
}

// cpuModel returns the CPU model of /proc/cpuinfo, or fallback (the cpu:
// line of the benchmark output) when it cannot be read.
func cpuModel(fallback string) string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
				return strings.TrimSpace(v)
			}
		}
	}
	return strings.TrimSpace(fallback)
}

// requires returns the "path version" require lines of a go.mod file.
func requires(gomod string) []string {
	var out []string
	in := false
	for _, line := range strings.Split(gomod, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(line, "require ("):
			in = true
			continue
		case in && line == ")":
			in = false
			continue
		case strings.HasPrefix(line, "require "):
			line = strings.TrimPrefix(line, "require ")
		case !in:
			continue
		}
		if strings.HasSuffix(line, "// indirect") || line == "" || strings.HasPrefix(line, "github.com/pqcodec/") ||
			strings.HasPrefix(line, "github.com/stretchr/") {
			continue
		}
		out = append(out, line)
	}
	return out
}
