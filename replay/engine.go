package replay

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"sojourn/traces"
)

// Sentinel errors of a run.
var (
	// ErrInvalidAction marks an action the engine refused (slot over
	// commitment, a task in the wrong state, resume on another node, …).
	ErrInvalidAction = errors.New("invalid action")
	// ErrInvariant marks a broken invariant of the model: a bug.
	ErrInvariant = errors.New("invariant violated")
	// ErrHorizon marks a run that did not finish before Config.Horizon.
	ErrHorizon = errors.New("simulation horizon reached")
)

// Stats counts what a run did.
type Stats struct {
	Events     int64 // events processed (stale ones excluded)
	TaskEvents int64 // task launches, finishes, suspensions, resumptions, kills and losses
	Heartbeats int64 // heartbeats handed to the policy
	End        Time  // time the last job finished
}

// Engine replays one trace under one policy. Build it with New and call Run
// once.
type Engine struct {
	cfg   Config
	trace *traces.Trace
	sched Scheduler
	pre   Preempter

	now        Time
	q          eventQueue
	jobs       []job
	nodes      []node
	nextJob    int
	unfinished int
	interval   Time
	demand     [2]int32 // pending tasks that may launch now, cluster-wide
	aliveSlots [2]int32

	view     View
	hb       Heartbeat
	inHB     bool
	deferred []Event
	err      error
	// wakePending asks the run loop to start a sweep of the silent nodes
	// after the current event: demand rose from zero, or a preempting
	// policy's wishes may have changed.
	wakePending bool
	sweeping    bool
	sweepAt     Time
	sweepGen    int32

	rec      recorder
	stats    Stats
	check    bool
	lostWork Time
	swapTime Time
	// scratch buffers for block placement, reused across jobs
	scratch [3][]uint64
	counts  []int32
}

// New prepares a run of trace under sched on the cluster cfg describes.
// The trace must be valid (traces.Read validates it).
func New(trace *traces.Trace, sched Scheduler, cfg Config) (*Engine, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if sched == nil {
		return nil, errors.New("replay: no scheduler")
	}
	e := &Engine{cfg: cfg, trace: trace, sched: sched, check: !cfg.NoInvariantChecks}
	e.pre, _ = sched.(Preempter)
	e.interval = Seconds(cfg.Heartbeat)
	if e.interval <= 0 {
		e.interval = 1
	}
	e.view.e = e
	e.hb.View = &e.view
	e.rec.tasks, e.rec.occupancy = cfg.RecordTasks, cfg.RecordOccupancy
	e.initNodes()
	e.jobs = make([]job, len(trace.Jobs))
	for i := range trace.Jobs {
		e.jobs[i].tj = &trace.Jobs[i]
		e.jobs[i].submit = Seconds(trace.Jobs[i].Submit)
	}
	e.unfinished = len(e.jobs)
	return e, nil
}

func (e *Engine) initNodes() {
	c := &e.cfg
	e.nodes = make([]node, c.Nodes)
	var speedRNG *rand.Rand
	if c.NodeSpeeds == nil && c.SpeedSigma > 0 {
		speedRNG = rand.New(rand.NewPCG(c.Seed, 0x5eed5))
	}
	for i := range e.nodes {
		n := &e.nodes[i]
		n.rack = int32(i / c.NodesPerRack)
		n.alive = true
		n.free = [2]int32{int32(c.MapSlots), int32(c.ReduceSlots)}
		n.speed = 1
		switch {
		case c.NodeSpeeds != nil:
			n.speed = c.NodeSpeeds[i]
		case speedRNG != nil:
			s := c.SpeedSigma
			n.speed = math.Exp(s*speedRNG.NormFloat64() - s*s/2)
		}
		// Stagger heartbeats evenly over the interval.
		n.phase = Time(int64(e.interval) * int64(i) / int64(c.Nodes))
		n.lastHB = -1
	}
	e.aliveSlots = [2]int32{int32(c.Nodes * c.MapSlots), int32(c.Nodes * c.ReduceSlots)}
}

