package yarncapacity

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"sojourn/replay"
	"sojourn/schedulers/internal/order"
	"sojourn/schedulers/internal/policy"
	"sojourn/schedulers/internal/victim"
	"sojourn/schedulers/queues"
)

// Capacity is YARN's CapacityScheduler on containers (see the package
// documentation).
type Capacity struct {
	o    options
	qs   *queues.Queues
	v    *replay.View
	calc calc

	root   *queue
	leaves []*queue                 // in the file's depth-first order
	byPool map[string]*queue        // a pool's leaf, nil for none
	byQ    map[*queues.Queue]*queue // the leaves' state
	apps   []app                    // by job index
	nodes  int                      // the cluster's nodes, which cap the locality delays
	seq    uint64                   // heartbeats so far: the current one's number
	err    error                    // a job whose pool has no queue, found at its submission
	seen   int                      // jobs submitted and taken in (sync)
	amAsks int                      // activated apps whose AM waits for a container
	// limGen counts the changes to the queues' usage and active users,
	// on which a leaf's cached limits (queue.lim*) depend.
	limGen uint64

	// Scratch of locations: the job that last saw each node and rack.
	stamp, rackStamp []uint32
	gen              uint32

	// Preemption (preempt.go).
	nextRound replay.Time
	marks     map[replay.TaskRef]mark // containers selected, since when
	kills     [][]victim.Victim       // per node, kills for its next heartbeat
	nKills    int
	trigger   bool // a monitoring round may find something to take back
	dirty     bool // trigger must be recomputed
	picked    []pick
	byUse     []int32 // scratch: a leaf's apps in preemption order
}

// options are the policy's settings.
type options struct {
	queuesPath   string
	userBy       string
	dominant     bool
	fair         bool
	nodeDelay    int // node-locality-delay
	rackDelay    int // rack-locality-additional-delay; -1: the locality wait factor
	multiple     bool
	maxAssign    int // per heartbeat; -1: no limit
	maxOffSwitch int
	preempt      bool
	interval     replay.Time
	maxWait      replay.Time
	perRound     float64
	natural      float64
	ignored      float64
	amPercent    float64 // maximum-am-resource-percent, for queues that set none
}

// queue is the state of one queue of the hierarchy.
type queue struct {
	q        *queues.Queue
	parent   *queue
	children []*queue
	kids     []*queue // scratch: the children in the order they are offered a node
	used     replay.Resources
	pending  replay.Resources // containers its apps ask for now (preemption only)
	tried    uint64           // the heartbeat in which it was found with nothing to assign
	served   float64          // scratch: served(q) while its parent's children are sorted

	// Leaves only.
	apps    []int32 // activated unfinished apps, in FIFO order
	ready   []int32 // apps with a task's container to ask for, in the ordering policy's order
	waiting []int32 // submitted apps not activated yet, in FIFO order (am.go)
	amAsk   []int32 // activated apps whose AM waits for a container, in FIFO order
	amUsed  replay.Resources
	nActive int     // activated unfinished apps
	amPct   float64 // maximum-am-resource-percent
	users   map[string]*user
	active  int // users with an app asking for a container (its AM's or a task's)
	cursor  int // apps before it in ready were passed over in heartbeat cursorSeq
	curSeq  uint64

	// withinLimits' figures for request limReq, valid while limAt is
	// the scheduler's limGen+1: the queues' maximum capacities allow it
	// (limQueues), and the user limit (limUser).
	limAt     uint64
	limReq    replay.Resources
	limQueues bool
	limUser   float64

	// The cluster's figures of its capacities (fixed at Start), in size
	// units: the maximum with withinLimits' slack, the guarantee rounded
	// up to the minimum allocation (userLimit).
	maxSize, guarUp float64

	// The preemption round's figures, in size units (calc.size).
	ideal, toPreempt, obtain float64
}

// user is one user of a leaf queue.
type user struct {
	used   replay.Resources
	amUsed replay.Resources // its activated apps' AMs
	asking int              // its apps asking for a container
}

