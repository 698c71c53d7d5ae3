# Sourced by docs/slurm-check.sh and docs/slurm-validate.sh: install
# Debian's slurm-wlm and munge when they are missing, and run a throw-away
# one-node Slurm on this machine. The caller sets WHO (the prefix of its
# messages), DIR (the directory of the configuration, state, keys and
# logs; emptied), PORT (slurmctld's port; slurmd takes the next one),
# PORT_VAR (the environment variable that sets PORT, for messages) and
# TIMEOUT (seconds to wait for the daemons and for a job); CTLD_DEBUG,
# slurmctld's log level, is info unless it sets it.

say() { echo "$WHO: $*"; }
prefix() { while IFS= read -r l; do echo "$1$l"; done; }
since() { awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }'; }
die() { echo "$WHO: FAIL: $*" >&2; exit 1; }

# slurm_install: make sure slurm-wlm and munge are installed. slurm-wlm
# brings slurmctld, slurmd and the client commands; munge is Slurm's
# authentication. The daemons are in /usr/sbin. Without root (the
# daemons run as root), without apt-get when they are missing, or when
# apt-get fails, it says why and exits 0: the check is skipped.
export PATH=$PATH:/usr/sbin:/sbin
have_slurm() {
	local c
	for c in munged slurmctld slurmd sbatch squeue sinfo scontrol scancel; do
		command -v "$c" > /dev/null || return 1
	done
}
slurm_install() {
	if [ "$(id -u)" != 0 ]; then
		# SlurmUser and SlurmdUser are root: slurmd must be.
		say "SKIP: Slurm's daemons run as root here, and this is user $(id -un)"
		exit 0
	fi
	have_slurm && return 0
	if ! command -v apt-get > /dev/null; then
		say "SKIP: slurm-wlm and munge are not installed, and installing them needs apt-get"
		exit 0
	fi
	say "installing slurm-wlm and munge with apt-get"
	local t log=${TMPDIR:-/tmp}/$WHO-apt.log
	t=$(date +%s)
	export DEBIAN_FRONTEND=noninteractive
	if ! apt-get install -y -qq --no-install-recommends slurm-wlm munge > "$log" 2>&1; then
		apt-get update -qq > /dev/null 2>&1 || true
		if ! apt-get install -y -qq --no-install-recommends slurm-wlm munge > "$log" 2>&1; then
			tail -n 20 "$log" >&2
			say "SKIP: apt-get could not install slurm-wlm and munge"
			exit 0
		fi
	fi
	have_slurm || { say "SKIP: slurm-wlm is installed but its commands are not on PATH"; exit 0; }
	say "installed in $(($(date +%s) - t)) s"
}

