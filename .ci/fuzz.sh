#!/usr/bin/env bash
# Runs every fuzz target of the readers for FUZZTIME each (make fuzz) and
# prints each one's executions. A failure, a crash, a hang of an input
# (internal/fuzzguard fails it after 10 s) or of the whole run (killed
# after FUZZTIME + 3 minutes) fails the run; the failing input is left
# under the package's testdata/fuzz/ for go test to replay.
# FUZZMINIMIZETIME (default 1s) bounds the minimization of each new
# interesting input: at Go's default, 60 s, the Arrow readers' workers
# spent a 20 s run minimizing their first finds (141 executions of
# FuzzReadJobs in 20 s, against hundreds per second otherwise).
set -uo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
FUZZTIME=${FUZZTIME:-20s}
targets=(
	traces:FuzzDecodeNeverPanics
	results:FuzzReadJobs
	results:FuzzReadTasks
	swim:FuzzParseTSV
	schedulers/pools:FuzzParse
	schedulers/queues:FuzzParse
	replay/clusterfile:FuzzParse
	schedulers/yarnfair:FuzzParseQueues
	schedulers:FuzzParseConfig
	run/sweep:FuzzLoad
	run/sweep:FuzzParseCell
	run/sweep:FuzzParseSummary
	traces/formats:FuzzImportCSV
	traces/formats:FuzzImportSWF
	traces/formats:FuzzImportSLS
	traces/formats:FuzzImportAlibaba
	traces/formats:FuzzExportRoundTrip
	schedulers/exec:FuzzReply
	schedulers/easy:FuzzParsePassTimes
)
secs=${FUZZTIME%s}
[[ $secs =~ ^[0-9]+$ ]] || { echo "fuzz: FUZZTIME=$FUZZTIME; want seconds, e.g. 20s" >&2; exit 1; }
limit=$((secs + 180))
log=$(mktemp)
trap 'rm -f "$log"' EXIT
failed=0
summary=""
for t in "${targets[@]}"; do
	pkg=${t%%:*} name=${t##*:}
	echo "fuzz: ./$pkg $name for $FUZZTIME"
	timeout --kill-after=10 "$limit" "$GO" test -run '^$' -fuzz "^$name\$" -fuzztime "$FUZZTIME" -fuzzminimizetime "${FUZZMINIMIZETIME:-1s}" \
		-timeout "$((limit + 60))s" "./$pkg" > "$log" 2>&1
	rc=$?
	execs=$(grep -o 'execs: [0-9]*' "$log" | tail -1 | awk '{print $2}')
	# Go's fuzzing coordinator may report its own -fuzztime deadline as a
	# failure ("context deadline exceeded", golang/go#75804, fixed in Go
	# 1.27): no input failed then, so none was written. Anything else, or
	# a written input, is a failure.
	if [ $rc -ne 0 ] && grep -q 'context deadline exceeded' "$log" \
		&& ! grep -q -e 'Failing input written' -e 'panic:' -e 'hangs on this input' "$log"; then
		echo "fuzz: $name ended at Go's -fuzztime deadline race (golang/go#75804); no failing input" >&2
		rc=0
	fi
	if [ $rc -ne 0 ]; then
		failed=1
		[ $rc -eq 124 ] && echo "fuzz: $name hung: no end after ${limit}s" >&2
		tail -30 "$log" >&2
		summary+=$(printf '%-18s %-26s FAILED (exit %d, %s execs)' "$pkg" "$name" "$rc" "${execs:-?}")$'\n'
	else
		summary+=$(printf '%-18s %-26s %10s execs in %s' "$pkg" "$name" "${execs:-?}" "$FUZZTIME")$'\n'
	fi
done
printf '\n%s' "$summary"
exit $failed
