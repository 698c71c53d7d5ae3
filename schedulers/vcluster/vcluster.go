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
// fluid water-filling is its limit as slots become divisible. Every tie
// (equal caps, sizes or finish times) is broken by job id: the simulation
// is deterministic.
//
// A job progresses at speed × its slots, in slot-seconds per second of the
// caller's clock. Speed 1 follows the paper; the public HFSP code ages the
// virtual cluster at half speed (0.5).
//
// # Virtual time
//
// The jobs below their cap ("at the level") all receive the same service,
// G(t), which grows at speed·L. Each such job is kept by its virtual
// finish F = G(when it joined the level) + its work then: it finishes when
// G reaches F, and a change of L moves no job's F. A job at its cap
// progresses on its own clock and finishes at a fixed time T. Both kinds
// are in heaps, as are the level jobs by cap and the capped ones by cap
// (to move jobs between the two as L changes), so an arrival, a departure,
// a re-estimate or a completion costs O(log n), whatever the backlog.
//
// # Order
//
// FSP serves jobs in order of their projected virtual completion. The
// projection is made at the current shares: a capped job at its T, a level
// job at the time G would reach its F at the current L. (The exact fluid
// future, in which L rises as jobs finish, would order the same jobs the
// same way except where a job's cap is reached later; it costs a sweep of
// the backlog at every change.) Virtually finished jobs come first, in
// the order they finished. The Order changes at every change and
// completion (OrderVersion), and a walk reads it from its head (NextActive)
// at a cost in the jobs it reads.
//
// Virtually finished jobs stay in the cluster, with their finish time and a
// global finish sequence number, until Remove: HFSP keeps them because FSP
// serves "late" jobs (finished virtually, not really) first.
//
// Methods panic on misuse: unknown or duplicate ids, negative or NaN sizes,
// caps or slots, and time going backwards.
type Cluster struct {
	now float64
	due float64 // time of the next completion, +Inf if none
	// The level's service is G(t) = g0 + speed·level·(t − t0).
	t0, g0, level float64
	nLevel        int
	capSum        float64 // the caps of the capped jobs
	version       uint64
	seq           int

	slots, speed float64
	jobs         []vjob
	index        idIndex
	heaps        [nHeaps][]hent
	// fin holds the virtually finished jobs by sequence number; id −1
	// where one was removed or re-estimated.
	fin     []finEntry
	finDead int

	cur     cursor
	full    []int64 // the Order at version fullVer, for OrderAt
	fullVer uint64
	// sortL and sortC are the level and capped heaps as Order last sorted
	// them; added is sorted's scratch, and mark its stamp of the jobs it
	// found in the last sorted copy.
	sortL, sortC, added []hent
	mark                uint32
}

type finEntry struct {
	id  int64
	seq int
}

const (
	stLevel uint8 = iota // runs at the common level L
	stCapped
	stDone
)

type vjob struct {
	id  int64
	cap float64
	// f is F at the level, T when capped, the finish time when done.
	f             float64
	capAt, capRem float64 // when the job was capped, and its work then
	seq           int
	fpos          int32 // its place in fin, when done
	pos           [nHeaps]int32
	state         uint8
	passive       bool
	mark          uint32 // Cluster.mark when sorted found it
}

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
	return &Cluster{slots: slots, speed: speed, due: math.Inf(1)}
}

func (vc *Cluster) find(id int64) int32 {
	i, ok := vc.index.get(id)
	if !ok {
		panic(fmt.Sprintf("schedulers: unknown virtual job %d", id))
	}
	return i
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
	vc.materialize()
	i := int32(len(vc.jobs))
	vc.index.set(id, i)
	vc.jobs = append(vc.jobs, vjob{id: id, cap: c, fpos: -1, pos: [nHeaps]int32{-1, -1, -1, -1, -1, -1}})
	vc.start(i, work)
	vc.changed()
}

// start puts job i, detached, at the level with work to do, or finishes
// it now if that is too small to age.
func (vc *Cluster) start(i int32, work float64) {
	if work <= FinishedEpsilon {
		vc.finish(i, vc.now)
		return
	}
	vc.attachLevel(i, vc.g0+work)
}

