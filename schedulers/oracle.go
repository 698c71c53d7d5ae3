package schedulers

import (
	"fmt"
	"math"
	"slices"

	"sojourn/replay"
)

// Oracle is the machinery of the size-oracle baselines srpt, las and ps
// (see oracle_policies.go): a policy that ranks jobs by a key computed from
// what a real scheduler cannot know (true task durations, exact attained
// service) and serves them in that order.
//
// Jobs with equal keys form a group when the rank shares ties (las, ps);
// otherwise every job is its own group (srpt, ties broken by submit time and
// trace order). A free slot of kind k goes to the first group, in key
// order, that has a job able to use it on the reporting node; inside the
// group, to the job with the fewest running tasks of kind k (max-min
// fairness), ties in key order. A job uses a slot by resuming its oldest
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
type Oracle struct {
	name string
	rank oracleRank
	o    oracleOptions
	v    *replay.View

	jobs   []oracleJob
	order  []int32 // arrived, unfinished jobs in key order (see sortJobs)
	groups []int32 // order[groups[g]:groups[g+1]] is group g
	delay  replay.Time
	epoch  uint32

	wantDirty, want bool
	// suspendedOn counts the tasks suspended on each node, roomy the nodes
	// below the cap: eager preemption is pointless when none is.
	suspendedOn []int32
	roomy       int
	target      []int32 // scratch: per order position, slots allotted
	demand      []int32 // scratch
	sorted      []int32 // scratch
}

// oracleRank computes the key of job j at the current time and says
// whether jobs with equal keys share (max-min) or are served one by one.
type oracleRank struct {
	key    func(o *Oracle, j int32) float64
	shared bool
	// attained says whether the attained service of every job must be
	// tracked (las).
	attained bool
}

type oracleOptions struct {
	preempt [2]string // wait, eager or kill, per kind
	delay   float64   // locality delay (s); -1 auto; 0 off
	quantum float64   // las: first level's attained service (slot-s)
	factor  float64   // las: ratio between level boundaries
}

type oracleJob struct {
	remaining float64 // true work of its unfinished tasks (slot-s)
	// attained service: closed segments plus, for the running ones,
	// runCount·now − segSum (seconds).
	closed   float64
	segSum   float64
	runCount int
	seg      [2][]replay.Time // per task, start of its running segment, -1 if none
	key      float64
	submit   replay.Time
	// las: cached level of attained service, valid below levelEnd
	level, levelEnd float64
	tried           uint32 // epoch at which it could not use the node's slot
	// delay scheduling of maps
	wait delayWait // delay scheduling of its maps
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
	o.suspendedOn = make([]int32, v.Nodes())
	o.roomy = v.Nodes()
	switch {
	case o.o.delay < 0:
		o.delay = min(15*replay.Second, v.HeartbeatInterval()*3/2)
	default:
		o.delay = replay.Seconds(o.o.delay)
	}
	return nil
}

// taskWork is the true run time of one task at reference speed on local
// data: a map's duration; a reduce's shuffle transfer (its bytes over the
// per-slot shuffle bandwidth, as trueSize counts it) plus its duration.
func taskWork(v *replay.View, t replay.TaskRef) float64 {
	tj := v.Job(t.Job).Trace()
	if t.Kind == replay.Map {
		return tj.MapDurations[t.Index]
	}
	cfg := v.Config()
	return tj.ReduceDurations[t.Index] + float64(tj.ReduceShuffleBytes[t.Index])/(cfg.ShuffleBandwidth/float64(cfg.ReduceSlots))
}

