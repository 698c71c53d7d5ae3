package replay

import "sojourn/traces"

// View is the policies' read-only window on the cluster. Its methods are
// cheap; none allocates.
type View struct {
	e *Engine
}

// Now is the current simulated time.
func (v *View) Now() Time { return v.e.now }

// Config is the cluster's configuration, with defaults filled in.
func (v *View) Config() *Config { return &v.e.cfg }

// Nodes is the number of nodes, alive or not.
func (v *View) Nodes() int { return len(v.e.nodes) }

// Rack is node n's rack.
func (v *View) Rack(n int32) int32 { return v.e.rackOf[n] }

// Alive reports whether node n is up.
func (v *View) Alive(n int32) bool { return v.e.nodes[n].alive }

// Slots is the number of slots of kind k on the nodes that are up.
func (v *View) Slots(k TaskKind) int { return int(v.e.aliveSlots[k]) }

// Model is the cluster's resource model.
func (v *View) Model() Model { return v.e.model }

// ResourceNames names the cluster's resources, in the order of
// Resources: map-slot and reduce-slot in the slot model; memory-mb,
// vcores and any extra ones in the container model.
func (v *View) ResourceNames() []string { return v.e.resNames }

// Counted reports whether the engine checks fits on resource r (see
// ResourceChooser).
func (v *View) Counted(r int) bool { return v.e.enforce[r] }

// NodeCapacity is what node n offers, resource by resource.
func (v *View) NodeCapacity(n int32) Resources { return v.e.nodes[n].capa }

// NodeAvailable is what node n has not allocated.
func (v *View) NodeAvailable(n int32) Resources { return v.e.nodes[n].avail }

// NodeSlots is node n's slots of kind k; in the container model, the
// minimum-size containers it holds when empty.
func (v *View) NodeSlots(n int32, k TaskKind) int { return int(v.e.units(&v.e.nodes[n].capa, k)) }

// AMRequest is an ApplicationMaster's container (container model).
func (v *View) AMRequest() Resources { return v.e.amReq }

// Submitted is how many jobs were submitted so far: those of index
// below it (jobs are indexed in submit order).
func (v *View) Submitted() int { return v.e.nextJob }

// HeartbeatInterval is the heartbeat interval.
func (v *View) HeartbeatInterval() Time { return v.e.interval }

// Demand is the number of tasks of kind k that could launch now
// (pending maps, and pending reduces of jobs past slow-start).
func (v *View) Demand(k TaskKind) int { return int(v.e.demand[k]) }

// Jobs is the number of jobs in the trace.
func (v *View) Jobs() int { return len(v.e.jobs) }

// Job returns a view of job j (its index in the trace).
func (v *View) Job(j int32) JobView { return JobView{j: &v.e.jobs[j], idx: j, e: v.e} }

// Task returns a view of task t. A finished job's tasks are released once
// its JobFinished event is delivered: from then on their views report Done
// and nothing else (node -1, zero counts and times).
func (v *View) Task(t TaskRef) TaskView {
	return TaskView{t: v.e.jobs[t.Job].peek(t.Kind, t.Index), ref: t, e: v.e}
}

// releasedTask stands for every task of a finished job, and unlaunchedTask
// for every task whose record is not made yet (peek). Only read.
var (
	releasedTask   = task{state: done}
	unlaunchedTask = task{state: pending}
)

