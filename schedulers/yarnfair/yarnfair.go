package yarnfair

import (
	"errors"
	"fmt"
	"strings"

	"sojourn/replay"
	"sojourn/schedulers/internal/policy"
)

// Name is the policy's name in the registry and on the command line.
const Name = "yarn-fair"

var optionList = []policy.Option{
	{Name: "queues", Default: "", Usage: "allocation file: one queue per line, NAME [weight=W] [min=MiB,VCORES] [max=MiB,VCORES] [policy=fifo|fair|drf] [max-running-apps=N]; empty: root.default, weight 1"},
	{Name: "policy", Default: "fair", Usage: "default scheduling policy of the queues (fair-scheduler.xml defaultQueueSchedulingPolicy): fair (memory), drf (dominant resource fairness) or fifo (leaves only; parents then use fair)"},
	{Name: "assignmultiple", Default: "false", Usage: "assign more than one container per heartbeat (yarn.scheduler.fair.assignmultiple)"},
	{Name: "max-assign", Default: "-1", Usage: "with assignmultiple and dynamic-max-assign false, containers per heartbeat at most; -1 no limit (yarn.scheduler.fair.max.assign)"},
	{Name: "dynamic-max-assign", Default: "true", Usage: "with assignmultiple, assign until half the node's unallocated resources are (yarn.scheduler.fair.dynamic.max.assign)"},
	{Name: "locality-threshold-node", Default: "-1", Usage: "fraction of the cluster's nodes an app lets pass before accepting rack-local containers; negative: no delay scheduling (yarn.scheduler.fair.locality.threshold.node)"},
	{Name: "locality-threshold-rack", Default: "-1", Usage: "fraction of the cluster's nodes an app lets pass before accepting off-rack containers; negative: no delay scheduling (yarn.scheduler.fair.locality.threshold.rack)"},
	{Name: "preemption", Default: "false", Usage: "kill containers of queues over their fair share for queues starved of their min or fair share (yarn.scheduler.fair.preemption)"},
	{Name: "min-share-preemption-timeout", Default: "-1", Usage: "seconds a queue stays below its min share before it preempts; -1 never (fair-scheduler.xml defaultMinSharePreemptionTimeout, Long.MAX_VALUE)"},
	{Name: "fair-share-preemption-timeout", Default: "-1", Usage: "seconds a queue stays below fair-share-preemption-threshold of its fair share before it preempts; -1 never (defaultFairSharePreemptionTimeout, Long.MAX_VALUE)"},
	{Name: "fair-share-preemption-threshold", Default: "0.5", Usage: "fraction of its fair share below which a queue is starved (defaultFairSharePreemptionThreshold)"},
	{Name: "preemption-interval", Default: "5", Usage: "seconds between preemption checks (yarn.scheduler.fair.preemptionInterval, 5000 ms)"},
	{Name: "wait-before-kill", Default: "15", Usage: "seconds from a container's preemption warning to its kill (yarn.scheduler.fair.waitTimeBeforeKill, 15000 ms)"},
	{Name: "preemption-utilization-threshold", Default: "0.8", Usage: "preempt only while the cluster's most used resource is allocated above this fraction (yarn.scheduler.fair.preemption.cluster-utilization-threshold)"},
	{Name: "update-interval", Default: "0.5", Usage: "seconds between updates of fair shares and starvation (yarn.scheduler.fair.update-interval-ms, 500 ms)"},
	{Name: "max-am-share", Default: "0.5", Usage: "fraction of a leaf queue's fair share its ApplicationMasters may hold, -1 no limit (fair-scheduler.xml queueMaxAMShareDefault; a queue's max-am-share in the queues file overrides it)"},
	{Name: "increment-allocation-mb", Default: "1024", Usage: "requests are rounded up to a multiple of this, at least the minimum allocation (yarn.scheduler.increment-allocation-mb)"},
	{Name: "increment-allocation-vcores", Default: "1", Usage: "vcores requests are rounded up to a multiple of this (yarn.scheduler.increment-allocation-vcores)"},
	{Name: "continuous-scheduling", Default: "false", Usage: "delay scheduling by time, locality-delay-node and -rack, instead of by scheduling opportunities (yarn.scheduler.fair.continuous-scheduling-enabled); nodes still act at their heartbeats only"},
	{Name: "locality-delay-node", Default: "-1", Usage: "with continuous-scheduling, seconds an app waits for a node-local container before taking rack-local ones; negative: no delay scheduling (yarn.scheduler.fair.locality-delay-node-ms)"},
	{Name: "locality-delay-rack", Default: "-1", Usage: "with continuous-scheduling, seconds an app then waits before taking off-rack containers; negative: no delay scheduling (yarn.scheduler.fair.locality-delay-rack-ms)"},
}