// Run replays the whole trace and returns the results.
func (e *Engine) Run() (*Result, error) {
	if s, ok := e.sched.(Starter); ok {
		if err := s.Start(&e.view); err != nil {
			return nil, e.policyErr(err)
		}
	}
	if len(e.jobs) > 0 {
		e.q.push(event{at: e.jobs[0].submit, kind: evArrival})
	}
	if e.cfg.MTBF > 0 {
		for i := range e.nodes {
			e.q.push(event{at: e.failureDelay(i, 0, e.cfg.MTBF), kind: evNodeFail, idx: int32(i)})
		}
	}
	horizon := Seconds(e.cfg.Horizon)
	for e.unfinished > 0 && e.err == nil {
		if e.q.len() == 0 {
			return nil, fmt.Errorf("%w: no event left at %v with %d jobs unfinished (policy %s starves them)",
				ErrInvariant, e.now, e.unfinished, e.sched.Name())
		}
		ev := e.q.pop()
		if ev.at < e.now {
			return nil, fmt.Errorf("%w: event at %v popped after %v", ErrInvariant, ev.at, e.now)
		}
		if ev.at > horizon {
			return nil, fmt.Errorf("%w: %d jobs unfinished at %v under %s", ErrHorizon, e.unfinished, e.now, e.sched.Name())
		}
		e.now = ev.at
		switch ev.kind {
		case evTaskEnd:
			e.taskEnd(ev)
		case evArrival:
			e.arrive()
		case evHeartbeat:
			e.heartbeat(ev)
		case evSweep:
			e.sweep(ev)
		case evNodeFail:
			e.nodeFail(ev.idx)
		case evNodeRecover:
			e.nodeRecover(ev.idx)
		}
		if e.wakePending {
			e.wakePending = false
			e.startSweep()
		}
	}
	if e.err != nil {
		return nil, e.err
	}
	e.stats.End = e.now
	if e.check {
		if err := e.checkFinal(); err != nil {
			return nil, err
		}
	}
	return e.result(), nil
}

// Run replays trace under sched on the cluster cfg describes.
func Run(trace *traces.Trace, sched Scheduler, cfg Config) (*Result, error) {
	e, err := New(trace, sched, cfg)
	if err != nil {
		return nil, err
	}
	return e.Run()
}

func (e *Engine) policyErr(err error) error {
	return fmt.Errorf("policy %s at %v: %w", e.sched.Name(), e.now, err)
}

// notify tells the policy of ev, after the current heartbeat if one is
// under way (so that a policy is never re-entered).
func (e *Engine) notify(ev Event) {
	ev.Time = e.now
	if e.inHB {
		e.deferred = append(e.deferred, ev)
		return
	}
	e.sched.OnEvent(ev, &e.view)
}

// arrive submits the next job and queues the one after it.
func (e *Engine) arrive() {
	ji := e.nextJob
	e.nextJob++
	if e.nextJob < len(e.jobs) {
		e.q.push(event{at: e.jobs[e.nextJob].submit, kind: evArrival})
	}
	e.stats.Events++
	j := &e.jobs[ji]
	e.prepareJob(int32(ji), j)
	e.notify(Event{Kind: JobArrived, Job: int32(ji)})
	if j.reducesEligible {
		e.notify(Event{Kind: ReducesEligible, Job: int32(ji)})
	}
	if e.pre != nil {
		e.wakePending = true
	}
}

// prepareJob builds a job's tasks, durations and block placement.
func (e *Engine) prepareJob(ji int32, j *job) {
	tj := j.tj
	nm, nr := tj.Maps(), tj.Reduces()
	j.arrived = true
	j.maps = make([]task, nm)
	j.reduces = make([]task, nr)
	j.mapWork = make([]Time, nm)
	for i, d := range tj.MapDurations {
		j.mapWork[i] = Seconds(d)
	}
	j.reduceWork = make([]Time, nr)
	j.transfer = make([]Time, nr)
	perReduceBW := e.cfg.ShuffleBandwidth / float64(e.cfg.ReduceSlots)
	for i, d := range tj.ReduceDurations {
		j.reduceWork[i] = Seconds(d)
		j.transfer[i] = Seconds(float64(tj.ReduceShuffleBytes[i]) / perReduceBW)
	}
	for i := range j.maps {
		j.maps[i].node = -1
	}
	for i := range j.reduces {
		j.reduces[i].node = -1
	}
	j.pending = [2]int32{int32(nm), int32(nr)}
	j.slowStartMaps = int32(math.Ceil(e.cfg.SlowStart * float64(nm)))
	e.addDemand(Map, int32(nm))
	if nr > 0 && j.slowStartMaps == 0 {
		e.makeEligible(j)
	}
	e.placeBlocks(ji, j)
}