// Update replaces job id's remaining work and cap, for a new size estimate.
// A virtually finished job given work > FinishedEpsilon becomes unfinished
// again (the HFSP code likewise restarts a re-estimated job); otherwise it
// keeps its finish record.
func (vc *Cluster) Update(id int64, work, c float64) {
	must.Work(work, c)
	i := vc.find(id)
	j := &vc.jobs[i]
	if j.state == stDone && work <= FinishedEpsilon {
		j.cap = c
		return
	}
	vc.materialize()
	vc.detach(i)
	j.cap, j.seq = c, 0
	vc.start(i, work)
	vc.changed()
}

// SetCap changes job id's parallelism cap.
func (vc *Cluster) SetCap(id int64, c float64) {
	must.NonNeg("cap", c)
	i := vc.find(id)
	j := &vc.jobs[i]
	if j.cap == c {
		return
	}
	if j.state == stDone {
		j.cap = c
		return
	}
	vc.materialize()
	if j.state == stCapped {
		vc.uncap(i)
	}
	vc.hremove(hLevelC, i)
	j.cap = c
	vc.hpush(hLevelC, hent{x: c, id: id, i: i})
	vc.changed()
}

// SetSlots changes the number of virtual slots (e.g. after a tracker fails).
func (vc *Cluster) SetSlots(s float64) {
	must.NonNeg("slots", s)
	if s != vc.slots {
		vc.materialize()
		vc.slots = s
		vc.changed()
	}
}

// SetPassive marks job id as one its caller will pass over in the Order
// from now on (a job done for real, which HFSP no longer serves):
// NextActive skips it. It changes nothing else: the job keeps its share
// and its place in the Order, and the OrderVersion stays.
func (vc *Cluster) SetPassive(id int64) {
	i := vc.find(id)
	j := &vc.jobs[i]
	if j.passive {
		return
	}
	j.passive = true
	for _, h := range []int{hActF, hActT} {
		if j.pos[h] >= 0 {
			vc.hremove(h, i)
		}
	}
	vc.cur.valid = false
}

// Remove deletes job id; unknown ids are ignored.
func (vc *Cluster) Remove(id int64) {
	i, ok := vc.index.get(id)
	if !ok {
		return
	}
	if vc.jobs[i].state == stDone {
		vc.detach(i)
		vc.version++
	} else {
		vc.materialize()
		vc.detach(i)
		vc.changed()
	}
	vc.dropJob(i)
	vc.compactFin()
}

// dropJob deletes the detached job at index i from the jobs and the
// index, moving the last job into its place.
func (vc *Cluster) dropJob(i int32) {
	id := vc.jobs[i].id
	last := int32(len(vc.jobs) - 1)
	if i != last {
		vc.jobs[i] = vc.jobs[last]
		vc.hmove(i)
		vc.index.set(vc.jobs[i].id, i)
	}
	vc.jobs = vc.jobs[:last]
	vc.index.del(id)
}

// compactFin drops the removed entries of fin once they are half of it.
func (vc *Cluster) compactFin() {
	if vc.finDead < 64 || 2*vc.finDead < len(vc.fin) {
		return
	}
	f := vc.fin[:0]
	for _, e := range vc.fin {
		if e.id >= 0 {
			vc.jobs[vc.find(e.id)].fpos = int32(len(f))
			f = append(f, e)
		}
	}
	vc.fin, vc.finDead = f, 0
	vc.cur.valid = false
}

// materialize brings G to now, so that a change of the level starts there.
func (vc *Cluster) materialize() {
	if vc.t0 < vc.now {
		if vc.nLevel > 0 {
			vc.g0 += vc.speed * vc.level * (vc.now - vc.t0)
		}
		vc.t0 = vc.now
	}
}

// changed ends a change at now: the shares are balanced again, the Order
// is new, and completions due now are recorded.
func (vc *Cluster) changed() {
	vc.rebalance()
	vc.version++
	vc.refreshDue()
	vc.settle(vc.now)
}

