package fair

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"sojourn/replay"
	"sojourn/schedulers/fairshare"
	"sojourn/schedulers/internal/delay"
	"sojourn/schedulers/internal/order"
	"sojourn/schedulers/internal/policy"
	"sojourn/schedulers/internal/victim"
	"sojourn/schedulers/pools"
)

// Fair is the Hadoop 1.x Fair Scheduler (contrib/fairscheduler, the
// pools/JobSchedulable version with delay scheduling and preemption).
//
// Jobs go to pools: the pool named by the trace's pool column (Hadoop's
// default pool per user), created on demand with the defaults of the pools
// file (option pools; weight 1, no minimum share, fair mode without one),
// or all to one pool (option pool-by = single, the HFSP paper's setup).
// A pool's jobs beyond its maxRunningJobs, or beyond its user's limit
// (the user being the trace's pool column), are not runnable; runnability
// is granted in FIFO order (priority, submit time, trace order).
//
// Every update (at most every update-interval of simulated time, and at
// once after a job arrives or finishes) recomputes runnability, demands
// (a runnable job's unfinished tasks; reduces only past slow-start; a
// pool's capped at its maxMaps/maxReduces), fair shares (fairshare.FairShares across
// pools over the cluster's slots, then over the jobs of each fair-mode pool
// with the pool's share; fifo-mode pools give their jobs 0) and the
// pools' preemption clocks. Running counts are always current.
//
// On a heartbeat, while a slot can be filled (assignmultiple; otherwise one
// task), the kind with fewer tasks running on the tracker goes first (maps
// on ties); the pool that FairShareComparator puts first gets the slot (a
// pool below min(minShare, demand) first, by running/minShare; otherwise by
// running/weight; ties by name), and inside it the first job, in FIFO
// order or by running/weight (weight = priority factor, times
// log2(1+demand) with size-based-weight), that has a task to launch. The
// CapBasedLoadManager (option load-cap) lets a tracker run at most
// ceil(slots × min(1, demand/cluster slots)) tasks of a kind.
//
// Maps use delay scheduling: a job whose last map was node-local may launch
// only node-local maps until it has waited D, rack-local ones until 2D,
// then any; after a rack-local map, any after D. Launching a map resets the
// wait and sets the level to that map's locality. As in Hadoop, a job
// waits only while skipped: a job passed over at a heartbeat is credited
// the time to the next heartbeat, at most the interval divided by the
// trackers up (the spacing of Hadoop's staggered heartbeats: in Hadoop the
// next heartbeat, busy or not, clears the flag, whereas the engine's busy
// trackers are silent). Jobs of a pool starved past a preemption timeout
// may launch anywhere. (Hadoop updates the pools' starvation clocks only
// with preemption on, so with it off a finite timeout lifts delay
// scheduling for good once it has passed since the pool was made,
// MAPREDUCE-4986; here the clocks always run.)
//
// With preemption, every preemption-interval a pool below min(minShare,
// demand) for longer than its minSharePreemptionTimeout may claim up to
// that, and one below ⌊min(fairShare/2, demand)⌋ for longer than
// fairSharePreemptionTimeout up to min(fairShare, demand); the running
// tasks of pools above their fair share are killed, youngest first, never
// taking a pool below its share. A kill is carried out at the victim's
// tracker's next heartbeat, as Hadoop's kill actions are, and its slot is
// refilled at the heartbeat after.
type Fair struct {
	o     fairOptions
	pools *pools.Pools
	v     *replay.View

	byName map[string]*fairPool
	live   []*fairPool // pools with unfinished jobs
	jobs   []fairJob   // by trace index
	order  []int32     // arrived, unfinished jobs in FIFO order
	users  map[string]*fairUser

	delay       replay.Time // locality delay D
	fairTimeout replay.Time // fair-share preemption timeout
	canPreempt  bool        // preemption on and some timeout finite

	dirty       bool
	nextUpdate  replay.Time
	lastPreempt replay.Time
	epoch       uint32            // heartbeat counter, for per-heartbeat marks
	clock       delay.Clock       // delay scheduling: the jobs skipped at the last heartbeat
	demand      [2]int            // Σ pool demand at the last update
	updates     uint32            // counts the updates (fairJob.snapAt)
	running     [2]int            // tasks running in the cluster
	kills       [][]victim.Victim // per node, kills for its next heartbeat
	nKills      int
	scratch     []fairshare.Schedulable
	shares      []float64
	victims     []victim.Victim
	jobSharesOK bool // job shares computed since the last update
}