// app is the state of one job (application).
type app struct {
	leaf      *queue
	user      *user
	live      bool // submitted and not finished
	activated bool // LeafQueue.activateApplications let it in
	amWait    bool // its ApplicationMaster has not started
	ready     bool // in leaf.ready
	asking    bool // counted in its user's asking
	used      replay.Resources
	pending   replay.Resources // counted in its queues' pending
	// missed counts the scheduling opportunities of its maps since its
	// last node-local or rack-local map, counted once per heartbeat
	// (missedSeq is the last one counted).
	missed    int
	missedSeq uint64
	// locations is the number of distinct resource names its maps ask
	// for: nodes, racks and "any" (rack-locality-additional-delay -1).
	locations int
	// run lists its containers in launch order, per kind (victims are
	// the youngest), with preemption only; entries of tasks no longer
	// running stay until the list is compacted.
	run [2][]runRef
}

type runRef struct {
	idx     int32
	attempt int32
}

var (
	_ replay.Scheduler       = (*Capacity)(nil)
	_ replay.Starter         = (*Capacity)(nil)
	_ replay.Preempter       = (*Capacity)(nil)
	_ replay.ResourceChooser = (*Capacity)(nil)
	_ replay.AMScheduler     = (*Capacity)(nil)
)

// Name is the policy's name in the registry and on the command line.
const Name = "yarn-capacity"

var optionList = []policy.Option{
	{Name: "queues", Default: "", Usage: "queues file: lines root.QUEUE.PROPERTY = VALUE (capacity, maximum-capacity, user-limit-factor, minimum-user-limit-percent, maximum-am-resource-percent; see package queues); empty: one leaf root.default with 100%"},
	{Name: "user-by", Default: "pool", Usage: "a job's user for the user limits: pool (the trace's pool column), name (the job name up to its first '-') or job (each job its own user)"},
	{Name: "resource-calculator", Default: "default", Usage: "yarn.scheduler.capacity.resource-calculator: default (DefaultResourceCalculator, memory only; vcores may be overcommitted) or dominant (DominantResourceCalculator: every resource, compared on dominant shares)"},
	{Name: "ordering-policy", Default: "fifo", Usage: "yarn.scheduler.capacity.QUEUE.ordering-policy, for every leaf: fifo (priority, then submit time) or fair (least memory used first)"},
	{Name: "node-locality-delay", Default: "40", Usage: "yarn.scheduler.capacity.node-locality-delay: missed scheduling opportunities (at most the cluster's nodes) before a map may go rack-local"},
	{Name: "rack-locality-additional-delay", Default: "-1", Usage: "yarn.scheduler.capacity.rack-locality-additional-delay: further missed opportunities before a map may go off-switch; -1: YARN's locality wait factor (pending maps × the share of the cluster its blocks' nodes and racks are)"},
	{Name: "multiple-assignments", Default: "true", Usage: "yarn.scheduler.capacity.per-node-heartbeat.multiple-assignments-enabled: more than one container per heartbeat"},
	{Name: "maximum-assignments", Default: "-1", Usage: "yarn.scheduler.capacity.per-node-heartbeat.maximum-container-assignments: containers per heartbeat (-1: no limit)"},
	{Name: "maximum-offswitch-assignments", Default: "1", Usage: "yarn.scheduler.capacity.per-node-heartbeat.maximum-offswitch-assignments: off-switch containers (reduces included) after which a heartbeat ends"},
	{Name: "maximum-am-resource-percent", Default: "0.1", Usage: "yarn.scheduler.capacity.maximum-am-resource-percent: fraction of a leaf's resources its ApplicationMasters may hold, for the leaves whose maximum-am-resource-percent the queues file leaves out"},
	{Name: "preemption", Default: "false", Usage: "yarn.resourcemanager.scheduler.monitor.enable with the ProportionalCapacityPreemptionPolicy: kill containers of queues above their ideal share"},
	{Name: "monitoring-interval", Default: "3", Usage: "yarn.resourcemanager.monitor.capacity.preemption.monitoring_interval: seconds between preemption rounds"},
	{Name: "max-wait-before-kill", Default: "15", Usage: "yarn.resourcemanager.monitor.capacity.preemption.max_wait_before_kill: seconds a container stays selected before it is killed"},
	{Name: "total-preemption-per-round", Default: "0.1", Usage: "yarn.resourcemanager.monitor.capacity.preemption.total_preemption_per_round: fraction of the cluster selected per round at most"},
	{Name: "natural-termination-factor", Default: "0.2", Usage: "yarn.resourcemanager.monitor.capacity.preemption.natural_termination_factor: fraction of a queue's excess selected per round"},
	{Name: "max-ignored-over-capacity", Default: "0.1", Usage: "yarn.resourcemanager.monitor.capacity.preemption.max_ignored_over_capacity: a queue is preempted only above (1 + this) × its guarantee"},
}

