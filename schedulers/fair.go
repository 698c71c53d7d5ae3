package schedulers

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"sojourn/replay"
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
// pool's capped at its maxMaps/maxReduces), fair shares (FairShares across
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
	pools *Pools
	v     *replay.View

	byName map[string]*fairPool
	live   []*fairPool // pools with unfinished jobs
	jobs   []fairJob   // by trace index
	order  []int32     // arrived, unfinished jobs in FIFO order
	users  map[string]*fairUser

	delay       replay.Time // locality delay D
	fairTimeout replay.Time // fair-share preemption timeout
	canPreempt  bool        // preemption on and some timeout finite
	alive       int         // trackers up

	dirty       bool
	nextUpdate  replay.Time
	lastPreempt replay.Time
	lastHB      replay.Time
	sawHB       bool
	epoch       uint32         // heartbeat counter, for per-heartbeat marks
	skipped     []int32        // jobs passed over for maps at the last heartbeat
	visited     []int32        // jobs asked for a map at this heartbeat
	demand      [2]int         // Σ pool demand at the last update
	running     [2]int         // tasks running in the cluster
	kills       [][]fairVictim // per node, kills for its next heartbeat
	nKills      int
	scratch     []Schedulable
	shares      []float64
	victims     []fairVictim
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
	cfg        PoolConfig
	live       bool
	jobs       []int32    // unfinished jobs in arrival order
	list       [2][]int32 // runnable jobs in the pool's scheduling order
	minShare   [2]int
	maxSlots   [2]int
	running    [2]int
	demand     [2]int
	share      [2]float64
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
	demand   [2]int
	share    [2]float64
	pos      [2]int32   // index in pool.list, -1 if absent
	key      [2]float64 // running/weight, the fair-mode order's key
	submit   replay.Time
	prio     int8
	level    replay.Locality
	wait     replay.Time
	visited  uint32    // epoch of the last map request
	launched uint32    // epoch of the last map launch
	tried    [2]uint32 // epoch at which it had nothing to launch
}

type fairVictim struct {
	ref      replay.TaskRef
	node     int32
	attempts int
	start    replay.Time
}

var (
	_ replay.Scheduler = (*Fair)(nil)
	_ replay.Starter   = (*Fair)(nil)
	_ replay.Preempter = (*Fair)(nil)
)