type fairOptions struct {
	poolsPath      string
	single         bool
	delay          float64
	update         float64
	preempt        bool
	preemptEvery   float64
	assignMultiple bool
	sizeWeight     bool
	loadCap        bool
}

type fairUser struct{ max, count int }

type fairPool struct {
	cfg      pools.PoolConfig
	live     bool
	jobs     []int32    // unfinished jobs in arrival order
	list     [2][]int32 // runnable jobs in the pool's scheduling order
	minShare [2]int
	maxSlots [2]int
	running  [2]int
	demand   [2]int // at the last update
	share    [2]float64
	// liveDemand is the sum of its jobs' demands now, kept as they
	// change, so that an update does not walk every job.
	liveDemand [2]int
	minTimeout replay.Time
	lastAtMin  [2]replay.Time // last update at which running ≥ min(minShare, demand)
	lastAtHalf [2]replay.Time // last update at which running ≥ ⌊min(share/2, demand)⌋
	tried      [2]uint32      // epoch at which it had nothing to launch
	count      int            // scratch: runnable jobs
	left       int            // scratch: running tasks left by preemption
}

type fairJob struct {
	pool     *fairPool
	user     *fairUser
	runnable bool
	weight   [2]float64
	// demand is jobDemand now, kept at each of the job's events and
	// each change of its runnability; snap holds what it was at the last
	// update, if it has changed since (snapAt is that update's number).
	demand [2]int
	snap   [2]int
	snapAt uint32
	share  [2]float64
	key    [2]float64 // running/weight, the fair-mode order's key
	// listed says whether the job is in pool.list, at the key listedKey
	// (its key when it was last placed there).
	listed    [2]bool
	listedKey [2]float64
	submit    replay.Time
	prio      int8
	wait      delay.Wait // delay scheduling of its maps
	tried     [2]uint32  // epoch at which it had nothing to launch
}

var (
	_ replay.Scheduler = (*Fair)(nil)
	_ replay.Starter   = (*Fair)(nil)
	_ replay.Preempter = (*Fair)(nil)
)

var fairOptionList = []policy.Option{
	{Name: "pools", Default: "", Usage: "pools file (Hadoop XML allocation file, or text: pool mode weight minMaps minReduces); empty: every pool has the defaults"},
	{Name: "pool-by", Default: "pool", Usage: "pool of a job: pool (the trace's pool column, Hadoop's pool per user) or single (one pool for all jobs)"},
	{Name: "locality-delay", Default: "-1", Usage: "delay scheduling wait D in seconds (node-local until D, rack-local until 2D); -1: min(15, 1.5 × heartbeat interval); 0: off"},
	{Name: "update-interval", Default: "0.5", Usage: "seconds between recomputations of demands and fair shares (also done at each job arrival and end)"},
	{Name: "preemption", Default: "false", Usage: "kill tasks of pools over their fair share for pools starved past their timeouts (set in the pools file)"},
	{Name: "preemption-interval", Default: "15", Usage: "seconds between preemption checks"},
	{Name: "assign-multiple", Default: "true", Usage: "fill every free slot of a tracker per heartbeat (false: one task per heartbeat)"},
	{Name: "size-based-weight", Default: "false", Usage: "weight jobs by log2(1 + demand) times their priority factor"},
	{Name: "load-cap", Default: "true", Usage: "CapBasedLoadManager: a tracker runs at most ceil(slots × min(1, demand / cluster slots)) tasks of a kind"},
}

// Name is the policy's name in the registry and on the command line.
const Name = "fair"

// Policy describes the policy to the registry.
var Policy = policy.Policy{
	Name:    Name,
	Summary: "Hadoop 1.x Fair Scheduler: pools with weights and min shares, fair sharing, delay scheduling, optional preemption",
	Options: fairOptionList,
	New:     func(s *policy.Settings) (replay.Scheduler, error) { return New(s) },
}