// setLevel computes the level from the jobs at it and the slots the
// capped ones hold.
func (vc *Cluster) setLevel() {
	if vc.nLevel == 0 {
		vc.level = 0
		return
	}
	vc.level = max((vc.slots-vc.capSum)/float64(vc.nLevel), 0)
}

// rebalance restores water-filling after a change at t0: every capped
// job's cap at most the level, every level job's above it. Uncapping a
// job whose cap is above the level raises the level, but not to its cap;
// capping one at or below it raises it too, so the capped stay capped.
func (vc *Cluster) rebalance() {
	vc.setLevel()
	for {
		top := vc.top(hCapC)
		if top == nil {
			break
		}
		over := -top.x > vc.level
		if vc.nLevel == 0 {
			over = vc.capSum > vc.slots
		}
		if !over {
			break
		}
		vc.uncap(top.i)
	}
	for {
		top := vc.top(hLevelC)
		if top == nil || top.x > vc.level {
			break
		}
		vc.capJob(top.i)
	}
}

func (vc *Cluster) attachLevel(i int32, f float64) {
	j := &vc.jobs[i]
	j.state, j.f = stLevel, f
	vc.hpush(hLevelF, hent{x: f, id: j.id, i: i})
	vc.hpush(hLevelC, hent{x: j.cap, id: j.id, i: i})
	if !j.passive {
		vc.hpush(hActF, hent{x: f, id: j.id, i: i})
	}
	vc.nLevel++
}

// capJob moves level job i to its cap at t0.
func (vc *Cluster) capJob(i int32) {
	j := &vc.jobs[i]
	rem := max(j.f-vc.g0, 0)
	vc.detach(i)
	j.state, j.capAt, j.capRem = stCapped, vc.t0, rem
	j.f = math.Inf(1)
	if j.cap > 0 {
		j.f = vc.t0 + rem/(vc.speed*j.cap)
	}
	vc.hpush(hCapT, hent{x: j.f, id: j.id, i: i})
	vc.hpush(hCapC, hent{x: -j.cap, id: j.id, i: i})
	if !j.passive {
		vc.hpush(hActT, hent{x: j.f, id: j.id, i: i})
	}
	vc.capSum += j.cap
	vc.setLevel()
}

// uncap moves capped job i to the level at t0.
func (vc *Cluster) uncap(i int32) {
	j := &vc.jobs[i]
	rem := max(j.capRem-vc.speed*j.cap*(vc.t0-j.capAt), 0)
	vc.detach(i)
	vc.attachLevel(i, vc.g0+rem)
	vc.setLevel()
}

// detach takes job i out of the heaps or the finished list.
func (vc *Cluster) detach(i int32) {
	j := &vc.jobs[i]
	switch j.state {
	case stLevel:
		vc.hremove(hLevelF, i)
		vc.hremove(hLevelC, i)
		if j.pos[hActF] >= 0 {
			vc.hremove(hActF, i)
		}
		vc.nLevel--
	case stCapped:
		vc.hremove(hCapT, i)
		vc.hremove(hCapC, i)
		if j.pos[hActT] >= 0 {
			vc.hremove(hActT, i)
		}
		vc.capSum -= j.cap
		if len(vc.heaps[hCapC]) == 0 {
			vc.capSum = 0 // no residue of the sums
		}
	case stDone:
		vc.fin[j.fpos].id = -1
		vc.finDead++
		j.fpos = -1
	}
	vc.setLevel()
}

// finish records detached job i as finished at t.
func (vc *Cluster) finish(i int32, t float64) {
	j := &vc.jobs[i]
	vc.seq++
	j.state, j.f, j.seq, j.fpos = stDone, t, vc.seq, int32(len(vc.fin))
	vc.fin = append(vc.fin, finEntry{id: j.id, seq: vc.seq})
}

// levelTime is when G reaches f at the current level (+Inf if never).
func (vc *Cluster) levelTime(f float64) float64 {
	if vc.nLevel == 0 || !(vc.level > 0) {
		return math.Inf(1)
	}
	return max(vc.t0+(f-vc.g0)/(vc.speed*vc.level), vc.t0)
}

