#!/bin/sh
# make bench (see the Makefile): the FB-2010 day under each policy, in
# slots and in containers, and fb2010 overloaded on 100 nodes under fifo
# and hfsp, BENCH_REPS rounds of every run in turn (so that a slow or
# fast stretch of a shared machine falls on every run alike), then the
# median of each run's rounds, the ratios and the goals.
set -eu
: "${BENCH:?}" "${GO:=go}" "${OUT:=out}" "${BENCH_TRACE:?}" "${BENCH_NODES:=3000}" "${BENCH_REPS:=1}"
: "${BENCH_YARN:=}" "${BENCH_YARN_POLICIES:=}" "${BENCH_OVERLOAD:=}" "${BENCH_OVERLOAD_NODES:=100}"
policies=${BENCH_POLICIES:-$($BENCH policies | grep -vx exec | grep -v '^yarn-')}
policies="fifo-minimal $(echo $policies | tr ' ' '\n' | grep -vx fifo-minimal | tr '\n' ' ')"
dir=$OUT/bench
mkdir -p "$dir"
runs=$dir/runs.txt
# BENCH_FROM=FILE prints the tables of an earlier run's runs.txt instead.
if [ -n "${BENCH_FROM:-}" ]; then
	cp "$BENCH_FROM" "$runs.from"
	runs=$runs.from
	BENCH_REPS=0
else
	: > "$runs"
fi

# run KEY ARGS...: one replay, its line appended to runs.txt: key, replay
# wall (s), task events/s (millions), peak memory (MiB), mean sojourn (s).
run() {
	key=$1
	shift
	line=$($BENCH replay "$@" --tasks=false --occupancy=false --out "$dir/run" --force 2>/dev/null | awk '
		/^wall time/ {w = $3; e = $5; sub(/^\(/, "", e)} /^peak memory/ {m = $3} /^mean sojourn/ {s = $3}
		END {if (w != "") printf "%s %.2f %s %s", w, e, m, s}') || true
	echo "$key ${line:-failed}" >> "$runs"
}

[ "$BENCH_REPS" -gt 0 ] && for n in $BENCH_OVERLOAD; do
	tr=$OUT/workloads/fb2010-$n.arrow
	[ -f "$tr" ] || $BENCH generate --profile fb2010 --seed 1 --jobs "$n" --out "$tr" > /dev/null
done

for r in $(seq "$BENCH_REPS"); do
	echo "bench: round $r of $BENCH_REPS" >&2
	f=$(SOJOURN_BENCH_TRACE=$(realpath "$BENCH_TRACE") SOJOURN_BENCH_NODES=$BENCH_NODES $GO test -run NONE \
		-bench 'Perf/floor$' -benchtime 1x -count 1 ./run | awk '/^BenchmarkPerf\/floor/ {print $3 / 1e9}')
	echo "floor ${f:-failed}" >> "$runs"
	for p in $policies; do
		run "slot:$p" --trace "$BENCH_TRACE" --nodes "$BENCH_NODES" --scheduler "$p"
	done
	for v in $BENCH_YARN_POLICIES; do
		p=${v%%:*}
		opt=""
		[ "$p" = "$v" ] || opt="--$p.${v#*:}"
		# shellcheck disable=SC2086 # BENCH_YARN is a list of flags
		run "yarn:$v" --trace "$BENCH_TRACE" --nodes "$BENCH_NODES" --scheduler "$p" $opt $BENCH_YARN
	done
	for n in $BENCH_OVERLOAD; do
		for p in fifo hfsp; do
			run "over$n:$p" --trace "$OUT/workloads/fb2010-$n.arrow" --nodes "$BENCH_OVERLOAD_NODES" --scheduler "$p"
		done
	done
done

# The median round of each run (by wall time), as "key wall events mem
# sojourn"; a round starts with its floor.
rounds=$(grep -c '^floor ' "$runs" || true)
awk '$2 != "failed" {print}' "$runs" | sort -k1,1 -k2,2n | awk '
	{k[NR] = $1; l[NR] = $0; c[$1]++}
	END {for (i = 1; i <= NR; i++) {seen[k[i]]++; if (seen[k[i]] == int((c[k[i]] + 1) / 2)) print l[i]}}' > "$dir/medians.txt"

med() { awk -v k="$1" -v f="$2" '$1 == k {print $f}' "$dir/medians.txt"; }
# rmed A B: the median over the rounds of A's wall time over B's in the
# same round, which a machine's slow and fast stretches move less than a
# ratio of medians taken from different rounds.
rmed() {
	awk -v a="$1" -v b="$2" '$1 == "floor" {r++} $2 != "failed" {v[r, $1] = $2}
		END {for (i = 1; i <= r; i++) if (v[i, a] > 0 && v[i, b] > 0) print v[i, a] / v[i, b]}' "$runs" |
		sort -g | awk '{x[NR] = $1} END {if (NR) printf "%.4f", (NR % 2) ? x[(NR + 1) / 2] : (x[NR / 2] + x[NR / 2 + 1]) / 2}'
}
floor=$(med floor 2)
minimal=$(med slot:fifo-minimal 2)
[ -n "$floor" ] && [ -n "$minimal" ] || { echo "bench: the floor or fifo-minimal failed (see $runs)"; exit 1; }
family() {
	case $1 in
	yarn-capacity*) echo capacity ;; yarn-fair*) echo fair ;; yarn-fifo*) echo fifo ;; *) echo "${1%%:*}" ;;
	esac
}

