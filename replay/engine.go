package replay

import (
	"errors"
	"fmt"
	"io"
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
	// Events counts the events processed (stale ones excluded): the sum
	// of Heartbeats, TaskEnds, Arrivals and NodeChanges.
	Events      int64
	Heartbeats  int64 // heartbeats handed to the policy
	TaskEnds    int64 // task attempts that ran to their end
	Arrivals    int64 // jobs submitted
	NodeChanges int64 // node failures and repairs
	// TaskEvents counts what happened to tasks: launches, finishes,
	// suspensions, resumptions, kills and losses. Most happen within the
	// events above (a policy launches tasks during a heartbeat), so they
	// are not a part of Events.
	TaskEvents int64
	End        Time // time the last job finished
}

// Engine replays one trace under one policy. Build it with New (a trace in
// memory) or NewFromSource (jobs read as they arrive), then call Run once;
// or move it forward an event at a time with Step, or to a simulated time
// with RunUntil, looking at the cluster through View between calls, and
// call Run for the results. The engine is synchronous: no goroutine, no
// wall clock.
type Engine struct {
	cfg   Config
	trace *traces.Trace // the trace, or nil when jobs come from src
	src   Source
	sched Scheduler
	pre   Preempter
	// decider is the policy's Decider, or nil. decidePending: it was told
	// of something since it last decided, or its wake-up came; decideAt
	// is the wake-up it asked for (Never: none), queued as an evDecide of
	// generation decideGen.
	decider       Decider
	decidePending bool
	decideAt      Time
	decideGen     int32
	amPol         AMScheduler // the policy's, in the container model; nil: submit order under MaxAMShare
	// step is what container requests are rounded up to a multiple of:
	// the minimum allocation, or an Incrementer's increment.
	step [2]int64
	// quiet is the policy's Quieter while heartbeats are regular (slot
	// model, no out-of-band heartbeats, no failures), else nil. Its
	// answers, quietWants by kind and quietUntil, are taken again when
	// the policy has been called since (polCalls counts the calls; see
	// freshQuiet); quietGen is the generation of the queued evQuiet that
	// wakes the dozing nodes at quietUntil.
	quiet    Quieter
	polCalls uint64
	// quietVer is the policy's QuietVersioner, if it is one, and
	// verSeen the version at which every answer was last taken (valid
	// while verOK).
	quietVer   QuietVersioner
	verSeen    uint64
	verOK      bool
	wantsSeen  [2]uint64 // polCalls when quietWants[k] was taken
	untilSeen  uint64    // polCalls when quietUntil was taken
	quietWants [2]bool
	quietUntil Time
	quietGen   int32
	dozing     []uint64 // bit i: node i dozes
	nDozing    int
	// dozeCheck asks the run loop to look at the dozing nodes again:
	// demand for a kind moved to or from zero.
	dozeCheck bool

	now        Time
	q          eventQueue
	touched    int32 // a sum kept only so that touchTasks' loads are not dropped
	touchBuf   touchScratch
	jobs       []job
	nodes      []node
	nextJob    int
	unfinished int
	interval   Time
	demand     [2]int32 // pending tasks that may launch now, cluster-wide
	aliveSlots [2]int32
	freeNodes  [2]int32 // nodes up with a free slot of each kind

	// Resources (resources.go): the model, the resources' names and how
	// many, the unit request of each kind (a slot, or a minimum-size
	// container) and, when it is a single resource, its index; which
	// resources the policy counts; per-job container requests (container
	// model only); the distinct node capacities; the allocation and its
	// integral over time in resource-seconds (container model).
	model       Model
	resNames    []string
	nres        int
	unit        [2]Resources
	unitIdx     [2]int8
	unitRes     []int8 // container model: the counted resources the unit asks for
	enforce     [MaxResources]bool
	slotMin     [2][2]int64 // slot model: the fewest slots of each kind a task of each kind fits with (fitsTask)
	reqs        [][2]Resources
	shapes      []Resources
	allocated   Resources
	allocSince  Time
	allocIntegr [MaxResources]float64
	// cpuShared: the policy does not count vcores, which may then be
	// overcommitted, and an overcommitted node's tasks share its CPUs.
	cpuShared bool
	cpus      []nodeCPU // each node's running tasks' ends, if cpuShared
	// swapBytes is what each suspended task whose memory was swapped out
	// swapped (task.swapped).
	swapBytes map[TaskRef]int64
	// rackLo[r] is rack r's first node; rackLo[racks] is len(nodes).
	rackLo []int32

	// ApplicationMasters (container model): jobs submitted and waiting
	// for their AM's container, in submit order from amHead; the AM
	// request, and the memory AMs hold against their cap.
	amQueue   []int32
	amHead    int
	amReq     Resources
	amUsedMB  int64
	amLimitMB int64
	silent    []uint64 // bit i: node i is up with no heartbeat queued

	view     View
	hb       Heartbeat
	inHB     bool
	deferred []Event
	// observers see the events of their masks after the policy (Observe,
	// ObserveEvents); polEvents is the events the policy reads
	// (Selective), heard those that the policy or an observer reads.
	observers []func(Event, *View)
	obsEvents []EventMask
	polEvents EventMask
	heard     EventMask
	err       error
	// wakePending asks the run loop to start a sweep of the silent nodes
	// after the current event: demand rose from zero, or a preempting
	// policy's wishes may have changed.
	wakePending bool
	sweeping    bool
	sweepAt     Time
	sweepGen    int32

	started  bool // start has run
	finished bool // Run has returned the results

	rec      recorder
	stats    Stats
	check    bool
	lostWork Time
	swapTime Time

	// Block placement: replicas per block, racks, each node's rack, the
	// per-job stream, and scratch counters for the locality indexes.
	rf, racks          int
	rackOf             []int32
	blocks             blockRNG
	cntNode, cntRack   []int32
	usedNode, usedRack []int32
	// The no-progress detector (progress.go): task events counted at the
	// last progress, and its time (-1: not yet watching).
	progEvents int64
	progAt     Time
	// endsSeen and endsAt watch for churn under node failures: the task
	// ends counted when last seen to change, and when (-1: not yet).
	endsSeen int64
	endsAt   Time

	// recycled per-job arrays
	chunkSlabs slabs[*taskChunk]
	freeChunks []*taskChunk
	idleJobs   []idleJob // jobs that may let go of their placement (noteIdle)
	toPack     []int32   // jobs admitted, in order, whose task lists are not packed yet (packWaiting)
	int32Slabs slabs[int32]
	bitSlabs   slabs[uint64]
}