func (vc *Cluster) refreshDue() {
	vc.due = math.Inf(1)
	if top := vc.top(hLevelF); top != nil {
		vc.due = vc.levelTime(top.x)
	}
	if top := vc.top(hCapT); top != nil {
		vc.due = min(vc.due, top.x)
	}
}

// NextCompletion is the time of the next virtual completion after the
// last Advance (+Inf when every job has finished). It is always known.
func (vc *Cluster) NextCompletion() (at float64, known bool) {
	return vc.due, true
}

// Advance ages every job up to time now, recording each virtual completion
// on the way at its exact time, in order of time and then id.
func (vc *Cluster) Advance(now float64) {
	if !(now >= vc.now) || math.IsInf(now, 1) {
		panic(fmt.Sprintf("schedulers: Advance(%g) from time %g", now, vc.now))
	}
	if now >= vc.due {
		vc.settle(now)
	}
	vc.now = now
}

// AdvanceQuiet is Advance to a time now before the next completion, and
// reports whether it was one; otherwise it does nothing (the caller then
// calls Advance). It is small enough to inline, for policies that advance
// at every event and heartbeat, when most advances settle nothing.
func (vc *Cluster) AdvanceQuiet(now float64) bool {
	if now >= vc.now && now < vc.due {
		vc.now = now
		return true
	}
	return false
}

// settle records the completions due by t, each at its time: the level
// job that G reaches first or the capped job due first, the shares
// balanced again after each.
func (vc *Cluster) settle(t float64) {
	for vc.due <= t {
		lt, ct := math.Inf(1), math.Inf(1)
		l, c := vc.top(hLevelF), vc.top(hCapT)
		if l != nil {
			lt = vc.levelTime(l.x)
		}
		if c != nil {
			ct = c.x
		}
		var i int32
		if c == nil || l != nil && (lt < ct || lt == ct && l.id < c.id) {
			i = l.i
			vc.t0, vc.g0 = lt, max(vc.g0, l.x) // exactly its F: equal F finish together
			vc.detach(i)
			vc.finish(i, lt)
		} else {
			i = c.i
			if vc.nLevel > 0 {
				vc.g0 += vc.speed * vc.level * (ct - vc.t0)
			}
			vc.t0 = ct
			vc.detach(i)
			vc.finish(i, ct)
		}
		vc.rebalance()
		vc.version++
		vc.refreshDue()
	}
}

// gNow is G at the current time.
func (vc *Cluster) gNow() float64 {
	if vc.nLevel == 0 {
		return vc.g0
	}
	return vc.g0 + vc.speed*vc.level*(vc.now-vc.t0)
}

// Remaining returns job id's remaining work in slot-seconds (0 once
// finished).
func (vc *Cluster) Remaining(id int64) float64 {
	j := &vc.jobs[vc.find(id)]
	switch j.state {
	case stLevel:
		return max(j.f-vc.gNow(), 0)
	case stCapped:
		return max(j.capRem-vc.speed*j.cap*(vc.now-j.capAt), 0)
	}
	return 0
}

// Finished reports whether job id has finished in the virtual cluster and,
// if so, when and its finish sequence number (1 for the first job ever to
// finish in this cluster, then 2, …).
func (vc *Cluster) Finished(id int64) (at float64, seq int, ok bool) {
	i, known := vc.index.get(id)
	if !known || vc.jobs[i].state != stDone {
		return 0, 0, false
	}
	return vc.jobs[i].f, vc.jobs[i].seq, true
}

// FinishedSince appends to dst the jobs still in the cluster that finished
// with a sequence number above seq, in order, and returns it.
func (vc *Cluster) FinishedSince(seq int, dst []int64) []int64 {
	p, _ := slices.BinarySearchFunc(vc.fin, seq+1, func(e finEntry, s int) int { return e.seq - s })
	for _, e := range vc.fin[p:] {
		if e.id >= 0 {
			dst = append(dst, e.id)
		}
	}
	return dst
}