pids=()
stop_daemons() {
	local status=$?
	# On failure, show why: the daemons' logs, and the jobs' own logs.
	if [ "$status" != 0 ]; then
		for f in "$DIR"/log/*.log; do
			[ -f "$f" ] || continue
			echo "----- $f (last 40 lines)" >&2
			tail -n 40 "$f" >&2
		done
	fi
	# Cancel any job still there (only on failure: a timeout), then stop
	# what this script started, newest first, and wait for each.
	if [ "${#pids[@]}" -gt 2 ] && [ -n "$(squeue -h -o %i 2> /dev/null)" ]; then
		scancel --user="$(id -un)" 2> /dev/null || true
		for _ in $(seq 70); do
			[ -z "$(squeue -h -o %i 2> /dev/null)" ] && break
			sleep 0.5
		done
	fi
	local i
	for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
		kill "${pids[i]}" 2> /dev/null || true
	done
	for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
		for _ in $(seq 50); do
			kill -0 "${pids[i]}" 2> /dev/null || break
			sleep 0.1
		done
		kill -9 "${pids[i]}" 2> /dev/null || true
		wait "${pids[i]}" 2> /dev/null || true
	done
	exit "$status"
}

# slurm_start NODE [CONF]: start munged, slurmctld and slurmd under $DIR
# with a node described by NODE (slurm.conf's NodeName=... CPUs=... line,
# without NodeAddr and State) and the lines CONF added to the
# configuration; wait until the node is idle. The daemons stop when the
# script exits (also on failure or Ctrl-C). They run at nice -5 (as
# root), so that other work on a busy machine delays Slurm's scheduling
# less.
slurm_start() {
	local node=$1 extra=${2:-}
	rm -rf "$DIR"
	mkdir -p "$DIR"/{etc,munge,state,spool,log,run}
	chmod 700 "$DIR/munge"
	host=$(hostname -s)
	export SLURM_CONF=$DIR/etc/slurm.conf
	trap stop_daemons EXIT
	trap 'exit 130' INT TERM
	local nice=()
	[ "$(id -u)" = 0 ] && nice=(nice -n -5)

	# munged with its own key and socket, so that a munged already running
	# (or none) makes no difference.
	dd if=/dev/urandom of="$DIR/munge/munge.key" bs=1024 count=1 status=none
	chmod 400 "$DIR/munge/munge.key"
	"${nice[@]}" munged --foreground --force --key-file="$DIR/munge/munge.key" \
		--socket="$DIR/run/munge.socket" --pid-file="$DIR/run/munged.pid" \
		--seed-file="$DIR/munge/munged.seed" > "$DIR/log/munged.log" 2>&1 &
	pids+=($!)

	# Only what a single machine without cgroups or a database can run:
	# processes tracked by their parents (proctrack/linuxproc), no task
	# binding or cgroups (task/none), cores as the consumable resource, no
	# accounting. ReturnToService=2 lets the node come back after a restart.
	cat > "$SLURM_CONF" <<- EOF
		ClusterName=sojourn-check
		SlurmctldHost=$host(127.0.0.1)
		SlurmctldPort=$PORT
		SlurmdPort=$((PORT + 1))
		SlurmUser=root
		SlurmdUser=root
		AuthType=auth/munge
		CredType=cred/munge
		AuthInfo=socket=$DIR/run/munge.socket
		StateSaveLocation=$DIR/state
		SlurmdSpoolDir=$DIR/spool
		SlurmctldPidFile=$DIR/run/slurmctld.pid
		SlurmdPidFile=$DIR/run/slurmd.pid
		SlurmctldLogFile=$DIR/log/slurmctld.log
		SlurmdLogFile=$DIR/log/slurmd.log
		SlurmctldDebug=${CTLD_DEBUG:-info}
		SlurmdDebug=info
		ProctrackType=proctrack/linuxproc
		TaskPlugin=task/none
		JobAcctGatherType=jobacct_gather/none
		AccountingStorageType=accounting_storage/none
		JobCompType=jobcomp/none
		MpiDefault=none
		SwitchType=switch/none
		SchedulerType=sched/backfill
		SelectType=select/cons_tres
		SelectTypeParameters=CR_Core
		ReturnToService=2
		KillWait=30
		MinJobAge=600
	EOF
	[ -z "$extra" ] || echo "$extra" >> "$SLURM_CONF"
	cat >> "$SLURM_CONF" <<- EOF
		$node NodeAddr=127.0.0.1 State=UNKNOWN
		PartitionName=check Nodes=$host Default=YES MaxTime=INFINITE State=UP
	EOF

	for _ in $(seq 50); do [ -S "$DIR/run/munge.socket" ] && break; sleep 0.1; done
	[ -S "$DIR/run/munge.socket" ] || die "munged did not start"
	# In the foreground (-D) so that their process ids are this script's to
	# stop; they log to $DIR/log/ (their copies on stderr are dropped).
	"${nice[@]}" slurmctld -D -i -f "$SLURM_CONF" > /dev/null 2>&1 &
	pids+=($!)
	"${nice[@]}" slurmd -D -f "$SLURM_CONF" -N "$host" > /dev/null 2>&1 &
	pids+=($!)

	# Wait for the node to be idle.
	local deadline=$(($(date +%s) + TIMEOUT))
	until [ "$(sinfo -h -n "$host" -o %t 2> /dev/null)" = idle ]; do
		alive || die "a daemon exited (is port $PORT or $((PORT + 1)) taken? $PORT_VAR=... to move them)"
		[ "$(date +%s)" -lt "$deadline" ] || die "node $host not idle after $TIMEOUT s: $(sinfo -h -N -o '%N %t %E' 2>&1)"
		sleep 0.5
	done
	say "Slurm $(sinfo -V | awk '{print $2}') up: $(sinfo -h -N -o '%N %t %c CPUs')"
}

# alive: every daemon started is still running.
alive() {
	local p
	for p in "${pids[@]}"; do
		kill -0 "$p" 2> /dev/null || return 1
	done
}
