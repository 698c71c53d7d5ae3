package easy

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"

	"sojourn/replay"
	"sojourn/schedulers/fairshare"
	"sojourn/schedulers/internal/delay"
	"sojourn/schedulers/internal/order"
	"sojourn/schedulers/internal/policy"
)

// Easy is the two-level scheduler of Sudha Sadasivam and Anjali ("Design
// and Implementation of a Two Level Scheduler for HADOOP Data Grids",
// 2010): EASY backfilling decides which jobs run (job level), and the Fair
// Scheduler's deficit-based fair sharing divides the task slots among them
// (task level).
//
// Job level. A job's user-estimated time is maps × map time + reduces ×
// reduce time (the paper's step 3), here from the trace's true mean task
// durations, times an optional error factor drawn per job from a seeded
// generator; a trace that carries the user's own estimate of a job's
// work (user_estimate_s, from an SWF log's requested time for instance)
// gives it instead, split over the phases by their task counts. Like a parallel job in EASY, a job asks for a number of
// processors: here min(its maps, job-share × the cluster's map slots) map
// slots and likewise reduce slots (the paper's "predefined number of
// minimum slots" per job, step 6), and its estimated run time is its map
// estimate over its map width plus its reduce estimate over its reduce
// width. A rigid job of the trace (an SWF job) asks for all its maps at
// once, as a parallel job does in EASY, whatever job-share (option rigid).
// Jobs queue by priority, then submit time (step 4). At every instant
// with arrivals or job ends (step 12: a job ending before its estimate
// lets others start earlier), once all of that instant's are told
// (replay.Decider), the queue is scanned: the head is admitted while
// its widths fit in the slots not reserved by admitted jobs; otherwise it
// gets a reservation at the shadow time, the earliest time at which, with
// the admitted jobs ending at their estimated ends, it fits. Other queued
// jobs are backfilled (shortest estimated run time first, or in queue
// order) if they fit now and either end by the shadow time or use only
// slots the head will not need then. Only the head
// holds a reservation (EASY, not conservative, backfilling); options
// reservations, node-granular, end-at-shadow and decision-interval give
// Slurm's variants (plan.go).
//
// Task level. The admitted jobs share the slots of each kind: pools get
// equal shares of the slots, and jobs in a pool shares weighted by their
// priority factor (step 7), each capped at the tasks it can run (the
// demand-capped fair share of step 10). Every job's deficit accumulates
// (fair share − running tasks) × time (step 11, integrated exactly between
// events rather than every 500 ms), and a free slot goes to the admitted
// job with the highest deficit that has a task to launch, one task per job
// per round so that one heartbeat does not hand a node to one job. Extra
// slots a job cannot use go to the other admitted jobs (step 6); queued
// jobs get none. Maps follow delay scheduling, as in hfsp.
type Easy struct {
	o     easyOptions
	v     *replay.View
	jobs  []easyJob
	queue []int32 // jobs waiting for admission, by priority then submit time
	// admitted holds the admitted, unfinished jobs in admission order;
	// byExpected the same jobs by expected end (start + estimated run
	// time), then admission.
	admitted   []int32
	byExpected []int32
	// bySize holds the queue by estimated run time, then queue order
	// (with the sjf backfilling order only).
	bySize   []int32
	reserved [2]int
	// changed: a job arrived or ended since the last pass, first at
	// changedAt.
	changed   bool
	changedAt replay.Time
	// ended: a job ended since the last pass (main-scheduler).
	ended bool
	// With pass-times: the next listed pass, and whether a job arrived
	// or ended since the last pass of either kind (for a main pass).
	passIdx     int
	mainChanged bool
	// The backfilling variants' pass (plan.go): its profile, the slots of
	// the largest node per kind, and a count of passes that marks jobs.
	profile easyProfile
	perNode [2]int
	passNo  uint32
	pools   map[string]int
	delay   replay.Time
	clock   delay.Clock // delay scheduling: the jobs skipped at the last heartbeat

	last        replay.Time // time the deficits were integrated to
	nextShares  replay.Time
	sharesDirty bool
	cands       []int32
	// gangs holds the admitted rigid jobs with maps still to launch, in
	// admission order: they take a node's free map slots first.
	gangs []int32

	// The task level's state of the admitted jobs (tasks.go) and the
	// fair shares' (shares.go).
	tl        easyTaskLevel
	heap      []easyCand
	shares    easyShares
	poolJobs  []int // admitted jobs per pool
	livePools int   // pools with admitted jobs
	nonUnit   int   // admitted jobs of weight other than 1
}

