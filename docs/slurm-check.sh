#!/usr/bin/env bash
# Run docs/sweep.sbatch, unchanged, as a job array on a real (one-node)
# Slurm, and check that the sharded sweep merges byte-identical to the same
# sweep run in one process. Run from the repository root after make build
# (make slurm-check does both). As a recipe:
#
#   1. as root (the daemons run as root), install Debian's slurm-wlm and
#      munge if they are missing, with apt-get; without root, or apt-get
#      when they are missing, skip with a message and exit 0;
#   2. start munged, slurmctld and slurmd on this machine with a throw-away
#      configuration, state and key under out/slurm/ (steps 1 and 2 are
#      docs/slurm-lib.sh, shared with docs/slurm-validate.sh);
#   3. run docs/sweep-slurm-check.json unsharded into out/slurm/reference;
#   4. submit docs/sweep.sbatch as a 3-task array into out/slurm/array,
#      wait for it, bench merge, and compare with the reference (diff -r);
#   5. submit it again into out/slurm/resume, scancel task 1 while it runs,
#      resubmit task 1 alone (sbatch --array=1), check that it skipped the
#      cells finished before the cancel and left them untouched, merge and
#      compare again;
#   6. stop the daemons (also on failure or Ctrl-C).
#
# Nothing is compared loosely: every file of the merged directory, and of
# the directory the tasks wrote, must equal the reference byte for byte.
# The only files that record where and when a task ran are the Slurm logs
# (host, job id, timing), and sbatch --output puts them in out/slurm/log,
# outside the compared directories; bench itself writes nothing that
# depends on time, the machine or the number of workers.
#
# Environment: BENCH (bin/bench), SLURM_CHECK_DIR (out/slurm; emptied
# first), SLURM_CHECK_TIMEOUT (seconds to wait for the daemons and for each
# job, 300), SLURM_CHECK_PORT (slurmctld's port, 16817; slurmd takes the
# next one, so that a Slurm already running on the machine is left alone).
set -euo pipefail

BENCH=${BENCH:-bin/bench}
TIMEOUT=${SLURM_CHECK_TIMEOUT:-300}
PORT=${SLURM_CHECK_PORT:-16817}
SWEEP=docs/sweep-slurm-check.json
SHARDS=3
DIR=${SLURM_CHECK_DIR:-out/slurm}

WHO=slurm-check
PORT_VAR=SLURM_CHECK_PORT
# shellcheck source=docs/slurm-lib.sh
. "$(dirname "$0")/slurm-lib.sh"

[ -x "$BENCH" ] || die "$BENCH is missing: run make build first"
[ -f docs/sweep.sbatch ] || die "run from the repository root"
BENCH=$(cd "$(dirname "$BENCH")" && pwd)/$(basename "$BENCH")
mkdir -p "$DIR"
DIR=$(cd "$DIR" && pwd)
case $DIR in / | "$PWD" | "$HOME") die "SLURM_CHECK_DIR=$DIR: want a directory of its own" ;; esac
start=$(date +%s)

# --- 1. Packages --------------------------------------------------------
slurm_install

# --- 2. A one-node Slurm under out/slurm --------------------------------
# The node as slurmd sees it (CPUs, sockets, cores, memory).
node=$(slurmd -C | head -n 1)
case $node in NodeName=*) ;; *) die "slurmd -C printed no node line: $node" ;; esac
slurm_start "$node"

# wait_job JOBID: wait until no task of the job is pending or running,
# then print each task's "id state exit-code".
wait_job() {
	local deadline=$(($(date +%s) + TIMEOUT))
	while [ -n "$(squeue -h -j "$1" -o %i 2> /dev/null)" ]; do
		[ "$(date +%s)" -lt "$deadline" ] || die "job $1 not done after $TIMEOUT s: $(squeue -j "$1" 2>&1)"
		sleep 0.5
	done
	scontrol -o show job "$1" | sed -n 's/.*JobId=\([0-9]*\) ArrayJobId=[0-9]* ArrayTaskId=\([0-9]*\) .* JobState=\([A-Z_]*\) .* ExitCode=\([0-9:]*\) .*/\2 \3 \4/p' | sort -n
}

# check_done JOBID: every task of the job completed with exit code 0.
check_done() {
	local states
	states=$(wait_job "$1")
	prefix '  task ' <<< "$states"
	if [ -z "$states" ] || grep -qv ' COMPLETED 0:0$' <<< "$states"; then
		die "job $1 did not complete"
	fi
}

