package replay

import "math"

// JobResult is what happened to one job. Times are absolute simulated
// times; phases a job does not have (reduces of a map-only job) are NaN in
// the Sec accessors.
type JobResult struct {
	Index       int32
	ID          int64
	Class       string
	Pool        string
	Maps        int32
	Reduces     int32
	Submit      Time
	FirstLaunch Time
	MapsDone    Time
	// ReducesEligible is when the job reached slow-start (valid if Reduces > 0).
	ReducesEligible Time
	Finish          Time
	Kills           int32 // attempts killed by the policy
	Suspensions     int32 // suspensions by the policy
	Lost            int32 // attempts lost to node failures
	// Maps finished node-local, rack-local and off-rack; none of them for
	// a job without input data (NoInput).
	NodeLocal, RackLocal, OffRack int32
	// NoInput is set for a job whose maps read no input data: they have
	// no locality.
	NoInput bool
	// Rigid is the trace's flag: the job is a gang of maps.
	Rigid bool
	// Parallel is how many of the job's maps and of its reduces the whole
	// cluster could run at once: the nodes' slots of each kind, or in the
	// container model the containers of the job's size their resources
	// hold. With Result.FastestSpeed it bounds the job's ideal run time
	// from below (the slowdown's denominator).
	Parallel [2]int32
	// AMStart is when the job's ApplicationMaster started (container
	// model; 0 in the slot model).
	AMStart Time
}

// Sojourn is the job's time in the system.
func (r *JobResult) Sojourn() Time { return r.Finish - r.Submit }

// MapSojourn is the time from submit to the end of the map phase.
func (r *JobResult) MapSojourn() Time { return r.MapsDone - r.Submit }

// ReduceSojourn is the time from slow-start to the job's end, or -1 for a
// map-only job.
func (r *JobResult) ReduceSojourn() Time {
	if r.Reduces == 0 {
		return -1
	}
	return r.Finish - r.ReducesEligible
}

// Result is the outcome of a run.
type Result struct {
	Scheduler string
	Config    Config
	Jobs      []JobResult
	// FastestSpeed is the speed of the cluster's fastest node relative
	// to the reference node (1 on a homogeneous cluster).
	FastestSpeed float64
	Segments     Segments  // if Config.RecordTasks
	Occupancy    Occupancy // if Config.RecordOccupancy
	Stats        Stats
	// BusySlotTime is the slot time used by task segments (including
	// locality penalties, lost work and swap time).
	BusySlotTime Time
	// LostWork is slot time spent on attempts that were killed or lost.
	LostWork Time
	// SwapTime is slot time spent swapping memory of suspended tasks.
	SwapTime Time
	// The cluster's resources (View.ResourceNames), their capacity at the
	// start, and in the container model their allocation integrated over
	// the run in resource-seconds (ApplicationMasters included).
	ResourceNames    []string
	ResourceCapacity Resources
	ResourceSeconds  [MaxResources]float64
}

// Utilisation is the mean fraction of resource r allocated from the
// first submit to the last finish (container model), or NaN.
func (r *Result) Utilisation(res int) float64 {
	if len(r.Jobs) == 0 || r.ResourceCapacity[res] == 0 || r.Config.Model != ContainerModel {
		return math.NaN()
	}
	span := (r.Stats.End - r.Jobs[0].Submit).Sec()
	return r.ResourceSeconds[res] / (span * float64(r.ResourceCapacity[res]))
}

// SlotUtilisation is the mean fraction of the slots busy with task
// segments from the first submit to the last finish (slot model), or NaN.
func (r *Result) SlotUtilisation() float64 {
	if len(r.Jobs) == 0 || r.Config.Model != SlotModel {
		return math.NaN()
	}
	span := (r.Stats.End - r.Jobs[0].Submit).Sec()
	slots := float64(r.ResourceCapacity[0] + r.ResourceCapacity[1])
	return r.BusySlotTime.Sec() / (span * slots)
}

// MeanSojourn is the mean job sojourn time in seconds.
func (r *Result) MeanSojourn() float64 {
	if len(r.Jobs) == 0 {
		return math.NaN()
	}
	var s float64
	for i := range r.Jobs {
		s += r.Jobs[i].Sojourn().Sec()
	}
	return s / float64(len(r.Jobs))
}

// parallel is JobResult.Parallel for job ji: over every node, how many
// tasks of each kind of the job its capacity holds at once.
func (e *Engine) parallel(ji int32) [2]int32 {
	var out [2]int32
	for k := Map; k <= Reduce; k++ {
		var sum int64
		for i := range e.nodes {
			sum = min(sum+e.holds(&e.nodes[i].capa, e.request(ji, k)), math.MaxInt32)
		}
		out[k] = int32(sum)
	}
	return out
}

// NoInputMaps is the number of maps of jobs without input data, which
// have no locality and are left out of NodeLocalFraction.
func (r *Result) NoInputMaps() int64 {
	var n int64
	for i := range r.Jobs {
		if r.Jobs[i].NoInput {
			n += int64(r.Jobs[i].Maps)
		}
	}
	return n
}

// NodeLocalFraction is the fraction of finished maps that ran node-local,
// among those that read input data; NaN when there are none.
func (r *Result) NodeLocalFraction() float64 {
	var local, all int64
	for i := range r.Jobs {
		j := &r.Jobs[i]
		local += int64(j.NodeLocal)
		all += int64(j.NodeLocal + j.RackLocal + j.OffRack)
	}
	if all == 0 {
		return math.NaN()
	}
	return float64(local) / float64(all)
}

func (e *Engine) result() *Result {
	r := &Result{Scheduler: e.sched.Name(), Config: e.cfg, Stats: e.stats,
		Segments: e.rec.seg, Occupancy: e.rec.occ, BusySlotTime: e.rec.segTotal,
		LostWork: e.lostWork, SwapTime: e.swapTime,
		ResourceNames: e.resNames, ResourceSeconds: e.allocIntegr}
	for i := range e.nodes {
		for x := range e.nres {
			r.ResourceCapacity[x] += e.nodes[i].capa[x]
		}
	}
	r.Jobs = make([]JobResult, len(e.jobs))
	// Jobs of one request size hold the same number of tasks at once:
	// every job in the slot model, a few sizes in the container model.
	memo := map[[2]Resources][2]int32{}
	for i := range e.jobs {
		j := &e.jobs[i]
		r.Jobs[i] = jobResult(int32(i), j)
		key := [2]Resources{*e.request(int32(i), Map), *e.request(int32(i), Reduce)}
		p, ok := memo[key]
		if !ok {
			p = e.parallel(int32(i))
			memo[key] = p
		}
		r.Jobs[i].Parallel = p
	}
	for i := range e.nodes {
		r.FastestSpeed = max(r.FastestSpeed, e.nodes[i].speed)
	}
	return r
}

func jobResult(i int32, j *job) JobResult {
	return JobResult{
		Index: i, ID: j.id, Class: j.class, Pool: j.pool,
		Maps: j.nmaps, Reduces: j.nrd,
		Submit: j.submit, FirstLaunch: j.firstLaunch, MapsDone: j.mapsDone,
		ReducesEligible: j.eligibleAt, Finish: j.finish,
		Kills: j.kills, Suspensions: j.suspensions, Lost: j.lost,
		NodeLocal: j.locality[NodeLocal], RackLocal: j.locality[RackLocal], OffRack: j.locality[OffRack],
		NoInput: j.noInput && j.nmaps > 0, Rigid: j.rigid,
		AMStart: j.amStart,
	}
}