// placeBlocks draws the nodes holding each map's block the way HDFS places
// a file written from outside the cluster: the first replica on a random
// node, the second on a node of another rack, the third on another node of
// the second's rack. The draw depends only on the seed and the job's
// index, so a trace replays identically whatever else changes.
func (e *Engine) placeBlocks(ji int32, j *job) {
	nm := len(j.maps)
	nodes := int32(e.cfg.Nodes)
	rf := min(e.cfg.Replication, e.cfg.Nodes)
	rng := rand.New(rand.NewPCG(e.cfg.Seed, uint64(ji)+1))
	j.replicas = make([]int32, 0, nm*rf)
	nodePairs := e.scratch[0][:0]
	rackPairs := e.scratch[1][:0]
	perRack := int32(e.cfg.NodesPerRack)
	racks := (nodes + perRack - 1) / perRack
	for t := 0; t < nm; t++ {
		base := len(j.replicas)
		first := rng.Int32N(nodes)
		j.replicas = append(j.replicas, first)
		if rf > 1 {
			r2 := e.nodes[first].rack
			if racks > 1 {
				for r2 == e.nodes[first].rack {
					r2 = rng.Int32N(racks)
				}
			}
			for len(j.replicas)-base < rf {
				var cand int32
				if len(j.replicas)-base < 3 {
					lo := r2 * perRack
					hi := min(lo+perRack, nodes)
					cand = lo + rng.Int32N(hi-lo)
				} else {
					cand = rng.Int32N(nodes)
				}
				if !slices.Contains(j.replicas[base:], cand) {
					j.replicas = append(j.replicas, cand)
				} else if e.rackFull(j.replicas[base:], r2) {
					r2 = rng.Int32N(racks) // the rack has no node left: spread elsewhere
				}
			}
		}
		for _, nd := range j.replicas[base:] {
			nodePairs = append(nodePairs, uint64(nd)<<32|uint64(t))
			rp := uint64(e.nodes[nd].rack)<<32 | uint64(t)
			if !slices.Contains(rackPairs[len(rackPairs)-min(len(rackPairs), rf):], rp) {
				rackPairs = append(rackPairs, rp)
			}
		}
	}
	nodePairs = e.sortPairs(nodePairs, nodes)
	rackPairs = e.sortPairs(rackPairs, racks)
	j.byNode.build(nodePairs)
	j.byRack.build(rackPairs)
	e.scratch[0], e.scratch[1] = nodePairs, rackPairs
}

// sortPairs sorts (key<<32 | task) pairs whose tasks were appended in
// increasing order, for keys below nkeys: insertion sort when short, a
// stable counting sort by key otherwise.
func (e *Engine) sortPairs(p []uint64, nkeys int32) []uint64 {
	if len(p) <= 4*int(nkeys) || len(p) < 256 {
		slices.Sort(p)
		return p
	}
	count := e.counts[:0]
	for range nkeys + 1 {
		count = append(count, 0)
	}
	for _, x := range p {
		count[(x>>32)+1]++
	}
	for k := int32(1); k <= nkeys; k++ {
		count[k] += count[k-1]
	}
	out := e.scratch[2][:0]
	out = append(out, p...)
	for _, x := range p {
		k := x >> 32
		out[count[k]] = x
		count[k]++
	}
	e.counts = count
	e.scratch[2] = p
	return out
}

func (e *Engine) rackFull(chosen []int32, rack int32) bool {
	perRack := int32(e.cfg.NodesPerRack)
	lo := rack * perRack
	hi := min(lo+perRack, int32(e.cfg.Nodes))
	for n := lo; n < hi; n++ {
		if !slices.Contains(chosen, n) {
			return false
		}
	}
	return true
}

func (e *Engine) makeEligible(j *job) {
	j.reducesEligible = true
	j.eligibleAt = e.now
	e.addDemand(Reduce, j.pending[Reduce])
}

// wantsHeartbeat reports whether node n has anything a heartbeat could do.
func (e *Engine) wantsHeartbeat(n *node) bool {
	if !n.alive {
		return false
	}
	for k := Map; k <= Reduce; k++ {
		if n.free[k] > 0 && (e.demand[k] > 0 || n.hasSuspended(k)) {
			return true
		}
	}
	return e.pre != nil && len(n.running) > 0 && e.pre.WantsBusyHeartbeats(&e.view)
}

// Heartbeats. Node i reports at its grid times phase_i + k·H, phases
// staggered evenly over the interval H, plus out-of-band heartbeats when
// enabled. A node that has nothing to do is silent: it costs no events.
// A node wakes individually when one of its slots frees (wake); when work
// appears for silent nodes (demand rising from zero, or a preempting
// policy's wishes changing), a sweep visits the silent nodes one at a time
// in grid order, at their grid times, and stops as soon as a whole cycle
// finds none that wants to heartbeat. The sweep gives every silent node
// the heartbeat it would have had at its grid time, for one queued event
// instead of one per node.

// nextGrid is node ni's first grid time strictly after after and not
// before the current time.
func (e *Engine) nextGrid(ni int32, after Time) Time {
	p := e.nodes[ni].phase
	from := max(after+1, e.now)
	if from <= p {
		return p
	}
	k := (from - p + e.interval - 1) / e.interval
	return p + k*e.interval
}

