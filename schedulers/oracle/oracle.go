package oracle

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"sojourn/replay"
	"sojourn/schedulers/internal/delay"
	"sojourn/schedulers/internal/order"
	"sojourn/schedulers/internal/policy"
)

// Oracle is the machinery of the size-oracle baselines srpt, las and ps
// (see policies.go): a policy that ranks jobs by a key computed from
// what a real scheduler cannot know (true task durations, exact attained
// service) and serves them in that order.
//
// Jobs with equal keys form a group when the rank shares ties (las, ps);
// otherwise every job is its own group (srpt, ties broken by submit time and
// trace order). A free slot of kind k goes to the first group, in key
// order, that has a job able to use it on the reporting node; inside the
// group, to the job with the fewest running tasks of kind k (max-min
// fairness), ties to the job served least recently (round robin: on one
// slot, jobs of many short tasks take turns, which approximates processor
// sharing with a quantum of one task). A job uses a slot by resuming its oldest
// task suspended on the node, or by launching a pending task (maps at the
// best locality the delay-scheduling rule allows).
//
// Preemption keeps the allocation close to the target the order implies:
// each group in turn water-fills the cluster's slots among its jobs, each
// capped at its demand (running, suspended and launchable tasks). On a
// full node, a job below its target that has a task suspended there or a
// task to launch takes the slot of the youngest task of the job latest in
// order that holds more than its target, suspended (eager, within the
// node's cap of suspended tasks; otherwise it waits) or killed.
//
// What the order implies is kept up to date from the events rather than
// recomputed over every job at every heartbeat (there are tens to
// hundreds in flight, and millions of heartbeats): keys are re-evaluated
// only for the jobs an event touched (and, under las, those whose level
// may have ended since), per kind the jobs that may use a slot are listed
// in order, and the targets and the wish for busy heartbeats are computed
// again only after something they depend on changed. Each gives what the
// full recomputation would (upkeep_test.go checks it event by event).
type Oracle struct {
	name string
	rank oracleRank
	o    oracleOptions
	v    *replay.View

	jobs   []oracleJob
	order  []int32 // arrived, unfinished jobs in key order (see sortJobs)
	groups []int32 // shared ranks: order[groups[g]:groups[g+1]] is group g
	delay  replay.Time
	clock  delay.Clock // delay scheduling: the jobs skipped at the last heartbeat
	epoch  uint32
	served uint64 // counts the slots given and the arrivals (oracleJob.served)

	// rekey lists the jobs whose key may have changed since the last sort
	// (an event touched them), reorder says the order must be sorted again
	// (a key changed, a job arrived or finished), and orderVer counts the
	// changes of the order or its groups: what is derived from them
	// (positions, candidates, targets, wishes) holds while its version is
	// orderVer.
	rekey     []int32
	reorder   bool
	joined    bool  // a job arrived or finished since the last sort
	moved     int32 // the one job whose key changed since, or -1, or -2 if several
	orderVer  uint32
	nextCheck replay.Time // las: no job's level can end before
	// srpt: when each job's place before its successor must be checked
	// again (see sortByRemaining), and the jobs to check.
	certs []orderCert
	check []int32

	// cand[k] lists in order the jobs that may use a slot of kind k (a task
	// suspended, or one that may launch), and during a heartbeat perhaps a
	// few that no longer may, which serve turns down at no cost.
	cand    [2][]int32
	candVer [2]uint32
	// Shared ranks: per kind, the candidates of the first group in a heap
	// by running tasks then service order, current with cand (pick.go),
	// and the jobs set aside during a fill.
	pick    [2][]int32
	pickVer [2]uint32
	aside   []int32

	// demand[k] holds per order position the job's demand of kind k (see
	// oracleDemand), while demandVer[k] is orderVer; target[k] the slots
	// allotted (see targets), while targetVer[k] is orderVer, no demand
	// changed and the cluster has targetSlots[k] slots.
	demand      [2][]int32
	demandVer   [2]uint32
	target      [2][]int32
	targetEnd   [2]int32 // one past the last position with a target above 0
	targetVer   [2]uint32
	targetStale [2]bool
	targetSlots [2]int32
	// byDemand[k][lo:hi] is group [lo, hi)'s water-fill sort by demand,
	// kept from one call to the next (demands change little), valid while
	// byDemandVer[k] is orderVer.
	byDemand    [2][]int32
	byDemandVer [2]uint32
	// byDemandGroups[k] is the number of groups, from the first, whose
	// byDemand entries have been sorted since the order last changed:
	// targets stops at the group where the slots run out.
	byDemandGroups [2]int
	packed         []uint64 // scratch

	wantDirty, want bool
	// wish[k] is whether kind k wants busy heartbeats (see
	// WantsBusyHeartbeats), valid while wishVer[k] is orderVer and no event
	// of kind k (or of a whole job or node) came since.
	wish      [2]bool
	wishVer   [2]uint32
	wishStale [2]bool

	// suspendedOn counts the tasks suspended on each node, roomy the nodes
	// below the cap: eager preemption is pointless when none is.
	suspendedOn []int32
	roomy       int

	// verify, set by tests, checks the upkeep against a full recomputation
	// at the step named by what (hb is nil outside heartbeats).
	verify func(o *Oracle, v *replay.View, hb *replay.Heartbeat, what string, k replay.TaskKind)
}

