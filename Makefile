# pqcodec: see README.md. `make test` is the test command; `make demo` the tour.
GO       ?= go
FUZZTIME ?= 30s
# Nested modules (bench/, interop/, adapters/...) hold code that needs the peer
# libraries, so users of pqcodec never inherit them. They are tested too.
NESTED   := $(shell find . -mindepth 2 -name go.mod -not -path './dist/*' -not -path './testdata/*' -exec dirname {} \; | sort)

.PHONY: all deps vet test test-nested bench fuzz demo cross cross-docker testdata difftest

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

# difftest writes random tables with DuckDB, arrow-rs (parquet-wasm), Polars,
# arrow-go and parquet-go and compares pqcodec cat with DuckDB's reading
# (scripts/difftest/README.md). Mismatching files stay in DIFFTEST_OUT;
# DIFFTEST_FLAGS=--minimize also writes their smallest failing form.
SEED         ?= 1
N            ?= 20
WRITERS      ?= duckdb,arrow-rs,polars,arrow-go,parquet-go
DIFFTEST_OUT ?= $(or $(TMPDIR),/tmp)/pqcodec-difftest-$(SEED)

difftest:
	cd scripts/difftest && npm ci --no-audit --no-fund --loglevel=error && node --test render.test.mjs
	mkdir -p $(DIFFTEST_OUT)
	$(GO) build -o $(DIFFTEST_OUT)/pqcodec ./cmd/pqcodec
	cd scripts/difftest/gowriter && $(GO) build -o $(DIFFTEST_OUT)/gowriter .
	node scripts/difftest/difftest.mjs --pqcodec $(DIFFTEST_OUT)/pqcodec --gowriter $(DIFFTEST_OUT)/gowriter \
		--seed $(SEED) --n $(N) --writers $(WRITERS) --out $(DIFFTEST_OUT) $(DIFFTEST_FLAGS)
