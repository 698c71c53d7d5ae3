package vcluster

import (
	"fmt"
	"math"
	"slices"
	"sojourn/schedulers/internal/must"
)

// FinishedEpsilon is the remaining work (slot-seconds) at or below which a
// virtual job counts as finished. It absorbs floating-point residue so that
// a job never lingers with a remaining size like 1e-13.
const FinishedEpsilon = 1e-9

// Cluster ages jobs the way HFSP does (paper, Section 3.3): it
// simulates processor sharing on a virtual cluster with as many slots as the
// real one, and reports when each job finishes there.
//
// Each virtual job has a remaining "serialized" size W in slot-seconds (the
// sum of its tasks' run times) and a parallelism cap c, the number of tasks
// it could run at once. Between events the slots are shared max-min fairly by
// water-filling: job j runs at min(c_j, L) slots, where the level L makes the
// total min(S, Σc). The paper implements max-min fairness as a round-robin
// over virtual slots that starts from small jobs, at task granularity;
// fluid water-filling is its limit as slots become divisible. Shares are
// exact reals, so no job gains from rounding, and every tie (equal caps or
// sizes, simultaneous finishes) is broken by job id: the simulation is
// deterministic.
//
// A job progresses at speed × its slots, in slot-seconds per second of the
// caller's clock. Speed 1 follows the paper; the public HFSP code ages the
// virtual cluster at half speed (0.5).
//
// # Projection
//
// ProjectedFinish is the time a job would finish if no other job arrived.
// The fluid system is deterministic and memoryless (its state is the
// remaining sizes and caps), so without outside changes the trajectory seen
// from any later point is the rest of the same trajectory: projected finish
// times do not move as time advances. The cluster therefore computes the
// future after each batch of changes (Add, Update, SetCap, Remove,
// SetSlots), in O(log n) per completion, as far as callers look (see
// project), and Advance walks along it in O(1) per call plus O(1) per
// completion passed, without allocating. Each completion happens at its
// exact time with shares recomputed after it, as if the interval had been
// split there.
//
// Virtually finished jobs stay in the cluster, with their finish time and a
// global finish sequence number, until Remove: HFSP keeps them because FSP
// serves "late" jobs (finished virtually, not really) first.
//
// Methods panic on misuse: unknown or duplicate ids, negative or NaN sizes,
// caps or slots, and time going backwards.
type Cluster struct {
	// What Advance reads on every call, first, in one cache line.
	now     float64
	due     float64 // when the next completion or segment is (-Inf: unknown)
	dirty   bool    // sizes are materialized at now; projection is stale
	version uint64
	seq     int

	slots, speed float64
	jobs         []vjob
	index        idIndex

	// Projection, valid when !dirty, and as far as the sweep has gone.
	orderKeys []sortKey // Order: finished jobs by seq, then the others by (finish, id)
	final     int       // orderKeys[:final] are in place; the rest may be reordered
	next      int       // orderKeys[:next] are finished
	seg       int       // index of the level segment containing now
	sw        sweep
	// Level segments: from segT[k] on, every job not yet rate-capped has
	// received segG[k] + speed·segL[k]·(t − segT[k]) slot-seconds since the
	// projection started.
	segT, segG, segL []float64

	// Scratch for project: the heap of capped jobs, each job's state by
	// index, and the Order being built.
	heap  []int32
	st    []uint8
	spare []sortKey
	// Kept between projections (see sort.go): the jobs at the level by
	// work as of the last projection, each job's place in that list (by
	// index, -1 if none), the jobs added or updated since, and every job
	// by cap.
	workKeys []sortKey
	wpos     []int32
	// passive marks the jobs by index (SetPassive), apart from their
	// records so that a walk over the Order reads only the keys and this.
	passive []bool
	fresh   []int64
	caps    []capKey
}

type vjob struct {
	id   int64
	work float64 // remaining work when the projection started
	cap  float64
	seq  int
	// finish is the recorded finish time once finished; before, the
	// projected one of a job capped or never finishing. A job the sweep
	// finishes at the level has its projected finish in its key in the
	// Order only, so that the sweep does not write every job's record.
	finish   float64
	capAt    float64 // projected time from which the job runs at its cap
	gAtCap   float64 // level service received before capAt
	finished bool
	// sized marks a job whose work already stands at now while the
	// projection is stale: a change set it (Add, Update) or stored it
	// before changing the job (SetCap). project stores the others'.
	sized bool
}

const (
	stLevel uint8 = iota // runs at the common level L
	stCapped
	stDone
)