type easyOptions struct {
	jobShare  float64
	sjf       bool
	alpha     float64
	errorSeed uint64
	synthetic bool // user-estimate=synthetic
	rigid     bool // a rigid job's width is all its maps
	update    float64
	delay     float64
	// Backfilling variants (plan.go): how many queued jobs hold a
	// reservation (math.MaxInt: all), reservations in whole nodes, a
	// backfilled job's end at a reservation's start refused, and the
	// period of the passes (0: every instant).
	reservations int
	nodeGranular bool
	refuse       bool
	interval     replay.Time
	phase        replay.Time // the passes' offset from the multiples of interval
	// window > 0: a reservation starts where Slurm's will-run test puts
	// it (plan.go, willRun): running jobs released in batches of
	// windows aligned on the wall clock, epoch being the wall-clock
	// second of time 0.
	window int64
	epoch  int64
	// main: at a job end, start jobs from the head of the queue at once,
	// before the next pass (Slurm's main scheduler).
	main bool
	// passes: the listed passes of pass-times, in order.
	passes   []passTime
	profiled bool // plan even with EASY's settings (tests)
}

type easyJob struct {
	estimate [2]float64 // estimated work per phase (slot-s), error included
	width    [2]int     // slots reserved per kind once admitted
	run      float64    // estimated run time with those widths (s)
	admitted bool
	rigid    bool // its width is all its maps (a gang)
	start    replay.Time
	pool     int
	weight   float64
	pos      int32 // place among the admitted jobs (Easy.admitted, Easy.tl)
	// delay scheduling of maps
	wait delay.Wait // delay scheduling of its maps
	pass uint32     // Easy.passNo when plan last looked at it
}

var (
	_ replay.Scheduler = (*Easy)(nil)
	_ replay.Starter   = (*Easy)(nil)
	_ replay.Decider   = (*Easy)(nil)
)

var easyOptionList = []policy.Option{
	{Name: "job-share", Default: "0.1", Usage: "fraction of each kind's slots a job reserves at most when admitted (its EASY width: min(tasks, share × slots), at least 1)"},
	{Name: "backfill-order", Default: "sjf", Usage: "order in which queued jobs are tried for backfilling: sjf (shortest estimated run time first) or fcfs (queue order)"},
	{Name: "alpha", Default: "0", Usage: "error of the user estimates: each job's estimate is multiplied by U[1−alpha, 1+alpha] (0: exact means)"},
	{Name: "error-seed", Default: "1", Usage: "seed of the per-job estimate errors"},
	{Name: "user-estimate", Default: "trace", Usage: "trace: a job's estimate is the trace's user estimate (user_estimate_s, split over its phases by their task counts, no alpha error) when it has one, else the synthetic one; synthetic: always the synthetic one", OmitDefault: true},
	{Name: "rigid", Default: "true", Usage: "a rigid job of the trace (an SWF job, say) reserves all its maps' slots at once, whatever job-share: EASY's parallel job; false treats it as any other"},
	{Name: "update-interval", Default: "0.5", Usage: "seconds between recomputations of the fair shares (the paper's timedelta; also done when jobs are admitted or end)"},
	{Name: "locality-delay", Default: "-1", Usage: "delay scheduling wait D in seconds before rack-local maps (off-rack after 2D); -1 = min(15, 1.5 × heartbeat); 0 = off"},
	{Name: "reservations", Default: "1", Usage: "queued jobs, in queue order, that hold a reservation: 1 = EASY (the head only); N = the first N that cannot start now; all = conservative backfilling (Slurm's default, bf_job_part_count_reserve=0); the jobs after them start only if they delay no reservation"},
	{Name: "node-granular", Default: "false", Usage: "a reservation holds every slot of the whole nodes it needs, as Slurm's backfill node_space does (on one node: all of it), while running jobs hold only their slots; false: slots"},
	{Name: "end-at-shadow", Default: "allow", Usage: "a job whose estimated end is exactly a reservation's start: allow (EASY: it ends by the shadow time) or refuse (Slurm's backfill.c: node_space[j].begin_time <= end_time)"},
	{Name: "will-run-window", Default: "0", Usage: "seconds: a reservation starts where Slurm's select plugin's will-run test puts it, at the end of the last running job of the batch of ends (windows of this many seconds on the wall clock, doubling) after which the job fits (Slurm: 30); 0 = at the earliest time it fits"},
	{Name: "window-epoch", Default: "0", Usage: "wall-clock second (Unix time) of the trace's time 0, on which will-run-window's windows are aligned"},
	{Name: "decision-interval", Default: "0", Usage: "seconds between scheduling passes: 0 = at every instant with arrivals or job ends; d > 0 = at multiples of d, each deciding the arrivals and ends before it (Slurm's bf_interval, sched_interval)"},
	{Name: "decision-phase", Default: "0", Usage: "seconds after each multiple of decision-interval at which the passes run, in [0, decision-interval): Slurm's backfill passes fall at a fixed fraction of the second, read from slurmctld's log"},
	{Name: "main-scheduler", Default: "false", Usage: "at the instant of a job end, start queued jobs from the head in queue order while they fit, stopping at the first that does not, without waiting for the next pass (Slurm's main scheduler, job_scheduler.c schedule(), run at once when an epilog-complete message arrives); backfilling stays on the passes"},
	{Name: "pass-times", Default: "", Usage: "file of the passes' instants, one \"SECONDS backfill\", \"SECONDS backfill JOBS\" or \"SECONDS main\" per line (seconds from time 0, in order): a backfill pass starts the head of the queue, then backfills, testing only the first JOBS jobs if given (a pass Slurm cut short at bf_max_time); a main pass starts the head alone. Slurm's two schedulers as its log timed them (slurmref passes); after the last line, decision-interval's passes", OmitDefault: true},
}

