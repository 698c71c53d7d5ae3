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
#      run time = Slurm's end - the scheduler run that started the job,
#      estimate = the time limit x CPUs),
#      bench import it, and replay it under easy on one node of 16 map
#      slots, its passes at the instants of Slurm's passes in the log;
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
# order, here submit order (fcfs); a job of the workload is rigid and asks
# for all its CPUs at once, so job-share does not limit it. easy in
# Slurm's settings: the job at the head reserves the whole node
# (node-granular, as backfill.c's _add_reservation), a backfilled job may
# not end exactly at the reservation's start (end-at-shadow refuse). A job
# that cannot start now is reserved where Slurm's select plugin puts it
# (will-run-window 30: at the end of the last running job of the 30 s
# window of ends after which it fits, windows aligned on the wall clock),
# not at the earliest time it fits.
# Slurm decides only in its two schedulers' runs, each on its own clock:
# the backfill agent every bf_interval after the end of its last pass (so
# its phase in the second creeps), and the main scheduler, which starts
# jobs from the head of the queue, from slurmctld's background loop once
# a second (sched_interval=1). A job end does not run the main scheduler
# at once here: without an Epilog, slurmd answers the terminate request
# with ESLURMD_KILL_JOB_ALREADY_COMPLETE, and agent.c then only calls
# queue_job_scheduler(), whose request the loop honours after
# batch_sched_delay (3 s) since its last run, which the once-a-second run
# never lets pass. The replay runs its passes at the instants of this
# run's passes, read from the log (pass-times, from slurmref passes), so
# that the comparison is of what each pass decides, not of this machine's
# timing, and leaves out the runs during which a job was completing (from
# its end until slurmd's answer to the terminate request, a few
# milliseconds), when the node is in cg_node_bitmap and neither
# scheduler starts anything on it. Its heartbeats every millisecond, the
# log's resolution, so a decision launches within it.
EASY_OPTIONS=(--easy.job-share 1 --easy.backfill-order fcfs --easy.reservations 1
	--easy.node-granular --easy.end-at-shadow refuse --easy.decision-interval 1)

WHO=slurm-validate
CTLD_DEBUG=debug # logs the main scheduler's runs
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
# machine's. sched_interval=1: the main scheduler runs every second (its
# only runs here, as above). DebugFlags=TraceJobs logs the end of each
# job's completing state; DebugFlags=Backfill logs each
# backfill decision (a job's planned start, a job started) in
# log/slurmctld.log, to explain a disagreement.
mem=$(slurmd -C | sed -n 's/.* RealMemory=\([0-9]*\).*/\1/p' | head -n 1)
[ -n "$mem" ] || die "slurmd -C printed no RealMemory"
slurm_start "NodeName=$(hostname -s) CPUs=$CPUS Boards=1 SocketsPerBoard=1 CoresPerSocket=$CPUS ThreadsPerCore=1 RealMemory=$mem" \
	"SlurmdParameters=config_overrides
PriorityType=priority/basic
DebugFlags=Backfill,TraceJobs
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
# scontrol's seconds), and the replay's passes at the instants of this
# run's backfill passes and main-scheduler runs.
LOGTIMES=(-log "$DIR/log/slurmctld.log")
"$SLURMREF" passes "${LOGTIMES[@]}" -t0 "$t0" > "$DIR/passes.txt"
"$SLURMREF" csv -plan "$DIR/plan.txt" -slurm "$DIR/slurm.txt" "${LOGTIMES[@]}" -t0 "$t0" > "$DIR/workload.csv"
"$BENCH" import csv "$DIR/workload.csv" --out "$DIR/workload.arrow" > /dev/null
# Slurm's will-run test aligns its windows of running-job ends on the
# wall clock: the replay needs the wall-clock second of time 0.
opts=("${EASY_OPTIONS[@]}" --easy.pass-times "$DIR/passes.txt" --easy.will-run-window 30 --easy.window-epoch "$t0")
say "bench replay --scheduler easy ${opts[*]}"
"$BENCH" replay --trace "$DIR/workload.arrow" --nodes 1 --nodes-per-rack 1 --map-slots "$CPUS" --reduce-slots 1 \
	--heartbeat 0.001 --scheduler easy "${opts[@]}" --out "$DIR/replay" --format csv --tasks=false --occupancy=false > /dev/null

# --- 6. Agreement -------------------------------------------------------
"$SLURMREF" compare -plan "$DIR/plan.txt" -slurm "$DIR/slurm.txt" "${LOGTIMES[@]}" -t0 "$t0" -replay "$DIR/replay/jobs.csv" \
	-tau 0.98 -within 3 -frac 0.95 2>&1 | prefix "$WHO:   " || die "the replay disagrees with Slurm (above)"
say "OK in $(since "$start") s"