var fairOptionList = []Option{
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

func init() {
	mustRegister(Policy{
		Name:    "fair",
		Summary: "Hadoop 1.x Fair Scheduler: pools with weights and min shares, fair sharing, delay scheduling, optional preemption",
		Options: fairOptionList,
		New:     func(s Settings) (replay.Scheduler, error) { return NewFair(s) },
	})
}

// NewFair builds the Fair Scheduler from its settings (see the Option list).
func NewFair(s Settings) (*Fair, error) {
	var o fairOptions
	var err error
	get := func(f func() error) {
		if err == nil {
			err = f()
		}
	}
	var by string
	o.poolsPath = s.String("pools")
	get(func() (e error) { by, e = s.OneOf("pool-by", "pool", "single"); return })
	get(func() (e error) { o.delay, e = s.Float("locality-delay"); return })
	get(func() (e error) { o.update, e = s.Float("update-interval"); return })
	get(func() (e error) { o.preempt, e = s.Bool("preemption"); return })
	get(func() (e error) { o.preemptEvery, e = s.Float("preemption-interval"); return })
	get(func() (e error) { o.assignMultiple, e = s.Bool("assign-multiple"); return })
	get(func() (e error) { o.sizeWeight, e = s.Bool("size-based-weight"); return })
	get(func() (e error) { o.loadCap, e = s.Bool("load-cap"); return })
	switch {
	case err != nil:
		return nil, err
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
		if f.pools, err = LoadPools(o.poolsPath); err != nil {
			return nil, fmt.Errorf("%s.pools: %w", s.Policy, err)
		}
	} else {
		f.pools = NewPools()
	}
	f.fairTimeout = fairSeconds(f.pools.FairSharePreemptionTimeout)
	f.canPreempt = o.preempt && f.fairTimeout != replay.Never
	for name, e := range f.pools.pools {
		c := f.pools.Pool(name)
		f.canPreempt = f.canPreempt || o.preempt && e.cfg.MinMaps+e.cfg.MinReduces > 0 && !math.IsInf(c.MinSharePreemptionTimeout, 1)
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
func (f *Fair) Name() string { return "fair" }

// Start implements replay.Starter.
func (f *Fair) Start(v *replay.View) error {
	f.v = v
	f.alive = v.Nodes()
	f.jobs = make([]fairJob, v.Jobs())
	f.kills = make([][]fairVictim, v.Nodes())
	f.delay = replay.Seconds(f.o.delay)
	if f.o.delay == -1 {
		f.delay = min(15*replay.Second, v.HeartbeatInterval()*3/2)
	}
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
		name = DefaultPoolName
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
	f.v = v
	switch ev.Kind {
	case replay.JobArrived:
		f.arrive(ev.Job, v)
	case replay.TaskFinished, replay.TaskLost:
		f.changeRunning(ev.Task, -1)
	case replay.JobFinished:
		f.finish(ev.Job)
	case replay.NodeFailed:
		f.alive--
		f.nKills -= len(f.kills[ev.Node])
		f.kills[ev.Node] = f.kills[ev.Node][:0]
	case replay.NodeRecovered:
		f.alive++
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
	jb.user, jb.level, jb.pos = u, replay.NodeLocal, [2]int32{-1, -1}
	jb.submit, jb.prio = jv.Submit(), int8(jv.Priority())
	w := PriorityWeight(jb.prio)
	jb.weight, jb.key = [2]float64{w, w}, [2]float64{}
	jb.pool.jobs = append(jb.pool.jobs, j)
	i, _ := slices.BinarySearchFunc(f.order, j, func(a, b int32) int { return fifoCompare(v, a, b) })
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
	p.jobs = fairRemove(p.jobs, j)
	f.order = fairRemove(f.order, j)
	if len(p.jobs) == 0 {
		p.live = false
		f.live = fairRemove(f.live, p)
	}
	f.dirty = true
}

// fairRemove deletes the first x from s, keeping the order.
func fairRemove[T comparable](s []T, x T) []T {
	if i := slices.Index(s, x); i >= 0 {
		return slices.Delete(s, i, i+1)
	}
	return s
}

// unlist removes job j from p's scheduling order for kind k.
func (f *Fair) unlist(p *fairPool, k replay.TaskKind, j int32) {
	i := f.jobs[j].pos[k]
	if i < 0 {
		return
	}
	p.list[k] = slices.Delete(p.list[k], int(i), int(i)+1)
	for ; int(i) < len(p.list[k]); i++ {
		f.jobs[p.list[k][i]].pos[k] = i
	}
	f.jobs[j].pos[k] = -1
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
	i := int(f.jobs[j].pos[k])
	if i < 0 || p.cfg.Mode != ModeFair {
		return
	}
	l := p.list[k]
	for ; i > 0 && f.compareJobs(k, l[i], l[i-1]) < 0; i-- {
		l[i], l[i-1] = l[i-1], l[i]
		f.jobs[l[i]].pos[k] = int32(i)
	}
	for ; i+1 < len(l) && f.compareJobs(k, l[i+1], l[i]) < 0; i++ {
		l[i], l[i+1] = l[i+1], l[i]
		f.jobs[l[i]].pos[k] = int32(i)
	}
	f.jobs[j].pos[k] = int32(i)
}

// taskRatio is running/weight, with a zero weight last.
func taskRatio(running int, weight float64) float64 {
	if weight <= 0 {
		return math.Inf(1)
	}
	return float64(running) / weight
}

// compareJobs orders the jobs of a pool: FIFO order in fifo mode;
// FairShareComparator in fair mode, where a job's minimum share is 0, so
// by running/weight, then submit time, then trace order.
func (f *Fair) compareJobs(k replay.TaskKind, a, b int32) int {
	ja, jb := &f.jobs[a], &f.jobs[b]
	if ja.pool.cfg.Mode == ModeFIFO {
		return cmp.Or(cmp.Compare(jb.prio, ja.prio), cmp.Compare(ja.submit, jb.submit), cmp.Compare(a, b))
	}
	return cmp.Or(cmp.Compare(ja.key[k], jb.key[k]), cmp.Compare(ja.submit, jb.submit), cmp.Compare(a, b))
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

// update is FairScheduler.update: runnability, demands, weights, job
// orders, fair shares and preemption clocks. Runnability and the job
// orders are rebuilt only after a job arrived or finished (or always, with
// size-based weights); in between the orders are kept sorted as running
// counts change, and runnability cannot change.
func (f *Fair) update(v *replay.View) {
	now := v.Now()
	relist := f.dirty || f.o.sizeWeight
	if f.dirty {
		f.updateRunnability()
	}
	f.dirty = false
	f.nextUpdate = now + replay.Seconds(f.o.update)
	f.demand = [2]int{}
	for _, p := range f.live {
		for k := range 2 {
			kind := replay.TaskKind(k)
			p.demand[k] = 0
			for _, j := range p.jobs {
				jb := &f.jobs[j]
				jb.demand[k] = f.jobDemand(v, j, kind)
				if f.o.sizeWeight {
					jb.weight[k] = PriorityWeight(jb.prio) * math.Log2(1+float64(jb.demand[k]))
					jb.key[k] = taskRatio(v.Job(j).Running(kind), jb.weight[k])
				}
				p.demand[k] += jb.demand[k]
			}
			p.demand[k] = min(p.demand[k], p.maxSlots[k])
			f.demand[k] += p.demand[k]
			if relist {
				f.relist(p, kind)
			}
		}
	}
	for k := range 2 {
		f.poolShares(v, replay.TaskKind(k))
	}
	f.jobSharesOK = false
	for _, p := range f.live {
		for k := range 2 {
			if p.running[k] >= min(p.minShare[k], p.demand[k]) {
				p.lastAtMin[k] = now
			}
			if p.running[k] >= int(math.Floor(math.Min(p.share[k]/2, float64(p.demand[k])))) {
				p.lastAtHalf[k] = now
			}
		}
	}
}

// updateRunnability marks jobs runnable in FIFO order until their pool's
// or their user's maxRunningJobs is reached.
func (f *Fair) updateRunnability() {
	for _, p := range f.live {
		p.count = 0
	}
	for _, u := range f.users {
		u.count = 0
	}
	for _, j := range f.order {
		jb := &f.jobs[j]
		jb.runnable = jb.pool.count < jb.pool.cfg.MaxRunningJobs && jb.user.count < jb.user.max
		if jb.runnable {
			jb.pool.count++
			jb.user.count++
		}
	}
}

// relist rebuilds p's scheduling order of its runnable jobs for kind k.
func (f *Fair) relist(p *fairPool, k replay.TaskKind) {
	for _, j := range p.list[k] {
		f.jobs[j].pos[k] = -1
	}
	l := p.list[k][:0]
	for _, j := range p.jobs {
		if f.jobs[j].runnable {
			l = append(l, j)
		}
	}
	slices.SortFunc(l, func(a, b int32) int { return f.compareJobs(k, a, b) })
	for i, j := range l {
		f.jobs[j].pos[k] = int32(i)
	}
	p.list[k] = l
}

// jobDemand is JobSchedulable.updateDemand without speculation: the
// unfinished tasks of a runnable job (reduces once past slow-start).
func (f *Fair) jobDemand(v *replay.View, j int32, k replay.TaskKind) int {
	jv := v.Job(j)
	if !f.jobs[j].runnable || k == replay.Reduce && !jv.ReducesEligible() {
		return 0
	}
	return jv.Tasks(k) - jv.Finished(k)
}

// poolShares runs FairShares across the live pools.
func (f *Fair) poolShares(v *replay.View, k replay.TaskKind) {
	s := f.scratch[:0]
	for _, p := range f.live {
		s = append(s, Schedulable{Weight: p.cfg.Weight, MinShare: float64(p.minShare[k]), Demand: float64(p.demand[k])})
	}
	f.shares = FairShares(f.shares, s, float64(v.Slots(k)))
	for i, p := range f.live {
		p.share[k] = f.shares[i]
	}
	f.scratch = s
}

// jobShares runs FairShares over the jobs of each fair-mode pool with the
// pool's share (fifo-mode pools give their jobs 0). Hadoop 1.x only
// reports these shares, so they are computed when asked for.
func (f *Fair) jobShares() {
	if f.jobSharesOK {
		return
	}
	f.jobSharesOK = true
	for k := range 2 {
		for _, p := range f.live {
			s := f.scratch[:0]
			for _, j := range p.jobs {
				jb := &f.jobs[j]
				s = append(s, Schedulable{Weight: jb.weight[k], Demand: float64(jb.demand[k])})
			}
			f.scratch = s
			if p.cfg.Mode == ModeFair {
				f.shares = FairShares(f.shares, s, p.share[k])
			} else {
				f.shares = slices.Grow(f.shares[:0], len(s))[:len(s)]
				clear(f.shares)
			}
			for i, j := range p.jobs {
				f.jobs[j].share[k] = f.shares[i]
			}
		}
	}
}

// FairShare returns the fair share of kind k of job j at the last update
// (0 for a job of a fifo-mode pool, as in Hadoop).
func (f *Fair) FairShare(j int32, k replay.TaskKind) float64 {
	f.jobShares()
	return f.jobs[j].share[k]
}

// PoolShare returns the fair share of kind k of the pool called name at
// the last update, and whether the pool has unfinished jobs.
func (f *Fair) PoolShare(name string, k replay.TaskKind) (float64, bool) {
	p := f.byName[name]
	if p == nil || !p.live {
		return 0, false
	}
	return p.share[k], true
}

// OnHeartbeat implements replay.Scheduler.
func (f *Fair) OnHeartbeat(hb *replay.Heartbeat) error {
	f.v = hb.View
	now := hb.Now()
	f.epoch++
	if f.dirty || now >= f.nextUpdate {
		f.update(hb.View)
		if f.o.preempt && now-f.lastPreempt >= replay.Seconds(f.o.preemptEvery) {
			f.lastPreempt = now
			f.preempt(hb.View)
		}
	}
	// Delay scheduling: credit the jobs skipped at the last heartbeat.
	if f.sawHB {
		gap := hb.HeartbeatInterval() / replay.Time(max(f.alive, 1))
		gap = min(gap, now-f.lastHB)
		for _, j := range f.skipped {
			f.jobs[j].wait += gap
		}
	}
	f.skipped, f.lastHB, f.sawHB = f.skipped[:0], now, true
	f.visited = f.visited[:0]
	err := f.assign(hb)
	for _, j := range f.visited {
		if f.jobs[j].launched != f.epoch {
			f.skipped = append(f.skipped, j)
		}
	}
	if err != nil {
		return err
	}
	return f.killHere(hb)
}

// assign fills the tracker's slots as FairScheduler.assignTasks does.
func (f *Fair) assign(hb *replay.Heartbeat) error {
	var rejected [2]bool
	assigned := 0
	for {
		for k := range 2 {
			kind := replay.TaskKind(k)
			if !rejected[k] && (hb.Free(kind) == 0 || f.running[k] >= f.demand[k] || !f.canAssign(hb, kind)) {
				rejected[k] = true
			}
		}
		if rejected[replay.Map] && rejected[replay.Reduce] || !f.o.assignMultiple && assigned > 0 {
			return nil
		}
		k := replay.Map
		switch {
		case rejected[replay.Map]:
			k = replay.Reduce
		case !rejected[replay.Reduce] && f.busy(hb, replay.Map) > f.busy(hb, replay.Reduce):
			k = replay.Reduce
		}
		ok, err := f.assignOne(hb, k)
		if err != nil {
			return err
		}
		if !ok {
			rejected[k] = true
		}
		assigned++
	}
}

// busy is the number of tasks of kind k running on the tracker.
func (f *Fair) busy(hb *replay.Heartbeat, k replay.TaskKind) int {
	if k == replay.Map {
		return hb.Config().MapSlots - hb.Free(k)
	}
	return hb.Config().ReduceSlots - hb.Free(k)
}

// canAssign is CapBasedLoadManager.canAssign{Map,Reduce} (maxDiff 0).
func (f *Fair) canAssign(hb *replay.Heartbeat, k replay.TaskKind) bool {
	if !f.o.loadCap {
		return true
	}
	slots := hb.Config().MapSlots
	if k == replay.Reduce {
		slots = hb.Config().ReduceSlots
	}
	load := 1.0
	if total := hb.Slots(k); total > 0 {
		load = min(1, float64(f.demand[k])/float64(total))
	}
	return f.busy(hb, k) < int(math.Ceil(float64(slots)*load))
}

// assignOne launches one task of kind k from the first pool, in
// FairShareComparator order, that has one; pools and jobs found empty are
// marked and not asked again during this heartbeat.
func (f *Fair) assignOne(hb *replay.Heartbeat, k replay.TaskKind) (bool, error) {
	for {
		var best *fairPool
		for _, p := range f.live {
			if p.tried[k] != f.epoch && (best == nil || comparePools(k, p, best) < 0) {
				best = p
			}
		}
		if best == nil {
			return false, nil
		}
		if best.running[k] < best.maxSlots[k] {
			if ok, err := f.assignInPool(hb, best, k); ok || err != nil {
				return ok, err
			}
		}
		best.tried[k] = f.epoch
	}
}

func (f *Fair) assignInPool(hb *replay.Heartbeat, p *fairPool, k replay.TaskKind) (bool, error) {
	for _, j := range p.list[k] {
		jb := &f.jobs[j]
		if jb.tried[k] == f.epoch {
			continue
		}
		jb.tried[k] = f.epoch
		var idx int32
		var loc replay.Locality
		var ok bool
		if k == replay.Map {
			if hb.Job(j).Pending(k) == 0 {
				continue
			}
			if jb.visited != f.epoch {
				jb.visited = f.epoch
				f.visited = append(f.visited, j)
			}
			idx, loc, ok = hb.PendingMap(j, hb.Node(), f.allowedLevel(jb, hb.Now()))
		} else {
			idx, ok = hb.PendingReduce(j)
		}
		if !ok {
			continue
		}
		if err := hb.Launch(replay.TaskRef{Job: j, Kind: k, Index: idx}); err != nil {
			return false, err
		}
		jb.tried[k] = 0 // it may have another task
		if k == replay.Map {
			jb.level, jb.wait, jb.launched = loc, 0, f.epoch
		}
		f.changeRunning(replay.TaskRef{Job: j, Kind: k, Index: idx}, +1)
		return true, nil
	}
	return false, nil
}

// allowedLevel is FairScheduler.getAllowedLocalityLevel.
func (f *Fair) allowedLevel(jb *fairJob, now replay.Time) replay.Locality {
	p := jb.pool
	if now-p.lastAtMin[replay.Map] > p.minTimeout || now-p.lastAtHalf[replay.Map] > f.fairTimeout {
		return replay.OffRack // the pool is starved: no waiting
	}
	switch jb.level {
	case replay.NodeLocal:
		switch {
		case jb.wait >= 2*f.delay:
			return replay.OffRack
		case jb.wait >= f.delay:
			return replay.RackLocal
		}
		return replay.NodeLocal
	case replay.RackLocal:
		if jb.wait >= f.delay {
			return replay.OffRack
		}
		return replay.RackLocal
	}
	return replay.OffRack
}

// preempt is FairScheduler.preemptTasksIfNecessary: it picks the victims,
// which killHere kills at their trackers' next heartbeats.
func (f *Fair) preempt(v *replay.View) {
	now := v.Now()
	for k := range 2 {
		kind := replay.TaskKind(k)
		want := 0
		for _, p := range f.live {
			want += f.toPreempt(p, kind, now)
		}
		if want == 0 {
			continue
		}
		vs := f.victims[:0]
		for _, p := range f.live {
			p.left = p.running[k]
			if float64(p.running[k]) <= p.share[k] {
				continue
			}
			for _, j := range p.jobs {
				for i := range int32(v.Job(j).Tasks(kind)) {
					ref := replay.TaskRef{Job: j, Kind: kind, Index: i}
					if tv := v.Task(ref); tv.Running() {
						vs = append(vs, fairVictim{ref: ref, node: tv.Node(), attempts: tv.Attempts(), start: tv.AttemptStart()})
					}
				}
			}
		}
		slices.SortFunc(vs, func(a, b fairVictim) int {
			return cmp.Or(cmp.Compare(b.start, a.start), cmp.Compare(b.ref.Job, a.ref.Job), cmp.Compare(b.ref.Index, a.ref.Index))
		})
		for _, vi := range vs {
			p := f.jobs[vi.ref.Job].pool
			if float64(p.left) <= p.share[k] {
				continue
			}
			f.kills[vi.node] = append(f.kills[vi.node], vi)
			f.nKills++
			p.left--
			if want--; want == 0 {
				break
			}
		}
		f.victims = vs
	}
}

// toPreempt is FairScheduler.tasksToPreempt for pool p.
func (f *Fair) toPreempt(p *fairPool, k replay.TaskKind, now replay.Time) int {
	n := 0
	if now-p.lastAtMin[k] > p.minTimeout {
		n = max(n, min(p.minShare[k], p.demand[k])-p.running[k])
	}
	if now-p.lastAtHalf[k] > f.fairTimeout {
		n = max(n, int(math.Min(p.share[k], float64(p.demand[k])))-p.running[k])
	}
	return n
}

// killHere kills the victims chosen on this tracker that still run the
// attempt chosen.
func (f *Fair) killHere(hb *replay.Heartbeat) error {
	n := hb.Node()
	vs := f.kills[n]
	if len(vs) == 0 {
		return nil
	}
	f.kills[n] = vs[:0]
	f.nKills -= len(vs)
	for _, vi := range vs {
		tv := hb.Task(vi.ref)
		if !tv.Running() || tv.Node() != n || tv.Attempts() != vi.attempts {
			continue // it finished, or was lost, since
		}
		if err := hb.Kill(vi.ref); err != nil {
			return err
		}
		f.changeRunning(vi.ref, -1)
	}
	return nil
}
