package hfsp

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"sojourn/replay"
	"sojourn/schedulers/internal/delay"
	"sojourn/schedulers/internal/policy"
	"sojourn/schedulers/vcluster"
)

// HFSP is the Hadoop Fair Sojourn Protocol (Pastorelli et al., Section 3):
// the map and the reduce phase of every job are scheduled as separate jobs;
// a virtual cluster per phase, with the real cluster's slots, ages every
// job under max-min fair processor sharing, and real slots go to jobs in
// increasing order of their completion time there. Sizes start as ξ·k·l
// and are re-estimated from the first s "sample" tasks of each phase.
// Reduces are preempted eagerly (suspend/resume), by waiting, or by
// killing; maps wait unless map-preemption says otherwise. Where the paper
// is silent on how a job's two phases are coupled, the defaults do not let
// one job hoard the reduce slots: a reduce phase enters the virtual
// cluster when its job's maps have finished (reduce-aging), and the
// non-sample reduces of a job in training may be preempted
// (suspend-untrained); the public HFSP code's coupling is the options'
// other values.
type HFSP struct {
	o     hfspOptions
	vc    [2]*vcluster.Cluster
	jobs  []hfspJob
	order [2][]int64 // the virtual cluster's order, as of orderVer
	serve [2]hfspServe
	// serveFlags holds by job its servable bits, mayServe by phase, kept
	// up to date after every event and action of a job, so that building
	// a serve list reads them instead of the cluster's jobs; and its
	// launchable bits: whether the job has a task of the phase to launch
	// (servable, and not only through tasks suspended on some node). One
	// byte a job, so that noting a job that changed nothing compares once.
	// ready counts the launchable jobs in the phase's virtual cluster:
	// with none, and no sample to launch, a free slot is of no use but to
	// resume a task suspended on its node (WantsSlots).
	serveFlags []uint8
	ready      [2]int32
	// orderVer is the virtual cluster's OrderVersion when order was copied.
	orderVer [2]uint64
	// jobsInTraining per phase, in arrival order; sampling, those of them
	// with sample tasks left to launch, for reduces from the time they may
	// launch (a job waiting for slow-start could take no slot).
	training [2][]int32
	sampling [2][]int32
	// sampled lists, in arrival order, the jobs in reduce training whose
	// samples have all launched: checkReduceSamples' candidates.
	sampled []int32
	// zombies counts the phases finished for real but not yet in the
	// virtual cluster (hfspJob.zombie); zombieSeen is the virtual
	// cluster's Completions when its completions were last looked at
	// (none of them can finish virtually without one), and done a scratch
	// list of the jobs finished since.
	zombies    [2]int
	zombieSeen [2]int
	done       []int64
	// unmarked are the zombies not yet marked passive in their virtual
	// cluster: marked when the serve list starts anew (see serveList).
	unmarked [2][]int32
	// nextCheck is the earliest checkAt of the jobs whose reduce samples
	// have all launched; 0 after an event.
	nextCheck replay.Time
	// quietVer counts the changes of what WantsSlots and QuietUntil read
	// besides the virtual clusters (QuietVersion).
	quietVer uint64
	// quietAt is the last next completion QuietUntil saw per phase, and
	// quietBefore timeBefore of it (timeBefore(0) is 0, the zero values).
	quietAt     [2]float64
	quietBefore [2]replay.Time
	// trainingRunning counts running sample tasks per phase.
	trainingRunning [2]int
	trainSlots      [2]int
	// past task sizes per phase, for the initial estimate's l.
	pastSum   [2]float64
	pastCount [2]int
	delay     replay.Time
	clock     delay.Clock // delay scheduling: the jobs skipped at the last heartbeat
	// waits is the delay scheduling of each job's maps, and local their
	// locality bitmaps (see local.go).
	waits []hfspWait
	local localBits
	// preemptWanted caches whether some reduce job waits for slots held by
	// a larger job; recomputed lazily after events.
	preemptWanted, preemptDirty bool
	preemptVer                  uint64 // reduce OrderVersion of preemptWanted
	// reducesTouched marks a heartbeat in which the policy changed some
	// job's reduces (their events come only after it).
	reducesTouched bool
	scratch        []float64
	led            reduceLedger
	triedLate      []int32 // scratch of the late=ps scan
	// map preemption's scratch (preempt_maps.go)
	mapAllot, mapRank []int32
}