// Policy describes the policy to the registry.
var Policy = policy.Policy{
	Name:           Name,
	Summary:        "YARN FairScheduler on containers: hierarchical weighted queues with min and max resources, fair (memory), DRF or FIFO per queue, locality thresholds, optional min- and fair-share preemption",
	Options:        optionList,
	ContainersOnly: true,
	New:            func(s *policy.Settings) (replay.Scheduler, error) { return New(s) },
}

type options struct {
	queuesPath       string
	policy           policyKind
	assignMultiple   bool
	maxAssign        int
	dynamicMaxAssign bool
	nodeThreshold    float64
	rackThreshold    float64
	preempt          bool
	minTimeout       replay.Time // Never for -1
	fairTimeout      replay.Time
	fairThreshold    float64
	preemptInterval  replay.Time
	waitBeforeKill   replay.Time
	utilThreshold    float64
	updateInterval   replay.Time
	amShare          float64
	incMB, incVcores int64
	continuous       bool
	nodeDelay        replay.Time // negative: no delay scheduling
	rackDelay        replay.Time
}

type policyKind uint8

const (
	polFair policyKind = iota
	polFIFO
	polDRF
)

var policyNames = [...]string{"fair", "fifo", "drf"}

func parsePolicy(s string) policyKind {
	switch s {
	case "fifo":
		return polFIFO
	case "drf":
		return polDRF
	}
	return polFair
}

// YARNFair is YARN's FairScheduler on the container model; see the
// package documentation.
type YARNFair struct {
	o     options
	alloc *Allocation

	v       *replay.View
	nres    int
	cluster replay.Resources
	drf     drf

	root   *queue
	byPath map[string]*queue
	byPool map[string]*queue
	leaves []*queue
	apps   []*app // by job; nil before arrival and after the end

	scratchQ [][]*queue // per depth
	scratchA []*app

	// The fair shares depend only on the queues, their weights and
	// limits, the cluster and which queues and apps are runnable:
	// sharesStale says the last of these changed since computeShares
	// last ran (an update then recomputes them; otherwise they stand).
	sharesStale bool
	shareW      []float64 // ComputeShares' arguments, reused
	shareLo     []int64
	shareHi     []int64
	shareOut    []int64
	shareAct    []*queue

	// Submitted jobs seen (sync), and the update clock (tick): the time
	// of the next update, and whether anything changed since the last.
	seen       int
	nextUpdate replay.Time
	dirty      bool

	// Preemption (preempt.go).
	lastUpdate  replay.Time
	lastPreempt replay.Time
	starved     bool // some leaf was starved at the last update
	warned      []warning
	kills       [][]warning // per node: victims for its next heartbeat
	nKills      int
}

type queue struct {
	sched
	parent   *queue
	children []*queue
	leaf     bool
	line     int // in the allocation file; 0 if none
	pol      policyKind
	hasMax   bool
	max      replay.Resources
	maxApps  int
	amShare  float64          // max-am-share; -1 no limit
	amUsage  replay.Resources // leaf: its running ApplicationMasters
	amAsk    int              // runnable apps below whose AM waits
	raw      replay.Resources // demand before the max cap
	runnable int              // runnable apps below
	ready    int              // runnable apps below with a container to ask for
	apps     []*app           // leaf: runnable apps in start order
	heap     readyHeap        // leaf: the ready apps in the leaf's order
	waiting  []*app           // leaf: apps held by max-running-apps, in start order
	fair     replay.Resources // instantaneous fair share
	lastMin  replay.Time      // last update at which it was not starved for its min share
	lastFair replay.Time      // ... for fair-share-preemption-threshold × its fair share
	depth    int
}