// wake queues node ni's next grid heartbeat if it wants one and has none
// queued.
func (e *Engine) wake(ni int32) {
	n := &e.nodes[ni]
	if n.hbQueued || !e.wantsHeartbeat(n) {
		return
	}
	e.queueHeartbeat(ni, e.nextGrid(ni, n.lastHB))
}

// queueHeartbeat queues a heartbeat of node ni at time at, superseding any
// heartbeat of that node already queued.
func (e *Engine) queueHeartbeat(ni int32, at Time) {
	n := &e.nodes[ni]
	n.hbGen++
	n.hbQueued = true
	e.q.push(event{at: at, kind: evHeartbeat, idx: ni, gen: n.hbGen})
}

// startSweep starts a sweep at the silent node that wants a heartbeat and
// whose grid time comes first, unless the sweep under way gets there
// first.
func (e *Engine) startSweep() {
	best, at := int32(-1), Never
	for i := range e.nodes {
		n := &e.nodes[i]
		if n.hbQueued || !e.wantsHeartbeat(n) {
			continue
		}
		if t := e.nextGrid(int32(i), n.lastHB); t < at {
			best, at = int32(i), t
		}
	}
	if best >= 0 && (!e.sweeping || at < e.sweepAt) {
		e.pushSweep(best, at)
	}
}

// pushSweep queues the sweep's next step, superseding any queued one.
func (e *Engine) pushSweep(ni int32, at Time) {
	e.sweeping = true
	e.sweepAt = at
	e.sweepGen++
	e.q.push(event{at: at, kind: evSweep, idx: ni, gen: e.sweepGen})
}

// sweep gives node ev.idx its grid heartbeat if it is still silent and
// wants one, then moves on to the next silent node in grid order that
// wants one. Nodes that want nothing now can only start wanting through a
// freed slot (they are woken then) or new work (a new sweep starts).
func (e *Engine) sweep(ev event) {
	if ev.gen != e.sweepGen {
		return // superseded by an earlier-starting sweep
	}
	ni := ev.idx
	n := &e.nodes[ni]
	if !n.hbQueued && e.wantsHeartbeat(n) && e.nextGrid(ni, n.lastHB) == e.now {
		e.doHeartbeat(ni)
	}
	e.sweeping = false
	if !e.silentWork() {
		return
	}
	nn := int32(len(e.nodes))
	for k := int32(1); k <= nn; k++ {
		i := (ni + k) % nn
		c := &e.nodes[i]
		if c.hbQueued || !e.wantsHeartbeat(c) {
			continue
		}
		e.pushSweep(i, e.nextGrid(i, c.lastHB))
		return
	}
}

// silentWork reports whether a silent node could have anything to do:
// tasks waiting to launch, or a preempting policy wanting heartbeats. (A
// node with a suspended task and a free slot is woken when the slot frees.)
func (e *Engine) silentWork() bool {
	return e.demand[Map] > 0 || e.demand[Reduce] > 0 || (e.pre != nil && e.pre.WantsBusyHeartbeats(&e.view))
}

func (e *Engine) heartbeat(ev event) {
	n := &e.nodes[ev.idx]
	if ev.gen != n.hbGen || !n.hbQueued {
		return // superseded by an out-of-band heartbeat
	}
	n.hbQueued = false
	if n.alive && e.wantsHeartbeat(n) {
		e.doHeartbeat(ev.idx)
	}
}

// doHeartbeat hands node ni to the policy and queues its next heartbeat if
// it still has something to do.
func (e *Engine) doHeartbeat(ni int32) {
	n := &e.nodes[ni]
	n.lastHB = e.now
	e.stats.Events++
	e.stats.Heartbeats++
	e.hb.node = ni
	e.inHB = true
	err := e.sched.OnHeartbeat(&e.hb)
	e.inHB = false
	if err != nil && e.err == nil {
		e.err = e.policyErr(err)
	}
	for i := 0; i < len(e.deferred); i++ {
		e.sched.OnEvent(e.deferred[i], &e.view)
	}
	e.deferred = e.deferred[:0]
	e.wake(ni)
}

// failureDelay draws the k-th exponential delay of node i with the given
// mean, from a stream that depends only on the seed, the node and k, and
// returns the time it ends.
func (e *Engine) failureDelay(i int, k uint64, mean float64) Time {
	rng := rand.New(rand.NewPCG(e.cfg.Seed^0x9e3779b97f4a7c15, uint64(i)<<32|k))
	return e.now + max(1, Seconds(rng.ExpFloat64()*mean))
}

// addDemand changes the count of launchable tasks of kind k; when it rises
// from zero, silent nodes with free slots must start heartbeating again.
func (e *Engine) addDemand(k TaskKind, n int32) {
	if e.demand[k] == 0 && n > 0 {
		e.wakePending = true
	}
	e.demand[k] += n
}