// Policy describes the policy to the registry.
var Policy = policy.Policy{
	Name:           Name,
	Summary:        "YARN CapacityScheduler on containers: hierarchical queues, user limits, delay scheduling by missed opportunities, memory or dominant-resource calculator, optional ProportionalCapacityPreemptionPolicy",
	Options:        optionList,
	MayStarve:      true, // a leaf serves its apps in FIFO order by default
	ContainersOnly: true,
	New:            func(s *policy.Settings) (replay.Scheduler, error) { return New(s) },
}

// New builds the policy from its settings (see the policy.Option list).
func New(s *policy.Settings) (*Capacity, error) {
	var o options
	o.queuesPath = s.String("queues")
	o.userBy = s.OneOf("user-by", "pool", "name", "job")
	o.dominant = s.OneOf("resource-calculator", "default", "dominant") == "dominant"
	o.fair = s.OneOf("ordering-policy", "fifo", "fair") == "fair"
	o.nodeDelay = s.Int("node-locality-delay")
	o.rackDelay = s.Int("rack-locality-additional-delay")
	o.multiple = s.Bool("multiple-assignments")
	o.maxAssign = s.Int("maximum-assignments")
	o.maxOffSwitch = s.Int("maximum-offswitch-assignments")
	o.preempt = s.Bool("preemption")
	interval := s.Float("monitoring-interval")
	wait := s.Float("max-wait-before-kill")
	o.perRound = s.Float("total-preemption-per-round")
	o.natural = s.Float("natural-termination-factor")
	o.ignored = s.Float("max-ignored-over-capacity")
	o.amPercent = s.Float("maximum-am-resource-percent")
	if err := s.Err(); err != nil {
		return nil, err
	}
	bad := func(opt string, v any, want string) error {
		return fmt.Errorf("%s.%s: %v; want %s", s.Policy, opt, v, want)
	}
	switch {
	case o.nodeDelay < 0:
		return nil, bad("node-locality-delay", o.nodeDelay, "missed opportunities >= 0")
	case o.rackDelay < -1:
		return nil, bad("rack-locality-additional-delay", o.rackDelay, "missed opportunities >= 0, or -1")
	case o.maxAssign == 0 || o.maxAssign < -1:
		return nil, bad("maximum-assignments", o.maxAssign, "containers >= 1, or -1 for no limit")
	case o.maxOffSwitch < 1:
		return nil, bad("maximum-offswitch-assignments", o.maxOffSwitch, "containers >= 1")
	case !(interval > 0):
		return nil, bad("monitoring-interval", interval, "seconds > 0")
	case !(wait >= 0):
		return nil, bad("max-wait-before-kill", wait, "seconds >= 0")
	case !(o.perRound > 0 && o.perRound <= 1):
		return nil, bad("total-preemption-per-round", o.perRound, "a fraction in (0, 1]")
	case !(o.natural > 0 && o.natural <= 1):
		return nil, bad("natural-termination-factor", o.natural, "a fraction in (0, 1]")
	case !(o.ignored >= 0):
		return nil, bad("max-ignored-over-capacity", o.ignored, "a fraction >= 0")
	case !(o.amPercent >= 0 && o.amPercent <= 1):
		return nil, bad("maximum-am-resource-percent", o.amPercent, "a fraction in [0, 1]")
	}
	o.interval, o.maxWait = replay.Seconds(interval), replay.Seconds(wait)
	if o.interval <= 0 {
		return nil, bad("monitoring-interval", interval, "at least a microsecond")
	}
	qs, err := queues.Open(o.queuesPath)
	if err != nil {
		return nil, fmt.Errorf("%s.queues: %w", s.Policy, err)
	}
	return &Capacity{o: o, qs: qs}, nil
}