// Name is the policy's name in the registry and on the command line.
const Name = "easy"

// Policy describes the policy to the registry.
var Policy = policy.Policy{
	Name:      Name,
	Summary:   "two-level scheduler: EASY backfilling of jobs on user-estimated times, deficit fair sharing of slots among admitted jobs",
	Options:   easyOptionList,
	MayStarve: true, // jobs wait in the admission queue for their turn or a backfilling hole
	Gangs:     true, // option rigid
	New:       func(s *policy.Settings) (replay.Scheduler, error) { return New(s) },
}

// New builds the EASY-backfilling fair scheduler from its settings.
func New(s *policy.Settings) (*Easy, error) {
	var o easyOptions
	var order string
	o.jobShare = s.Float("job-share")
	order = s.OneOf("backfill-order", "sjf", "fcfs")
	o.alpha = s.Float("alpha")
	o.errorSeed = s.Uint64("error-seed")
	o.synthetic = s.OneOf("user-estimate", "trace", "synthetic") == "synthetic"
	o.rigid = s.Bool("rigid")
	o.update = s.Float("update-interval")
	o.delay = s.Float("locality-delay")
	o.reservations = 1
	switch r := s.String("reservations"); r {
	case "all":
		o.reservations = math.MaxInt
	default:
		o.reservations = s.Int("reservations")
	}
	o.nodeGranular = s.Bool("node-granular")
	o.refuse = s.OneOf("end-at-shadow", "allow", "refuse") == "refuse"
	interval := s.Float("decision-interval")
	phase := s.Float("decision-phase")
	o.window = int64(s.Int("will-run-window"))
	o.epoch = int64(s.Uint64("window-epoch") % (1 << 62))
	o.main = s.Bool("main-scheduler")
	passTimes := s.String("pass-times")
	if err := s.Err(); err != nil {
		return nil, err
	}
	if passTimes != "" {
		var err error
		if o.passes, err = readPassTimes(passTimes); err != nil {
			return nil, fmt.Errorf("%s.pass-times: %v", s.Policy, err)
		}
	}
	switch {
	case !(o.jobShare > 0 && o.jobShare <= 1):
		return nil, fmt.Errorf("%s.job-share: %v; want a fraction in (0, 1]", s.Policy, o.jobShare)
	case !(o.alpha >= 0 && o.alpha < 1):
		return nil, fmt.Errorf("%s.alpha: %v; want 0 <= alpha < 1", s.Policy, o.alpha)
	case !(o.update >= 0) || math.IsInf(o.update, 0):
		return nil, fmt.Errorf("%s.update-interval: %v; want seconds >= 0", s.Policy, o.update)
	case o.delay < 0 && o.delay != -1 || math.IsNaN(o.delay) || math.IsInf(o.delay, 0):
		return nil, fmt.Errorf("%s.locality-delay: %v; want -1 (auto), 0 (off) or seconds", s.Policy, o.delay)
	case o.window < 0:
		return nil, fmt.Errorf("%s.will-run-window: %d; want 0 (off) or seconds", s.Policy, o.window)
	case o.reservations < 1:
		return nil, fmt.Errorf("%s.reservations: %d; want 1 or more, or all", s.Policy, o.reservations)
	case !(interval >= 0) || replay.Seconds(interval) <= 0 && interval != 0:
		return nil, fmt.Errorf("%s.decision-interval: %v; want 0 or seconds (at least a microsecond)", s.Policy, interval)
	case !(phase >= 0) || phase != 0 && !(phase < interval):
		return nil, fmt.Errorf("%s.decision-phase: %v; want seconds in [0, decision-interval)", s.Policy, phase)
	}
	o.interval = replay.Seconds(interval)
	o.phase = replay.Seconds(phase)
	o.sjf = order == "sjf"
	return &Easy{o: o, pools: map[string]int{}}, nil
}