// oracleRank computes the key of job j at the current time and says
// whether jobs with equal keys share (max-min) or are served one by one.
// A key may change only at an event of its job or, if attained, as the
// job's attained service grows.
type oracleRank struct {
	key    func(o *Oracle, j int32) float64
	shared bool
	// remaining and attained say whether the remaining work (srpt) or the
	// attained service (las) of every job must be tracked.
	remaining, attained bool
}

type oracleOptions struct {
	preempt [2]string // wait, eager or kill, per kind
	delay   float64   // locality delay (s); -1 auto; 0 off
	quantum float64   // las: first level's attained service; ps: time slice (slot-s)
	factor  float64   // las: ratio between level boundaries
	rounds  bool      // ps with a quantum: ranked by rounds (psKey)
}

type oracleJob struct {
	// what heartbeats read first, together
	key    float64
	pos    int32    // position in the order
	tried  uint32   // epoch at which it could not use the node's slot
	at     [2]int32 // shared ranks: index in pick, -1 if none
	live   bool     // arrived and not finished: in the order
	queued bool     // in rekey
	inCand [2]bool
	demand [2]int32 // running, suspended and launchable tasks, at its last event
	// srpt: the time key was computed at (-1: an event changed it since),
	// and the version of the job's certificate (see orderCert).
	keyAt   replay.Time
	certVer uint32

	remaining float64 // true work of its unfinished tasks (slot-s)
	// srpt: the service of the live attempts of its unfinished tasks in
	// closed segments (liveClosed), and per task that of its current
	// attempt (attempt); with the running segments, the work done of the
	// unfinished tasks.
	liveClosed float64
	attempt    [2][]float64
	// served is the heartbeat-path counter when it was last given a slot
	// (or arrived): shared ranks serve the least recently served first.
	served uint64
	// attained service: closed segments plus, for the running ones,
	// runCount·now − segSum (seconds).
	closed   float64
	segSum   float64
	runCount int
	seg      [2][]replay.Time // per task, start of its running segment, -1 if none
	submit   replay.Time
	// las: cached level of attained service, valid below levelEnd, which
	// the service cannot reach before check; ps with a quantum: the
	// quanta received (level) and the round it arrived in (base)
	level, levelEnd float64
	base            float64
	check           replay.Time
	wait            delay.Wait // delay scheduling of its maps
}

var (
	_ replay.Scheduler = (*Oracle)(nil)
	_ replay.Starter   = (*Oracle)(nil)
	_ replay.Preempter = (*Oracle)(nil)
)

// Name implements replay.Scheduler.
func (o *Oracle) Name() string { return o.name }

// Start implements replay.Starter.
func (o *Oracle) Start(v *replay.View) error {
	o.v = v
	o.jobs = make([]oracleJob, v.Jobs())
	for i := range o.jobs {
		o.jobs[i].at = [2]int32{-1, -1}
	}
	o.suspendedOn = make([]int32, v.Nodes())
	o.roomy = v.Nodes()
	o.orderVer = 1 // nothing derived yet
	o.moved = -1
	o.nextCheck = replay.Never
	o.delay = delay.Duration(o.o.delay, v)
	o.clock.Start(v)
	return nil
}