// New prepares a run of trace under sched on the cluster cfg describes.
// The trace must be valid (traces.Read validates it).
func New(trace *traces.Trace, sched Scheduler, cfg Config) (*Engine, error) {
	e, err := newEngine(len(trace.Jobs), sched, cfg)
	if err != nil {
		return nil, err
	}
	e.trace = trace
	for i := range trace.Jobs {
		e.jobs[i].setTrace(&trace.Jobs[i])
	}
	return e, nil
}

// Source supplies a trace's jobs one at a time, in trace order, with the
// number of jobs known up front. A traces.Reader is one.
type Source interface {
	Len() int
	// Next fills j with the next job, in new slices; io.EOF ends the jobs.
	Next(j *traces.Job) error
}

// NewFromSource prepares a run that reads the jobs from src as they
// arrive, rather than from a trace in memory. A job's trace data is let go
// once it has finished (JobView.Trace is then nil), so memory holds the
// jobs read and unfinished, not the whole trace; the results are those of
// New on the same jobs. The jobs must be valid (a traces.Reader validates
// them).
func NewFromSource(src Source, sched Scheduler, cfg Config) (*Engine, error) {
	e, err := newEngine(src.Len(), sched, cfg)
	if err != nil {
		return nil, err
	}
	e.src = src
	if len(e.jobs) > 0 {
		if err := e.read(0); err != nil {
			return nil, err
		}
	}
	return e, nil
}