type app struct {
	hk heapKey // first: what its leaf's heap compares and its place there
	sched
	q              *queue
	runnable       bool
	ready          bool
	reducesCounted bool
	amPending      bool // its ApplicationMaster waits for a container
	// Delay scheduling of the maps (YARN's per-priority allowed locality
	// level and scheduling opportunities).
	localityInit bool
	allowed      replay.Locality
	opps         int
	lastSched    replay.Time // time-based: when the level was set last
	fair         replay.Resources
	preempted    replay.Resources // warned containers' resources during a preemption pass
	// popped marks an app taken out of its leaf's heap while the leaf
	// is offered a node.
	popped bool
}

var (
	_ replay.Scheduler   = (*YARNFair)(nil)
	_ replay.Starter     = (*YARNFair)(nil)
	_ replay.Preempter   = (*YARNFair)(nil)
	_ replay.AMScheduler = (*YARNFair)(nil)
	_ replay.Incrementer = (*YARNFair)(nil)
)

// New builds the policy from its settings.
func New(s *policy.Settings) (*YARNFair, error) {
	var o options
	o.queuesPath = s.String("queues")
	o.policy = parsePolicy(s.OneOf("policy", "fair", "fifo", "drf"))
	o.assignMultiple = s.Bool("assignmultiple")
	o.maxAssign = s.Int("max-assign")
	o.dynamicMaxAssign = s.Bool("dynamic-max-assign")
	o.nodeThreshold = s.Float("locality-threshold-node")
	o.rackThreshold = s.Float("locality-threshold-rack")
	o.preempt = s.Bool("preemption")
	minT := s.Float("min-share-preemption-timeout")
	fairT := s.Float("fair-share-preemption-timeout")
	o.fairThreshold = s.Float("fair-share-preemption-threshold")
	interval := s.Float("preemption-interval")
	wait := s.Float("wait-before-kill")
	o.utilThreshold = s.Float("preemption-utilization-threshold")
	update := s.Float("update-interval")
	o.amShare = s.Float("max-am-share")
	incMB, incV := s.Int("increment-allocation-mb"), s.Int("increment-allocation-vcores")
	o.continuous = s.Bool("continuous-scheduling")
	nodeDelay, rackDelay := s.Float("locality-delay-node"), s.Float("locality-delay-rack")
	if err := s.Err(); err != nil {
		return nil, err
	}
	timeout := func(name string, v float64) (replay.Time, error) {
		switch {
		case v == -1:
			return replay.Never, nil
		case v < 0 || v > 1e9:
			return 0, fmt.Errorf("%s.%s: %v; want seconds from 0 to 1e9, or -1 for never", Name, name, v)
		}
		return replay.Seconds(v), nil
	}
	var err error
	if o.minTimeout, err = timeout("min-share-preemption-timeout", minT); err != nil {
		return nil, err
	}
	if o.fairTimeout, err = timeout("fair-share-preemption-timeout", fairT); err != nil {
		return nil, err
	}
	for _, c := range []struct {
		name   string
		v      float64
		lo, hi float64
	}{{"fair-share-preemption-threshold", o.fairThreshold, 0, 1}, {"preemption-interval", interval, 0, 1e9},
		{"wait-before-kill", wait, 0, 1e9}, {"preemption-utilization-threshold", o.utilThreshold, 0, 1},
		{"update-interval", update, 0, 1e6}} {
		if c.v < c.lo || c.v > c.hi {
			return nil, fmt.Errorf("%s.%s: %v; want %g to %g", Name, c.name, c.v, c.lo, c.hi)
		}
	}
	if !(o.amShare == -1 || o.amShare >= 0 && o.amShare <= 1) {
		return nil, fmt.Errorf("%s.max-am-share: %v; want a fraction from 0 to 1, or -1 for no limit", Name, o.amShare)
	}
	if incMB < 1 || incMB > replay.MaxMemoryMB || incV < 1 || incV > replay.MaxVcores {
		return nil, fmt.Errorf("%s.increment-allocation-mb and -vcores: %d and %d; want 1 to %d MiB and 1 to %d vcores", Name, incMB, incV, int64(replay.MaxMemoryMB), replay.MaxVcores)
	}
	o.incMB, o.incVcores = int64(incMB), int64(incV)
	if nodeDelay > 1e9 || rackDelay > 1e9 {
		return nil, fmt.Errorf("%s.locality-delay-node and -rack: %v and %v; want at most 1e9 seconds", Name, nodeDelay, rackDelay)
	}
	o.nodeDelay, o.rackDelay = -1, -1
	if nodeDelay >= 0 && rackDelay >= 0 {
		o.nodeDelay, o.rackDelay = replay.Seconds(nodeDelay), replay.Seconds(rackDelay)
	}
	if o.maxAssign < -1 || o.maxAssign == 0 {
		return nil, fmt.Errorf("%s.max-assign: %d; want a positive count, or -1 for no limit", Name, o.maxAssign)
	}
	o.preemptInterval, o.waitBeforeKill, o.updateInterval = replay.Seconds(interval), replay.Seconds(wait), replay.Seconds(update)
	p := &YARNFair{o: o}
	if o.queuesPath != "" {
		a, err := LoadAllocation(o.queuesPath)
		if err != nil {
			return nil, fmt.Errorf("%s.queues: %w", Name, err)
		}
		p.alloc = a
	} else {
		p.alloc = &Allocation{Queues: []QueueSpec{{Path: "root", Weight: 1}}}
	}
	if err := p.buildQueues(); err != nil {
		return nil, err
	}
	return p, nil
}