// New returns an empty virtual cluster with the given number
// of slots at time 0. Speed 0 means the default, 1.
func New(slots, speed float64) *Cluster {
	if speed == 0 {
		speed = 1
	}
	must.NonNeg("slots", slots)
	if !(speed > 0) || math.IsInf(speed, 1) {
		panic(fmt.Sprintf("schedulers: virtual cluster speed %g; want a positive finite number", speed))
	}
	return &Cluster{slots: slots, speed: speed}
}

func (vc *Cluster) find(id int64) *vjob {
	i, ok := vc.index.get(id)
	if !ok {
		panic(fmt.Sprintf("schedulers: unknown virtual job %d", id))
	}
	return &vc.jobs[i]
}

// Now returns the cluster's current time.
func (vc *Cluster) Now() float64 { return vc.now }

// Len returns the number of jobs, virtually finished or not.
func (vc *Cluster) Len() int { return len(vc.jobs) }

// Add inserts job id at the current time with work slot-seconds to do and
// parallelism cap c. A job with work ≤ FinishedEpsilon finishes at once.
func (vc *Cluster) Add(id int64, work, c float64) {
	must.Work(work, c)
	if _, dup := vc.index.get(id); dup {
		panic(fmt.Sprintf("schedulers: virtual job %d added twice", id))
	}
	vc.touch()
	vc.index.set(id, int32(len(vc.jobs)))
	vc.jobs = append(vc.jobs, vjob{id: id, work: work, cap: c, sized: true})
	vc.wpos = append(vc.wpos, -1)
	vc.passive = append(vc.passive, false)
	vc.fresh = append(vc.fresh, id)
	vc.insertCap(id, c)
}

// Update replaces job id's remaining work and cap, for a new size estimate.
// A virtually finished job given work > FinishedEpsilon becomes unfinished
// again (the HFSP code likewise restarts a re-estimated job); otherwise it
// keeps its finish record.
func (vc *Cluster) Update(id int64, work, c float64) {
	must.Work(work, c)
	j := vc.find(id)
	if j.finished && work <= FinishedEpsilon {
		vc.setCap(j, c)
		return
	}
	vc.touch()
	vc.setCap(j, c)
	j.work, j.sized = work, true
	j.finished, j.seq = false, 0
	vc.fresh = append(vc.fresh, id)
}

// setCap changes job j's cap and its place in the list by cap. A paused
// sweep walks that list by position, so it ends first when the change
// leaves the projection standing (a finished job's cap).
func (vc *Cluster) setCap(j *vjob, c float64) {
	if j.cap != c {
		if !vc.dirty {
			vc.complete()
		}
		vc.deleteCap(j.id, j.cap)
		vc.insertCap(j.id, c)
		j.cap = c
	}
}

// SetCap changes job id's parallelism cap.
func (vc *Cluster) SetCap(id int64, c float64) {
	must.NonNeg("cap", c)
	j := vc.find(id)
	if j.cap == c {
		return
	}
	if !j.finished {
		vc.touch()
		vc.size(j) // at its old cap
	}
	vc.setCap(j, c)
}

// SetSlots changes the number of virtual slots (e.g. after a tracker fails).
func (vc *Cluster) SetSlots(s float64) {
	must.NonNeg("slots", s)
	if s != vc.slots {
		vc.touch()
		vc.slots = s
	}
}

// SetPassive marks job id as one its caller will pass over in the Order
// from now on (a job done for real, which HFSP no longer serves):
// NextActive skips it. It changes nothing else: the job keeps its share
// and its place, and the Order and its version stay as they are.
func (vc *Cluster) SetPassive(id int64) {
	i, ok := vc.index.get(id)
	if !ok {
		vc.find(id) // panics
	}
	vc.passive[i] = true
}

// Remove deletes job id; unknown ids are ignored.
func (vc *Cluster) Remove(id int64) {
	i, ok := vc.index.get(id)
	if !ok {
		return
	}
	if vc.jobs[i].finished && vc.atProjectionStart() {
		vc.removeFinished(i)
		return
	}
	vc.touch()
	vc.deleteCap(id, vc.jobs[i].cap)
	vc.dropJob(i)
}

// dropJob deletes the job at index i from the jobs, the index and the
// list by work, moving the last job into its place.
func (vc *Cluster) dropJob(i int32) {
	if p := vc.wpos[i]; p >= 0 {
		vc.workKeys[p].i = -1 // sortByWork drops it
	}
	id := vc.jobs[i].id
	last := int32(len(vc.jobs) - 1)
	if i != last {
		vc.jobs[i], vc.wpos[i], vc.passive[i] = vc.jobs[last], vc.wpos[last], vc.passive[last]
		if p := vc.wpos[i]; p >= 0 {
			vc.workKeys[p].i = i
		}
		vc.index.set(vc.jobs[i].id, i)
	}
	vc.jobs, vc.wpos, vc.passive = vc.jobs[:last], vc.wpos[:last], vc.passive[:last]
	vc.index.del(id)
}