func newEngine(jobs int, sched Scheduler, cfg Config) (*Engine, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if sched == nil {
		return nil, errors.New("replay: no scheduler")
	}
	e := &Engine{cfg: cfg, sched: sched, check: !cfg.NoInvariantChecks, progAt: -1, endsAt: -1}
	e.pre, _ = sched.(Preempter)
	e.decider, _ = sched.(Decider)
	e.polEvents = AllEvents
	if sel, ok := sched.(Selective); ok {
		e.polEvents = sel.Events()
	}
	e.heard = e.polEvents
	e.decideAt = Never
	if cfg.Model == ContainerModel {
		e.amPol, _ = sched.(AMScheduler)
	}
	if !cfg.OutOfBandHeartbeat && cfg.MTBF == 0 && cfg.Model != ContainerModel {
		e.quiet, _ = sched.(Quieter)
		if e.quiet != nil {
			e.quietVer, _ = sched.(QuietVersioner)
		}
	}
	e.quietWants = [2]bool{true, true}
	e.interval = Seconds(cfg.Heartbeat)
	if e.interval <= 0 {
		e.interval = 1
	}
	e.view.e = e
	e.hb.View = &e.view
	e.rec.tasks, e.rec.occupancy = cfg.RecordTasks, cfg.RecordOccupancy
	e.initResources()
	e.initNodes()
	e.q.init(int(e.aliveSlots[Map]) + int(e.aliveSlots[Reduce]))
	e.q.ends.touch = e.touchTasks
	if !cfg.OutOfBandHeartbeat && cfg.MTBF == 0 && e.distinctPhases() {
		e.q.initBeats(len(e.nodes))
	}
	e.jobs = make([]job, jobs)
	if e.model == ContainerModel {
		e.reqs = make([][2]Resources, jobs)
	}
	e.unfinished = len(e.jobs)
	return e, nil
}

// read takes job i from the source.
func (e *Engine) read(i int) error {
	tj := new(traces.Job)
	if err := e.src.Next(tj); err != nil {
		if errors.Is(err, io.EOF) {
			err = fmt.Errorf("replay: the source ended after %d of its %d jobs", i, len(e.jobs))
		}
		return err
	}
	e.jobs[i].setTrace(tj)
	return nil
}

func (e *Engine) initNodes() {
	c := &e.cfg
	e.nodes = make([]node, c.Nodes)
	e.rackOf = make([]int32, c.Nodes)
	e.silent = make([]uint64, (c.Nodes+63)/64)
	e.dozing = make([]uint64, (c.Nodes+63)/64)
	e.rf = min(c.Replication, c.Nodes)
	if c.Cluster != nil {
		for i := range c.Cluster {
			if r := c.Cluster[i].Rack; i == 0 || r != c.Cluster[i-1].Rack {
				e.rackLo = append(e.rackLo, int32(i))
			}
			e.rackOf[i] = c.Cluster[i].Rack
		}
		e.racks = len(e.rackLo)
	} else {
		e.racks = (c.Nodes + c.NodesPerRack - 1) / c.NodesPerRack
		for r := range e.racks {
			e.rackLo = append(e.rackLo, int32(r*c.NodesPerRack))
		}
		for i := range e.rackOf {
			e.rackOf[i] = int32(i / c.NodesPerRack)
		}
	}
	e.rackLo = append(e.rackLo, int32(c.Nodes))
	e.cntNode = make([]int32, c.Nodes)
	e.swapBytes = map[TaskRef]int64{}
	e.cntRack = make([]int32, e.racks)
	var speedRNG *rand.Rand
	if c.NodeSpeeds == nil && c.SpeedSigma > 0 {
		speedRNG = rand.New(rand.NewPCG(c.Seed, 0x5eed5))
	}
	var memory int64
	for i := range e.nodes {
		n := &e.nodes[i]
		n.alive = true
		n.capa = e.nodeCapacity(i)
		n.avail = n.capa
		n.free = [2]int32{e.units(&n.avail, Map), e.units(&n.avail, Reduce)}
		memory += n.capa[0]
		if !slices.Contains(e.shapes, n.capa) {
			e.shapes = append(e.shapes, n.capa)
		}
		n.speed = 1
		switch {
		case c.Cluster != nil && c.Cluster[i].Speed > 0:
			n.speed = c.Cluster[i].Speed
		case c.NodeSpeeds != nil:
			n.speed = c.NodeSpeeds[i]
		case speedRNG != nil:
			s := c.SpeedSigma
			n.speed = math.Exp(s*speedRNG.NormFloat64() - s*s/2)
		}
		// Stagger heartbeats evenly over the interval.
		n.phase = Time(int64(e.interval) * int64(i) / int64(c.Nodes))
		n.lastHB = -1
		e.markSilent(int32(i))
		for k := Map; k <= Reduce; k++ {
			e.aliveSlots[k] += n.free[k]
			if n.free[k] > 0 {
				e.freeNodes[k]++
			}
		}
	}
	if e.model == ContainerModel {
		e.amLimitMB = int64(c.MaxAMShare * float64(memory))
	}
}