// PendingMap returns a pending map of job j to run on node n, the best
// locality first, no worse than max. It does not launch it.
func (v *View) PendingMap(j int32, n int32, max Locality) (idx int32, loc Locality, ok bool) {
	jb := &v.e.jobs[j]
	if jb.pending[Map] == 0 || jb.done {
		return -1, 0, false
	}
	if jb.noInput {
		return v.anyPendingMap(jb)
	}
	v.e.placed(j, jb)
	// Tasks pending again after a kill or loss are few; look at them first.
	best, bestLoc := int32(-1), Locality(OffRack+1)
	rp := jb.repend[Map][:0]
	for _, t := range jb.repend[Map] {
		if jb.peek(Map, t).state != pending {
			continue
		}
		rp = append(rp, t)
		if l := v.e.mapLocality(jb, t, n); l < bestLoc {
			best, bestLoc = t, l
		}
	}
	jb.repend[Map] = rp
	if bestLoc == NodeLocal {
		return best, NodeLocal, true
	}
	var tn, tr int32
	if jb.index != nil {
		tn = jb.index.byNode.first(n, jb)
	} else {
		tn, tr = v.e.scanLocal(jb, n)
	}
	if tn >= 0 {
		return tn, NodeLocal, true
	}
	if max == NodeLocal {
		return -1, 0, false
	}
	if bestLoc == RackLocal {
		return best, RackLocal, true
	}
	if jb.index != nil {
		tr = jb.index.byRack.first(v.e.rackOf[n], jb)
	}
	if tr >= 0 {
		return tr, RackLocal, true
	}
	if max == RackLocal {
		return -1, 0, false
	}
	if best >= 0 {
		return best, bestLoc, true
	}
	if t := nextPending(jb, Map); t >= 0 {
		return t, v.e.mapLocality(jb, t, n), true
	}
	return -1, 0, false
}

// anyPendingMap is PendingMap for a job whose maps read no input: every
// node is as good as any other, so its first pending map is offered as
// node-local (it launches with locality NoInput).
func (v *View) anyPendingMap(jb *job) (int32, Locality, bool) {
	rp := jb.repend[Map][:0]
	for _, t := range jb.repend[Map] {
		if jb.peek(Map, t).state == pending {
			rp = append(rp, t)
		}
	}
	jb.repend[Map] = rp
	if len(rp) > 0 {
		return rp[0], NodeLocal, true
	}
	if t := nextPending(jb, Map); t >= 0 {
		return t, NodeLocal, true
	}
	return -1, 0, false
}

// PendingReduce returns a pending reduce of job j, if its reduces may launch.
func (v *View) PendingReduce(j int32) (idx int32, ok bool) {
	jb := &v.e.jobs[j]
	if jb.pending[Reduce] == 0 || !jb.reducesEligible {
		return -1, false
	}
	rp := jb.repend[Reduce]
	for len(rp) > 0 {
		t := rp[len(rp)-1]
		if jb.peek(Reduce, t).state == pending {
			jb.repend[Reduce] = rp
			return t, true
		}
		rp = rp[:len(rp)-1]
	}
	jb.repend[Reduce] = rp
	if t := nextPending(jb, Reduce); t >= 0 {
		return t, true
	}
	return -1, false
}

// nextPending returns the lowest-index pending task of kind k that was
// never launched, moving the job's cursor past launched ones.
func nextPending(j *job, k TaskKind) int32 {
	cs, c, n := j.recs[k], j.anyNext[k], j.count(k)
	for ; c < n; c++ {
		if cs == nil || cs[c>>chunkBits] == nil {
			break // a task of a chunk not made has never launched
		}
		if t := &cs[c>>chunkBits][c&(chunkLen-1)]; t.state == pending && t.attempts == 0 {
			break
		}
	}
	j.anyNext[k] = c
	if c == n {
		return -1
	}
	return c
}

// JobView is a read-only view of one job.
type JobView struct {
	j   *job
	idx int32
	e   *Engine
}

// Index is the job's index in the trace.
func (j JobView) Index() int32 { return j.idx }

// Trace is the job as the trace describes it. Do not modify it. In a run
// from a Source (NewFromSource) it is nil before the job is read, which
// is at the latest when the job before it arrives, and after it finished;
// from the job's arrival the engine keeps its task lists packed, and the
// first call after that unpacks them for the rest of the job's life: a
// policy that needs them later costs least reading them on arrival.
func (j JobView) Trace() *traces.Job {
	if pk := j.j.pk; pk != nil {
		pk.unpack(j.j.tj)
		j.j.pk = nil
	}
	return j.j.tj
}

// Submit is the job's submit time.
func (j JobView) Submit() Time { return j.j.submit }

// Priority is the job's Hadoop priority.
func (j JobView) Priority() traces.Priority { return j.j.prio }

// Pool is the job's pool (or user).
func (j JobView) Pool() string { return j.j.pool }

// Arrived reports whether the job was submitted.
func (j JobView) Arrived() bool { return j.j.arrived }

// Done reports whether all the job's tasks finished.
func (j JobView) Done() bool { return j.j.done }

