package capacity

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"sojourn/replay"
	"sojourn/schedulers/internal/delay"
	"sojourn/schedulers/internal/order"
	"sojourn/schedulers/internal/policy"
	"sojourn/schedulers/internal/victim"
	"sojourn/schedulers/queues"
)

// Capacity is YARN's CapacityScheduler mapped onto Hadoop 1.x slots: the
// map slots and the reduce slots are each shared by a hierarchy of queues
// (see queues.Parse) with the same percentages.
//
// A job runs in the leaf queue its pool names (by leaf name or full path);
// a pool that names no leaf goes to the leaf called default, and with no
// such leaf the run is refused at its start. A job's user is its pool
// (option user-by; the traces have no user column), its name up to the
// first '-', or the job itself.
//
// A free slot goes to the most under-served queue: from the root down,
// children are tried in increasing order of used/guaranteed slots (the
// guarantee is the queue's absolute capacity times the cluster's slots;
// ties by name), skipping a child that would exceed its maximum capacity.
// In the leaf, jobs are tried by priority, then submit time; a job whose
// user is at the user limit is skipped. The user limit follows YARN's
// LeafQueue.computeUserLimit: with C the queue's guarantee (at least one
// slot), or its use plus one when it is at or above it, and n the users
// with tasks waiting, a user may hold max(⌈C/n⌉, ⌈C × minimum-user-limit-
// percent/100⌉) slots, and never more than ⌈guarantee × user-limit-factor⌉.
// Idle guarantee is thus lent elastically up to maximum-capacity (for a
// single user, up to user-limit-factor × capacity). Maps launch at the best
// locality the node offers, without delay scheduling.
//
// With preemption, every preemption-interval a leaf below min(guarantee,
// used + tasks waiting) is starved. Once it has been so for
// preemption-timeout, and as far as free slots do not cover it, tasks of
// leaves above their guarantee are killed (the most over-served leaf
// first, never below its guarantee; its latest job's youngest tasks
// first), at the victims' trackers' next heartbeats, as YARN's
// ProportionalCapacityPreemptionPolicy does after max_wait_before_kill.
// The freed slots then go to the most under-served queue.
type Capacity struct {
	o    capacityOptions
	qs   *queues.Queues
	v    *replay.View
	root *capNode

	jobs  []capJob
	epoch uint32

	nextCheck replay.Time
	kills     [][]victim.Victim // per node, kills for its next heartbeat
	nKills    int
	starved   bool // some leaf was starved at the last check
	dirty     bool // starved must be recomputed

	leaves map[*queues.Queue]*capNode
	err    error // a job submitted to no queue
}

type capacityOptions struct {
	queuesPath string
	userBy     string
	preempt    bool
	timeout    float64
	interval   float64
}

type capNode struct {
	q        *queues.Queue
	parent   *capNode
	children []*capNode
	kids     []*capNode // pick's scratch
	used     [2]int
	tried    [2]uint32
	// leaves only
	apps      []int32 // unfinished jobs, by priority then submit time
	users     map[string]*capUser
	starvedAt [2]replay.Time // since when it is starved; -1 if not
	spare     [2]int         // scratch of the preemption check
	// The apps with a task of each kind to launch, in the order of apps,
	// and how many users they belong to (ready.go).
	ready  [2][]int32
	active [2]int
}

type capUser struct {
	used  [2]int
	ready [2]int // its jobs in the leaf's ready lists
}

type capJob struct {
	leaf *capNode
	user *capUser
	in   bool    // in its leaf's apps
	can  [2]bool // in its leaf's ready lists
}

var (
	_ replay.Scheduler = (*Capacity)(nil)
	_ replay.Starter   = (*Capacity)(nil)
	_ replay.Preempter = (*Capacity)(nil)
)

var capacityOptionList = []policy.Option{
	{Name: "queues", Default: "", Usage: "queues file: lines root.QUEUE.PROPERTY = VALUE (capacity, maximum-capacity, user-limit-factor, minimum-user-limit-percent); empty: one leaf root.default with 100%"},
	{Name: "user-by", Default: "pool", Usage: "a job's user: pool (the trace's pool column), name (the job name up to its first '-') or job (each job its own user)"},
	{Name: "preemption", Default: "false", Usage: "kill tasks of queues above their guarantee for queues starved of it for preemption-timeout"},
	{Name: "preemption-timeout", Default: "15", Usage: "seconds a queue stays below its guarantee before tasks are killed for it (YARN's max_wait_before_kill)"},
	{Name: "preemption-interval", Default: "3", Usage: "seconds between starvation checks (YARN's monitoring interval)"},
}

// Name is the policy's name in the registry and on the command line.
const Name = "capacity"