// distinctPhases reports whether the nodes' heartbeat phases grow strictly
// with the node index, as the heartbeat ring needs.
func (e *Engine) distinctPhases() bool {
	for i := 1; i < len(e.nodes); i++ {
		if e.nodes[i].phase <= e.nodes[i-1].phase {
			return false
		}
	}
	return true
}

// Config is the engine's configuration, defaults filled in: what the
// Result will report.
func (e *Engine) Config() Config { return e.cfg }

// Run replays the whole trace (what is left of it, after Step or
// RunUntil) and returns the results. It may be called once.
func (e *Engine) Run() (*Result, error) {
	if e.finished {
		return nil, errors.New("replay: Run called again after the run ended")
	}
	if err := e.advance(Seconds(e.cfg.Horizon), -1); err != nil {
		return nil, err
	}
	e.finished = true
	if err := e.rec.finish(e.now); err != nil {
		return nil, err
	}
	e.stats.End = e.now
	if e.check {
		if err := e.checkFinal(); err != nil {
			return nil, err
		}
	}
	return e.result(), nil
}

// Step processes the next event, telling the policy of it and letting it
// act, and reports whether jobs remain unfinished. It returns false with
// no error once every job has finished; Run then returns the results.
// Stepping past Config.Horizon is an error wrapping ErrHorizon.
func (e *Engine) Step() (more bool, err error) {
	if err := e.advance(Seconds(e.cfg.Horizon), 1); err != nil {
		return false, err
	}
	return e.unfinished > 0, nil
}

// RunUntil processes every event due at or before t (simulated time) and
// stops before the first later one, or when every job has finished; Now
// is then the time of the last event processed. It may be called with
// increasing times, between Steps, and before Run.
func (e *Engine) RunUntil(t Time) error {
	return e.advance(min(t, Seconds(e.cfg.Horizon)), -1)
}

// Now is the simulated time of the last event processed.
func (e *Engine) Now() Time { return e.now }

// Done reports whether every job has finished.
func (e *Engine) Done() bool { return e.started && e.unfinished == 0 }

// View is the policy's read-only view of the cluster, for tests and tools
// that step the engine and look between events.
func (e *Engine) View() *View { return &e.view }

// Stats counts what the run has done so far.
func (e *Engine) Stats() Stats { return e.stats }

// Start tells a policy that needs the cluster before the first event
// (Starter) of it and queues the first arrival and the node failures.
// Run, Step and RunUntil start the engine if it has not been; a caller
// starts it first to learn what the policy settles when it starts, such
// as the name an external policy declares. It may be called once, before
// the first event.
func (e *Engine) Start() error {
	if e.started {
		return errors.New("replay: Start called after the engine started")
	}
	if err := e.start(); err != nil {
		e.err = err
		return err
	}
	return nil
}

// start tells a Starter policy of the cluster and queues the first
// arrival and the node failures, once.
func (e *Engine) start() error {
	e.started = true
	if s, ok := e.sched.(Starter); ok {
		if err := s.Start(&e.view); err != nil {
			return e.policyErr(err)
		}
	}
	if len(e.jobs) > 0 {
		e.q.push(newEvent(e.jobs[0].submit, evArrival, 0, 0, 0, Map))
	}
	if e.cfg.MTBF > 0 {
		for i := range e.nodes {
			e.q.push(newEvent(e.failureDelay(i, 0, e.cfg.MTBF), evNodeFail, 0, int32(i), 0, Map))
		}
	}
	return nil
}

