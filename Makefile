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
POLICIES ?= $(shell $(GO) run ./cmd/bench policies 2>/dev/null || echo fifo-minimal hfsp)
WORKLOADS := fb2009 fb2010

.PHONY: all build test vet fmt-check lint experiments workloads table clean

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

# Replay every workload under every registered policy; results go to
# $(OUT)/results/<workload>/<policy>/ and each summary is printed.
experiments: workloads
	@for w in $(WORKLOADS); do for p in $(POLICIES); do \
		echo "== $$w under $$p"; \
		$(BENCH) replay --trace $(OUT)/workloads/$$w.arrow --scheduler $$p --seed $(SEED) \
			--out $(OUT)/results/$$w/$$p || exit 1; \
	done; done

# The FIFO / FAIR / HFSP table of the README, from fresh replays.
table: workloads
	@echo "| workload | policy | mean sojourn (s) | median sojourn (s) | node-local maps (%) |"
	@echo "|---|---|---|---|---|"
	@for w in $(WORKLOADS); do for p in fifo fair hfsp; do \
		$(BENCH) replay --trace $(OUT)/workloads/$$w.arrow --scheduler $$p --seed $(SEED) | \
		awk -v w=$$w -v p=$$p '/^mean sojourn/{m=$$3} /^median sojourn/{md=$$3} /^node-local/{nl=$$3} \
			END{printf "| %s | %s | %s | %s | %s |\n", w, p, m, md, nl}' || exit 1; \
	done; done

clean:
	rm -rf bin $(OUT)