# compare DIR: DIR must equal the reference file for file, byte for byte.
compare() {
	diff -r "$DIR/reference" "$1" > /dev/null || { diff -rq "$DIR/reference" "$1" >&2; die "$1 differs from the unsharded run"; }
	say "  $1 is byte-identical to the unsharded run ($(find "$1" -type f | wc -l) files)"
}

# submit OUT SBATCH-ARGS...: sbatch docs/sweep.sbatch, the script as it is;
# the command line overrides its #SBATCH lines to fit this node (one core
# and 512 MiB per task instead of 4 and 2 GiB) and sends the logs to
# out/slurm/log. Prints the job id.
submit() {
	local out=$1
	shift
	SWEEP=$SWEEP OUT=$out BENCH=$BENCH SHARDS=$SHARDS \
		sbatch --parsable --cpus-per-task=1 --mem=512M --output="$DIR/log/%x-%A_%a.log" "$@" docs/sweep.sbatch
}

# --- 3. The reference: one process, no shards ---------------------------
t=$EPOCHREALTIME
"$BENCH" sweep --out "$DIR/reference" "$SWEEP" 2> /dev/null
say "unsharded reference: $(since "$t") s"

# --- 4. The array -------------------------------------------------------
t=$EPOCHREALTIME
job=$(submit "$DIR/array" --array=0-$((SHARDS - 1)))
say "sbatch --array=0-$((SHARDS - 1)) docs/sweep.sbatch: job $job"
check_done "$job"
say "array of $SHARDS tasks took $(since "$t") s from sbatch to the last task's end"
"$BENCH" merge --out "$DIR/array-merged" "$DIR/array"
compare "$DIR/array-merged"
compare "$DIR/array"

# --- 5. Cancel a task mid-run and resubmit it ---------------------------
# Shard 1 owns cells 1, 4 and 7 (bench sweep --list --shard 1/3): cancel
# it once its first cell is done, while its second is running.
out=$DIR/resume
job=$(submit "$out" --array=0-$((SHARDS - 1)))
say "sbatch --array=0-$((SHARDS - 1)) docs/sweep.sbatch: job $job; scancel ${job}_1 once cell 1 is done"
deadline=$(($(date +%s) + TIMEOUT))
until [ -d "$out/cells/000001" ]; do
	[ "$(date +%s)" -lt "$deadline" ] || die "cell 1 not done after $TIMEOUT s"
	[ -n "$(squeue -h -j "${job}_1" -o %i 2> /dev/null)" ] || [ -d "$out/cells/000001" ] ||
		die "task ${job}_1 ended without cell 1: $(cat "$DIR/log/sojourn-sweep-${job}_1.log" 2> /dev/null)"
	sleep 0.05
done
scancel "${job}_1"
states=$(wait_job "$job")
prefix '  task ' <<< "$states"
grep -q '^1 CANCELLED ' <<< "$states" || die "task ${job}_1 was not cancelled"
tr '\r' '\n' < "$DIR/log/sojourn-sweep-${job}_1.log" | prefix '  | '
[ ! -d "$out/cells/000007" ] || die "task ${job}_1 finished its shard before it was cancelled: nothing left to resume"
[ ! -f "$out/summary.json" ] || die "summary.json written with shard 1 unfinished"
mapfile -t before < <(cd "$out" && for c in cells/00000[147]; do [ -d "$c" ] && echo "$c"; done)
[ "${#before[@]}" -gt 0 ] || die "no cell of shard 1 finished"
stamps=$(cd "$out" && find "${before[@]}" -printf '%p %T@\n' | sort)
say "  cells of shard 1 finished by the cancelled task: ${before[*]}"
job=$(submit "$out" --array=1)
say "sbatch --array=1 docs/sweep.sbatch: job $job"
check_done "$job"
log=$(ls "$DIR"/log/*-"${job}"_1.log)
line=$(grep '^sweep .* already done' "$log") || die "no summary line in $log"
say "  $line"
grep -q " ${#before[@]} already done" <<< "$line" || die "the resubmitted task did not skip the ${#before[@]} cells done before"
[ "$stamps" = "$(cd "$out" && find "${before[@]}" -printf '%p %T@\n' | sort)" ] ||
	die "cells finished before the cancel were rewritten"
[ -f "$out/summary.json" ] || die "no summary.json after the resubmitted task"
"$BENCH" merge --out "$DIR/resume-merged" "$out"
compare "$DIR/resume-merged"
compare "$out"

say "OK in $(($(date +%s) - start)) s"