// ProjectedFinish returns the time job id would finish in the virtual
// cluster at the current shares (+Inf if never, e.g. with cap 0), or its
// recorded finish time if it has finished.
func (vc *Cluster) ProjectedFinish(id int64) float64 {
	j := &vc.jobs[vc.find(id)]
	if j.state == stLevel {
		return vc.levelTime(j.f)
	}
	return j.f
}

// NextEvent returns the time of the next virtual completion, or +Inf.
func (vc *Cluster) NextEvent() float64 { return vc.due }

// before orders a level job's entry against a capped one's in the Order:
// by projected finish, then id.
func (vc *Cluster) before(l, c *hent) bool {
	lt := vc.levelTime(l.x)
	return lt < c.x || lt == c.x && l.id < c.id
}

// Order appends every job id to dst and returns it: virtually finished jobs
// first in the order they finished, then the others by (projected finish,
// id). This is the order in which FSP serves jobs.
func (vc *Cluster) Order(dst []int64) []int64 {
	vc.sortL = vc.sorted(hLevelF, vc.sortL)
	vc.sortC = vc.sorted(hCapT, vc.sortC)
	return vc.orderOf(dst, vc.sortL, vc.sortC)
}

// orderOf appends to dst the virtually finished jobs, then the level
// jobs ls and the capped ones cs, each sorted by hless, merged.
func (vc *Cluster) orderOf(dst []int64, ls, cs []hent) []int64 {
	for _, e := range vc.fin {
		if e.id >= 0 {
			dst = append(dst, e.id)
		}
	}
	for len(ls) > 0 || len(cs) > 0 {
		if len(cs) == 0 || len(ls) > 0 && vc.before(&ls[0], &cs[0]) {
			dst, ls = append(dst, ls[0].id), ls[1:]
		} else {
			dst, cs = append(dst, cs[0].id), cs[1:]
		}
	}
	return dst
}

// sorted returns heap h's entries sorted by hless, from prev, the sorted
// entries it returned for h before. A change of the cluster moves few
// entries of a heap, and re-sorting it whole at every Order would cost
// most of it: so the entries of prev still in the heap with the same key
// are kept in their order, and only the others are sorted and merged in.
// (key, id) is a total order, so the result is the heap sorted.
func (vc *Cluster) sorted(h int, prev []hent) []hent {
	if vc.mark++; vc.mark == 0 { // wrapped: no job may look marked
		for i := range vc.jobs {
			vc.jobs[i].mark = 0
		}
		vc.mark = 1
	}
	heap := vc.heaps[h]
	kept := prev[:0]
	for _, e := range prev {
		i, ok := vc.index.get(e.id)
		if !ok {
			continue
		}
		j := &vc.jobs[i]
		if p := j.pos[h]; p >= 0 && heap[p].x == e.x {
			e.i = i
			kept = append(kept, e)
			j.mark = vc.mark
		}
	}
	if len(kept) == len(heap) {
		return kept
	}
	added := vc.added[:0]
	for _, e := range heap {
		if vc.jobs[e.i].mark != vc.mark {
			added = append(added, e)
		}
	}
	slices.SortFunc(added, cmpEnt)
	vc.added = added
	// Merge from the back, in kept grown to the heap's length: an entry
	// of kept moves only to a place after its own.
	out := slices.Grow(kept, len(added))[:len(kept)+len(added)]
	a, b := len(kept)-1, len(added)-1
	for w := len(out) - 1; b >= 0; w-- {
		if a >= 0 && hless(&added[b], &out[a]) {
			out[w] = out[a]
			a--
		} else {
			out[w] = added[b]
			b--
		}
	}
	return out
}

// cmpEnt is hless as a comparison, for sorting.
func cmpEnt(a, b hent) int {
	switch {
	case hless(&a, &b):
		return -1
	case hless(&b, &a):
		return 1
	}
	return 0
}