// Name implements replay.Scheduler.
func (p *YARNFair) Name() string { return Name }

// buildQueues builds the hierarchy of the allocation file and checks
// the policies: fifo only on leaves, no drf below a fair parent.
func (p *YARNFair) buildQueues() error {
	p.byPath = map[string]*queue{}
	p.byPool = map[string]*queue{}
	p.leaves = nil
	for i := range p.alloc.Queues {
		s := &p.alloc.Queues[i]
		q := &queue{sched: sched{name: s.Path, weight: s.Weight, min: s.Min, id: -1}, line: s.Line,
			hasMax: s.HasMax, max: s.Max, maxApps: s.MaxApps, leaf: true, amShare: p.o.amShare}
		if s.HasAMShare {
			q.amShare = s.AMShare
		}
		q.pol = p.o.policy
		if s.Policy != "" {
			q.pol = parsePolicy(s.Policy)
		}
		if i := strings.LastIndexByte(s.Path, '.'); i >= 0 {
			q.parent = p.byPath[s.Path[:i]]
			q.parent.children = append(q.parent.children, q)
			q.parent.leaf = false
			q.depth = q.parent.depth + 1
		}
		p.byPath[s.Path] = q
	}
	p.root = p.byPath["root"]
	p.root.leaf = false // jobs run below it, never in it
	for i := range p.alloc.Queues {
		q := p.byPath[p.alloc.Queues[i].Path]
		if err := p.checkPolicy(q, p.alloc.Queues[i].Policy != ""); err != nil {
			return err
		}
		if q.leaf {
			p.leaves = append(p.leaves, q)
		}
	}
	if d := p.byPath["root.default"]; d != nil && !d.leaf {
		return p.fileErr(d, "root.default is a parent queue; it must be a leaf, since jobs of no declared queue run there")
	}
	return nil
}

// checkPolicy checks queue q's policy against its place; explicit says
// the file set it (else it came from the policy option).
func (p *YARNFair) checkPolicy(q *queue, explicit bool) error {
	if !q.leaf && q.pol == polFIFO {
		if !explicit {
			q.pol = polFair // the option's fifo is for the leaves
		} else {
			return p.fileErr(q, "policy fifo is for leaf queues only, and %s has children", q.name)
		}
	}
	if q.parent != nil && q.parent.pol == polFair && q.pol == polDRF {
		return p.fileErr(q, "policy drf under %s, whose policy is fair: a fair parent takes fair or fifo children (make the parent drf)", q.parent.name)
	}
	return nil
}