echo "FB-2010 day on $BENCH_NODES nodes, $rounds alternated rounds ($(nproc 2>/dev/null || echo ?) cores, GOMAXPROCS=${GOMAXPROCS:-all}):"
echo "each run's median round, and ratios the median of the rounds' ratios"
echo "floor (replay.Floor, the irreducible work of the same tasks): $floor s"
echo "| policy | replay wall (s) | × floor | × fifo-minimal | task events/s (M) | peak memory (MiB) | mean sojourn (s) |"
echo "|---|---|---|---|---|---|---|"
for p in $policies; do
	set -- $(med "slot:$p" 2) $(med "slot:$p" 3) $(med "slot:$p" 4) $(med "slot:$p" 5)
	[ $# -eq 4 ] || { echo "| $p | failed | | | | | |"; continue; }
	awk -v p="$p" -v w="$1" -v f="$(rmed "slot:$p" floor)" -v m="$(rmed "slot:$p" slot:fifo-minimal)" -v e="$2" -v mem="$3" -v s="$4" \
		'BEGIN {printf "| %s | %s | %.1f× | %.2f× | %s | %s | %s |\n", p, w, f, m, e, mem, s}'
done
if [ -n "$BENCH_YARN_POLICIES" ]; then
	echo
	echo "The same day in the container model ($BENCH_YARN), at the slot rows' heartbeat: the ratio is the cost of containers"
	echo "| policy | replay wall (s) | × floor | × the same family in slots | peak memory (MiB) | mean sojourn (s) |"
	echo "|---|---|---|---|---|---|"
	for v in $BENCH_YARN_POLICIES; do
		fam=$(family "$v")
		slot=$(med "slot:$fam" 2)
		set -- $(med "yarn:$v" 2) $(med "yarn:$v" 4) $(med "yarn:$v" 5)
		[ $# -eq 3 ] || { echo "| $v | failed | | | | |"; continue; }
		awk -v p="$v" -v w="$1" -v f="$(rmed "yarn:$v" floor)" -v s="$slot" -v q="$(rmed "yarn:$v" "slot:$fam")" -v fam="$fam" -v mem="$2" -v soj="$3" \
			'BEGIN {r = (s == "") ? "–" : sprintf("%.2f× (%s %s s)", q, fam, s); printf "| %s | %s | %.1f× | %s | %s | %s |\n", p, w, f, r, mem, soj}'
	done
fi
if [ -n "$BENCH_OVERLOAD" ]; then
	echo
	echo "fb2010 (seed 1) overloaded on $BENCH_OVERLOAD_NODES nodes, job results only"
	echo "| jobs | fifo wall (s) | hfsp wall (s) | hfsp / fifo | fifo peak memory (MiB) | hfsp peak memory (MiB) |"
	echo "|---|---|---|---|---|---|"
	for n in $BENCH_OVERLOAD; do
		set -- "$(med "over$n:fifo" 2)" "$(med "over$n:hfsp" 2)" "$(med "over$n:fifo" 4)" "$(med "over$n:hfsp" 4)" "$(rmed "over$n:hfsp" "over$n:fifo")"
		awk -v n="$n" -v f="$1" -v h="$2" -v fm="$3" -v hm="$4" -v q="$5" \
			'BEGIN {r = (q != "") ? sprintf("%.2f×", q) : "–"; printf "| %d | %s | %s | %s | %s | %s |\n", n, f, h, r, fm, hm}'
	done
fi

# The goals (docs/performance.md), each against its figure above.
echo
echo "| goal | target | measured | met |"
echo "|---|---|---|---|"
goal() { # name, value, limit, unit
	awk -v g="$1" -v v="$2" -v l="$3" -v u="$4" \
		'BEGIN {if (v == "") {printf "| %s | ≤ %s%s | not run | – |\n", g, l, u; exit}; printf "| %s | ≤ %s%s | %.2f%s | %s |\n", g, l, u, v, u, (v + 0 <= l + 0) ? "yes" : "no"}'
}
ratio() { [ -n "$1" ] && [ -n "$2" ] && awk -v a="$1" -v b="$2" 'BEGIN {printf "%.4f", a / b}' || true; }
goal "fifo-minimal / floor on the day" "$(rmed slot:fifo-minimal floor)" 3 "×"
goal "hfsp / fifo-minimal on the day" "$(rmed slot:hfsp slot:fifo-minimal)" 1.3 "×"
for n in $BENCH_OVERLOAD; do
	goal "hfsp / fifo, $n overloaded jobs" "$(rmed "over$n:hfsp" "over$n:fifo")" 2 "×"
	hm=$(med "over$n:hfsp" 4)
	case $n in
	30000) goal "hfsp peak memory, 30000 overloaded jobs" "$(ratio "$hm" 1024)" 1 " GiB" ;;
	100000) goal "hfsp peak memory, 100000 overloaded jobs" "$(ratio "$hm" 1024)" 2 " GiB" ;;
	esac
done
for v in $BENCH_YARN_POLICIES; do
	case $v in
	yarn-fair:policy=drf | yarn-capacity)
		goal "$v / $(family "$v") in slots on the day" "$(rmed "yarn:$v" "slot:$(family "$v")")" 1.5 "×"
		;;
	esac
done