// New builds the Fair Scheduler from its settings (see the policy.Option list).
func New(s *policy.Settings) (*Fair, error) {
	var o fairOptions
	var by string
	o.poolsPath = s.String("pools")
	by = s.OneOf("pool-by", "pool", "single")
	o.delay = s.Float("locality-delay")
	o.update = s.Float("update-interval")
	o.preempt = s.Bool("preemption")
	o.preemptEvery = s.Float("preemption-interval")
	o.assignMultiple = s.Bool("assign-multiple")
	o.sizeWeight = s.Bool("size-based-weight")
	o.loadCap = s.Bool("load-cap")
	if err := s.Err(); err != nil {
		return nil, err
	}
	switch {
	case !(o.delay == -1 || o.delay >= 0) || math.IsInf(o.delay, 0):
		return nil, fmt.Errorf("%s.locality-delay: %v; want seconds >= 0, or -1 for auto", s.Policy, o.delay)
	case !(o.update >= 0) || math.IsInf(o.update, 0):
		return nil, fmt.Errorf("%s.update-interval: %v; want seconds >= 0", s.Policy, o.update)
	case !(o.preemptEvery >= 0) || math.IsInf(o.preemptEvery, 0):
		return nil, fmt.Errorf("%s.preemption-interval: %v; want seconds >= 0", s.Policy, o.preemptEvery)
	}
	o.single = by == "single"
	f := &Fair{o: o, byName: map[string]*fairPool{}, users: map[string]*fairUser{}}
	if o.poolsPath != "" {
		var err error
		if f.pools, err = pools.Load(o.poolsPath); err != nil {
			return nil, fmt.Errorf("%s.pools: %w", s.Policy, err)
		}
	} else {
		f.pools = pools.New()
	}
	f.fairTimeout = fairSeconds(f.pools.FairSharePreemptionTimeout)
	f.canPreempt = o.preempt && f.fairTimeout != replay.Never
	for _, name := range f.pools.Declared() {
		c := f.pools.Pool(name)
		f.canPreempt = f.canPreempt || o.preempt && c.MinMaps+c.MinReduces > 0 && !math.IsInf(c.MinSharePreemptionTimeout, 1)
	}
	return f, nil
}

// fairSeconds converts a timeout to Time, +Inf to Never.
func fairSeconds(s float64) replay.Time {
	if s >= replay.Never.Sec() {
		return replay.Never
	}
	return replay.Seconds(s)
}

// Name implements replay.Scheduler.
func (f *Fair) Name() string { return Name }

// Start implements replay.Starter.
func (f *Fair) Start(v *replay.View) error {
	f.v = v
	f.clock.Start(v)
	f.jobs = make([]fairJob, v.Jobs())
	f.kills = make([][]victim.Victim, v.Nodes())
	f.delay = delay.Duration(f.o.delay, v)
	return nil
}

// WantsBusyHeartbeats implements replay.Preempter: with preemption, busy
// trackers heartbeat (as all do in Hadoop) while tasks wait for slots, so
// that a starved pool's timeout is noticed and kills reach their trackers.
func (f *Fair) WantsBusyHeartbeats(v *replay.View) bool {
	return f.canPreempt && (f.nKills > 0 || v.Demand(replay.Map) > 0 || v.Demand(replay.Reduce) > 0)
}

// pool returns the pool of the job named name, made live at time now.
func (f *Fair) pool(name string, now replay.Time) *fairPool {
	if name == "" || f.o.single {
		name = pools.DefaultName
	}
	p := f.byName[name]
	if p == nil {
		c := f.pools.Pool(name)
		p = &fairPool{cfg: c, minShare: [2]int{c.MinMaps, c.MinReduces}, maxSlots: [2]int{c.MaxMaps, c.MaxReduces},
			minTimeout: fairSeconds(c.MinSharePreemptionTimeout)}
		f.byName[name] = p
	}
	if !p.live {
		p.live = true
		p.lastAtMin = [2]replay.Time{now, now}
		p.lastAtHalf = p.lastAtMin
		f.live = append(f.live, p)
	}
	return p
}