// hfspJob is HFSP's record of a job, the flags a heartbeat reads first.
// Its maps' delay scheduling is in HFSP.waits.
type hfspJob struct {
	arrived, realDone [2]bool
	inVC              [2]bool
	zombie            [2]bool // done for real, not yet virtually
	// deferred marks a reduce phase not yet in the virtual cluster: under
	// reduce-aging=after-maps it enters when the job's maps have finished.
	deferred bool
	trained  [2]bool
	tasks    [2]int
	// units is the minimum-size containers one task of each kind takes
	// (1 in the slot model): the virtual cluster sizes a phase in
	// container-seconds of the dominant resource and lets it run units ×
	// tasks containers at once; estimates stay in task-seconds.
	units   [2]float64
	samples [2][]int32 // indices of sample tasks, in launch order
	// sampleBits has bit i%64 set for each sample index i, so that most
	// tasks are found not to be samples without reading samples.
	sampleBits [2]uint64
	estimate   [2]float64 // size given to the virtual cluster (slot-s)
	errFactor  float64    // map estimate error multiplier
	vfinish    [2]float64 // virtual completion time, once seen
	// checkAt is the earliest time the reduce samples may all have
	// reported (see reduceCheckAt); 0 after an event of the job.
	checkAt replay.Time
}

type hfspOptions struct {
	samples       int
	xi            float64
	useEstimate   bool // initial-size=estimate
	delta         float64
	fit           string
	initialTask   float64
	trainMapSlots int
	trainRedSlots int
	late          string
	preemption    string
	delay         float64
	virtualSpeed  float64
	resetAging    bool
	errorModel    string
	alpha         float64
	sigma         float64
	errorSeed     uint64
	trueSizesMaps bool
	trueSizesReds bool
	// agingAtArrival puts the reduce phase in the virtual cluster when
	// the job arrives (the public code) rather than when its maps finish.
	agingAtArrival bool
	// suspendUntrained lets the non-sample reduces of a job whose reduce
	// phase is still in training be preempted.
	suspendUntrained bool
	mapPreemption    string
	// What the heartbeats test: preemption other than wait, late=ps.
	preemptReduces, preemptMaps, latePS bool
}