// advance processes events due at or before limit, at most n of them (all
// when n < 0), until every job has finished. It is the one event loop
// behind Run, Step and RunUntil. Past the horizon (Config.Horizon) it
// fails with ErrHorizon.
func (e *Engine) advance(limit Time, n int) error {
	if !e.started {
		if err := e.start(); err != nil {
			e.err = err
			return err
		}
	}
	horizon := Seconds(e.cfg.Horizon)
	for ; n != 0 && e.unfinished > 0 && e.err == nil && e.rec.err == nil; n-- {
		if e.q.len() == 0 && e.quiet != nil {
			// Nothing left to happen but the reports of dozing nodes:
			// heartbeat as without them, so that a policy that launches
			// nothing ever again is caught as a stall.
			e.quiet = nil
			e.wakeDozing()
		}
		if e.q.len() == 0 {
			return fmt.Errorf("%w: no event left at %v with %d jobs unfinished (policy %s starves them)",
				ErrInvariant, e.now, e.unfinished, e.sched.Name())
		}
		ev := e.q.pop()
		if ev.at < e.now {
			return fmt.Errorf("%w: event at %v popped after %v", ErrInvariant, ev.at, e.now)
		}
		if ev.at > limit {
			if ev.at > horizon {
				return fmt.Errorf("%w: %d jobs unfinished at %v under %s", ErrHorizon, e.unfinished, e.now, e.sched.Name())
			}
			e.q.putBack(ev) // RunUntil's stop: the event stays first
			break
		}
		e.now = ev.at
		switch ev.kind() {
		case evTaskEnd:
			e.taskEnd(ev)
		case evArrival:
			e.arrive()
		case evHeartbeat:
			e.heartbeat(ev)
			e.watchProgress()
		case evSweep:
			e.sweep(ev)
			e.watchProgress()
		case evNodeFail:
			e.nodeFail(ev.idx())
			e.watchProgress()
		case evNodeRecover:
			e.nodeRecover(ev.idx())
			e.watchProgress()
		case evDecide:
			if ev.gen() == e.decideGen {
				e.decideAt = Never
				e.decidePending = true
			}
		case evQuiet:
			if ev.gen() == e.quietGen && e.quiet != nil {
				e.wakeDozing() // quietUntil has come
			}
		}
		if e.decidePending && e.instantApplied() {
			e.decide()
		}
		if e.nDozing > 0 && !e.quietFresh() {
			e.freshQuiet(false)
		}
		if e.dozeCheck {
			e.dozeCheck = false
			e.wakeDozing()
		}
		if e.wakePending {
			e.wakePending = false
			e.startSweep()
		}
	}
	if e.err != nil {
		return e.err
	}
	return e.rec.err
}

// watchProgress runs the stall detector (progress), keeping the run's
// first error. (cmp.Or would compare the interfaces at every event.)
func (e *Engine) watchProgress() {
	if err := e.progress(); err != nil && e.err == nil {
		e.err = err
	}
}

// instantApplied reports whether every task end, node change, arrival and
// Decider wake-up due now has been applied: the next event is later, or
// a heartbeat, sweep or quiet wake-up.
func (e *Engine) instantApplied() bool {
	next := e.q.peek()
	return next == nil || next.at > e.now || next.kind() > evDecide
}