// Policy describes the policy to the registry.
var Policy = policy.Policy{
	Name:      Name,
	Summary:   "YARN CapacityScheduler on slots: hierarchical queues with guaranteed and maximum capacities, user limits, optional kill preemption",
	Options:   capacityOptionList,
	MayStarve: true, // a queue serves its jobs in FIFO order
	New:       func(s *policy.Settings) (replay.Scheduler, error) { return New(s) },
}

// New builds the CapacityScheduler from its settings (see the
// policy.Option list).
func New(s *policy.Settings) (*Capacity, error) {
	var o capacityOptions
	o.queuesPath = s.String("queues")
	o.userBy = s.OneOf("user-by", "pool", "name", "job")
	o.preempt = s.Bool("preemption")
	o.timeout = s.Float("preemption-timeout")
	o.interval = s.Float("preemption-interval")
	if err := s.Err(); err != nil {
		return nil, err
	}
	switch {
	case !(o.timeout >= 0) || math.IsInf(o.timeout, 0):
		return nil, fmt.Errorf("%s.preemption-timeout: %v; want seconds >= 0", s.Policy, o.timeout)
	case !(o.interval > 0) || math.IsInf(o.interval, 0):
		return nil, fmt.Errorf("%s.preemption-interval: %v; want seconds > 0", s.Policy, o.interval)
	}
	qs, err := queues.Open(o.queuesPath)
	if err != nil {
		return nil, fmt.Errorf("%s.queues: %w", s.Policy, err)
	}
	return &Capacity{o: o, qs: qs}, nil
}

// Name implements replay.Scheduler.
func (c *Capacity) Name() string { return Name }

// Start implements replay.Starter: it builds the queues' state and places
// every job of the trace in its leaf, refusing a job whose pool names no
// leaf when there is no default leaf.
func (c *Capacity) Start(v *replay.View) error {
	c.v = v
	c.root = c.build(c.qs.Root, nil)
	c.leaves = map[*queues.Queue]*capNode{}
	c.walk(c.root, func(n *capNode) {
		if n.q.Leaf() {
			c.leaves[n.q] = n
		}
	})
	c.jobs = make([]capJob, v.Jobs())
	c.kills = make([][]victim.Victim, v.Nodes())
	return nil
}

// admit puts arriving job j in its leaf queue and user. This waits for the
// arrival because a job's pool and name are known only once it has been
// read (a replay streams its trace).
func (c *Capacity) admit(v *replay.View, j int32) error {
	jv := v.Job(j)
	q, ok := c.qs.Queue(jv.Pool())
	if !ok {
		return c.qs.NoLeaf(j, jv.Trace().Name, jv.Pool())
	}
	leaf := c.leaves[q]
	user := c.userOf(jv)
	u := leaf.users[user]
	if u == nil {
		u = &capUser{}
		leaf.users[user] = u
	}
	c.jobs[j].leaf, c.jobs[j].user = leaf, u
	return nil
}

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

func (c *Capacity) build(q *queues.Queue, parent *capNode) *capNode {
	n := &capNode{q: q, parent: parent, starvedAt: [2]replay.Time{-1, -1}}
	if q.Leaf() {
		n.users = map[string]*capUser{}
	}
	for _, ch := range q.Children {
		n.children = append(n.children, c.build(ch, n))
	}
	return n
}

func (c *Capacity) walk(n *capNode, f func(*capNode)) {
	f(n)
	for _, ch := range n.children {
		c.walk(ch, f)
	}
}

// OnEvent implements replay.Scheduler. Launches and kills are counted when
// the policy makes them; their events are ignored.
func (c *Capacity) OnEvent(ev replay.Event, v *replay.View) {
	c.v = v
	c.dirty = true
	switch ev.Kind {
	case replay.JobArrived:
		if err := c.admit(v, ev.Job); err != nil {
			c.err = cmp.Or(c.err, err)
			return
		}
		leaf := c.jobs[ev.Job].leaf
		i, _ := slices.BinarySearchFunc(leaf.apps, ev.Job, func(a, b int32) int { return order.FIFO(v, a, b) })
		leaf.apps = slices.Insert(leaf.apps, i, ev.Job)
		c.jobs[ev.Job].in = true
	case replay.TaskFinished, replay.TaskLost:
		c.account(ev.Task, -1)
	case replay.JobFinished:
		leaf := c.jobs[ev.Job].leaf
		leaf.apps = order.Remove(leaf.apps, ev.Job)
		c.jobs[ev.Job].in = false
	case replay.NodeFailed:
		c.nKills -= len(c.kills[ev.Node])
		c.kills[ev.Node] = c.kills[ev.Node][:0]
	}
	if ev.Kind != replay.NodeFailed && ev.Kind != replay.NodeRecovered {
		c.refresh(v, ev.Job)
	}
}

