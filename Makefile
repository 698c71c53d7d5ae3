# sojourn: benchmark Hadoop cluster schedulers on realistic workloads.
#
#   make experiments   reproduce the HFSP paper's figures and tables (out/reports/index.html)
#   make test          formatting, vet and the whole test suite
#   make rewrite       regenerate the scripted tests' expected outputs (testdata/*.txt)
#
# Only Go is needed. Everything generated goes to OUT (default ./out, which
# git ignores): experiments to $(OUT)/results and $(OUT)/reports (RESULTS=
# and REPORTS= move them), workloads to $(OUT)/workloads. The source folders
# results/ and reports/ hold code, and results/baseline the committed
# baseline of make compare.

GO      ?= go
OUT     ?= out
BENCH   := bin/bench
SEED    ?= 1
# The claims of make experiments are computed on SEEDS seeds, SEED and the
# ones after it (its figures and result files on SEED alone).
SEEDS   ?= 20
RESULTS ?= $(OUT)/results
REPORTS ?= $(OUT)/reports
# The experiments' result directories under $(RESULTS) (bench experiment --help).
EXPERIMENTS := fig3 fig4 fig5 fig6 fig7 fig8 backfill disco estimates containers tables

.PHONY: all build test vet fmt-check lint experiments report readme-figures workloads clean

all: build

# The Go release go.mod asks for; make build refuses an older one in one
# line rather than failing on a language feature.
GO_MIN := $(shell awk '/^go / {print $$2}' go.mod)

.PHONY: go-version
go-version:
	@v=$$($(GO) env GOVERSION 2>/dev/null | sed 's/^go//'); \
	if [ -z "$$v" ]; then echo "make: no Go at '$(GO)'; sojourn needs Go $(GO_MIN) or newer (https://go.dev/dl/)"; exit 1; fi; \
	if [ "$$(printf '%s\n%s\n' "$(GO_MIN)" "$$v" | sort -V | head -n 1)" != "$(GO_MIN)" ]; then \
		echo "make: Go $$v is older than $(GO_MIN), the go line of go.mod; install a newer Go (https://go.dev/dl/)"; exit 1; fi

build: go-version
	$(GO) build -buildvcs=auto -o $(BENCH) ./cmd/bench

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

# Reproduce the HFSP paper's evaluation: every experiment (fig3 … fig8 and
# the summary tables) into $(RESULTS)/<experiment>/, then the report:
# $(REPORTS)/index.html with figures as PNG and SVG, claims.md, tables.md.
experiments: build
	$(BENCH) experiment --seed $(SEED) --seeds $(SEEDS) --results $(RESULTS) --reports $(REPORTS) all

# Redraw the report from the results already on disk.
report: build
	$(BENCH) report --results $(RESULTS) --reports $(REPORTS)

# Refresh the figures and the claims table that docs/experiments.md shows
# (docs/figures/, docs/claims.md) from a fresh run.
readme-figures: experiments
	mkdir -p docs/figures
	cp $(REPORTS)/figures/fig3.png $(REPORTS)/figures/fig4.png $(REPORTS)/figures/fig5.png \
		$(REPORTS)/figures/fig6.png $(REPORTS)/figures/fig7.png $(REPORTS)/figures/estimates.png \
		$(REPORTS)/figures/containers.png docs/figures/
	{ echo "# The papers' claims, checked by make experiments on $(SEEDS) seeds from $(SEED)"; echo; \
		cat $(REPORTS)/claims.md; } > docs/claims.md

# Execute docs/notebook.ipynb (Python's standard library and bin/bench; a
# sweep into $(OUT)/notebook), store its outputs in it, print each cell's
# output and write $(OUT)/notebook.html, the executed notebook for a
# browser, with docs/run-notebook.py (no Jupyter needed).
.PHONY: notebook
notebook: build
	rm -rf $(OUT)/notebook
	python3 docs/run-notebook.py docs/notebook.ipynb --html $(OUT)/notebook.html