func (p *YARNFair) fileErr(q *queue, format string, args ...any) error {
	where := p.alloc.File
	if where == "" {
		where = "the default queues"
	} else if q.line > 0 {
		where = fmt.Sprintf("%s:%d", where, q.line)
	}
	return fmt.Errorf("%s.queues: %w: %s: %s", Name, ErrAllocation, where, fmt.Sprintf(format, args...))
}

// errSlots is Start's error in the slot model.
var errSlots = errors.New(Name + " schedules YARN containers: use the container model (--model yarn)")

// Start implements replay.Starter.
func (p *YARNFair) Start(v *replay.View) error {
	if v.Model() != replay.ContainerModel {
		return errSlots
	}
	p.v = v
	p.nres = len(v.ResourceNames())
	p.cluster = replay.Resources{}
	for n := int32(0); n < int32(v.Nodes()); n++ {
		c := v.NodeCapacity(n)
		for r := 0; r < p.nres; r++ {
			p.cluster[r] += c[r]
		}
	}
	p.drf = drf{cluster: p.cluster, n: p.nres}
	p.apps = make([]*app, v.Jobs())
	p.kills = make([][]warning, v.Nodes())
	p.lastUpdate, p.lastPreempt = 0, 0
	p.seen, p.nextUpdate, p.dirty = 0, 0, false
	p.sharesStale = true
	return nil
}

// AllocationIncrement implements replay.Incrementer: FairScheduler
// normalises a request to a multiple of the increment allocation, at
// least the minimum (SchedulerUtils.normalizeRequest with
// incrAllocation as its step).
func (p *YARNFair) AllocationIncrement() (int64, int64) { return p.o.incMB, p.o.incVcores }

// comparator is the comparator of policy k.
func (p *YARNFair) comparator(k policyKind) comparator {
	switch k {
	case polFIFO:
		return fifoCompare
	case polDRF:
		return p.drf.compare
	}
	return fairCompare
}

// queueFor returns the leaf queue of a job of the given pool: the leaf
// the pool names (with or without "root."), created under its parents
// if undeclared; root.default for an empty pool, or one that names a
// parent queue or would put a queue under a leaf.
func (p *YARNFair) queueFor(pool string) *queue {
	if q := p.byPool[pool]; q != nil {
		return q
	}
	q := p.place(pool)
	if q == nil {
		q = p.place("default")
	}
	p.byPool[pool] = q
	return q
}

func (p *YARNFair) place(pool string) *queue {
	if pool == "" {
		return nil
	}
	path, err := QueuePath(pool)
	if err != nil || path == "root" {
		return nil
	}
	if q := p.byPath[path]; q != nil {
		if !q.leaf {
			return nil
		}
		return q
	}
	parts := strings.Split(path, ".")
	// An existing leaf cannot become a parent.
	for i := 2; i < len(parts); i++ {
		if q := p.byPath[strings.Join(parts[:i], ".")]; q != nil && q.leaf {
			return nil
		}
	}
	parent := p.root
	for i := 2; i <= len(parts); i++ {
		name := strings.Join(parts[:i], ".")
		q := p.byPath[name]
		if q == nil {
			q = &queue{sched: sched{name: name, weight: 1, id: -1}, parent: parent, leaf: i == len(parts),
				pol: p.o.policy, depth: parent.depth + 1, amShare: p.o.amShare}
			if p.v != nil {
				q.lastMin, q.lastFair = p.v.Now(), p.v.Now()
			}
			if !q.leaf && q.pol == polFIFO {
				q.pol = polFair
			}
			if parent.pol == polFair && q.pol == polDRF {
				q.pol = polFair // cannot happen with one default policy; kept for safety
			}
			parent.children = append(parent.children, q)
			p.byPath[name] = q
			p.sharesStale = true
			if q.leaf {
				p.leaves = append(p.leaves, q)
			}
		}
		parent = q
	}
	return parent
}