// NextCompletion is the time of the next virtual completion after the
// last Advance (+Inf when every job has finished), known only while the
// projection is current: after a change, only the next Advance knows.
func (vc *Cluster) NextCompletion() (at float64, known bool) {
	if vc.dirty {
		return 0, false
	}
	return vc.nextFinish(), true
}

// nextFinish is the finish time of the first job in the Order not yet
// finished, +Inf if none: settle keeps it in place.
func (vc *Cluster) nextFinish() float64 {
	if vc.next < vc.final {
		return vc.orderKeys[vc.next].x
	}
	return math.Inf(1)
}

// Advance ages every job up to time now, recording each virtual completion
// on the way at its exact time, in order of time and then id.
func (vc *Cluster) Advance(now float64) {
	// The common case, inlined: nothing is due by now (so now < +Inf).
	if !vc.dirty && now >= vc.now && now < vc.due {
		vc.now = now
		return
	}
	vc.advance(now)
}

func (vc *Cluster) advance(now float64) {
	if !(now >= vc.now) || math.IsInf(now, 1) {
		panic(fmt.Sprintf("schedulers: Advance(%g) from time %g", now, vc.now))
	}
	if now == vc.now && !vc.dirty {
		return // nothing can have changed since the last call
	}
	vc.ensure()
	vc.now = now
	vc.settle()
}

// settle records the completions due by now, in order, and finds the
// level segment containing now, sweeping on until the next completion
// after now is in place (or none is left). Nothing is due before vc.due:
// most calls stop there.
func (vc *Cluster) settle() {
	if vc.now < vc.due {
		return
	}
	for {
		for vc.next < vc.final {
			k := vc.orderKeys[vc.next]
			if k.x > vc.now {
				break
			}
			vc.seq++
			j := &vc.jobs[k.i]
			j.finished, j.seq, j.finish = true, vc.seq, k.x
			vc.orderKeys[vc.next].seq = vc.seq // still in order: see orderKey
			vc.next++
		}
		if vc.next < vc.final || vc.sw.done {
			break
		}
		vc.step()
	}
	// The sweep is past now, so the segments reach beyond it.
	for vc.seg+1 < len(vc.segT) && vc.segT[vc.seg+1] <= vc.now {
		vc.seg++
	}
	vc.due = vc.nextFinish()
	if vc.seg+1 < len(vc.segT) {
		vc.due = min(vc.due, vc.segT[vc.seg+1])
	}
}

// Remaining returns job id's remaining work in slot-seconds (0 once
// finished).
func (vc *Cluster) Remaining(id int64) float64 {
	vc.ensure()
	return vc.remaining(vc.find(id))
}

func (vc *Cluster) remaining(j *vjob) float64 {
	if j.finished {
		return 0
	}
	var r float64
	if j.capAt <= vc.now {
		r = j.work - j.gAtCap - vc.speed*j.cap*(vc.now-j.capAt)
	} else {
		k := vc.seg
		r = j.work - vc.segG[k] - vc.speed*vc.segL[k]*(vc.now-vc.segT[k])
	}
	return min(max(r, 0), j.work)
}

// Finished reports whether job id has finished in the virtual cluster and,
// if so, when and its finish sequence number (1 for the first job ever to
// finish in this cluster, then 2, …).
func (vc *Cluster) Finished(id int64) (at float64, seq int, ok bool) {
	vc.ensure()
	i, known := vc.index.get(id)
	if !known || !vc.jobs[i].finished {
		return 0, 0, false
	}
	return vc.jobs[i].finish, vc.jobs[i].seq, true
}

// ProjectedFinish returns the time job id would finish in the virtual
// cluster if no other job arrived and nothing changed (+Inf if never, e.g.
// with cap 0), or its recorded finish time if it has finished.
func (vc *Cluster) ProjectedFinish(id int64) float64 {
	vc.ensure()
	// find panics on an unknown id; a capped job's finish is set when it
	// is capped, a level job's in its key when the sweep reaches it.
	j, i := vc.find(id), vc.position(id)
	for vc.st[i] == stLevel && !vc.sw.done {
		vc.step()
	}
	if j.finished || vc.st[i] != stDone {
		return j.finish
	}
	return vc.orderKeys[vc.keyOf(id)].x
}