var hfspOptionList = []policy.Option{
	{Name: "samples", Default: "5", Usage: "s: sample tasks per phase whose durations estimate the phase's size"},
	{Name: "xi", Default: "1", Usage: "ξ ≥ 1: initial size ξ·k·l of a phase with k tasks (l: mean size of past tasks)"},
	{Name: "initial-size", Default: "xi", Usage: "a phase's size until its samples report: xi (ξ·k·l) or estimate (the trace's user estimate, user_estimate_s, split over the job's phases by their task counts; ξ·k·l for a job without one)", OmitDefault: true},
	{Name: "delta", Default: "60", Usage: "Δ in seconds: a running reduce sample is extrapolated after Δ s of its reduce function"},
	{Name: "fit", Default: "uniform", Usage: "distribution fitted (least squares on the ECDF) to sample durations: uniform"},
	{Name: "initial-task", Default: "60", Usage: "l in seconds before any task of the phase has finished"},
	{Name: "train-map-slots", Default: "-1", Usage: "map slots kept for sample tasks; -1 = 10% of the map slots"},
	{Name: "train-reduce-slots", Default: "-1", Usage: "reduce slots kept for sample tasks; -1 = 10% of the reduce slots"},
	{Name: "late", Default: "fifo", Usage: "jobs done in the virtual cluster but not for real: fifo (in virtual finish order, the paper's rule) or ps (share slots equally)"},
	{Name: "preemption", Default: "eager", Usage: "reduce preemption: eager (suspend youngest, resume oldest, wait past the node's cap), wait, or kill"},
	{Name: "map-preemption", Default: "wait", Usage: "map preemption, as for reduces: wait (maps are never preempted, the paper's choice), eager or kill"},
	{Name: "locality-delay", Default: "-1", Usage: "delay scheduling wait D in seconds before rack-local (off-rack after 2D); -1 = min(15, 1.5 × heartbeat); 0 = off"},
	{Name: "virtual-speed", Default: "1", Usage: "aging speed of the virtual cluster (the public HFSP code uses 0.5)"},
	{Name: "reset-aging", Default: "false", Usage: "on re-estimation restart the virtual job from the new size (the public code) instead of keeping its attained service"},
	{Name: "error", Default: "uniform", Usage: "estimation error model on map sizes: uniform (× U[1−alpha, 1+alpha]) or lognormal (× exp(N(0, sigma)))"},
	{Name: "alpha", Default: "0", Usage: "α of the uniform error model (0: no error)"},
	{Name: "sigma", Default: "0", Usage: "σ of the log-normal error model"},
	{Name: "error-seed", Default: "1", Usage: "seed of the error draws (one per job)"},
	{Name: "oracle", Default: "none", Usage: "true sizes instead of estimates: none, maps, reduces or both (FSP)"},
	{Name: "reduce-aging", Default: "after-maps", Usage: "when a job's reduce phase enters the virtual cluster and starts aging: after-maps (once its maps have finished; the paper is silent) or at-arrival (with the job, as the public HFSP code does, which lets a large job's reduces hold the reduce slots while its maps wait)"},
	{Name: "suspend-untrained", Default: "true", Usage: "whether the non-sample reduces of a job whose reduce phase is still in training may be preempted (true; the paper is silent) or never are (false, as the public HFSP code, which skips jobs in training)"},
}

var _ replay.Scheduler = (*HFSP)(nil)
var _ replay.Preempter = (*HFSP)(nil)
var _ replay.Starter = (*HFSP)(nil)

// Name is the policy's name in the registry and on the command line.
const Name = "hfsp"

// Policy describes the policy to the registry.
var Policy = policy.Policy{
	Name:    Name,
	Summary: "HFSP: size-based, virtual-cluster aging (FSP), eager preemption of reduces",
	Options: hfspOptionList,
	New:     func(s *policy.Settings) (replay.Scheduler, error) { return New(s) },
}

// New builds HFSP from its settings (see the policy.Option list).
func New(s *policy.Settings) (*HFSP, error) {
	var o hfspOptions
	o.samples = s.Int("samples")
	o.xi = s.Float("xi")
	o.useEstimate = s.OneOf("initial-size", "xi", "estimate") == "estimate"
	o.delta = s.Float("delta")
	o.fit = s.OneOf("fit", "uniform")
	o.initialTask = s.Float("initial-task")
	o.trainMapSlots = s.Int("train-map-slots")
	o.trainRedSlots = s.Int("train-reduce-slots")
	o.late = s.OneOf("late", "fifo", "ps")
	o.preemption = s.OneOf("preemption", "eager", "wait", "kill")
	o.mapPreemption = s.OneOf("map-preemption", "wait", "eager", "kill")
	o.delay = s.Float("locality-delay")
	o.virtualSpeed = s.Float("virtual-speed")
	o.resetAging = s.Bool("reset-aging")
	o.errorModel = s.OneOf("error", "uniform", "lognormal")
	o.alpha = s.Float("alpha")
	o.sigma = s.Float("sigma")
	o.errorSeed = s.Uint64("error-seed")
	sizes := s.OneOf("oracle", "none", "maps", "reduces", "both")
	o.trueSizesMaps = sizes == "maps" || sizes == "both"
	o.trueSizesReds = sizes == "reduces" || sizes == "both"
	o.agingAtArrival = s.OneOf("reduce-aging", "after-maps", "at-arrival") == "at-arrival"
	o.suspendUntrained = s.Bool("suspend-untrained")
	if err := s.Err(); err != nil {
		return nil, err
	}
	o.preemptReduces, o.preemptMaps, o.latePS = o.preemption != "wait", o.mapPreemption != "wait", o.late == "ps"
	switch {
	case o.samples < 1:
		return nil, fmt.Errorf("hfsp.samples: %d; want >= 1", o.samples)
	case !(o.xi >= 1):
		return nil, fmt.Errorf("hfsp.xi: %v; want >= 1", o.xi)
	case !(o.delta > 0):
		return nil, fmt.Errorf("hfsp.delta: %v; want > 0 seconds", o.delta)
	case !(o.initialTask > 0):
		return nil, fmt.Errorf("hfsp.initial-task: %v; want > 0 seconds", o.initialTask)
	case o.alpha < 0 || o.alpha > 1:
		return nil, fmt.Errorf("hfsp.alpha: %v; want 0 to 1", o.alpha)
	case o.sigma < 0:
		return nil, fmt.Errorf("hfsp.sigma: %v; want >= 0", o.sigma)
	case !(o.virtualSpeed > 0):
		return nil, fmt.Errorf("hfsp.virtual-speed: %v; want > 0", o.virtualSpeed)
	case o.delay < 0 && o.delay != -1:
		return nil, fmt.Errorf("hfsp.locality-delay: %v; want -1 (auto), 0 (off) or seconds", o.delay)
	}
	return &HFSP{o: o}, nil
}