// OnEvent implements replay.Scheduler. The policy's own launches and
// kills are accounted for when it makes them (assign.go, preempt.go).
func (p *YARNFair) OnEvent(ev replay.Event, v *replay.View) {
	p.sync(v)
	p.tick(v.Now(), false, v)
	p.dirty = true
	switch ev.Kind {
	case replay.JobArrived:
		p.arrive(ev.Job, v)
	case replay.TaskFinished:
		if a := p.apps[ev.Job]; a != nil {
			req := v.Job(ev.Job).Request(ev.Task.Kind)
			p.add(a, &req, -1, -1)
		}
	case replay.TaskLost:
		if a := p.apps[ev.Job]; a != nil {
			req := v.Job(ev.Job).Request(ev.Task.Kind)
			p.add(a, &req, -1, 0)
			p.refresh(a, v)
		}
	case replay.ReducesEligible:
		if a := p.apps[ev.Job]; a != nil {
			p.countReduces(a, v)
			p.refresh(a, v)
		}
	case replay.JobFinished:
		p.finish(ev.Job, v)
	}
}

// submit adds job j's app to its queue as the job is submitted: its
// ApplicationMaster's request is its demand (FSAppAttempt.updateDemand
// sums the outstanding requests), and it is runnable if max-running-apps
// allows.
func (p *YARNFair) submit(j int32, v *replay.View) {
	jv := v.Job(j)
	q := p.queueFor(jv.Pool())
	a := &app{sched: sched{weight: 1, start: jv.Submit(), id: j}, q: q, amPending: true}
	a.hk.start, a.hk.id, a.hk.hpos = a.start, a.id, -1
	p.apps[j] = a
	am := v.AMRequest()
	p.add(a, &am, 0, 1)
	if p.canRun(q) {
		p.setRunnable(a)
	} else {
		q.waiting = append(q.waiting, a)
	}
	p.dirty = true
}

// arrive starts job j's app once its ApplicationMaster runs: the AM
// counts in the app's and the leaf's AM usage, and the MapReduce AM asks
// for its maps.
func (p *YARNFair) arrive(j int32, v *replay.View) {
	a := p.apps[j]
	if a == nil || !a.amPending {
		return
	}
	jv := v.Job(j)
	a.amPending = false
	for q := a.q; q != nil; q = q.parent {
		q.amAsk--
	}
	am := v.AMRequest()
	for r := 0; r < p.nres; r++ {
		a.q.amUsage[r] += am[r]
	}
	p.add(a, &am, 1, 0)
	if n := jv.Tasks(replay.Map); n > 0 {
		req := jv.Request(replay.Map)
		p.add(a, &req, 0, int64(n))
	}
	if jv.ReducesEligible() {
		p.countReduces(a, v)
	}
	p.refresh(a, v)
}

// sync adds the jobs submitted since the policy last looked, each after
// the updates due before its submission (the engine tells the policy of
// a job only when its AM starts; View.Submitted lists them before).
func (p *YARNFair) sync(v *replay.View) {
	for n := v.Submitted(); p.seen < n; p.seen++ {
		j := int32(p.seen)
		p.tick(v.Job(j).Submit(), false, v)
		p.submit(j, v)
	}
}

// countReduces adds the job's reduces to its demand once they may launch
// (the MapReduce ApplicationMaster asks for them then).
func (p *YARNFair) countReduces(a *app, v *replay.View) {
	if a.reducesCounted {
		return
	}
	a.reducesCounted = true
	jv := v.Job(a.id)
	if n := jv.Pending(replay.Reduce); n > 0 {
		req := jv.Request(replay.Reduce)
		p.add(a, &req, 0, int64(n))
	}
}