// OnEvent implements replay.Scheduler. Launches and kills are counted when
// the policy makes them; their events are ignored.
func (f *Fair) OnEvent(ev replay.Event, v *replay.View) {
	f.clock.OnEvent(ev.Kind)
	f.v = v
	switch ev.Kind {
	case replay.JobArrived:
		f.arrive(ev.Job, v)
	case replay.TaskFinished:
		f.changeRunning(ev.Task, -1)
	case replay.TaskLost:
		f.changeRunning(ev.Task, -1)
		f.relistJob(ev.Job, ev.Task.Kind)
	case replay.ReducesEligible:
		f.relistJob(ev.Job, replay.Reduce)
	case replay.JobFinished:
		f.finish(ev.Job)
	case replay.NodeFailed:
		f.nKills -= len(f.kills[ev.Node])
		f.kills[ev.Node] = f.kills[ev.Node][:0]
	}
	if ev.Kind != replay.NodeFailed && ev.Kind != replay.NodeRecovered && f.jobs[ev.Job].pool != nil {
		f.refreshDemand(ev.Job)
	}
}

func (f *Fair) arrive(j int32, v *replay.View) {
	jv := v.Job(j)
	jb := &f.jobs[j]
	jb.pool = f.pool(jv.Pool(), v.Now())
	u := f.users[jv.Pool()]
	if u == nil {
		u = &fairUser{max: f.pools.UserMaxJobs(jv.Pool())}
		f.users[jv.Pool()] = u
	}
	jb.user, jb.listed = u, [2]bool{}
	jb.submit, jb.prio = jv.Submit(), int8(jv.Priority())
	w := fairshare.PriorityWeight(jb.prio)
	jb.weight, jb.key = [2]float64{w, w}, [2]float64{}
	jb.pool.jobs = append(jb.pool.jobs, j)
	i, _ := slices.BinarySearchFunc(f.order, j, func(a, b int32) int { return order.FIFO(v, a, b) })
	f.order = slices.Insert(f.order, i, j)
	f.dirty = true
}

func (f *Fair) finish(j int32) {
	jb := &f.jobs[j]
	p := jb.pool
	jb.runnable = false
	for k := range p.list {
		f.unlist(p, replay.TaskKind(k), j)
	}
	p.jobs = order.Remove(p.jobs, j)
	f.order = order.Remove(f.order, j)
	if len(p.jobs) == 0 {
		p.live = false
		f.live = order.Remove(f.live, p)
	}
	f.dirty = true
}

// unlist removes job j from p's scheduling order for kind k.
func (f *Fair) unlist(p *fairPool, k replay.TaskKind, j int32) {
	if !f.jobs[j].listed[k] {
		return
	}
	i := f.position(p, k, j)
	p.list[k] = slices.Delete(p.list[k], i, i+1)
	f.jobs[j].listed[k] = false
}

// position is the index of listed job j in p's order for kind k, found
// by its listed key: the order is sorted by the listed keys, and holds
// no job twice. Finding it so, rather than keeping every job's index,
// lets a job move past many others (on an overloaded cluster, thousands
// of jobs with no task running) without rewriting theirs.
func (f *Fair) position(p *fairPool, k replay.TaskKind, j int32) int {
	i, ok := slices.BinarySearchFunc(p.list[k], j, func(a, b int32) int { return f.compareListed(k, a, b) })
	if !ok {
		panic(fmt.Sprintf("fair: job %d missing from its pool's order", j))
	}
	return i
}

// compareListed orders the jobs of a pool: FIFO order in fifo mode;
// FairShareComparator in fair mode, where a job's minimum share is 0, so
// by running/weight (as listed: see fairJob.listedKey), then submit
// time, then trace order. Written out for the binary searches of every
// launch and finish (keys are never NaN).
func (f *Fair) compareListed(k replay.TaskKind, a, b int32) int {
	ja, jb := &f.jobs[a], &f.jobs[b]
	if ja.pool.cfg.Mode == pools.ModeFIFO {
		return cmp.Or(cmp.Compare(jb.prio, ja.prio), cmp.Compare(ja.submit, jb.submit), cmp.Compare(a, b))
	}
	switch {
	case ja.listedKey[k] < jb.listedKey[k]:
		return -1
	case ja.listedKey[k] > jb.listedKey[k]:
		return 1
	case ja.submit < jb.submit:
		return -1
	case ja.submit > jb.submit:
		return 1
	}
	return int(a - b)
}

