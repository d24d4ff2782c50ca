#!/usr/bin/env bash
# flake.sh runs `make test` RUNS times (default 5) and reports every test that
# failed at least once, with how often and in which `go test` invocation
# (cgo, CGO_ENABLED=0, -race, tags, nested module).
#
#   scripts/flake.sh             5 runs (make flake)
#   RUNS=10 scripts/flake.sh     10 runs (make flake RUNS=10)
#
# Every `go test` of the suite runs through this script (make test
# GOTEST='scripts/flake.sh gotest'), which adds -json, keeps the output under
# FLAKE_DIR (default: a new temporary directory, printed at the end) and
# lets make go on after a failure, so that one run sees every failing test.
# The test cache is off (-count=1): a cached pass proves nothing. Exits 1 if
# any test, or anything else in `make test`, failed in any run.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"

if [ "${1:-}" = gotest ]; then
	# One `go test` invocation of one run: $FLAKE_RUN_DIR/NNN.{json,cmd,rc}.
	shift
	n=$(find "$FLAKE_RUN_DIR" -name '*.cmd' | wc -l)
	base="$FLAKE_RUN_DIR/$(printf %03d "$n")"
	dir="${PWD#"$root"}"
	env=""
	for v in CGO_ENABLED GODEBUG; do
		if [ -n "${!v:-}" ]; then env="$env$v=${!v} "; fi
	done
	echo "${env}go test $* (module .${dir})" >"$base.cmd"
	rc=0
	go test -json "$@" >"$base.json" 2>"$base.err" || rc=$?
	echo "$rc" >"$base.rc"
	# One line per package, as plain `go test` prints.
	jq -r 'select(.Test == null and (.Action == "pass" or .Action == "fail" or .Action == "skip"))
		| "\(.Action)\t\(.Package)\t\(.Elapsed // 0)s"' "$base.json" 2>/dev/null || true
	# The output of what failed (build errors included), as go test prints it.
	if [ "$rc" != 0 ]; then
		jq -rs 'group_by([.ImportPath // .Package, .Test // ""]) | map(select(any(.Action == "fail" or .Action == "build-fail")))
			| .[] | map(select(.Action == "output" or .Action == "build-output") | .Output) | join("")' "$base.json" 2>/dev/null || true
	fi
	cat "$base.err" >&2
	exit 0
fi

command -v jq >/dev/null || {
	echo "flake.sh: needs jq to read go test -json (apt-get install jq)" >&2
	exit 2
}
runs="${RUNS:-5}"
dir="${FLAKE_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/pqcodec-flake.XXXXXX")}"
mkdir -p "$dir"
export GOFLAGS="${GOFLAGS:+$GOFLAGS }-count=1"
summary="$dir/summary.txt"
: >"$summary"
: >"$dir/failures.tsv"
failed_runs=0
for i in $(seq 1 "$runs"); do
	run="$dir/run$i"
	rm -rf "$run"
	mkdir -p "$run"
	load="$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)"
	start=$(date +%s)
	echo "flake: run $i of $runs (load $load), log $run/make.log"
	mrc=0
	FLAKE_RUN_DIR="$run" make -C "$root" test GOTEST="$root/scripts/flake.sh gotest" >"$run/make.log" 2>&1 || mrc=$?
	secs=$(($(date +%s) - start))
	# Failed tests; a test whose subtest failed is left out (the subtest names it).
	: >"$run/failures.tsv"
	for json in "$run"/*.json; do
		[ -e "$json" ] || continue
		cmd="$(cat "${json%.json}.cmd")"
		jq -r 'select(.Action == "fail") | "\(.Package)\t\(.Test // "")"' "$json" 2>/dev/null |
			sort -u | awk -F'\t' -v cmd="$cmd" '
				{ pkg[NR] = $1; test[NR] = $2; key[$1 "\t" $2] = 1 }
				END {
					for (i = 1; i <= NR; i++) {
						leaf = 1
						for (j = 1; j <= NR; j++) {
							if (pkg[j] != pkg[i] || j == i) continue
							if (test[i] == "" && test[j] != "") leaf = 0
							if (test[i] != "" && index(test[j], test[i] "/") == 1) leaf = 0
						}
						if (leaf) printf "%s\t%s\t%s\n", pkg[i], (test[i] == "" ? "(package: build, panic or TestMain)" : test[i]), cmd
					}
				}' >>"$run/failures.tsv"
		rc="$(cat "${json%.json}.rc")"
		if [ "$rc" != 0 ] && ! jq -e 'select(.Action == "fail")' "$json" >/dev/null 2>&1; then
			printf '%s\t%s\t%s\n' "-" "(go test exited $rc: see ${json%.json}.err)" "$cmd" >>"$run/failures.tsv"
		fi
	done
	if [ "$mrc" != 0 ] && [ ! -s "$run/failures.tsv" ]; then
		printf '%s\t%s\t%s\n' "-" "(make test exited $mrc outside go test: see $run/make.log)" "make test" >>"$run/failures.tsv"
	fi
	status=pass
	if [ -s "$run/failures.tsv" ]; then
		status=FAIL
		failed_runs=$((failed_runs + 1))
		sed 's/^/    /' "$run/failures.tsv"
	fi
	echo "flake: run $i: $status in ${secs}s (load at start $load, at end $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown))" | tee -a "$summary"
	cat "$run/failures.tsv" >>"$dir/failures.tsv"
done

echo
echo "flake: $((runs - failed_runs)) of $runs runs passed; logs in $dir" | tee -a "$summary"
if [ -s "$dir/failures.tsv" ]; then
	echo "flake: tests that failed at least once (runs failed, package, test, invocation):" | tee -a "$summary"
	sort "$dir/failures.tsv" | uniq -c | sort -rn |
		awk -v runs="$runs" '{ n = $1; sub(/^ *[0-9]+ /, ""); split($0, f, "\t"); printf "  %d/%d\t%s\t%s\t[%s]\n", n, runs, f[1], f[2], f[3] }' |
		tee -a "$summary"
	exit 1
fi