// OrderAt returns the job at position p of the Order (0 ≤ p < Len).
func (vc *Cluster) OrderAt(p int) int64 {
	if p < 0 || p >= len(vc.jobs) {
		panic(fmt.Sprintf("schedulers: virtual order position %d of %d", p, len(vc.jobs)))
	}
	if vc.full == nil || vc.fullVer != vc.version {
		vc.full, vc.fullVer = vc.Order(vc.full[:0]), vc.version
	}
	return vc.full[p]
}

// NextActive returns the first position q ≥ p of the Order of the active
// jobs (those not passive, SetPassive), and that job's id; q is Len() and
// the id −1 if there is none. The positions hold until the next change or
// SetPassive. It reads the Order from its head as far as asked, at a cost
// in the jobs it reads, not in the backlog: the passive jobs are not in
// its heaps at all.
func (vc *Cluster) NextActive(p int) (q int, id int64) {
	c := &vc.cur
	if !c.valid || c.ver != vc.version {
		c.reset(vc)
	}
	for len(c.ids) <= p {
		if !c.next(vc) {
			return len(vc.jobs), -1
		}
	}
	return p, c.ids[p]
}

// Completions returns the number of virtual completions so far: a caller
// waiting for jobs to finish virtually need not ask about them while it
// has not changed.
func (vc *Cluster) Completions() int { return vc.seq }

// OrderVersion returns a number that changes whenever Order would return
// another order, so that a caller may keep a copy.
func (vc *Cluster) OrderVersion() uint64 { return vc.version }

// cursor reads the active Order from its head: the finished jobs in fin,
// then the two active heaps merged, each enumerated in order by a small
// heap of its positions whose parents have been read (the frontier).
type cursor struct {
	valid  bool
	ver    uint64
	ids    []int64
	fi     int
	fl, fc []int32 // frontiers in hActF and hActT
}

func (c *cursor) reset(vc *Cluster) {
	c.valid, c.ver = true, vc.version
	c.ids, c.fi = c.ids[:0], 0
	c.fl, c.fc = c.fl[:0], c.fc[:0]
	if len(vc.heaps[hActF]) > 0 {
		c.fl = append(c.fl, 0)
	}
	if len(vc.heaps[hActT]) > 0 {
		c.fc = append(c.fc, 0)
	}
}

func (c *cursor) next(vc *Cluster) bool {
	for c.fi < len(vc.fin) {
		e := vc.fin[c.fi]
		c.fi++
		if e.id >= 0 && !vc.jobs[vc.find(e.id)].passive {
			c.ids = append(c.ids, e.id)
			return true
		}
	}
	hl, hc := vc.heaps[hActF], vc.heaps[hActT]
	switch {
	case len(c.fl) == 0 && len(c.fc) == 0:
		return false
	case len(c.fc) == 0 || len(c.fl) > 0 && vc.before(&hl[c.fl[0]], &hc[c.fc[0]]):
		c.ids = append(c.ids, hl[c.fl[0]].id)
		c.fl = frontierPop(c.fl, hl)
	default:
		c.ids = append(c.ids, hc[c.fc[0]].id)
		c.fc = frontierPop(c.fc, hc)
	}
	return true
}

// frontierPop replaces the frontier's least position by its children in
// heap h.
func frontierPop(f []int32, h []hent) []int32 {
	p := f[0]
	n := len(f) - 1
	f[0] = f[n]
	f = f[:n]
	if n > 0 {
		frontierDown(f, h, 0)
	}
	for _, k := range [2]int32{2*p + 1, 2*p + 2} {
		if int(k) < len(h) {
			f = append(f, k)
			for q := len(f) - 1; q > 0; {
				r := (q - 1) / 2
				if !hless(&h[f[q]], &h[f[r]]) {
					break
				}
				f[q], f[r] = f[r], f[q]
				q = r
			}
		}
	}
	return f
}

func frontierDown(f []int32, h []hent, q int) {
	for {
		c := 2*q + 1
		if c >= len(f) {
			return
		}
		if c+1 < len(f) && hless(&h[f[c+1]], &h[f[c]]) {
			c++
		}
		if !hless(&h[f[c]], &h[f[q]]) {
			return
		}
		f[q], f[c] = f[c], f[q]
		q = c
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