// keyOf is the position of job id's key in the Order as far as the
// sweep has gone (it must be there), by a scan: a key cannot be found by
// search without the finish time it is ordered by.
func (vc *Cluster) keyOf(id int64) int {
	for p := range vc.orderKeys {
		if vc.orderKeys[p].id == id {
			return p
		}
	}
	panic(fmt.Sprintf("schedulers: virtual job %d missing from the order", id))
}

// NextEvent returns the time of the next virtual completion, or +Inf.
func (vc *Cluster) NextEvent() float64 {
	vc.ensure()
	return vc.nextFinish()
}

// Order appends every job id to dst and returns it: virtually finished jobs
// first in the order they finished, then the others by (projected finish,
// id). This is the order in which FSP serves jobs. Advance does not change
// it, since jobs finish in exactly this order.
func (vc *Cluster) Order(dst []int64) []int64 {
	vc.ensure()
	vc.complete()
	for _, k := range vc.orderKeys {
		dst = append(dst, k.id)
	}
	return dst
}

// OrderAt returns the job at position p of the Order (0 ≤ p < Len): a
// caller reading the Order from its head makes the projection go only as
// far as it reads.
func (vc *Cluster) OrderAt(p int) int64 {
	vc.ensure()
	if p < 0 || p >= len(vc.jobs) {
		panic(fmt.Sprintf("schedulers: virtual order position %d of %d", p, len(vc.jobs)))
	}
	return vc.orderAt(p).id
}

// NextActive returns the first position q ≥ p of the Order whose job is
// not passive (SetPassive), and that job's id; q is Len() and the id -1
// if there is none. Like OrderAt, it projects only as far as it reads,
// but it passes over a run of passive jobs without a call for each,
// reading their keys and marks and none of their records.
func (vc *Cluster) NextActive(p int) (q int, id int64) {
	vc.ensure()
	for p < len(vc.jobs) {
		for p >= vc.final {
			vc.step()
		}
		for _, k := range vc.orderKeys[p:vc.final] {
			if !vc.passive[k.i] {
				return p, k.id
			}
			p++
		}
	}
	return len(vc.jobs), -1
}

// Completions returns the number of virtual completions so far: a caller
// waiting for jobs to finish virtually need not ask about them while it
// has not changed.
func (vc *Cluster) Completions() int {
	vc.ensure()
	return vc.seq
}

// OrderVersion returns a number that changes whenever Order would return
// another order, so that a caller may keep a copy.
func (vc *Cluster) OrderVersion() uint64 {
	vc.ensure()
	return vc.version
}

// touch prepares a change at the current time: the projection is
// recomputed from here, from every job's remaining work as of now. The
// stale projection still gives those sizes until project starts the new
// one, which stores them in the same pass over the jobs that sets them up
// (a job a change is about to alter is stored first, by size).
func (vc *Cluster) touch() {
	vc.dirty = true
}

// size stores job j's remaining work as of now, from the projection
// being replaced.
func (vc *Cluster) size(j *vjob) {
	if !j.sized && !j.finished {
		j.work, j.sized = vc.remaining(j), true
	}
}

func (vc *Cluster) ensure() {
	if vc.dirty {
		vc.project()
		vc.dirty = false
		vc.settle() // jobs too small to age
	}
}

// idIndex maps job ids to positions: in a slice for the small
// non-negative ids callers use (job indices), in a map otherwise.
type idIndex struct {
	dense  []int32 // position+1 by id; 0 means absent
	sparse map[int64]int32
}

// maxDenseID bounds the ids kept in the slice (16 MiB of index).
const maxDenseID = 1 << 22

func (x *idIndex) get(id int64) (int32, bool) {
	if id >= 0 && id < int64(len(x.dense)) {
		p := x.dense[id]
		return p - 1, p > 0
	}
	i, ok := x.sparse[id]
	return i, ok
}

func (x *idIndex) set(id int64, i int32) {
	if id >= 0 && id < maxDenseID {
		if id >= int64(len(x.dense)) {
			x.dense = slices.Grow(x.dense, int(id)+1-len(x.dense))[:id+1]
		}
		x.dense[id] = i + 1
		return
	}
	if x.sparse == nil {
		x.sparse = make(map[int64]int32)
	}
	x.sparse[id] = i
}

func (x *idIndex) del(id int64) {
	if id >= 0 && id < int64(len(x.dense)) {
		x.dense[id] = 0
		return
	}
	delete(x.sparse, id)
}