// Name implements replay.Scheduler.
func (e *Easy) Name() string { return Name }

// Start implements replay.Starter.
func (e *Easy) Start(v *replay.View) error {
	e.v = v
	e.jobs = make([]easyJob, v.Jobs())
	e.delay = delay.Duration(e.o.delay, v)
	e.clock.Start(v)
	for n := range int32(v.Nodes()) {
		e.perNode[0] = max(e.perNode[0], v.NodeSlots(n, replay.Map))
		e.perNode[1] = max(e.perNode[1], v.NodeSlots(n, replay.Reduce))
	}
	return nil
}

// Estimate is job j's user-estimated time in slot-seconds (maps × mean map
// time + reduces × mean reduce time, with the job's error factor) and its
// estimated run time in seconds at its admission widths. Valid once the
// job has arrived.
func (e *Easy) Estimate(j int32) (work, run float64) {
	jb := &e.jobs[j]
	return jb.estimate[0] + jb.estimate[1], jb.run
}

// Admitted reports whether job j has been admitted (it may run tasks).
func (e *Easy) Admitted(j int32) bool { return e.jobs[j].admitted }

// errorFactor draws job j's estimate error from the seed and the job only.
func (e *Easy) errorFactor(j int32) float64 {
	if e.o.alpha == 0 {
		return 1
	}
	rng := rand.New(rand.NewPCG(e.o.errorSeed, uint64(j)+1))
	return 1 - e.o.alpha + 2*e.o.alpha*rng.Float64()
}

func (e *Easy) arrive(j int32, v *replay.View) {
	jv := v.Job(j)
	jb := &e.jobs[j]
	tj := jv.Trace()
	f := e.errorFactor(j)
	jb.run = 0
	for k, durs := range [2][]float64{tj.MapDurations, tj.ReduceDurations} {
		n := len(durs)
		if n == 0 {
			continue
		}
		var sum float64
		for _, d := range durs {
			sum += d
		}
		// tasks × mean task time, with the user's error
		jb.estimate[k] = float64(n) * (sum / float64(n)) * f
		if !e.o.synthetic && tj.HasEstimate {
			// The user's own estimate of the job, shared by task count.
			jb.estimate[k] = tj.Estimate * float64(n) / float64(tj.Maps()+tj.Reduces())
		}
		slots := v.Slots(replay.TaskKind(k))
		jb.width[k] = min(n, max(1, int(e.o.jobShare*float64(slots))))
		if tj.Rigid && e.o.rigid {
			// A rigid job asks for all its processors at once, as in
			// EASY; one wider than the cluster runs in waves of it.
			jb.width[k] = max(1, min(n, slots))
			jb.rigid = true
		}
		jb.run += jb.estimate[k] / float64(jb.width[k])
	}
	p, ok := e.pools[jv.Pool()]
	if !ok {
		p = len(e.pools)
		e.pools[jv.Pool()] = p
	}
	jb.pool = p
	jb.weight = fairshare.PriorityWeight(int8(jv.Priority()))
	i, _ := slices.BinarySearchFunc(e.queue, j, func(a, b int32) int { return order.FIFO(v, a, b) })
	e.queue = slices.Insert(e.queue, i, j)
	if e.o.sjf {
		i, _ := slices.BinarySearchFunc(e.bySize, j, e.compareSize)
		e.bySize = slices.Insert(e.bySize, i, j)
	}
}

// compareSize orders queued jobs by estimated run time, then queue order.
func (e *Easy) compareSize(a, b int32) int {
	return cmp.Or(cmp.Compare(e.jobs[a].run, e.jobs[b].run), order.FIFO(e.v, a, b))
}

