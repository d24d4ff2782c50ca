# pqcodec: see README.md. `make test` is the test command; `make demo` the tour.
GO       ?= go
FUZZTIME ?= 30s
# GOTEST runs the tests; `make flake` swaps in a recorder (scripts/flake.sh).
GOTEST   ?= $(GO) test
RUNS     ?= 5
# Nested modules (bench/, interop/, adapters/...) hold code that needs the peer
# libraries, so users of pqcodec never inherit them. They are tested too.
NESTED   := $(shell find . -mindepth 2 -name go.mod -not -path './dist/*' -not -path './testdata/*' -not -path '*/node_modules/*' -exec dirname {} \; | sort)

.PHONY: all deps vet test test-nested test-memory flake bench bench-levels bench-rewrite bench-concurrent rewrite-check logical-check fuzz demo cross cross-docker foreign-corpus generate difftest readback

all: test

# deps installs the native C libraries when missing: on Debian/Ubuntu it runs
# `sudo apt-get update` and `apt-get install` (scripts/install-deps.sh), so
# `make test`, `make bench` and `make demo`, which depend on it, may too.
deps:
	./scripts/install-deps.sh

vet:
	$(GO) vet ./...
	CGO_ENABLED=0 $(GO) vet ./...

test: deps vet
	# -timeout: packages take up to 4 min under -race on a loaded 2-core machine.
	GODEBUG=cgocheck=1 $(GOTEST) -race -timeout 30m ./...
	CGO_ENABLED=0 $(GOTEST) ./...
	$(GOTEST) -tags nolzo ./native/lzo/... ./codecfactory/...
	# The generic Go versions of the amd64 assembly, as other targets run them.
	$(GO) vet -tags purego ./encoding/... ./internal/...
	$(GOTEST) -tags purego ./encoding/... ./internal/...
	$(MAKE) test-nested

test-nested:
	@set -e; for m in $(NESTED); do \
		echo "== module $$m"; \
		(cd $$m && $(GO) vet ./... && $(GOTEST) ./...); \
	done

# generate rewrites the generated kernels; `make test` fails (gen_test.go in
# each generator) when a committed file is not what its generator writes.
generate:
	$(GO) generate ./internal/bitpack ./encoding/delta ./encoding/rle ./encoding/bytestreamsplit ./native/internal/nocgo

# Memory tests too slow for `make test` (a few minutes, 2.1 GB resident): the 1 GiB pages of
# large_string_map.brotli.parquet under ulimit -v 4 GiB, 1,000,000 context borrows with flat RSS,
# the native-memory measurements quoted in the README, 2 GiB of dictionary values (ErrLimit), and
# cat and bench 20 times each under ulimit -v 1 and 2 GiB on files of amplified dictionary values,
# and 2 GB of rows written with 128 MiB row groups under two budgets, with and without ulimit -v
# 2 GiB, peak RSS checked against the bound of writer/doc.go.
test-memory: deps
	PQCODEC_LARGE=1 $(GO) test -run 'TestLargeStringMap|TestValuesPast2GiB' -v ./column
	PQCODEC_ULIMIT_RUNS=20 $(GO) test -run TestDefaultMaxMemoryUlimit -v ./cmd/pqcodec
	PQCODEC_BORROWS=1000000 $(GO) test -run TestBorrowRSS -timeout 30m -v ./codecfactory
	PQCODEC_NATIVE_MEMORY=1 $(GO) test -run TestNativeMemory -v ./codecfactory
	PQCODEC_LARGE=1 $(GO) test -run '^TestWriteRSS$$' -timeout 30m -v ./writer

# flake runs `make test` RUNS times (default 5) without the test cache and
# lists every test that failed at least once.
flake:
	RUNS=$(RUNS) ./scripts/flake.sh

bench: deps
	./scripts/bench.sh

# bench-levels: every codec at every level each library offers (ours, klauspost, stdlib, andybalholm,
# golang/snappy, pierrec), CPU time and ratio per page, into bench/LEVELS.md; fails when some peer
# configuration is faster and smaller than every level of ours on some page (10% CPU, 1% ratio slack).
LEVELS_COUNT ?= 5
bench-levels: deps
	mkdir -p bench/results
	cd bench && { echo "load-start: $$(cat /proc/loadavg)"; \
		PQCODEC_LEVELS_BENCH=1 $(GO) test -run XXX -bench BenchmarkCompressLevels -benchtime 100ms -count $(LEVELS_COUNT) -timeout 2h .; \
		echo "load-end: $$(cat /proc/loadavg)"; } > results/levels.txt
	cd bench && $(GO) run ./cmd/frontier < results/levels.txt > LEVELS.md