// Name implements replay.Scheduler.
func (h *HFSP) Name() string { return Name }

// Start implements replay.Starter.
func (h *HFSP) Start(v *replay.View) error {
	h.jobs = make([]hfspJob, v.Jobs())
	for k := replay.Map; k <= replay.Reduce; k++ {
		h.vc[k] = vcluster.New(float64(v.Slots(k)), h.o.virtualSpeed)
	}
	h.waits = make([]hfspWait, v.Jobs())
	h.serveFlags = make([]uint8, v.Jobs())
	for j := range h.waits {
		h.waits[j].bits = -1
	}
	if n := v.Nodes(); n > 0 {
		racks := int(v.Rack(int32(n-1))) + 1
		h.local.nodeWords = (n + 63) / 64
		h.local.words = h.local.nodeWords + (racks+63)/64
		h.local.bits = n + racks
	}
	h.trainSlots[replay.Map] = trainSlots(h.o.trainMapSlots, v.Slots(replay.Map))
	h.trainSlots[replay.Reduce] = trainSlots(h.o.trainRedSlots, v.Slots(replay.Reduce))
	h.delay = delay.Duration(h.o.delay, v)
	h.clock.Start(v)
	return nil
}

func trainSlots(opt, slots int) int {
	if opt < 0 {
		return int(math.Ceil(0.1 * float64(slots)))
	}
	return opt
}

// errorFactor draws job j's map estimation error; it depends only on the
// seed and the job, so a sweep over alpha changes nothing else.
func (h *HFSP) errorFactor(j int32) float64 {
	rng := rand.New(rand.NewPCG(h.o.errorSeed, uint64(j)+1))
	switch {
	case h.o.errorModel == "lognormal" && h.o.sigma > 0:
		return math.Exp(h.o.sigma * rng.NormFloat64())
	case h.o.alpha > 0:
		return 1 - h.o.alpha + 2*h.o.alpha*rng.Float64()
	}
	return 1
}

