# pqcodec: see README.md. `make test` is the test command; `make demo` the tour.
GO       ?= go
FUZZTIME ?= 30s
# Nested modules (bench/, interop/, adapters/...) hold code that needs the peer
# libraries, so users of pqcodec never inherit them. They are tested too.
NESTED   := $(shell find . -mindepth 2 -name go.mod -not -path './dist/*' -not -path './testdata/*' -not -path '*/node_modules/*' -exec dirname {} \; | sort)

.PHONY: all deps vet test test-nested bench bench-rewrite rewrite-check fuzz demo cross cross-docker testdata foreign-corpus

all: test

deps:
	./scripts/install-deps.sh

vet:
	$(GO) vet ./...
	CGO_ENABLED=0 $(GO) vet ./...

test: deps vet
	GODEBUG=cgocheck=1 $(GO) test -race ./...
	CGO_ENABLED=0 $(GO) test ./...
	$(GO) test -tags nolzo ./native/lzo/... ./codecfactory/...
	# The generic Go versions of the amd64 assembly, as other targets run them.
	$(GO) vet -tags purego ./encoding/... ./internal/...
	$(GO) test -tags purego ./encoding/... ./internal/...
	$(MAKE) test-nested

test-nested:
	@set -e; for m in $(NESTED); do \
		echo "== module $$m"; \
		(cd $$m && $(GO) vet ./... && $(GO) test ./...); \
	done

bench: deps
	./scripts/bench.sh

# bench-rewrite: recompress.Rewrite with 1 and 2 workers against arrow-go and parquet-go on generated
# ~200 MB files (written once to $$PQCODEC_REWRITE_DIR, default the temp dir); see bench/REWRITE.md.
bench-rewrite: deps
	cd bench && PQCODEC_REWRITE_BENCH=1 $(GO) test -run TestRewriteScaling -v -bench BenchmarkRewrite -benchtime 1x -count 3 -timeout 2h .

# rewrite-check: outputs of `pqcodec rewrite` (testdata/foreign and parquet-testing, every codec) read by
# DuckDB and arrow-rs (parquet-wasm) against their sources; npm packages of scripts/foreign (Node.js 20+).
rewrite-check: deps
	$(GO) build -o $(CURDIR)/dist/rewritecheck/pqcodec ./cmd/pqcodec
	cd scripts/foreign && npm ci --no-audit --no-fund && node rewritecheck.mjs $(CURDIR)/dist/rewritecheck/pqcodec \
		$(CURDIR)/dist/rewritecheck $(firstword $(PQCODEC_TESTDATA) $(wildcard $(CURDIR)/../shared/parquet-testing))/data

fuzz:
	FUZZTIME=$(FUZZTIME) ./scripts/fuzz.sh

demo: deps
	@if [ -d cmd/pqcodec ]; then $(GO) run ./cmd/pqcodec; else echo 'demo: the pqcodec command is not built yet (see issue: The pqcodec command)'; fi

cross:
	bash scripts/cross.sh

# Corpus for the test binaries inside Docker (testdata/ inside the repo is mounted anyway).
CORPUS ?= $(firstword $(PQCODEC_TESTDATA) $(wildcard $(CURDIR)/../shared/parquet-testing))

cross-docker:
	docker build --platform=linux/amd64 -f Dockerfile.build -t pqcodec-cross .
	docker run --rm --platform=linux/amd64 -v "$(CURDIR)":/src \
		$(if $(CORPUS),-v "$(abspath $(CORPUS))":/corpus:ro -e PQCODEC_TESTDATA=/corpus) \
		pqcodec-cross sh -c 'make cross; rc=$$?; chown -R $(shell id -u):$(shell id -g) dist 2>/dev/null; exit $$rc'

# testdata fetches apache/parquet-testing for machines without ../shared.
testdata:
	test -d testdata/parquet-testing || git clone --depth 1 https://github.com/apache/parquet-testing testdata/parquet-testing

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