// account adds d running tasks of t's kind to its job's user and queues.
func (c *Capacity) account(t replay.TaskRef, d int) {
	jb := &c.jobs[t.Job]
	jb.user.used[t.Kind] += d
	for n := jb.leaf; n != nil; n = n.parent {
		n.used[t.Kind] += d
	}
}

// guarantee is queue n's guaranteed slots of kind k.
func (c *Capacity) guarantee(n *capNode, k replay.TaskKind) float64 {
	return n.q.AbsCapacity * float64(c.v.Slots(k))
}

// served is the queue's used/guaranteed ratio; a queue with no guarantee
// comes after every other.
func (c *Capacity) served(n *capNode, k replay.TaskKind) float64 {
	g := c.guarantee(n, k)
	if g <= 0 {
		return math.Inf(1)
	}
	return float64(n.used[k]) / g
}

// OnHeartbeat implements replay.Scheduler.
func (c *Capacity) OnHeartbeat(hb *replay.Heartbeat) error {
	if c.err != nil {
		return c.err // from a job's arrival, which cannot return it
	}
	c.v = hb.View
	c.dirty = true
	if c.o.preempt && hb.Now() >= c.nextCheck {
		c.nextCheck = hb.Now() + replay.Seconds(c.o.interval)
		c.check(hb.View)
	}
	if err := c.killHere(hb); err != nil {
		return err
	}
	for k := replay.Map; k <= replay.Reduce; k++ {
		c.epoch++
		for hb.Free(k) > 0 && hb.Demand(k) > 0 {
			leaf := c.pick(c.root, k)
			if leaf == nil {
				break
			}
			ok, err := c.assignInLeaf(hb, leaf, k)
			if err != nil {
				return err
			}
			if !ok {
				leaf.tried[k] = c.epoch
			}
		}
	}
	return nil
}

// pick descends from n to the most under-served leaf that has not been
// found empty during this heartbeat and whose queues all stay within their
// maximum capacity with one more task.
func (c *Capacity) pick(n *capNode, k replay.TaskKind) *capNode {
	if n.tried[k] == c.epoch || float64(n.used[k]+1) > n.q.AbsMaxCapacity*float64(c.v.Slots(k))+1e-9 {
		return nil
	}
	if n.q.Leaf() {
		return n
	}
	// Sorted in the node's own buffer: a clone per pick was a tenth of the
	// policy's time.
	n.kids = append(n.kids[:0], n.children...)
	kids := n.kids
	slices.SortStableFunc(kids, func(a, b *capNode) int {
		return cmp.Or(cmp.Compare(c.served(a, k), c.served(b, k)), cmp.Compare(a.q.Name, b.q.Name))
	})
	for _, ch := range kids {
		if l := c.pick(ch, k); l != nil {
			return l
		}
	}
	n.tried[k] = c.epoch
	return nil
}

// userLimit is YARN's LeafQueue.computeUserLimit for kind k in slots.
func (c *Capacity) userLimit(n *capNode, k replay.TaskKind) int {
	g := c.guarantee(n, k)
	queueCap := max(math.Ceil(g-1e-9), 1)
	current := queueCap
	if float64(n.used[k]) >= queueCap {
		current = float64(n.used[k] + 1)
	}
	// The users with tasks waiting, counted as the ready lists change.
	active := n.active[k]
	limit := math.Max(math.Ceil(current/float64(max(active, 1))), math.Ceil(current*n.q.MinUserLimitPercent/100-1e-9))
	return int(math.Min(limit, math.Ceil(queueCap*n.q.UserLimitFactor-1e-9)))
}

// assignInLeaf launches one task of kind k from the first job of the leaf,
// by priority and submit time, whose user is below the user limit. Only
// the jobs with a task to launch (the ready list) are looked at.
func (c *Capacity) assignInLeaf(hb *replay.Heartbeat, n *capNode, k replay.TaskKind) (bool, error) {
	limit := -1
	for _, j := range n.ready[k] {
		jv := hb.Job(j)
		if !jv.Launchable(k) {
			continue
		}
		if limit < 0 {
			limit = c.userLimit(n, k)
		}
		if c.jobs[j].user.used[k]+1 > limit || !hb.Fits(j, k) {
			continue
		}
		idx, ok := delay.Nearest(hb, j, k)
		if !ok {
			continue
		}
		t := replay.TaskRef{Job: j, Kind: k, Index: idx}
		if err := hb.Launch(t); err != nil {
			return false, err
		}
		c.account(t, +1)
		c.refresh(hb.View, j) // its event comes after the heartbeat
		return true, nil
	}
	return false, nil
}