// dequeue removes job j from the queue.
func (e *Easy) dequeue(j int32) {
	e.queue = order.Remove(e.queue, j)
	if e.o.sjf {
		if i, ok := slices.BinarySearchFunc(e.bySize, j, e.compareSize); ok {
			e.bySize = slices.Delete(e.bySize, i, i+1)
		}
	}
}

// OnEvent implements replay.Scheduler.
func (e *Easy) OnEvent(ev replay.Event, v *replay.View) {
	e.v = v
	e.clock.OnEvent(ev.Kind)
	e.integrate(v)
	switch ev.Kind {
	case replay.JobArrived:
		e.arrive(ev.Job, v)
		e.change(v)
	case replay.JobFinished:
		jb := &e.jobs[ev.Job]
		if jb.admitted {
			e.leave(ev.Job)
			e.reserved[0] -= jb.width[0]
			e.reserved[1] -= jb.width[1]
		} else { // a job with no task ends at once
			e.dequeue(ev.Job)
		}
		jb.admitted = false
		e.ended = true
		e.change(v)
	case replay.ReducesEligible, replay.TaskFinished, replay.TaskKilled, replay.TaskLost, replay.NodeFailed, replay.NodeRecovered:
		e.sharesDirty = true
	}
	if ev.Kind != replay.NodeFailed && ev.Kind != replay.NodeRecovered && e.jobs[ev.Job].admitted {
		e.track(v, ev.Job)
	}
	e.snapshot(v)
}

// change notes an arrival or job end for the next pass.
func (e *Easy) change(v *replay.View) {
	if !e.changed {
		e.changed, e.changedAt = true, v.Now()
	}
	e.mainChanged = true
}

// Decide implements replay.Decider: one scheduling pass once every
// arrival and job end of the instant has been told, so that jobs ending
// together release their slots together, as in EASY, where a job end is
// one event whatever its processors. With decision-interval d the pass
// waits for the first multiple of d (plus decision-phase) after the
// first change since the last pass: Slurm's backfill_agent passes at most every bf_interval
// ("if ((wait_time < backfill_interval) || ... !_more_work(
// last_backfill_time))"), and a job that ends on a whole second is seen
// by the tick after it.
//
// With main-scheduler, a job end also starts, at once, the jobs at the
// head of the queue that fit (head); the pass still follows on the tick.
func (e *Easy) Decide(v *replay.View) replay.Time {
	if due, ok := e.decideListed(v); ok {
		return due
	}
	if !e.changed {
		return replay.Never
	}
	if e.o.main && e.ended {
		e.ended = false
		e.v = v
		e.integrate(v)
		capacity := [2]int{v.Slots(replay.Map), v.Slots(replay.Reduce)}
		free := [2]int{capacity[0] - e.reserved[0], capacity[1] - e.reserved[1]}
		e.head(v.Now(), &free, capacity)
		e.snapshot(v)
	}
	if d := e.o.interval; d > 0 {
		due := e.o.phase // the first pass, for a change before it
		if q := e.changedAt - e.o.phase; q >= 0 {
			due += (q/d + 1) * d
		}
		if v.Now() < due {
			return due
		}
	}
	e.v = v
	e.changed, e.ended = false, false
	e.integrate(v)
	e.pass(v, allJobs)
	e.snapshot(v)
	return replay.Never
}

// reservation returns the time at which job head fits once the admitted
// jobs before it have released their slots (Never if it never does), and
// the slots free then (free: those free now). The admitted jobs release
// them in order of their ends, max(now, expected end), ties in admission
// order: first those past their expected end, in admission order, then
// the others by expected end (byExpected's order).
func (e *Easy) reservation(now replay.Time, head int32, free, capacity [2]int) (replay.Time, [2]int) {
	avail, shadow := free, replay.Never
	release := func(j int32) bool { // whether the head fits once j ends
		avail[0] += e.jobs[j].width[0]
		avail[1] += e.jobs[j].width[1]
		if e.fits(head, avail, capacity) {
			shadow = max(now, e.expectedEnd(j))
		}
		return shadow != replay.Never
	}
	later := sort.Search(len(e.byExpected), func(i int) bool { return e.expectedEnd(e.byExpected[i]) > now })
	for _, j := range e.admitted {
		if e.expectedEnd(j) <= now && release(j) {
			break
		}
	}
	for _, j := range e.byExpected[later:] {
		if shadow != replay.Never || release(j) {
			break
		}
	}
	return shadow, avail
}