// Name implements replay.Scheduler.
func (c *Capacity) Name() string { return Name }

// Counts implements replay.ResourceChooser: DefaultResourceCalculator
// counts memory alone, DominantResourceCalculator every resource.
func (c *Capacity) Counts(resource string) bool {
	return c.o.dominant || resource == replay.ResMemoryMB
}

// Start implements replay.Starter: it builds the queues' state and, when
// there is no leaf called default, refuses a trace with a job whose pool
// names no leaf (a streamed trace's later jobs are checked as they
// arrive).
func (c *Capacity) Start(v *replay.View) error {
	if v.Model() != replay.ContainerModel {
		return fmt.Errorf("%s schedules YARN containers: run it in the container model (yarn), not with %s", Name, v.Model())
	}
	c.v = v
	c.nodes = v.Nodes()
	var cluster replay.Resources
	for n := range int32(v.Nodes()) {
		capa := v.NodeCapacity(n)
		for r := range cluster {
			cluster[r] += capa[r]
		}
	}
	cfg := v.Config()
	c.calc = newCalc(c.o.dominant, cluster, len(v.ResourceNames()), replay.Resources{cfg.MinAllocationMB, cfg.MinAllocationVcores})
	c.byQ = map[*queues.Queue]*queue{}
	c.root = c.build(c.qs.Root, nil)
	for _, l := range c.qs.Leaves {
		c.leaves = append(c.leaves, c.byQ[l])
	}
	c.byPool = map[string]*queue{}
	c.apps = make([]app, v.Jobs())
	c.kills = make([][]victim.Victim, v.Nodes())
	c.marks = map[replay.TaskRef]mark{}
	c.nextRound = 0 // rounds at every multiple of the interval
	for j := range int32(v.Jobs()) {
		jv := v.Job(j)
		if jv.Trace() == nil {
			break // streamed, not read yet
		}
		if c.leafOf(jv.Pool()) == nil {
			return c.qs.NoLeaf(jv.Index(), jv.Trace().Name, jv.Pool())
		}
	}
	return nil
}

func (c *Capacity) build(q *queues.Queue, parent *queue) *queue {
	n := &queue{q: q, parent: parent}
	n.maxSize = q.AbsMaxCapacity*c.calc.total + eps
	n.guarUp = roundUp(q.AbsCapacity*c.calc.total, c.calc.minAlloc)
	if q.Leaf() {
		n.users = map[string]*user{}
		n.amPct = c.o.amPercent
		if q.MaxAMResourcePercent >= 0 {
			n.amPct = q.MaxAMResourcePercent
		}
		c.byQ[q] = n
	}
	for _, ch := range q.Children {
		n.children = append(n.children, c.build(ch, n))
	}
	return n
}

// leafOf is the leaf a job of the given pool runs in, nil for none.
func (c *Capacity) leafOf(pool string) *queue {
	l, ok := c.byPool[pool]
	if !ok {
		if q, found := c.qs.Queue(pool); found {
			l = c.byQ[q]
		}
		c.byPool[pool] = l
	}
	return l
}

// userOf is a job's user for the user limits.
func (c *Capacity) userOf(jv replay.JobView) string {
	switch c.o.userBy {
	case "name":
		name, _, _ := strings.Cut(jv.Trace().Name, "-")
		return name
	case "job":
		return fmt.Sprint("job ", jv.Index())
	}
	return jv.Pool()
}