# Removes bin/ and $(OUT), and what the experiments wrote to RESULTS and
# REPORTS if they were moved elsewhere: their files only, never a folder's
# other content (results/baseline stays).
clean:
	rm -rf bin $(OUT)
	rm -rf $(addprefix $(RESULTS)/,$(EXPERIMENTS)) $(addprefix $(RESULTS)/.,$(addsuffix .partial,$(EXPERIMENTS)))
	rm -rf $(REPORTS)/index.html $(REPORTS)/figures $(REPORTS)/runs $(REPORTS)/claims.md $(REPORTS)/tables.md

# Fuzz every reader (traces, results, SWIM TSV, the importers of CSV, SWF,
# SLS and Alibaba, pools, queues, policy
# config, sweep file, cell.json, summary) for FUZZTIME each, and print
# each target's executions. A crash, a hung input or a failing check fails
# the run and leaves the input under the package's testdata/fuzz/.
FUZZTIME ?= 20s

.PHONY: fuzz
fuzz:
	GO=$(GO) FUZZTIME=$(FUZZTIME) .ci/fuzz.sh

# Comparing commits (bench compare): the standard suite, FB2009 and FB2010
# at seed 1 under FIFO, FAIR and HFSP, whose summary is committed as the
# baseline. `make compare` replays the suite and compares it with the
# baseline (exit status 2 on a regression beyond THRESHOLD percent, 1 when
# a row is unpaired); `make baseline` regenerates the baseline after a
# deliberate change, and docs/compare.md's example (the suite against
# docs/suite-90-nodes.json) with it. A test of make test fails while the
# baseline would not pair with a fresh run of the suite.
SUITE     ?= results/baseline/suite.json
BASELINE  ?= results/baseline/summary.json
THRESHOLD ?= 5

.PHONY: baseline compare interop

baseline: build
	rm -rf $(OUT)/suite
	$(BENCH) sweep --out $(OUT)/suite $(SUITE)
	cp $(OUT)/suite/summary.json $(BASELINE)
	$(GO) test -count=1 -run 'TestDocCompareExample$$' ./cmd/bench -rewrite

compare: build
	rm -rf $(OUT)/suite
	$(BENCH) sweep --out $(OUT)/suite $(SUITE)
	$(BENCH) compare --threshold $(THRESHOLD) $(BASELINE) $(OUT)/suite/summary.json

# Read a trace and results with readers this project did not write
# (apache-arrow for JavaScript, hyparquet, DuckDB's Node package) and check
# row counts and mean sojourns against bench's own figures. Needs node >= 20
# and npm.
interop: build
	cd interop && npm ci --no-audit --no-fund
	node interop/check.mjs $(BENCH)

# Performance (docs/performance.md): replay the FB-2010 day, the SWIM sample
# file whole (24,442 jobs; 8.1 million maps and 3.3 million reduces at
# 128 MiB blocks), on its original 3,000 nodes under every policy (or
# BENCH_POLICIES) in slots and BENCH_YARN_POLICIES in containers, and
# fb2010 (seed 1) overloaded on 100 nodes with each of BENCH_OVERLOAD jobs
# under fifo and hfsp, job results only (.ci/bench.sh). Every run is
# made once per round, BENCH_REPS rounds, so that a slow stretch of a
# shared machine falls on all alike; each run's median round is printed:
# replay wall time, its ratio to the floor (replay.Floor: the
# irreducible work of the same tasks, timed by go test -bench Perf/floor
# ./run on the day, once per round) and to fifo-minimal's, task events
# per second, peak memory (in-process getrusage) and mean sojourn; then
# the goals of docs/performance.md against them. Ratios hold on another
# machine where absolute times do not. A benchmark: nothing fails. The
# README's figures: make bench BENCH_REPS=3 (about an hour on 2 cores).
# Then the exec protocol's costs (bench-exec below). BENCH_FROM=FILE
# prints the tables of an earlier run's $(OUT)/bench/runs.txt instead.
BENCH_SWIM     ?= ../shared/data/swim/FB-2010_samples_24_times_1hr_0.tsv
BENCH_NODES    ?= 3000
BENCH_REPS     ?= 1
BENCH_POLICIES ?=
BENCH_TRACE    ?= $(OUT)/bench/fb2010-day.arrow
# The container model's rows: NodeManagers of 15 GiB and 8 vcores, at the
# slot model's heartbeat for the cluster (Hadoop 1.x's nodes/100 s), and
# the policies (policy or policy:option=value).
BENCH_YARN          ?= --model yarn --node-memory-mb 15360 --node-vcores 8 --heartbeat $(shell echo $(BENCH_NODES) | awk '{print ($$1 / 100 > 0.3) ? $$1 / 100 : 0.3}')
BENCH_YARN_POLICIES ?= fifo hfsp yarn-fair yarn-fair:policy=drf yarn-capacity
# The overloaded rows: fb2010's first N jobs (seed 1) on BENCH_OVERLOAD_NODES.
BENCH_OVERLOAD       ?= 10000 30000 100000
BENCH_OVERLOAD_NODES ?= 100
BENCH_FROM           ?=