// OnEvent implements replay.Scheduler.
func (o *Oracle) OnEvent(ev replay.Event, v *replay.View) {
	o.v = v
	o.wantDirty = true
	o.clock.OnEvent(ev.Kind)
	switch ev.Kind {
	case replay.NodeFailed:
		o.setSuspended(ev.Node, 0)
		o.wishStale = [2]bool{true, true} // fewer slots
		return
	case replay.NodeRecovered:
		o.wishStale = [2]bool{true, true}
		return
	case replay.TaskSuspended:
		o.setSuspended(ev.Node, o.suspendedOn[ev.Node]+1)
	case replay.TaskResumed:
		o.setSuspended(ev.Node, o.suspendedOn[ev.Node]-1)
	}
	jb := &o.jobs[ev.Job]
	switch ev.Kind {
	case replay.JobArrived:
		jv := v.Job(ev.Job)
		if o.rank.remaining {
			jb.remaining = jv.TrueWork(replay.Map) + jv.TrueWork(replay.Reduce)
		}
		if o.rank.attained || o.rank.remaining {
			for k := range jb.seg {
				jb.seg[k] = slices.Repeat([]replay.Time{-1}, jv.Tasks(replay.TaskKind(k)))
			}
		}
		if o.rank.remaining {
			for k := range jb.attempt {
				jb.attempt[k] = make([]float64, jv.Tasks(replay.TaskKind(k)))
			}
		}
		o.served++
		jb.served = o.served
		jb.submit = jv.Submit()
		if o.o.rounds {
			jb.base = o.currentRound()
		}
		o.order = append(o.order, ev.Job)
		jb.live = true
		o.reorder, o.joined = true, true
	case replay.TaskStarted, replay.TaskResumed:
		if ev.Kind == replay.TaskStarted && o.rank.remaining {
			jb.attempt[ev.Task.Kind][ev.Task.Index] = 0
		}
		if o.rank.attained || o.rank.remaining {
			jb.seg[ev.Task.Kind][ev.Task.Index] = ev.Time
			jb.runCount++
			jb.segSum += ev.Time.Sec()
		}
	case replay.TaskFinished, replay.TaskSuspended, replay.TaskKilled, replay.TaskLost:
		if ev.Kind == replay.TaskFinished && o.rank.remaining {
			jb.remaining = max(0, jb.remaining-v.Task(ev.Task).Work())
		}
		if o.rank.attained || o.rank.remaining {
			if s := jb.seg[ev.Task.Kind][ev.Task.Index]; s >= 0 {
				d := (ev.Time - s).Sec()
				jb.closed += d
				jb.runCount--
				jb.segSum -= s.Sec()
				jb.seg[ev.Task.Kind][ev.Task.Index] = -1
				if o.rank.remaining {
					jb.attempt[ev.Task.Kind][ev.Task.Index] += d
					jb.liveClosed += d
				}
			}
		}
		if o.rank.remaining && ev.Kind != replay.TaskSuspended {
			// The attempt is over: its service leaves the work done (a
			// finished task's work left remaining; a killed or lost
			// one's is to do again).
			a := &jb.attempt[ev.Task.Kind][ev.Task.Index]
			jb.liveClosed -= *a
			*a = 0
		}
	case replay.JobFinished:
		o.order = order.Remove(o.order, ev.Job)
		jb.seg = [2][]replay.Time{}
		jb.attempt = [2][]float64{}
		jb.live = false
		o.reorder, o.joined = true, true
		return
	}
	if !jb.live {
		return
	}
	// The event may have changed the job's key, its demands, whether it may
	// use a slot, and (for a task event, in that kind only) the wishes.
	if !jb.queued {
		jb.queued = true
		o.rekey = append(o.rekey, ev.Job)
	}
	switch ev.Kind {
	case replay.TaskStarted, replay.TaskFinished, replay.TaskSuspended, replay.TaskResumed,
		replay.TaskKilled, replay.TaskLost:
		o.wishStale[ev.Task.Kind] = true
	default:
		o.wishStale = [2]bool{true, true}
	}
	o.update(ev.Job, replay.Map)
	o.update(ev.Job, replay.Reduce)
}