// add changes app a's usage by du × req and its demand by dd × req, and
// its queues' with it. An app's place in its leaf's order moves with its
// usage alone (apps have no minimum share, so their demand is never
// compared), and only later for more usage (every policy's key grows
// with it), earlier for less.
func (p *YARNFair) add(a *app, req *replay.Resources, du, dd int64) {
	n := p.nres
	if du != 0 {
		a.dk.valid = false
		for r := 0; r < n; r++ {
			a.usage[r] += du * req[r]
		}
		if a.q.pol == polDRF {
			p.drf.descShares(&a.usage, &p.drf.cluster, 1, &a.hk.s)
		}
		switch {
		case a.hk.hpos < 0:
		case du > 0:
			a.q.heap.down(int(a.hk.hpos))
		default:
			a.q.heap.up(int(a.hk.hpos))
		}
	}
	if dd != 0 {
		for r := 0; r < n; r++ {
			a.demand[r] += dd * req[r]
		}
	}
	for q := a.q; q != nil; q = q.parent {
		if du != 0 {
			q.dk.valid = false
			for r := 0; r < n; r++ {
				q.usage[r] += du * req[r]
			}
		}
		if dd != 0 {
			for r := 0; r < n; r++ {
				q.raw[r] += dd * req[r]
			}
			q.demand = q.raw
			if q.hasMax {
				for r := 0; r < min(n, 2); r++ {
					q.demand[r] = min(q.raw[r], q.max[r])
				}
			}
		}
	}
}

// refresh recomputes whether app a has a container to ask for.
func (p *YARNFair) refresh(a *app, v *replay.View) {
	jv := v.Job(a.id)
	ready := a.runnable && !jv.Done() && (jv.Launchable(replay.Map) || jv.Launchable(replay.Reduce))
	if ready == a.ready {
		return
	}
	a.ready = ready
	d := -1
	if ready {
		d = 1
	}
	h := &a.q.heap
	if h.cmp == nil {
		h.cmp = p.comparator(a.q.pol)
		h.drf, h.n = a.q.pol == polDRF, p.nres
	}
	switch {
	case ready && !a.popped:
		h.push(a)
	case !ready && a.hk.hpos >= 0:
		h.remove(a)
	}
	for q := a.q; q != nil; q = q.parent {
		q.ready += d
	}
}

// canRun reports whether one more app may run in leaf q under the
// max-running-apps of q and its parents.
func (p *YARNFair) canRun(q *queue) bool {
	for ; q != nil; q = q.parent {
		if q.maxApps > 0 && q.runnable >= q.maxApps {
			return false
		}
	}
	return true
}

func (p *YARNFair) setRunnable(a *app) {
	a.runnable = true
	a.q.apps = append(a.q.apps, a)
	p.sharesStale = true
	for q := a.q; q != nil; q = q.parent {
		q.runnable++
		if a.amPending {
			q.amAsk++
		}
	}
}

// finish removes job j's app, gives back what it still holds (its
// ApplicationMaster) and lets waiting apps run.
func (p *YARNFair) finish(j int32, v *replay.View) {
	a := p.apps[j]
	if a == nil {
		return
	}
	a.runnable = false
	p.refresh(a, v)
	am := v.AMRequest()
	for r := 0; r < p.nres; r++ {
		a.q.amUsage[r] -= am[r]
	}
	rest := a.usage
	p.add(a, &rest, -1, 0)
	rest = a.demand
	p.add(a, &rest, 0, -1)
	q := a.q
	if i := indexOf(q.apps, a); i >= 0 {
		q.apps = append(q.apps[:i], q.apps[i+1:]...)
		p.sharesStale = true
		for x := q; x != nil; x = x.parent {
			x.runnable--
		}
		p.promote(v)
	} else if i := indexOf(q.waiting, a); i >= 0 {
		q.waiting = append(q.waiting[:i], q.waiting[i+1:]...)
	}
	p.apps[j] = nil
}

// promote lets the waiting apps that max-running-apps now allows run,
// the earliest first (MaxRunningAppsEnforcer).
func (p *YARNFair) promote(v *replay.View) {
	for {
		var best *app
		for _, q := range p.leaves {
			if len(q.waiting) > 0 && p.canRun(q) {
				if c := q.waiting[0]; best == nil || tie(&c.sched, &best.sched) < 0 {
					best = c
				}
			}
		}
		if best == nil {
			return
		}
		best.q.waiting = best.q.waiting[1:]
		p.setRunnable(best)
		p.refresh(best, v)
	}
}

func indexOf(s []*app, a *app) int {
	for i, x := range s {
		if x == a {
			return i
		}
	}
	return -1
}