// OnEvent implements replay.Scheduler. The policy's own launches and
// kills are accounted when it makes them; their events are ignored.
func (c *Capacity) OnEvent(ev replay.Event, v *replay.View) {
	c.v = v
	c.sync()
	switch ev.Kind {
	case replay.JobArrived:
		c.admit(ev.Job)
	case replay.TaskFinished, replay.TaskLost:
		if a := &c.apps[ev.Job]; a.live {
			c.charge(ev.Job, v.Job(ev.Job).Request(ev.Task.Kind), -1)
			c.compact(ev.Job, ev.Task.Kind)
			c.refresh(ev.Job)
		}
	case replay.ReducesEligible:
		if c.apps[ev.Job].live {
			c.refresh(ev.Job)
		}
	case replay.JobFinished:
		c.finish(ev.Job)
	case replay.NodeFailed:
		c.nKills -= len(c.kills[ev.Node])
		c.kills[ev.Node] = c.kills[ev.Node][:0]
	}
}

// admit charges the ApplicationMaster of job j, which just started, to
// its app, user and queues.
func (c *Capacity) admit(j int32) {
	a := &c.apps[j]
	if !a.live || !a.amWait {
		return
	}
	a.amWait = false
	a.leaf.amAsk = order.Remove(a.leaf.amAsk, j)
	c.amAsks--
	if c.o.rackDelay < 0 {
		a.locations = c.locations(c.v.Job(j))
	}
	c.charge(j, c.v.AMRequest(), +1)
	c.refresh(j)
}

// finish takes finished job j out of its queue, releases its AM, and
// activates the apps its leaf may now let in
// (LeafQueue.removeApplicationAttempt).
func (c *Capacity) finish(j int32) {
	a := &c.apps[j]
	if !a.live {
		return
	}
	a.live = false
	c.refresh(j) // out of ready, its pending gone
	c.charge(j, c.v.AMRequest(), -1)
	l := a.leaf
	l.apps = order.Remove(l.apps, j)
	a.run = [2][]runRef{}
	am := c.v.AMRequest()
	for i := range c.calc.nres {
		l.amUsed[i] -= am[i]
		a.user.amUsed[i] -= am[i]
	}
	l.nActive--
	c.activate(l)
}

// locations counts the resource names job jv's maps ask for, as the
// MapReduce ApplicationMaster makes its requests: each node holding a
// block, each rack of those, and "any". The AM lowers a name's count to
// zero rather than withdrawing it, so the scheduler keeps seeing every
// name the job ever asked for: the count is fixed at the job's start.
func (c *Capacity) locations(jv replay.JobView) int {
	reps := jv.Replicas()
	if len(reps) == 0 {
		return 1
	}
	if c.stamp == nil {
		c.stamp = make([]uint32, c.nodes)
		c.rackStamp = make([]uint32, c.nodes) // racks are at most the nodes
	}
	c.gen++
	n := 1
	for _, node := range reps {
		if c.stamp[node] != c.gen {
			c.stamp[node] = c.gen
			n++
		}
		if r := c.v.Rack(node); c.rackStamp[r] != c.gen {
			c.rackStamp[r] = c.gen
			n++
		}
	}
	return n
}

// charge adds d containers r to app j's usage and to its user's and
// queues'. In a fair-ordered leaf the usage is the app's key: it leaves
// the ready list while the key changes.
func (c *Capacity) charge(j int32, r replay.Resources, d int64) {
	a := &c.apps[j]
	resort := c.o.fair && a.ready
	if resort {
		c.unlist(a.leaf, j)
	}
	if c.calc.nres == 2 {
		// Memory and vcores, as in the loop below, unrolled.
		x0, x1 := d*r[0], d*r[1]
		a.used[0] += x0
		a.used[1] += x1
		u := a.user
		u.used[0] += x0
		u.used[1] += x1
		for q := a.leaf; q != nil; q = q.parent {
			q.used[0] += x0
			q.used[1] += x1
		}
	} else {
		for i := range c.calc.nres {
			x := d * r[i]
			a.used[i] += x
			a.user.used[i] += x
			for q := a.leaf; q != nil; q = q.parent {
				q.used[i] += x
			}
		}
	}
	if resort {
		c.list(a.leaf, j)
	}
	c.dirty = true
	c.limGen++
}