.PHONY: bench

$(BENCH_TRACE): | build
	$(BENCH) generate --swim $(BENCH_SWIM) --whole --nodes $(BENCH_NODES) --out $@

bench: build $(BENCH_TRACE)
	@BENCH=$(BENCH) GO=$(GO) OUT=$(OUT) BENCH_TRACE=$(BENCH_TRACE) BENCH_NODES=$(BENCH_NODES) BENCH_REPS=$(BENCH_REPS) \
		BENCH_POLICIES="$(BENCH_POLICIES)" BENCH_YARN="$(BENCH_YARN)" BENCH_YARN_POLICIES="$(BENCH_YARN_POLICIES)" \
		BENCH_OVERLOAD="$(BENCH_OVERLOAD)" BENCH_OVERLOAD_NODES=$(BENCH_OVERLOAD_NODES) BENCH_FROM="$(BENCH_FROM)" .ci/bench.sh
	@[ -n "$(BENCH_FROM)" ] || { echo; $(MAKE) --no-print-directory bench-exec; }

# What the exec protocol costs (docs/exec-protocol.md), printed after the
# day's table by make bench or alone by make bench-exec: decisions per
# second through the pipes with the trivial Go test client, both processes
# on one core (taskset where it exists), median of BENCH_EXEC_REPS
# benchmark runs; then the replay wall time of fb2009 and fb2010 (seed 1)
# under the Python FIFO and SJF examples beside the built-ins they mirror,
# median of BENCH_EXEC_REPS runs. Needs python3 for the second table.
BENCH_EXEC_REPS ?= 5

.PHONY: bench-exec
bench-exec: build
	@mkdir -p $(OUT)/bench
	@pin=""; command -v taskset > /dev/null && pin="taskset -c 0"; \
	$$pin $(GO) test -run NONE -bench Decision -cpu 1 -count $(BENCH_EXEC_REPS) ./schedulers/exec > $(OUT)/bench/exec-decisions.txt || exit 1; \
	echo "exec protocol, Go test client, one core ($${pin:-not pinned}), median of $(BENCH_EXEC_REPS) runs"; \
	echo "| decision | decisions/s (median) | min | max |"; echo "|---|---|---|---|"; \
	for d in empty launch; do \
		grep "^BenchmarkDecision/$$d" $(OUT)/bench/exec-decisions.txt | awk '{for (i = 1; i <= NF; i++) if ($$i == "decisions/s") print $$(i-1)}' | sort -n | \
			awk -v d=$$d '{v[NR] = $$1} END {printf "| %s | %.0f | %.0f | %.0f |\n", d, v[int((NR + 1) / 2)], v[1], v[NR]}'; \
	done
	@command -v python3 > /dev/null || { echo "bench-exec: python3 not found: the Python examples' replay times are skipped"; exit 0; }; \
	for w in fb2009 fb2010; do \
		[ -f $(OUT)/bench/$$w.arrow ] || $(BENCH) generate --profile $$w --seed 1 --out $(OUT)/bench/$$w.arrow > /dev/null || exit 1; \
	done; \
	echo; echo "replay wall time (s), seed 1, median of $(BENCH_EXEC_REPS) runs"; \
	echo "| workload | fifo-minimal | examples/fifo.py | sjf | examples/sjf.py |"; echo "|---|---|---|---|---|"; \
	for w in fb2009 fb2010; do \
		row="| $$w |"; \
		for p in fifo-minimal "exec --exec 'python3 clients/python/examples/fifo.py'" sjf "exec --exec 'python3 clients/python/examples/sjf.py'"; do \
			med=$$(for r in $$(seq $(BENCH_EXEC_REPS)); do \
				eval $(BENCH) replay --trace $(OUT)/bench/$$w.arrow --scheduler $$p --out $(OUT)/bench/exec-run --force \
					--tasks=false --occupancy=false 2>/dev/null | awk '/^wall time/ {print $$3}'; \
			done | sort -n | awk '{v[NR] = $$1} END {if (NR) print v[int((NR + 1) / 2)]; else print "failed"}'); \
			row="$$row $$med |"; \
		done; \
		echo "$$row"; \
	done

