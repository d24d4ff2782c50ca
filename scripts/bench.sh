#!/usr/bin/env bash
# bench.sh runs the peer comparison suite of the nested module bench/ and
# writes BENCHMARKS.md at the repository root.
#
#   scripts/bench.sh             full run: COUNT passes (default 5), BENCHTIME each (default 100ms)
#   QUICK=1 scripts/bench.sh     CI smoke run: one pass, -benchtime 1x (checks every benchmark still runs)
#   REPORT_ONLY=1 scripts/bench.sh  rewrite BENCHMARKS.md from the last run's bench/results/
#
# Environment: COUNT (>= 5 outside quick mode), BENCHTIME, BENCH (a -bench
# regexp, default '.'), OUT (default BENCHMARKS.md), RESULTS (default
# bench/results).
#
# The test binary is built once and run COUNT times with -count 1, so that
# the implementations of one row run side by side in every pass and the
# passes are spread over the whole run: on a shared machine this interleaving
# keeps slow spells from landing on one implementation only. Raw output and
# the benchstat summary (-col /impl: every implementation against ours) go to
# bench/results/.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root/bench"

quick="${QUICK:-0}"
count="${COUNT:-5}"
benchtime="${BENCHTIME:-100ms}"
bench="${BENCH:-.}"
out="${OUT:-$root/BENCHMARKS.md}"
# The benchstat of golang.org/x/perf pinned for reproducible summaries.
benchstat_version="v0.0.0-20260908200009-22c9c6c9d4da"

if [ "$quick" = 1 ]; then
	count=1
	benchtime=1x
elif [ "$count" -lt 5 ]; then
	echo "bench.sh: COUNT must be at least 5 (use QUICK=1 for a smoke run)" >&2
	exit 2
fi

results="${RESULTS:-$root/bench/results}"
mkdir -p "$results"
raw="$results/raw.txt"
env_file="$results/env.txt"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

report() {
	go build -o "$tmp/benchtable" ./cmd/benchtable
	"$tmp/benchtable" -o "$out" -gomod "$root/bench/go.mod" -env "$env_file" -cmd "scripts/bench.sh" -gaps "$root/bench/GAPS.md" -other "$root/bench/INTEL.md" "$raw"
	echo "bench.sh: wrote $out"
}

if [ "${REPORT_ONLY:-0}" = 1 ]; then
	report
	exit 0
fi

echo "bench.sh: building the suite"
go test -c -o "$tmp/bench.test" .

start="$(date -u +%Y-%m-%dT%H:%M:%SZ)"
load_start="$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)"
: >"$raw"
for i in $(seq 1 "$count"); do
	echo "bench.sh: pass $i of $count (-benchtime $benchtime)"
	"$tmp/bench.test" -test.run '^$' -test.bench "$bench" -test.benchtime "$benchtime" \
		-test.count 1 -test.benchmem >"$tmp/pass.txt" 2>&1 || {
		cat "$tmp/pass.txt" >&2
		echo "bench.sh: pass $i failed" >&2
		exit 1
	}
	cat "$tmp/pass.txt" >>"$raw"
done
end="$(date -u +%Y-%m-%dT%H:%M:%SZ)"
load_end="$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)"

# benchstat: the pinned version, installed once; the report does not need it.
benchstat_bin="$(go env GOPATH)/bin/benchstat"
if [ ! -x "$benchstat_bin" ]; then
	go install "golang.org/x/perf/cmd/benchstat@$benchstat_version" || true
fi
if [ -x "$benchstat_bin" ]; then
	"$benchstat_bin" -col /impl "$raw" >"$results/benchstat.txt" 2>&1 || true
	echo "bench.sh: benchstat summary in $results/benchstat.txt"
else
	echo "bench.sh: benchstat unavailable; skipping its summary" >&2
fi

libs=""
if command -v dpkg-query >/dev/null 2>&1; then
	libs="$(dpkg-query -W -f='${Package} ${Version}\n' libbrotli-dev libdeflate-dev liblzo2-dev 2>/dev/null |
		sort -u | paste -sd, - | sed 's/,/, /g' || true)"
fi
{
	echo "Run: $start to $end, $count pass(es) of -benchtime $benchtime (QUICK=$quick), -bench '$bench'"
	echo "Load average (1, 5, 15 min) at start: $load_start; at end: $load_end"
	echo "Kernel: $(uname -srm); Go reports the CPU as: $(sed -n 's/^cpu: //p' "$raw" | head -1)"
	echo "C libraries: ${libs:-unknown}; libzstd is the copy bundled in github.com/DataDog/zstd"
	echo "CGO_ENABLED=$(go env CGO_ENABLED), GOAMD64=$(go env GOAMD64)"
} >"$env_file"
report