// refresh brings app j's place in its leaf's ready list, its user's and
// leaf's active counts and its pending containers up to date with the
// View. An app asks for a container from its submission: its AM's until
// the AM starts (its user is then an active user), its tasks' after.
func (c *Capacity) refresh(j int32) {
	a := &c.apps[j]
	jv := c.v.Job(j)
	want := a.live && !a.amWait && (jv.Launchable(replay.Map) || jv.Launchable(replay.Reduce))
	if want != a.ready {
		a.ready = want
		if want {
			c.list(a.leaf, j)
		} else {
			c.unlist(a.leaf, j)
		}
	}
	if asking := want || a.live && a.amWait; asking != a.asking {
		a.asking = asking
		if asking {
			if a.user.asking++; a.user.asking == 1 {
				a.leaf.active++
				c.limGen++
			}
		} else if a.user.asking--; a.user.asking == 0 {
			a.leaf.active--
			c.limGen++
		}
	}
	if !c.o.preempt {
		return
	}
	// The preemption policy's pending resources are the activated apps'
	// (LeafQueue.getTotalPendingResourcesConsideringUserLimit walks
	// getApplications()): an activated app's AM, then its tasks.
	var p replay.Resources
	if a.live && a.amWait && a.activated {
		p = c.v.AMRequest()
	} else if a.live && !a.amWait {
		for k := replay.Map; k <= replay.Reduce; k++ {
			if n := int64(jv.Pending(k)); n > 0 && (k == replay.Map || jv.ReducesEligible()) {
				req := jv.Request(k)
				for i := range c.calc.nres {
					p[i] += n * req[i]
				}
			}
		}
	}
	if p != a.pending {
		for q := a.leaf; q != nil; q = q.parent {
			for i := range c.calc.nres {
				q.pending[i] += p[i] - a.pending[i]
			}
		}
		a.pending = p
		c.dirty = true
	}
}

// before is a leaf's ordering policy: FIFO (priority, submit time, trace
// order), or FairOrderingPolicy's least memory used first, ties in FIFO
// order.
func (c *Capacity) before(x, y int32) int {
	if c.o.fair {
		if d := cmp.Compare(c.apps[x].used[0], c.apps[y].used[0]); d != 0 {
			return d
		}
	}
	return order.FIFO(c.v, x, y)
}

func (c *Capacity) list(q *queue, j int32) {
	i, _ := slices.BinarySearchFunc(q.ready, j, c.before)
	q.ready = slices.Insert(q.ready, i, j)
}

func (c *Capacity) unlist(q *queue, j int32) {
	if i, ok := slices.BinarySearchFunc(q.ready, j, c.before); ok {
		q.ready = slices.Delete(q.ready, i, i+1)
	}
}

// compact drops from app j's list of kind-k containers those that no
// longer run, once they are half of it.
func (c *Capacity) compact(j int32, k replay.TaskKind) {
	a := &c.apps[j]
	run := a.run[k]
	if len(run) < 16 || len(run) < 2*c.v.Job(j).Running(k) {
		return
	}
	out := run[:0]
	for _, r := range run {
		if c.running(j, k, r) {
			out = append(out, r)
		}
	}
	a.run[k] = out
}

// running reports whether r is a running attempt of job j's task of kind k.
func (c *Capacity) running(j int32, k replay.TaskKind, r runRef) bool {
	tv := c.v.Task(replay.TaskRef{Job: j, Kind: k, Index: r.idx})
	return tv.Running() && tv.Attempts() == int(r.attempt)
}

// served is queue q's used capacity relative to its guarantee; a queue
// with no guarantee comes after every other.
func (c *Capacity) served(q *queue) float64 {
	g := q.q.AbsCapacity * c.calc.total
	if g <= 0 {
		return math.Inf(1)
	}
	return c.calc.size(q.used) / g
}