// expectedEnd is when admitted job j is expected to end: its start plus
// its estimated run time.
func (e *Easy) expectedEnd(j int32) replay.Time {
	return e.jobs[j].start + replay.Seconds(e.jobs[j].run)
}

// compareExpected orders admitted jobs by expected end, then admission
// (their places among the admitted jobs keep that order as jobs leave).
func (e *Easy) compareExpected(a, b int32) int {
	return cmp.Or(cmp.Compare(e.expectedEnd(a), e.expectedEnd(b)), cmp.Compare(e.jobs[a].pos, e.jobs[b].pos))
}

// fits reports whether job j's widths fit in free slots.
func (e *Easy) fits(j int32, free [2]int, capacity [2]int) bool {
	w := e.jobs[j].width
	return min(w[0], capacity[0]) <= free[0] && min(w[1], capacity[1]) <= free[1]
}

func (e *Easy) admit(j int32, now replay.Time, free *[2]int) {
	jb := &e.jobs[j]
	jb.admitted, jb.start = true, now
	if jb.rigid {
		e.gangs = append(e.gangs, j)
	}
	e.enter(j)
	e.dequeue(j)
	for k := range 2 {
		e.reserved[k] += jb.width[k]
		free[k] -= jb.width[k]
	}
	e.sharesDirty = true
}

// head admits the jobs at the head of the queue while they fit, in queue
// order, and stops at the first that does not. It is the start of every pass, and with main-scheduler
// also Slurm's main scheduler at a job end (job_scheduler.c, schedule():
// a job that does not fit, "error_code == ESLURM_NODES_BUSY", sets
// "fail_by_part = true", which puts its partition in failed_parts, and
// every later job of a failed partition is skipped,
// "_failed_partition(job_ptr->part_ptr, failed_parts, ...)").
func (e *Easy) head(now replay.Time, free *[2]int, capacity [2]int) {
	e.headUpTo(now, free, capacity, len(e.queue))
}

// headUpTo is head admitting at most limit jobs; it returns how many it
// admitted.
func (e *Easy) headUpTo(now replay.Time, free *[2]int, capacity [2]int, limit int) int {
	n := 0
	for ; n < limit && len(e.queue) > 0 && e.fits(e.queue[0], *free, capacity); n++ {
		e.admit(e.queue[0], now, free)
	}
	return n
}

// pass is one EASY scheduling pass over the queue, testing at most
// limit jobs (allJobs: the whole queue).
func (e *Easy) pass(v *replay.View, limit int) {
	now := v.Now()
	capacity := [2]int{v.Slots(replay.Map), v.Slots(replay.Reduce)}
	free := [2]int{capacity[0] - e.reserved[0], capacity[1] - e.reserved[1]}
	if limit == allJobs {
		limit = len(e.queue)
	}
	limit -= e.headUpTo(now, &free, capacity, limit)
	if len(e.queue) == 0 || limit <= 0 {
		return
	}
	if limit < len(e.queue) || e.o.reservations != 1 || e.o.nodeGranular || e.o.refuse || e.o.window > 0 || e.o.profiled {
		e.plan(now, free, capacity, limit)
		return
	}
	// The head's reservation: the shadow time at which enough slots are
	// released, and the extra slots it will leave then.
	head := e.queue[0]
	shadow, avail := e.reservation(now, head, free, capacity)
	hw := e.jobs[head].width
	extra := [2]int{avail[0] - min(hw[0], capacity[0]), avail[1] - min(hw[1], capacity[1])}
	// The candidates are the queue but its head, in backfilling order:
	// with sjf, by estimated run time, ties in queue order.
	cands := e.cands[:0]
	if e.o.sjf {
		for _, j := range e.bySize {
			if j != head {
				cands = append(cands, j)
			}
		}
	} else {
		cands = append(cands, e.queue[1:]...)
	}
	e.cands = cands
	for _, c := range cands {
		if !e.fits(c, free, capacity) {
			continue
		}
		w := e.jobs[c].width
		switch {
		case shadow == replay.Never || now+replay.Seconds(e.jobs[c].run) <= shadow:
			e.admit(c, now, &free)
		case w[0] <= extra[0] && w[1] <= extra[1]:
			e.admit(c, now, &free)
			extra[0] -= w[0]
			extra[1] -= w[1]
		}
	}
}