// Tasks is the job's number of tasks of kind k.
func (j JobView) Tasks(k TaskKind) int { return int(j.j.count(k)) }

// Replicas lists the nodes holding the blocks of the job's maps, map t's
// at [t·r, (t+1)·r) for r = len/Tasks(Map). The slice is the engine's:
// read it, do not keep or change it. It is nil before the job arrives and
// after it finished. The engine lets it go as the job's last map launches,
// so asking for it after that makes it again (the same) at a cost.
func (j JobView) Replicas() []int32 { return j.e.placed(j.idx, j.j) }

// Pending counts tasks of kind k waiting for a first or new attempt.
func (j JobView) Pending(k TaskKind) int { return int(j.j.pending[k]) }

// Running counts tasks of kind k holding a slot.
func (j JobView) Running(k TaskKind) int { return int(j.j.running[k]) }

// Suspended counts tasks of kind k suspended on some node.
func (j JobView) Suspended(k TaskKind) int { return int(j.j.suspended[k]) }

// Finished counts tasks of kind k that completed.
func (j JobView) Finished(k TaskKind) int { return int(j.j.finished[k]) }

// ReducesEligible reports whether the job reached slow-start.
func (j JobView) ReducesEligible() bool { return j.j.reducesEligible }

// MapsDone reports whether all the job's maps finished.
func (j JobView) MapsDone() bool {
	return j.j.arrived && j.j.finished[Map] == j.j.nmaps
}

// Launchable reports whether the job has tasks of kind k that may launch
// now: pending maps, or pending reduces once the job reached slow-start.
func (j JobView) Launchable(k TaskKind) bool {
	return j.j.pending[k] > 0 && (k == Map || j.j.reducesEligible)
}

// TrueWork is the true size of the job's phase k in slot-seconds, as an
// oracle would know it: the sum of its tasks' TaskView.Work. It needs the
// trace (see Trace).
func (j JobView) TrueWork(k TaskKind) float64 {
	jb := j.j
	var s float64
	if k == Map {
		for t := range jb.nmaps {
			s += jb.mapDuration(t)
		}
		return s
	}
	perSlot := j.e.cfg.ShuffleBandwidth / float64(j.e.cfg.ReduceSlots)
	for t := range jb.nrd {
		s += jb.reduceDuration(t) + float64(jb.shuffleBytes(t))/perSlot
	}
	return s
}

// Request is what one task of kind k asks for: a slot of its kind
// ((1, 0) or (0, 1)) in the slot model, its container in the container
// model. Valid once the job arrived.
func (j JobView) Request(k TaskKind) Resources { return *j.e.request(j.idx, k) }

// ContainerUnits is how many minimum-size containers one task of kind k
// occupies on its most demanded counted resource: 1 in the slot model,
// 3 for a 3 GiB container of 1 vcore when the minimum is 1 GiB and 1
// vcore. A size in task-seconds times it is a size in container-seconds
// of the dominant resource.
func (j JobView) ContainerUnits(k TaskKind) float64 {
	e := j.e
	if e.model == SlotModel {
		return 1
	}
	req, unit := e.request(j.idx, k), &e.unit[k]
	u := 0.0
	for r := 0; r < e.nres; r++ {
		if e.enforce[r] && unit[r] > 0 {
			u = max(u, float64(req[r])/float64(unit[r]))
		}
	}
	return max(u, 1)
}

// AMWaiting reports whether the job was submitted and waits for its
// ApplicationMaster's container (container model).
func (j JobView) AMWaiting() bool {
	return j.e.model == ContainerModel && int(j.idx) < j.e.nextJob && !j.j.arrived && !j.j.done
}

// AMStart is when the job's ApplicationMaster started (container model;
// the job arrives for the policy then).
func (j JobView) AMStart() Time { return j.j.amStart }

// FirstLaunch is when the job's first task launched (ok false if none yet).
func (j JobView) FirstLaunch() (Time, bool) { return j.j.firstLaunch, j.j.launchedOnce }

// TaskView is a read-only view of one task. It has no more than four
// words' worth of fields, so that the compiler keeps it in registers: a
// bigger view is copied through memory at each call of its methods.
type TaskView struct {
	t   *task
	ref TaskRef
	e   *Engine
}