# The speed regression check (in .ci/run): fifo-minimal, fifo, hfsp,
# fair, capacity, and in containers at the same heartbeat yarn-fair with
# DRF and yarn-capacity (whose tasks share CPUs) replay fb2010
# (seed 1, 100 nodes), and fifo and hfsp an overloaded cluster (fb2010's
# first 300 jobs on 3 nodes); each one's instructions, counted by
# valgrind's callgrind, over the floor's (replay.Floor on the same tasks)
# must stay within 10% of its ratio in results/baseline/perf.json, which
# make perf-baseline rewrites after a deliberate change. It also prints
# hfsp / fifo overloaded, yarn-fair / fair and yarn-capacity / capacity.
# Counts, unlike times,
# repeat on a shared machine. The test binary is built with -c: go test's
# own build has no symbol table, which callgrind needs to find the
# measured call. About 2.5 minutes.
PERF_TEST = $(abspath $(OUT))/perf/run.test
.PHONY: perf-check perf-baseline
perf-check:
	$(GO) test -c -o $(PERF_TEST) ./run
	cd run && SOJOURN_PERF_CHECK=1 $(PERF_TEST) -test.run 'PerfRegression$$' -test.v

perf-baseline:
	$(GO) test -c -o $(PERF_TEST) ./run
	cd run && SOJOURN_PERF_CHECK=write $(PERF_TEST) -test.run 'PerfRegression$$' -test.v

# How often bench versus's interval on one trace contains the change over
# 20 generated workloads like it (docs/versus.md): fb2009 and fb2010, HFSP
# and FIFO against FAIR, each of the 20 traces replayed on 10 cluster
# seeds, its interval by each resampling. Replays afresh into
# $(OUT)/versus-calibration and writes the table to coverage.md there.
# About 2 minutes on 2 cores (1 min 46 s measured).
.PHONY: versus-calibration
versus-calibration:
	rm -rf $(OUT)/versus-calibration
	SOJOURN_VERSUS_CALIBRATION=$(abspath $(OUT))/versus-calibration $(GO) test -count=1 -timeout 2h -run 'TestCalibration$$' -v ./run/versus

# Profile-guided optimization: cmd/bench/default.pgo, which go build uses
# for bin/bench, is a merged CPU profile of the FB-2010 day under fifo,
# fair and hfsp. Regenerate it after large changes to the engine or the
# policies (it makes the replay about 5% faster; a stale profile is still
# valid, only less useful).
PGO_POLICIES ?= fifo fair hfsp

.PHONY: pgo
pgo: build $(BENCH_TRACE)
	@mkdir -p $(OUT)/pgo
	@for p in $(PGO_POLICIES); do \
		echo "profiling $$p"; \
		$(BENCH) replay --trace $(BENCH_TRACE) --nodes $(BENCH_NODES) --scheduler $$p \
			--cpuprofile $(OUT)/pgo/$$p.prof > /dev/null || exit 1; \
	done
	$(GO) tool pprof -proto $(foreach p,$(PGO_POLICIES),$(OUT)/pgo/$(p).prof) > $(OUT)/pgo/merged.pgo
	mv $(OUT)/pgo/merged.pgo cmd/bench/default.pgo