// launchable reports whether job j has a task of kind k it may launch:
// a pending map, or a pending reduce past slow-start. A pool's scheduling
// order holds only its runnable jobs that have one (a job found without
// leaves it), so that a heartbeat does not walk past every job whose tasks
// all run; the order of the others is unchanged.
func (f *Fair) launchable(k replay.TaskKind, j int32) bool {
	jv := f.v.Job(j)
	return jv.Pending(k) > 0 && (k == replay.Map || jv.ReducesEligible())
}

// relistJob puts job j back in its pool's order for kind k, at its place,
// if it is runnable and has a task to launch again (after a kill or a
// loss, or past slow-start).
func (f *Fair) relistJob(j int32, k replay.TaskKind) {
	jb := &f.jobs[j]
	if jb.pool == nil || jb.listed[k] || !jb.runnable || !f.launchable(k, j) {
		return
	}
	p := jb.pool
	jb.listed[k], jb.listedKey[k] = true, jb.key[k]
	i, _ := slices.BinarySearchFunc(p.list[k], j, func(a, b int32) int { return f.compareListed(k, a, b) })
	p.list[k] = slices.Insert(p.list[k], i, j)
}

// changeRunning records that task t started (d = 1) or stopped (d = -1)
// and restores its pool's job order.
func (f *Fair) changeRunning(t replay.TaskRef, d int) {
	jb := &f.jobs[t.Job]
	jb.pool.running[t.Kind] += d
	f.running[t.Kind] += d
	jb.key[t.Kind] = taskRatio(f.v.Job(t.Job).Running(t.Kind), jb.weight[t.Kind])
	f.fix(jb.pool, t.Kind, t.Job)
}

// fix moves job j to its place in a fair-mode pool's order after its
// running count changed; the rest of the order is sorted.
func (f *Fair) fix(p *fairPool, k replay.TaskKind, j int32) {
	jb := &f.jobs[j]
	if !jb.listed[k] || p.cfg.Mode != pools.ModeFair || jb.listedKey[k] == jb.key[k] {
		return
	}
	l := p.list[k]
	i := f.position(p, k, j)
	jb.listedKey[k] = jb.key[k]
	cmpJ := func(a, b int32) int { return f.compareListed(k, a, b) }
	switch {
	case i > 0 && cmpJ(j, l[i-1]) < 0: // it moves forward, into l[:i]
		to, _ := slices.BinarySearchFunc(l[:i], j, cmpJ)
		copy(l[to+1:i+1], l[to:i])
		l[to] = j
	case i+1 < len(l) && cmpJ(l[i+1], j) < 0: // back, into l[i+1:]
		to, _ := slices.BinarySearchFunc(l[i+1:], j, cmpJ)
		to += i // its index once it has left i
		copy(l[i:to], l[i+1:to+1])
		l[to] = j
	}
}

// taskRatio is running/weight, with a zero weight last.
func taskRatio(running int, weight float64) float64 {
	if weight <= 0 {
		return math.Inf(1)
	}
	return float64(running) / weight
}

// comparePools is FairShareComparator on pools: needy pools (running below
// min(minShare, demand)) first, by running/max(that, 1); then by
// running/weight; ties by name (pools all start at time 0 in Hadoop).
func comparePools(k replay.TaskKind, a, b *fairPool) int {
	ma, mb := min(a.minShare[k], a.demand[k]), min(b.minShare[k], b.demand[k])
	na, nb := a.running[k] < ma, b.running[k] < mb
	var c int
	switch {
	case na && !nb:
		return -1
	case nb && !na:
		return 1
	case na:
		c = cmp.Compare(float64(a.running[k])/float64(max(ma, 1)), float64(b.running[k])/float64(max(mb, 1)))
	default:
		c = cmp.Compare(taskRatio(a.running[k], a.cfg.Weight), taskRatio(b.running[k], b.cfg.Weight))
	}
	return cmp.Or(c, cmp.Compare(a.cfg.Name, b.cfg.Name))
}
