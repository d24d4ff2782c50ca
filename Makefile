# pqcodec: see README.md. `make test` is the test command; `make demo` the tour.
GO       ?= go
FUZZTIME ?= 30s
# GOTEST runs the tests; `make flake` swaps in a recorder (scripts/flake.sh).
GOTEST   ?= $(GO) test
RUNS     ?= 5
# Nested modules (bench/, interop/, adapters/...) hold code that needs the peer
# libraries, so users of pqcodec never inherit them. They are tested too.
NESTED   := $(shell find . -mindepth 2 -name go.mod -not -path './dist/*' -not -path './testdata/*' -exec dirname {} \; | sort)

.PHONY: all deps vet test test-nested flake bench fuzz demo cross cross-docker testdata

all: test

deps:
	./scripts/install-deps.sh

vet:
	$(GO) vet ./...
	CGO_ENABLED=0 $(GO) vet ./...

test: deps vet
	GODEBUG=cgocheck=1 $(GOTEST) -race ./...
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

# flake runs `make test` RUNS times (default 5) without the test cache and
# lists every test that failed at least once.
flake:
	RUNS=$(RUNS) ./scripts/flake.sh

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
