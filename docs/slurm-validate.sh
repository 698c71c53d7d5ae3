#!/usr/bin/env bash
# Referee the easy policy with a real Slurm: run a small rigid workload of
# sleep jobs on a one-node Slurm with EASY backfilling, replay the same
# workload with bench replay --scheduler easy in Slurm's settings, and fail
# unless the two start the jobs in nearly the same order at nearly the same
# times. Run from the repository root after make build (make
# slurm-validate does both). As a recipe:
#
#   1. as root (the daemons run as root), install Debian's slurm-wlm and
#      munge if they are missing, with apt-get; without root, or apt-get
#      when they are missing, skip with a message and exit 0;
#   2. start munged, slurmctld and slurmd (at nice -5) with a throw-away
#      configuration under out/slurm-validate/ (docs/slurm-lib.sh): one node
#      advertising 16 CPUs, more than the machine has (sleep needs none),
#      FIFO priorities (priority/basic) and backfilling with one
#      reservation, run every second at a resolution of one second;
#   3. draw the workload (slurmref plan: 42 jobs from seed 3, whole-second
#      arrivals over about 80 s, sleeps of 2-25 s on 1-16 CPUs, time limits
#      of whole minutes) and submit each job at its time with sbatch -n
#      CPUS --time LIMIT --wrap "sleep RUN";
#   4. once all have ended, read each job's submit, start and end times
#      from scontrol (kept MinJobAge=600 s; no database needed), and the
#      same to the millisecond from slurmctld's log;
#   5. write the workload as Slurm ran it as CSV (fractional submit times,
#      run time = Slurm's end - start, estimate = the time limit x CPUs),
#      bench import it, and replay it under easy on one node of 16 map
#      slots, the passes at the phase of this run's backfill passes;
#   6. compare the start times to the millisecond (slurmref compare): Kendall's tau-b of the
#      start orders must be at least 0.98 and 95% of the jobs must start
#      within 3 s of Slurm's start.
#
# Environment: BENCH (bin/bench), SLURMREF (bin/slurmref, built from
# cmd/slurmref), SLURM_VALIDATE_DIR (out/slurm-validate; emptied first),
# SLURM_VALIDATE_TIMEOUT (seconds to wait for the daemons and for the
# workload, 300), SLURM_VALIDATE_PORT (slurmctld's port, 16827; slurmd takes
# the next one), SLURM_VALIDATE_SEED (3) and SLURM_VALIDATE_JOBS (42).
set -euo pipefail

BENCH=${BENCH:-bin/bench}
SLURMREF=${SLURMREF:-bin/slurmref}
TIMEOUT=${SLURM_VALIDATE_TIMEOUT:-300}
PORT=${SLURM_VALIDATE_PORT:-16827}
DIR=${SLURM_VALIDATE_DIR:-out/slurm-validate}
SEED=${SLURM_VALIDATE_SEED:-3}
JOBS=${SLURM_VALIDATE_JOBS:-42}
CPUS=16

# The replay's side: Slurm's backfill tries the queued jobs in priority
# order, here submit order (fcfs); a job of the workload is rigid and asks for all
# its CPUs at once, so job-share does not limit it.
# easy in Slurm's settings: the job at the head reserves the whole node
# (node-granular, as backfill.c's _add_reservation), a backfilled job may
# not end exactly at the reservation's start (end-at-shadow refuse),
# queue order for backfilling, whole jobs at once. Slurm's backfill
# passes every second (bf_interval=1) at a fraction of the second that
# creeps by about a millisecond a pass; the replay passes every second
# (decision-interval 1) at the median fraction of this run's passes
# (decision-phase, read from the log), its heartbeats every 0.01 s
# launching a job within 0.01 s of its pass, as Slurm's start follows its
# pass by a millisecond or so. The times are the log's milliseconds, so a
# job's end falls on the same side of a pass as in Slurm.
# A job that cannot start now is reserved
# where Slurm's select plugin puts it (will-run-window 30: at the end of
# the last running job of the 30 s window of ends after which it fits,
# windows aligned on the wall clock), not at the earliest time it fits.
# A job's end also runs Slurm's main scheduler at once (main-scheduler):
# the jobs at the head of the queue that fit start then, up to the first
# that does not; backfilling waits for the next pass.
EASY_OPTIONS=(--easy.job-share 1 --easy.backfill-order fcfs --easy.reservations 1
	--easy.node-granular --easy.end-at-shadow refuse --easy.decision-interval 1
	--easy.main-scheduler)

WHO=slurm-validate
PORT_VAR=SLURM_VALIDATE_PORT
# shellcheck source=docs/slurm-lib.sh
. "$(dirname "$0")/slurm-lib.sh"

[ -x "$BENCH" ] || die "$BENCH is missing: run make build first"
[ -x "$SLURMREF" ] || die "$SLURMREF is missing: go build -o $SLURMREF ./cmd/slurmref"
[ -f docs/slurm-lib.sh ] || die "run from the repository root"
BENCH=$(cd "$(dirname "$BENCH")" && pwd)/$(basename "$BENCH")
SLURMREF=$(cd "$(dirname "$SLURMREF")" && pwd)/$(basename "$SLURMREF")
mkdir -p "$DIR"
DIR=$(cd "$DIR" && pwd)
case $DIR in / | "$PWD" | "$HOME") die "SLURM_VALIDATE_DIR=$DIR: want a directory of its own" ;; esac
start=$EPOCHREALTIME