# bench-rewrite: recompress.Rewrite with 1 and 2 workers against arrow-go and parquet-go on generated
# ~200 MB files (written once to $$PQCODEC_REWRITE_DIR, default the temp dir); see bench/REWRITE.md.
bench-rewrite: deps
	cd bench && PQCODEC_REWRITE_BENCH=1 $(GO) test -run TestRewriteScaling -v -bench BenchmarkRewrite -benchtime 1x -count 3 -timeout 2h .

# rewrite-check: outputs of `pqcodec rewrite` (testdata/foreign and parquet-testing, every codec) read by
# DuckDB and arrow-rs (parquet-wasm) against their sources; npm packages of scripts/foreign (Node.js 20+).
rewrite-check: deps
	$(GO) build -o $(CURDIR)/dist/rewritecheck/pqcodec ./cmd/pqcodec
	cd scripts/foreign && npm ci --no-audit --no-fund && node rewritecheck.mjs $(CURDIR)/dist/rewritecheck/pqcodec \
		$(CURDIR)/dist/rewritecheck $(or $(PQCODEC_TESTDATA),$(CURDIR)/testdata/parquet-testing)/data

# logical-check: the logical values of `pqcodec cat` (dates, times, timestamps, decimals, UUIDs, unsigned
# integers, FLOAT16) against DuckDB's reading of testdata/foreign, testdata/difftest and parquet-testing's data/
# (scripts/foreign/README.md); npm packages of scripts/foreign (Node.js 20+). About 2 minutes.
logical-check: deps
	$(GO) build -o $(CURDIR)/dist/logicalcheck/pqcodec ./cmd/pqcodec
	cd scripts/foreign && npm ci --no-audit --no-fund && node logicalcheck.mjs $(CURDIR)/dist/logicalcheck/pqcodec \
		$(CURDIR)/testdata/foreign/*/*.parquet $(CURDIR)/testdata/difftest/*.parquet \
		$(filter-out %large_string_map.brotli.parquet,$(wildcard $(or $(PQCODEC_TESTDATA),$(CURDIR)/testdata/parquet-testing)/data/*.parquet))

# bench-concurrent: column.File.ReadRowGroup on 1 and 2 goroutines, a generated 1M-row, 8-column file;
# compare wall and cpu-ns/op (the machine's load shows in wall time) with benchstat -col /workers. Its "pair"
# row (two whole-file reads at once, nothing shared) is this machine's own ceiling for two goroutines.
bench-concurrent: deps
	cd cgo_test && $(GO) test -run XXX -bench BenchmarkReadRowGroup -benchtime 20x -count 6 .

fuzz:
	FUZZTIME=$(FUZZTIME) ./scripts/fuzz.sh

demo: deps
	$(GO) run ./cmd/pqcodec demo

cross:
	bash scripts/cross.sh

# Corpus for the test binaries inside Docker when PQCODEC_TESTDATA overrides the vendored
# testdata/parquet-testing (testdata/ inside the repo is mounted anyway).
CORPUS ?= $(PQCODEC_TESTDATA)

cross-docker:
	docker build --platform=linux/amd64 -f Dockerfile.build -t pqcodec-cross .
	docker run --rm --platform=linux/amd64 -v "$(CURDIR)":/src \
		$(if $(CORPUS),-v "$(abspath $(CORPUS))":/corpus:ro -e PQCODEC_TESTDATA=/corpus) \
		pqcodec-cross sh -c 'make cross; rc=$$?; chown -R $(shell id -u):$(shell id -g) dist 2>/dev/null; exit $$rc'

# foreign-corpus regenerates testdata/foreign, byte for byte, with real writers:
# parquet-go and arrow-go (interop/cmd/foreigngen), then DuckDB, arrow-rs and
# Polars through npm (scripts/foreign, versions pinned in its package-lock.json;
# Node.js 20+ on linux-x64), which also renders and cross-checks the expected rows;
# then the foreign-writer section of cgo_test/COMPATIBILITY.md (pqcodec, pqarrow, parquet-go).
foreign-corpus:
	rm -rf testdata/foreign
	cd interop && $(GO) run ./cmd/foreigngen ../testdata/foreign
	cd scripts/foreign && npm ci --no-audit --no-fund && node gen.mjs ../../testdata/foreign
	cd interop && $(GO) run ./cmd/foreigngen -compat ../testdata/foreign ../cgo_test/COMPATIBILITY.md

# difftest writes random tables with DuckDB, arrow-rs (parquet-wasm), Polars,
# arrow-go and parquet-go and compares pqcodec cat with DuckDB's reading
# (scripts/difftest/README.md); WRITERS=pqcodec writes them with pqcodec's own
# writer and reads them back with every reader (scripts/difftest/readers.mjs). Mismatching files stay in DIFFTEST_OUT;
# DIFFTEST_FLAGS=--minimize also writes their smallest failing form.
SEED         ?= 1
N            ?= 20
WRITERS      ?= duckdb,arrow-rs,polars,arrow-go,parquet-go
DIFFTEST_OUT ?= $(or $(TMPDIR),/tmp)/pqcodec-difftest-$(SEED)

# readback writes every corpus file with pqcodec's writer under three option sets (writer
# TestWriteForReaders) and checks that DuckDB, arrow-rs, Polars and hyparquet read each copy as they
# read its source (scripts/difftest/readback.mjs).
READBACK_DIR ?= $(or $(TMPDIR),/tmp)/pqcodec-readback

readback:
	rm -rf $(READBACK_DIR)
	PQCODEC_READBACK_DIR=$(READBACK_DIR) $(GO) test ./writer -run TestWriteForReaders -count=1
	cd scripts/difftest && npm ci --no-audit --no-fund --loglevel=error && node readback.mjs $(READBACK_DIR)/manifest.tsv

# reencode-check: the outputs of reencode's TestCorpus (every corpus file under each of its flag sets:
# pages v2 and 1 KiB, other encodings without dictionaries, bloom filters and page indexes, statistics off,
# row groups cut again) read by DuckDB against DuckDB's reading of their sources (scripts/difftest/readback.mjs).
REENCODE_DIR ?= $(or $(TMPDIR),/tmp)/pqcodec-reencodecheck
.PHONY: reencode-check
reencode-check:
	rm -rf $(REENCODE_DIR)
	PQCODEC_REENCODE_DIR=$(REENCODE_DIR) $(GO) test ./reencode -run '^TestCorpus$$' -count=1
	cd scripts/difftest && npm ci --no-audit --no-fund --loglevel=error && node readback.mjs $(REENCODE_DIR)/manifest.tsv --readers duckdb

# arrow-readback: the files adapters/arrowgo's FileWriter writes from every corpus table (TestWriteRoundTrip)
# read by DuckDB, arrow-rs, Polars and hyparquet against their reading of the sources (readback.mjs); the
# differences Arrow's types make (ENUM read as binary, legacy lists, GEOMETRY as binary) are listed in
# scripts/difftest/README.md; the target reports and is not part of CI.
ARROWWRITE_DIR ?= $(or $(TMPDIR),/tmp)/pqcodec-arrowreadback
.PHONY: arrow-readback
arrow-readback:
	rm -rf $(ARROWWRITE_DIR)
	cd adapters/arrowgo && PQCODEC_ARROWWRITE_DIR=$(ARROWWRITE_DIR) $(GO) test . -run '^TestWriteRoundTrip$$' -count=1
	cd scripts/difftest && npm ci --no-audit --no-fund --loglevel=error && node readback.mjs $(ARROWWRITE_DIR)/manifest.tsv --readers duckdb,arrow-rs,polars,hyparquet

difftest:
	cd scripts/difftest && npm ci --no-audit --no-fund --loglevel=error && node --test ../gojson/gojson.test.mjs
	mkdir -p $(DIFFTEST_OUT)
	$(GO) build -o $(DIFFTEST_OUT)/pqcodec ./cmd/pqcodec
	cd scripts/difftest/gowriter && $(GO) build -o $(DIFFTEST_OUT)/gowriter .
	$(GO) build -o $(DIFFTEST_OUT)/pqwriter ./scripts/difftest/pqwriter
	node scripts/difftest/difftest.mjs --pqcodec $(DIFFTEST_OUT)/pqcodec --gowriter $(DIFFTEST_OUT)/gowriter --pqwriter $(DIFFTEST_OUT)/pqwriter \
		--seed $(SEED) --n $(N) --writers $(WRITERS) --out $(DIFFTEST_OUT) $(DIFFTEST_FLAGS)

# convert-check: `pqcodec convert` of generated JSON Lines and CSV (types, nulls, nesting, quoting, unicode,
# empty input, bad lines, ragged rows) read back by DuckDB against DuckDB's own read_json/read_csv of the same
# input under the schema convert chose (scripts/difftest/convertcheck.mjs; Node.js 20+). Under a minute.
CONVERT_OUT ?= $(or $(TMPDIR),/tmp)/pqcodec-convertcheck
.PHONY: convert-check
convert-check:
	cd scripts/difftest && npm ci --no-audit --no-fund --loglevel=error
	mkdir -p $(CONVERT_OUT)
	$(GO) build -o $(CONVERT_OUT)/pqcodec ./cmd/pqcodec
	node scripts/difftest/convertcheck.mjs $(CONVERT_OUT)/pqcodec $(CONVERT_OUT)/work $(SEED)
