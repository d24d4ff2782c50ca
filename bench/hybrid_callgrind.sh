#!/bin/sh
# hybrid_callgrind.sh [row regexp] [go test flags]: instruction counts of one
# page of each matching BenchmarkHybrid row, ours and parquet-go's, under
# callgrind (see TestHybridCallgrind). Prints row, ours, peer, peer/ours.
# One valgrind run per row and implementation, collecting only inside
# callgrindOurs or callgrindPeer: callgrind loses track of calls across the
# runtime's stack switches, so neither two toggles nor a dump per row in one
# run count reliably.
set -e
cd "$(dirname "$0")"
pat=${1:-.}
shift || true
dir=$(mktemp -d)
go test -c -o "$dir/bench.test" "$@" .
cd "$dir"
PQCODEC_HYBRID_CALLGRIND="$pat" PQCODEC_HYBRID_LIST=1 ./bench.test -test.run '^TestHybridCallgrind$' |
	awk '/^callgrind row/ {print $3}' >rows
count() { # row name, Ours or Peer
	PQCODEC_HYBRID_CALLGRIND="^$1\$" GOGC=off GODEBUG=asyncpreemptoff=1,cpu.rdtscp=off \
		valgrind --tool=callgrind --callgrind-out-file=/dev/null --toggle-collect="*.callgrind$2" \
		./bench.test -test.run '^TestHybridCallgrind$' 2>&1 >/dev/null | awk '/Collected :/ {print $4}'
}
while read -r name; do
	echo "$name $(count "$name" Ours) $(count "$name" Peer)"
done <rows | awk '{printf "%s %d %d %.2f\n", $1, $2, $3, $3/$2}'
cd / && rm -rf "$dir"