// OnEvent implements replay.Scheduler.
func (o *Oracle) OnEvent(ev replay.Event, v *replay.View) {
	o.v = v
	o.wantDirty = true
	switch ev.Kind {
	case replay.NodeFailed:
		o.setSuspended(ev.Node, 0)
		return
	case replay.NodeRecovered:
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
		jb.remaining = trueSize(jv, replay.Map, v.Config()) + trueSize(jv, replay.Reduce, v.Config())
		if o.rank.attained {
			for k := range jb.seg {
				jb.seg[k] = slices.Repeat([]replay.Time{-1}, jv.Tasks(replay.TaskKind(k)))
			}
		}
		jb.submit = jv.Submit()
		o.order = append(o.order, ev.Job)
	case replay.TaskStarted, replay.TaskResumed:
		if o.rank.attained {
			jb.seg[ev.Task.Kind][ev.Task.Index] = ev.Time
			jb.runCount++
			jb.segSum += ev.Time.Sec()
		}
	case replay.TaskFinished, replay.TaskSuspended, replay.TaskKilled, replay.TaskLost:
		if ev.Kind == replay.TaskFinished {
			jb.remaining = max(0, jb.remaining-taskWork(v, ev.Task))
		}
		if o.rank.attained {
			if s := jb.seg[ev.Task.Kind][ev.Task.Index]; s >= 0 {
				jb.closed += (ev.Time - s).Sec()
				jb.runCount--
				jb.segSum -= s.Sec()
				jb.seg[ev.Task.Kind][ev.Task.Index] = -1
			}
		}
	case replay.JobFinished:
		o.order = fairRemove(o.order, ev.Job)
		jb.seg = [2][]replay.Time{}
	}
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

// attained is job j's attained service in slot-seconds: the slot time of
// all its attempts so far.
func (o *Oracle) attained(j int32) float64 {
	jb := &o.jobs[j]
	return jb.closed + float64(jb.runCount)*o.v.Now().Sec() - jb.segSum
}

// sortJobs brings the key order up to date and rebuilds its groups. Keys
// change little between calls, so an insertion sort on the last order
// costs about one pass.
func (o *Oracle) sortJobs() {
	for _, j := range o.order {
		o.jobs[j].key = o.rank.key(o, j)
	}
	less := func(a, b int32) bool {
		ja, jb := &o.jobs[a], &o.jobs[b]
		if ja.key != jb.key {
			return ja.key < jb.key
		}
		if ja.submit != jb.submit {
			return ja.submit < jb.submit
		}
		return a < b
	}
	for i := 1; i < len(o.order); i++ {
		for p := i; p > 0 && less(o.order[p], o.order[p-1]); p-- {
			o.order[p], o.order[p-1] = o.order[p-1], o.order[p]
		}
	}
	o.groups = append(o.groups[:0], 0)
	for i := 1; i < len(o.order); i++ {
		if !o.rank.shared || o.jobs[o.order[i]].key != o.jobs[o.order[i-1]].key {
			o.groups = append(o.groups, int32(i))
		}
	}
	o.groups = append(o.groups, int32(len(o.order)))
}

// OnHeartbeat implements replay.Scheduler.
func (o *Oracle) OnHeartbeat(hb *replay.Heartbeat) error {
	o.v = hb.View
	o.wantDirty = true
	o.sortJobs()
	for k := replay.Map; k <= replay.Reduce; k++ {
		if err := o.fill(hb, k); err != nil {
			return err
		}
		if o.o.preempt[k] != "wait" && hb.Free(k) == 0 {
			if err := o.preempt(hb, k); err != nil {
				return err
			}
		}
	}
	return nil
}

// fill gives the node's free slots of kind k away in group order.
func (o *Oracle) fill(hb *replay.Heartbeat, k replay.TaskKind) error {
	o.epoch++
	g := 0
	for hb.Free(k) > 0 && g < len(o.groups)-1 {
		best := int32(-1)
		for _, j := range o.order[o.groups[g]:o.groups[g+1]] {
			if o.jobs[j].tried == o.epoch {
				continue
			}
			if best < 0 || hb.Job(j).Running(k) < hb.Job(best).Running(k) {
				best = j
			}
		}
		if best < 0 {
			g++
			continue
		}
		ok, err := o.serve(hb, k, best)
		if err != nil {
			return err
		}
		if !ok {
			o.jobs[best].tried = o.epoch
		}
	}
	return nil
}

// serve resumes job j's oldest task of kind k suspended on this node, or
// launches one of its pending tasks.
func (o *Oracle) serve(hb *replay.Heartbeat, k replay.TaskKind, j int32) (bool, error) {
	jv := hb.Job(j)
	if jv.Suspended(k) > 0 {
		if t, ok := oldestSuspended(hb, j, k); ok {
			return true, hb.Resume(t)
		}
	}
	if jv.Pending(k) == 0 {
		return false, nil
	}
	idx, ok := pendingTask(hb, j, k, &o.jobs[j].wait, o.delay)
	if !ok {
		return false, nil
	}
	return true, hb.Launch(replay.TaskRef{Job: j, Kind: k, Index: idx})
}

// oldestSuspended is job j's task of kind k suspended on the node that
// started first (ties: lowest index).
func oldestSuspended(hb *replay.Heartbeat, j int32, k replay.TaskKind) (replay.TaskRef, bool) {
	var best replay.TaskRef
	found := false
	for _, s := range hb.SuspendedHere() {
		if s.Job != j || s.Kind != k {
			continue
		}
		if !found || olderTask(hb.View, s, best) {
			best, found = s, true
		}
	}
	return best, found
}

// olderTask orders attempts by start time, then index.
func olderTask(v *replay.View, a, b replay.TaskRef) bool {
	sa, sb := v.Task(a).AttemptStart(), v.Task(b).AttemptStart()
	return sa < sb || sa == sb && a.Index < b.Index
}

// lasKey is job j's level of attained service (see lasLevel), cached
// with the service at which it ends: service only grows, a level lasts.
func (o *Oracle) lasKey(j int32) float64 {
	jb := &o.jobs[j]
	if a := o.attained(j); a >= jb.levelEnd {
		jb.level, jb.levelEnd = lasLevel(a, o.o.quantum, o.o.factor)
	}
	return jb.level
}

// lasLevel is the level of attained service a (slot-s), 0 below quantum
// and one more each time a multiplies by factor, and the service at which
// the next level starts.
func lasLevel(a, quantum, factor float64) (level, end float64) {
	if a < quantum {
		return 0, quantum
	}
	level = 1 + math.Floor(math.Log(a/quantum)/math.Log(factor))
	end = quantum * math.Pow(factor, level)
	for end <= a { // rounding
		level++
		end *= factor
	}
	return level, end
}

// oracleSettings reads the options the oracle policies share.
func oracleSettings(s Settings, withDelay bool) (oracleOptions, error) {
	o := oracleOptions{delay: 0}
	var err error
	get := func(f func() error) {
		if err == nil {
			err = f()
		}
	}
	get(func() (e error) { o.preempt[replay.Reduce], e = s.OneOf("preemption", "eager", "wait", "kill"); return })
	get(func() (e error) {
		o.preempt[replay.Map], e = s.OneOf("map-preemption", "wait", "eager", "kill")
		return
	})
	if withDelay {
		get(func() (e error) { o.delay, e = s.Float("locality-delay"); return })
		if err == nil && (o.delay < 0 && o.delay != -1 || math.IsNaN(o.delay) || math.IsInf(o.delay, 0)) {
			err = fmt.Errorf("%s.locality-delay: %v; want -1 (auto), 0 (off) or seconds", s.Policy, o.delay)
		}
	}
	return o, err
}