// OnEvent implements replay.Scheduler.
func (h *HFSP) OnEvent(ev replay.Event, v *replay.View) {
	h.advance(v.Now().Sec())
	switch ev.Kind {
	case replay.TaskStarted, replay.TaskFinished, replay.TaskSuspended, replay.TaskResumed,
		replay.TaskKilled, replay.TaskLost:
		h.taskEvent(ev, v)
		return
	case replay.NodeFailed, replay.NodeRecovered:
		h.clock.OnEvent(ev.Kind)
		h.preemptDirty = true
		for k := replay.Map; k <= replay.Reduce; k++ {
			h.vc[k].SetSlots(float64(v.Slots(k)))
		}
		return
	}
	h.preemptDirty = true
	switch ev.Kind {
	case replay.JobArrived:
		h.arrive(ev.Job, v)
	case replay.ReducesEligible:
		h.startSampling(ev.Job)
		h.reserve(v, replay.Reduce, ev.Job)
		h.noteReduces(v, ev.Job)
	case replay.MapsDone:
		// Waiting reduces start their shuffle: the samples may report
		// sooner, if the job's reduces are in training.
		if hj := &h.jobs[ev.Job]; hj.arrived[replay.Reduce] && !hj.trained[replay.Reduce] {
			hj.checkAt = 0
			h.nextCheck = 0
			h.quietVer++
		}
	}
	h.noteServable(v, ev.Job)
}

// taskEvent is OnEvent for the events of a task attempt.
func (h *HFSP) taskEvent(ev replay.Event, v *replay.View) {
	t := ev.Task
	if t.Kind == replay.Reduce {
		// Map tasks change nothing WantsBusyHeartbeats looks at.
		h.preemptDirty = true
		// A reduce sample's events may let the samples report sooner,
		// if the job's reduces are in training.
		if hj := &h.jobs[ev.Job]; hj.arrived[replay.Reduce] && !hj.trained[replay.Reduce] && h.isSample(t) {
			hj.checkAt = 0
			h.nextCheck = 0
			h.quietVer++
		}
	}
	switch ev.Kind {
	case replay.TaskStarted:
		// The policy's own launch, noted when it acted (launchFitting);
		// nothing of the job changed since without an event or action
		// of its own, each noted in turn.
		return
	case replay.TaskResumed:
		if h.isSample(t) {
			h.trainingRunning[t.Kind]++
			h.quietVer++
		}
		return // noted when resumed (serveJob), as a launch
	case replay.TaskFinished:
		h.taskFinished(t, v)
	default: // killed, lost or suspended
		if h.isSample(t) {
			h.trainingRunning[t.Kind]--
			h.quietVer++
		}
		if ev.Kind != replay.TaskSuspended && t.Kind == replay.Map {
			h.mapPendingAgain(ev.Job, v)
		}
		h.reserve(v, t.Kind, ev.Job)
	}
	if t.Kind == replay.Reduce {
		h.noteReduces(v, ev.Job)
	}
	h.noteServable(v, ev.Job)
}

// advance ages the virtual clusters to now, and lets the zombies that
// finished there on the way leave. With no completion due by now and none
// since the last look, which is so at most events and heartbeats, it only
// moves the clusters' clocks.
func (h *HFSP) advance(now float64) {
	m, r := h.vc[replay.Map], h.vc[replay.Reduce]
	if m.AdvanceQuiet(now) && r.AdvanceQuiet(now) && m.Completions() == h.zombieSeen[replay.Map] && r.Completions() == h.zombieSeen[replay.Reduce] {
		return
	}
	for k := replay.Map; k <= replay.Reduce; k++ {
		vc := h.vc[k]
		vc.Advance(now)
		c := vc.Completions()
		if c == h.zombieSeen[k] {
			continue
		}
		seen := h.zombieSeen[k]
		h.zombieSeen[k] = c
		if h.zombies[k] == 0 {
			continue
		}
		// The jobs that finished virtually since: the zombies among them leave.
		h.done = vc.FinishedSince(seen, h.done[:0])
		for _, id := range h.done {
			j := int32(id)
			if hj := &h.jobs[j]; hj.zombie[k] {
				at, _, _ := vc.Finished(id)
				hj.vfinish[k], hj.zombie[k] = at, false
				h.zombies[k]--
				h.quietVer++
				vc.Remove(id)
				h.setInVC(j, k, false)
			}
		}
	}
}