# Rewrite the policy option tables of docs/policies.md from the code's Option lists
# (a test fails while they differ).
.PHONY: readme-options
readme-options: build
	$(BENCH) policies --markdown --readme docs/policies.md

# Rewrite the expected outputs of the scripted scenario tests
# (testdata/*.txt, run by replaytest.RunScripts), the option tables of
# docs/policies.md and the compare example of docs/compare.md with what
# the code does, in every package whose tests use replay/replaytest
# (which registers -rewrite). Review the diff: commit only changes you
# understand.
REWRITE_PKGS = $(shell $(GO) list -f '{{.ImportPath}} {{join .TestImports " "}} {{join .XTestImports " "}}' ./... | awk '/sojourn\/replay\/replaytest/ {print $$1}')

.PHONY: rewrite
rewrite:
	$(GO) test -count=1 $(REWRITE_PKGS) -rewrite

# Run docs/sweep.sbatch, unchanged, as a job array on a one-node Slurm
# started on this machine (Debian's slurm-wlm and munge, installed when
# missing; skipped without root and apt-get), cancel and resubmit a task,
# and check the merged sweep byte-identical to an unsharded run. About a
# minute; everything under $(OUT)/slurm, the daemons stopped at the end.
.PHONY: slurm-check
slurm-check: build
	BENCH=$(BENCH) SLURM_CHECK_DIR=$(OUT)/slurm docs/slurm-check.sh

# Referee easy with a real Slurm: run 42 sleep jobs on a one-node Slurm of
# 16 CPUs with EASY backfilling (installed and started as for
# slurm-check), replay the same workload under easy in Slurm's settings,
# its passes at the instants of Slurm's two schedulers' runs (from
# slurmctld's log), and fail unless the start orders agree (Kendall's
# tau-b >= 0.98) and 95% of the starts are within 3 s (cmd/slurmref
# computes both). About two minutes; everything under
# $(OUT)/slurm-validate.
.PHONY: slurm-validate
slurm-validate: build
	$(GO) build -o bin/slurmref ./cmd/slurmref
	BENCH=$(BENCH) SLURMREF=bin/slurmref SLURM_VALIDATE_DIR=$(OUT)/slurm-validate docs/slurm-validate.sh

# Open the report in a real browser: make experiments, then
# interop/browser-check.mjs (playwright-core driving Debian's headless
# Chromium, /usr/bin/chromium, installed with apt-get when missing) opens
# $(REPORTS)/index.html and every run page from the file system, fails on a
# console error, a failed or network request, a missing image, a page
# wider than its window or a figure wider than its box, on a first screen
# (1280 × 900 and 390 × 844) without the answer table and its interval,
# or a run page's chart wider than the window outside a scrolling box;
# checks that a run page's table sorts, and writes screenshots to
# $(OUT)/browser. make -o experiments browser-check checks the report
# already on disk. Skipped,
# with a message and exit status 0, when Chromium is missing and cannot be
# installed (no root, no apt-get, no network). About a minute.
CHROMIUM ?= /usr/bin/chromium

.PHONY: browser-check
browser-check: experiments
	@if [ ! -x "$(CHROMIUM)" ]; then \
		if [ "$$(id -u)" = 0 ] && command -v apt-get > /dev/null; then \
			echo "browser-check: installing Debian's chromium"; \
			(apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium) > $(OUT)/chromium-install.log 2>&1 || true; \
		fi; \
	fi; \
	if [ ! -x "$(CHROMIUM)" ]; then \
		echo "browser-check: skipped: no Chromium at $(CHROMIUM) and it could not be installed (needs root and apt-get; see $(OUT)/chromium-install.log)"; \
		exit 0; \
	fi; \
	(cd interop && npm ci --no-audit --no-fund) && \
	CHROMIUM=$(CHROMIUM) node interop/browser-check.mjs $(REPORTS) $(OUT)/browser