// decide lets the Decider decide on the instant's events, and queues the
// wake-up it asks for.
func (e *Engine) decide() {
	e.decidePending = false
	if e.err != nil {
		return
	}
	e.polCalls++
	at := e.decider.Decide(&e.view)
	if at <= e.now {
		at = Never
	}
	if at != e.decideAt {
		e.decideGen++
		e.decideAt = at
		if at != Never {
			e.q.push(newEvent(at, evDecide, 0, 0, e.decideGen, Map))
		}
	}
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

// notify tells the policy of an event of the given kind: of job (0 for a
// node's event), its task t on node (TaskRef{} for a job's or a node's
// event, node 0 for a job's), after the current heartbeat if one is under
// way (so that a policy is never re-entered). The Event is made only when
// someone reads it, and field by field: one made in a temporary and copied
// whole is read back by wide loads from the narrow stores that made it, a
// store-forwarding stall at every launch.
func (e *Engine) notify(kind EventKind, job int32, t TaskRef, node int32) {
	e.polCalls++
	if e.decider != nil && !e.inHB {
		e.decidePending = true // not the policy's own action
	}
	if !e.heard.has(kind, t.Kind) {
		return // read by none
	}
	if e.inHB {
		e.deferred = append(e.deferred, Event{})
		d := &e.deferred[len(e.deferred)-1]
		d.Kind, d.Time, d.Job, d.Task, d.Node = kind, e.now, job, t, node
		return
	}
	ev := Event{Kind: kind, Time: e.now, Job: job, Task: t, Node: node}
	e.dispatch(&ev)
}

// dispatch hands ev to the policy and observers that read it: at once
// (notify) or at the heartbeat's end (doHeartbeat).
func (e *Engine) dispatch(ev *Event) {
	if e.polEvents.has(ev.Kind, ev.Task.Kind) {
		e.sched.OnEvent(*ev, &e.view)
	}
	if len(e.observers) > 0 {
		e.tellObservers(ev)
	}
}

// tellObservers hands ev to the observers that read it.
func (e *Engine) tellObservers(ev *Event) {
	for i, o := range e.observers {
		if e.obsEvents[i].has(ev.Kind, ev.Task.Kind) {
			o(*ev, &e.view)
		}
	}
}

// Observe makes f see every event, in the order the policy sees them,
// after the policy: a measurement riding along the run (ShuffleWatch),
// which must not change the cluster. Call it before the run.
func (e *Engine) Observe(f func(Event, *View)) { e.ObserveEvents(f, AllEvents) }

// ObserveEvents is Observe of the events in m only.
func (e *Engine) ObserveEvents(f func(Event, *View), m EventMask) {
	e.observers = append(e.observers, f)
	e.obsEvents = append(e.obsEvents, m)
	e.heard |= m
}

// arrive submits the next job and queues the one after it.
func (e *Engine) arrive() {
	ji := e.nextJob
	e.nextJob++
	if e.nextJob < len(e.jobs) {
		if e.src != nil {
			if err := e.read(e.nextJob); err != nil && e.err == nil {
				e.err = err
				return
			}
		}
		e.q.push(newEvent(e.jobs[e.nextJob].submit, evArrival, 0, 0, 0, Map))
	}
	e.stats.Events++
	e.stats.Arrivals++
	j := &e.jobs[ji]
	if e.model == ContainerModel {
		e.queueAM(int32(ji), j)
		return
	}
	e.admit(int32(ji), j)
}

// admit makes job ji's tasks and tells the policy it arrived: at its
// submit in the slot model, when its ApplicationMaster starts in the
// container model.
func (e *Engine) admit(ji int32, j *job) {
	e.prepareJob(j)
	e.notify(JobArrived, ji, TaskRef{}, 0)
	if j.reducesEligible {
		e.notify(ReducesEligible, ji, TaskRef{}, 0)
	}
	if e.src != nil && !e.inHB { // the policy has heard of the arrival
		e.packWaiting(ji)
	}
	if e.pre != nil {
		e.wakePending = true
	}
}

func (e *Engine) makeEligible(j *job) {
	j.reducesEligible = true
	j.eligibleAt = e.now
	e.addDemand(Reduce, j.pending[Reduce])
}

// failureDelay draws the k-th exponential delay of node i with the given
// mean, from a stream that depends only on the seed, the node and k, and
// returns the time it ends.
func (e *Engine) failureDelay(i int, k uint64, mean float64) Time {
	rng := rand.New(rand.NewPCG(e.cfg.Seed^0x9e3779b97f4a7c15, uint64(i)<<32|k))
	return e.now + max(1, Seconds(rng.ExpFloat64()*mean))
}

// addDemand changes the count of launchable tasks of kind k; when it rises
// from zero, silent nodes with free slots must start heartbeating again,
// and when it reaches or leaves zero dozing nodes may want reports or no
// longer.
func (e *Engine) addDemand(k TaskKind, n int32) {
	if e.demand[k] == 0 && n > 0 {
		e.wakePending = true
	}
	if (e.demand[k] == 0) != (e.demand[k]+n == 0) && e.quiet != nil {
		e.dozeCheck = true // whether dozing nodes want reports changed
	}
	e.demand[k] += n
}