func (h *HFSP) arrive(j int32, v *replay.View) {
	jv := v.Job(j)
	hj := &h.jobs[j]
	hj.errFactor = h.errorFactor(j)
	for k := replay.Map; k <= replay.Reduce; k++ {
		n := jv.Tasks(k)
		if n == 0 {
			continue
		}
		hj.arrived[k] = true
		hj.tasks[k] = n
		hj.units[k] = jv.ContainerUnits(k)
		size := h.o.xi * float64(n) * h.pastTask(k)
		if tj := jv.Trace(); h.o.useEstimate && tj != nil && tj.HasEstimate {
			// The user's estimate of the whole job, shared by task count.
			size = tj.Estimate * float64(n) / float64(tj.Maps()+tj.Reduces())
		}
		if h.trueSize(k) {
			size = jv.TrueWork(k)
			hj.trained[k] = true
		} else {
			h.training[k] = append(h.training[k], j)
			if k == replay.Map {
				h.sampling[k] = append(h.sampling[k], j)
				h.quietVer++
			}
		}
		hj.estimate[k] = size
		if k == replay.Reduce && !h.o.agingAtArrival && hj.arrived[replay.Map] {
			hj.deferred = true // enters when its maps finish (enterReduces)
			continue
		}
		h.setInVC(j, k, true)
		h.vc[k].Add(int64(j), size*hj.units[k], float64(n)*hj.units[k])
	}
}

// enterReduces puts job j's deferred reduce phase in the virtual cluster,
// once its maps have all finished, at its current estimate.
func (h *HFSP) enterReduces(j int32) {
	const k = replay.Reduce
	hj := &h.jobs[j]
	if !hj.deferred {
		return
	}
	hj.deferred = false
	h.setInVC(j, k, true)
	h.vc[k].Add(int64(j), hj.estimate[k]*hj.units[k], float64(hj.tasks[k])*hj.units[k])
}

// startSampling puts job j, whose reduces may now launch, in the reduce
// sampling list if its reduces are in training, at its place in arrival
// order (jobs arrive in index order).
func (h *HFSP) startSampling(j int32) {
	const k = replay.Reduce
	if hj := &h.jobs[j]; !hj.arrived[k] || hj.trained[k] {
		return
	}
	h.sampling[k] = insertSorted(h.sampling[k], j)
	h.quietVer++
}

// stopSampling takes job j out of phase k's sampling list, once it is
// trained or all its samples launched.
func (h *HFSP) stopSampling(j int32, k replay.TaskKind) {
	h.sampling[k] = deleteSorted(h.sampling[k], j)
	h.quietVer++
}

// insertSorted and deleteSorted keep a list of jobs in index order, which
// is arrival order.
func insertSorted(s []int32, j int32) []int32 {
	i, _ := slices.BinarySearch(s, j)
	return slices.Insert(s, i, j)
}

func deleteSorted(s []int32, j int32) []int32 {
	if i, ok := slices.BinarySearch(s, j); ok {
		return slices.Delete(s, i, i+1)
	}
	return s
}

func (h *HFSP) trueSize(k replay.TaskKind) bool {
	if k == replay.Map {
		return h.o.trueSizesMaps
	}
	return h.o.trueSizesReds
}

// VirtualFinish is the time phase k of job j completed in the virtual
// cluster, or NaN if it has not (yet) been seen to.
func (h *HFSP) VirtualFinish(j int32, k replay.TaskKind) float64 {
	hj := &h.jobs[j]
	if hj.inVC[k] || !hj.arrived[k] || k == replay.Reduce && hj.deferred {
		return math.NaN()
	}
	return hj.vfinish[k]
}

func (h *HFSP) pastTask(k replay.TaskKind) float64 {
	if h.pastCount[k] == 0 {
		return h.o.initialTask
	}
	return h.pastSum[k] / float64(h.pastCount[k])
}

func (h *HFSP) isSample(t replay.TaskRef) bool {
	hj := &h.jobs[t.Job]
	if hj.sampleBits[t.Kind]>>(t.Index&63)&1 == 0 {
		return false
	}
	for _, s := range hj.samples[t.Kind] {
		if s == t.Index {
			return true
		}
	}
	return false
}