# --- 1. Packages --------------------------------------------------------
slurm_install

# --- 2. A one-node Slurm of 16 CPUs -------------------------------------
# config_overrides: slurmd takes the node line's CPUs instead of the
# machine's. sched_interval=1: the main scheduling loop also runs every
# second besides on each submission and end. DebugFlags=Backfill logs each
# backfill decision (a job's planned start, a job started) in
# log/slurmctld.log, to explain a disagreement.
mem=$(slurmd -C | sed -n 's/.* RealMemory=\([0-9]*\).*/\1/p' | head -n 1)
[ -n "$mem" ] || die "slurmd -C printed no RealMemory"
slurm_start "NodeName=$(hostname -s) CPUs=$CPUS Boards=1 SocketsPerBoard=1 CoresPerSocket=$CPUS ThreadsPerCore=1 RealMemory=$mem" \
	"SlurmdParameters=config_overrides
PriorityType=priority/basic
DebugFlags=Backfill
SchedulerParameters=bf_interval=1,bf_resolution=1,bf_job_part_count_reserve=1,sched_interval=1,bf_continue"

# --- 3. The workload ----------------------------------------------------
"$SLURMREF" plan -seed "$SEED" -jobs "$JOBS" -cpus "$CPUS" > "$DIR/plan.txt"
read -r _ last _ < <(tail -n 1 "$DIR/plan.txt")
say "submitting $JOBS jobs over $last s (seed $SEED): sleeps on 1-$CPUS CPUs"
# Time 0 is a whole second, so that Slurm's times (whole seconds) keep the
# plan's submission seconds.
zero=$(($(date +%s) + 2))
late=0
while read -r id submit run cpus limit; do
	now=$EPOCHREALTIME
	wait=$(awk -v t="$((zero + submit))" -v n="$now" 'BEGIN { d = t - n; printf "%.3f", (d > 0 ? d : 0) }')
	sleep "$wait"
	sbatch --quiet --job-name="$id" --nodes=1 --ntasks="$cpus" --time="$limit" \
		--output=/dev/null --wrap="exec sleep $run" ||
		die "sbatch of job $id failed"
	l=$(awk -v t="$((zero + submit))" -v n="$EPOCHREALTIME" 'BEGIN { printf "%d", (n - t) * 1000 }')
	[ "$l" -le "$late" ] || late=$l
done < "$DIR/plan.txt"
say "  submitted, at most $late ms after the planned time"
deadline=$(($(date +%s) + TIMEOUT))
while [ -n "$(squeue -h -o %i 2> /dev/null)" ]; do
	alive || die "a daemon exited"
	[ "$(date +%s)" -lt "$deadline" ] || die "jobs not done after $TIMEOUT s: $(squeue 2>&1 | head -n 20)"
	sleep 1
done

# --- 4. What Slurm did --------------------------------------------------
SLURM_TIME_FORMAT=%s scontrol -o show job | awk '{
	for (i = 1; i <= NF; i++) {
		k = substr($i, 1, index($i, "=") - 1); v[k] = substr($i, index($i, "=") + 1)
	}
	print v["JobName"], v["SubmitTime"], v["StartTime"], v["EndTime"], v["JobState"]
}' | sort -n > "$DIR/slurm.txt"
t0=$(awk '$1 == 1 { print $2 }' "$DIR/slurm.txt")
[ -n "$t0" ] || die "no record of job 1 in scontrol show job"
makespan=$(awk -v t="$t0" 'BEGIN { m = 0 } $4 - t > m { m = $4 - t } END { print m }' "$DIR/slurm.txt")
say "Slurm ran the workload in $makespan s (first submission at $t0, $((t0 - zero)) s after the plan's time 0)"

# --- 5. The same workload replayed --------------------------------------
# Times to the millisecond from slurmctld's log (checked against
# scontrol's seconds), and the replay's passes at the fraction of the
# second at which this run's backfill passes began (their median).
LOGTIMES=(-log "$DIR/log/slurmctld.log")
phase=$("$SLURMREF" phase "${LOGTIMES[@]}" -t0 "$t0")
"$SLURMREF" csv -plan "$DIR/plan.txt" -slurm "$DIR/slurm.txt" "${LOGTIMES[@]}" -t0 "$t0" > "$DIR/workload.csv"
"$BENCH" import csv "$DIR/workload.csv" --out "$DIR/workload.arrow" > /dev/null
# Slurm's will-run test aligns its windows of running-job ends on the
# wall clock: the replay needs the wall-clock second of time 0.
opts=("${EASY_OPTIONS[@]}" --easy.decision-phase "$phase" --easy.will-run-window 30 --easy.window-epoch "$t0")
say "bench replay --scheduler easy ${opts[*]}"
"$BENCH" replay --trace "$DIR/workload.arrow" --nodes 1 --nodes-per-rack 1 --map-slots "$CPUS" --reduce-slots 1 \
	--heartbeat 0.01 --scheduler easy "${opts[@]}" --out "$DIR/replay" --format csv --tasks=false --occupancy=false > /dev/null

# --- 6. Agreement -------------------------------------------------------
"$SLURMREF" compare -plan "$DIR/plan.txt" -slurm "$DIR/slurm.txt" "${LOGTIMES[@]}" -t0 "$t0" -replay "$DIR/replay/jobs.csv" \
	-tau 0.98 -within 3 -frac 0.95 2>&1 | prefix "$WHO:   " || die "the replay disagrees with Slurm (above)"
say "OK in $(since "$start") s"