// update records job j's demand of kind k (staling the targets if it
// changed) and keeps the list of jobs that may use a slot of kind k, when
// the list is up to date with the order.
func (o *Oracle) update(j int32, k replay.TaskKind) {
	jb := &o.jobs[j]
	jv := o.v.Job(j)
	o.repick(k, j) // its running tasks may have changed
	pick := o.pickCurrent(k)
	if d := oracleDemand(jv, k); d != jb.demand[k] {
		jb.demand[k] = d
		o.targetStale[k], o.wishStale[k] = true, true
		if !o.reorder && o.demandVer[k] == o.orderVer {
			o.demand[k][jb.pos] = d
		}
	}
	in := mayServe(jv, k)
	if in == jb.inCand[k] {
		return
	}
	o.wishStale[k] = true
	if o.reorder || o.candVer[k] != o.orderVer {
		return // the list is rebuilt before its next use
	}
	jb.inCand[k] = in
	c := o.cand[k]
	i, found := slices.BinarySearchFunc(c, jb.pos, func(x, p int32) int { return cmp.Compare(o.jobs[x].pos, p) })
	switch {
	case in && !found:
		o.cand[k] = slices.Insert(c, i, j)
		if pick {
			o.pickJoined(k, j, i)
		}
	case !in && found:
		o.cand[k] = slices.Delete(c, i, i+1)
		if pick {
			o.pickLeft(k, j)
		}
	}
}

// oracleDemand is what a job may hold of kind k: its running, suspended
// and launchable tasks.
func oracleDemand(jv replay.JobView, k replay.TaskKind) int32 {
	d := jv.Running(k) + jv.Suspended(k)
	if k == replay.Map || jv.ReducesEligible() {
		d += jv.Pending(k)
	}
	return int32(d)
}

// mayServe reports whether a job may use a slot of kind k on some node: it
// has a task suspended, or one it may launch. serve turns any other down
// without side effects.
func mayServe(jv replay.JobView, k replay.TaskKind) bool {
	return jv.Suspended(k) > 0 || jv.Pending(k) > 0 && (k == replay.Map || jv.ReducesEligible())
}

// setSuspended records that node n holds c suspended tasks.
func (o *Oracle) setSuspended(n int32, c int32) {
	limit := int32(o.v.Config().MaxSuspendedPerNode)
	if o.suspendedOn[n] < limit {
		o.roomy--
	}
	if o.suspendedOn[n] = max(c, 0); c < limit {
		o.roomy++
	}
}

// remainingWork is srpt's key: job j's true remaining work in slot-seconds,
// the work of its unfinished tasks less what their live attempts have run
// (a running task's work done is counted as its run time, exact at the
// reference speed on local data).
func (o *Oracle) remainingWork(j int32) float64 {
	jb := &o.jobs[j]
	done := jb.liveClosed + float64(jb.runCount)*o.v.Now().Sec() - jb.segSum
	return max(0, jb.remaining-done)
}

// attained is job j's attained service in slot-seconds: the slot time of
// all its attempts so far.
func (o *Oracle) attained(j int32) float64 { return o.jobs[j].attainedAt(o.v.Now()) }

// attainedAt is the job's attained service at time t if no event of its
// comes before. It never decreases with t (each rounded operation is
// monotonic).
func (jb *oracleJob) attainedAt(t replay.Time) float64 {
	return jb.closed + float64(jb.runCount)*t.Sec() - jb.segSum
}

// oracleSettings reads the options the oracle policies share.
func oracleSettings(s *policy.Settings, withDelay bool) (oracleOptions, error) {
	o := oracleOptions{delay: 0}
	o.preempt[replay.Reduce] = s.OneOf("preemption", "eager", "wait", "kill")
	o.preempt[replay.Map] = s.OneOf("map-preemption", "wait", "eager", "kill")
	if withDelay {
		o.delay = s.Float("locality-delay")
		if err := s.Err(); err != nil {
			return o, err
		}
		if o.delay < 0 && o.delay != -1 || math.IsNaN(o.delay) || math.IsInf(o.delay, 0) {
			return o, fmt.Errorf("%s.locality-delay: %v; want -1 (auto), 0 (off) or seconds", s.Policy, o.delay)
		}
	}
	return o, s.Err()
}
