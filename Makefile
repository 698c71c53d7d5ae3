# sojourn: benchmark Hadoop cluster schedulers on realistic workloads.
#
#   make experiments   generate the paper's workloads and reproduce its experiments
#   make test          formatting, vet and the whole test suite
#
# Only Go is needed. Outputs go to OUT (default ./out).

GO      ?= go
OUT     ?= out
BENCH   := bin/bench
SEED    ?= 1

.PHONY: all build test vet fmt-check lint experiments workloads clean

all: build

build:
	$(GO) build -o $(BENCH) ./cmd/bench

fmt-check:
	@unformatted=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$unformatted" ]; then echo "gofmt would change: $$unformatted"; exit 1; fi

vet:
	$(GO) vet ./...

lint: fmt-check vet

test: lint
	$(GO) test -count=1 ./...

workloads: build
	$(BENCH) generate --profile fb2009 --seed $(SEED) --out $(OUT)/workloads/fb2009.arrow
	$(BENCH) generate --profile fb2010 --seed $(SEED) --out $(OUT)/workloads/fb2010.arrow
	$(BENCH) inspect $(OUT)/workloads/fb2009.arrow
	$(BENCH) inspect $(OUT)/workloads/fb2010.arrow

experiments: workloads

clean:
	rm -rf bin $(OUT)