// job is the task's job.
func (t TaskView) job() *job { return &t.e.jobs[t.ref.Job] }

// Pending, Running, Suspended and Done report the task's state.
func (t TaskView) Pending() bool   { return t.t.state == pending }
func (t TaskView) Running() bool   { return t.t.state == running }
func (t TaskView) Suspended() bool { return t.t.state == suspended }
func (t TaskView) Done() bool      { return t.t.state == done }

// Node is the node of the current attempt, -1 if none.
func (t TaskView) Node() int32 { return t.t.node() }

// Attempts counts the task's launches.
func (t TaskView) Attempts() int { return int(t.t.attempts) }

// AttemptStart is when the current (or finishing) attempt launched.
func (t TaskView) AttemptStart() Time { return t.t.attemptStart }

// Finish is when the task completed (valid once Done).
func (t TaskView) Finish() Time { return t.e.runEnd(t.ref, t.t) }

// RunTime is the time the current attempt has held a slot, including the
// current segment if it is running.
func (t TaskView) RunTime() Time {
	if t.t.state == running {
		return t.t.runTime + t.e.now - t.t.segStart
	}
	return t.t.runTime
}

// Locality of the current attempt of a map.
func (t TaskView) Locality() Locality { return t.t.loc }

// Work is the task's true run time in seconds at reference speed on local
// data, as an oracle would know it: a map's duration; a reduce's shuffle
// transfer (its bytes over its share of the node's shuffle bandwidth, as
// the engine times it) plus its duration. It needs the job's trace.
func (t TaskView) Work() float64 {
	j := t.job()
	if t.ref.Kind == Map {
		return j.mapDuration(t.ref.Index)
	}
	cfg := &t.e.cfg
	return j.reduceDuration(t.ref.Index) + float64(j.shuffleBytes(t.ref.Index))/(cfg.ShuffleBandwidth/float64(cfg.ReduceSlots))
}

// ShuffleBytes is a reduce's shuffle input in bytes.
func (t TaskView) ShuffleBytes() int64 {
	if t.job().tj == nil {
		return 0 // a finished job's, let go
	}
	return t.job().shuffleBytes(t.ref.Index)
}

// Transfer is a reduce's shuffle transfer time as the engine times it:
// its bytes over its share of the node's shuffle bandwidth. The transfer
// starts when the reduce runs and its job's maps are done.
func (t TaskView) Transfer() Time {
	if t.job().tj == nil {
		return 0 // a finished job's, let go
	}
	return t.e.transfer(t.job(), t.ref.Index)
}

// ShuffleEnd is when a reduce's shuffle ends (or ended), once that is
// known: the reduce is running or done and its job's maps are done. A
// suspension or a kill changes it.
func (t TaskView) ShuffleEnd() (Time, bool) {
	tk := t.t
	if t.job().tj == nil {
		return 0, false // a finished job's, let go
	}
	exec := Seconds(t.job().reduceWork(t.ref.Index).Sec() / t.e.nodes[max(tk.node(), 0)].speed)
	switch {
	case tk.state == done:
		return tk.end - exec, true
	case tk.state != running || tk.waiting:
		return 0, false
	}
	return t.e.runEnd(t.ref, tk) - exec, true
}

// ReducePhase describes a running or finished reduce: whether its shuffle
// is over, when it ended, and the fraction of its reduce function done.
// Progress is measured as Hadoop does, by the input the reduce function has
// consumed, which in the model grows linearly with time.
func (t TaskView) ReducePhase() (shuffleDone bool, shuffleEnd Time, progress float64) {
	tk := t.t
	if t.job().tj == nil {
		return true, 0, 1 // a finished job's, let go
	}
	exec := Seconds(t.job().reduceWork(t.ref.Index).Sec() / t.e.nodes[max(tk.node(), 0)].speed)
	switch {
	case tk.state == done:
		return true, tk.end - exec, 1
	case tk.state != running || tk.waiting:
		return false, 0, 0
	}
	start := t.e.runEnd(t.ref, tk) - exec
	if t.e.now < start {
		return false, 0, 0
	}
	if exec == 0 {
		return true, start, 1
	}
	return true, start, float64(t.e.now-start) / float64(exec)
}
