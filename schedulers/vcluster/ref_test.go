package vcluster_test

// The virtual cluster as it was before its projection kept its sorted
// lists incrementally: a reference whose every answer the cluster must
// reproduce bit for bit (TestMatchesReference), since HFSP's results
// depend on the exact floating-point finish times.

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"sojourn/schedulers/internal/must"
	"sojourn/schedulers/vcluster"
)

// FinishedEpsilon is the remaining work (slot-seconds) at or below which a
// virtual job counts as finished. It absorbs floating-point residue so that
// a job never lingers with a remaining size like 1e-13.
const FinishedEpsilon = vcluster.FinishedEpsilon

// refCluster ages jobs the way HFSP does (paper, Section 3.3): it
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
// whole future once, in O(n log n), after each batch of changes (Add,
// Update, SetCap, Remove, SetSlots), and Advance walks along it in O(1) per
// call plus O(1) per completion passed, without allocating. Each completion
// happens at its exact time with shares recomputed after it, as if the
// interval had been split there.
//
// Virtually finished jobs stay in the cluster, with their finish time and a
// global finish sequence number, until Remove: HFSP keeps them because FSP
// serves "late" jobs (finished virtually, not really) first.
//
// Methods panic on misuse: unknown or duplicate ids, negative or NaN sizes,
// caps or slots, and time going backwards.
type refCluster struct {
	// What Advance reads on every call, first, in one cache line.
	now     float64
	due     float64 // when the next completion or segment is (-Inf: unknown)
	dirty   bool    // sizes are materialized at now; projection is stale
	version uint64
	seq     int

	slots, speed float64
	jobs         []refJob
	index        idIndex

	// Projection, valid when !dirty.
	order []int32 // finished jobs by seq, then the others by (finish, id)
	next  int     // order[:next] are finished
	seg   int     // index of the level segment containing now
	// Level segments: from segT[k] on, every job not yet rate-capped has
	// received segG[k] + speed·segL[k]·(t − segT[k]) slot-seconds since the
	// projection started.
	segT, segG, segL []float64

	byCap, byWork, heap []int32 // scratch for project
	// The last projection's sorted lists (see sort.go), and the
	// mark of the jobs found in the list being sorted.
	workKeys, capKeys, orderKeys []sortKey
	epoch                        uint32
}

type refJob struct {
	id       int64
	work     float64 // remaining work when the projection started
	cap      float64
	seq      int
	finish   float64 // recorded finish time if finished, else projected
	capAt    float64 // projected time from which the job runs at its cap
	gAtCap   float64 // level service received before capAt
	mark     uint32  // scratch for resort
	finished bool
	state    uint8 // scratch for project
}

const (
	stLevel uint8 = iota // runs at the common level L
	stCapped
	stDone
)

// New returns an empty virtual cluster with the given number
// of slots at time 0. Speed 0 means the default, 1.
func newRef(slots, speed float64) *refCluster {
	if speed == 0 {
		speed = 1
	}
	must.NonNeg("slots", slots)
	if !(speed > 0) || math.IsInf(speed, 1) {
		panic(fmt.Sprintf("schedulers: virtual cluster speed %g; want a positive finite number", speed))
	}
	return &refCluster{slots: slots, speed: speed}
}

func (vc *refCluster) find(id int64) *refJob {
	i, ok := vc.index.get(id)
	if !ok {
		panic(fmt.Sprintf("schedulers: unknown virtual job %d", id))
	}
	return &vc.jobs[i]
}

// Now returns the cluster's current time.
func (vc *refCluster) Now() float64 { return vc.now }

// Len returns the number of jobs, virtually finished or not.
func (vc *refCluster) Len() int { return len(vc.jobs) }

// Add inserts job id at the current time with work slot-seconds to do and
// parallelism cap c. A job with work ≤ FinishedEpsilon finishes at once.
func (vc *refCluster) Add(id int64, work, c float64) {
	must.Work(work, c)
	if _, dup := vc.index.get(id); dup {
		panic(fmt.Sprintf("schedulers: virtual job %d added twice", id))
	}
	vc.touch()
	vc.index.set(id, int32(len(vc.jobs)))
	vc.jobs = append(vc.jobs, refJob{id: id, work: work, cap: c})
}

// Update replaces job id's remaining work and cap, for a new size estimate.
// A virtually finished job given work > FinishedEpsilon becomes unfinished
// again (the HFSP code likewise restarts a re-estimated job); otherwise it
// keeps its finish record.
func (vc *refCluster) Update(id int64, work, c float64) {
	must.Work(work, c)
	j := vc.find(id)
	if j.finished && work <= FinishedEpsilon {
		j.cap = c
		return
	}
	vc.touch()
	j.work, j.cap = work, c
	j.finished, j.seq = false, 0
}

// SetCap changes job id's parallelism cap.
func (vc *refCluster) SetCap(id int64, c float64) {
	must.NonNeg("cap", c)
	j := vc.find(id)
	if j.cap == c {
		return
	}
	if !j.finished {
		vc.touch()
	}
	j.cap = c
}

// SetSlots changes the number of virtual slots (e.g. after a tracker fails).
func (vc *refCluster) SetSlots(s float64) {
	must.NonNeg("slots", s)
	if s != vc.slots {
		vc.touch()
		vc.slots = s
	}
}

// Remove deletes job id; unknown ids are ignored.
func (vc *refCluster) Remove(id int64) {
	i, ok := vc.index.get(id)
	if !ok {
		return
	}
	vc.touch()
	last := int32(len(vc.jobs) - 1)
	vc.jobs[i] = vc.jobs[last]
	vc.index.set(vc.jobs[i].id, i)
	vc.jobs = vc.jobs[:last]
	vc.index.del(id)
}

// Advance ages every job up to time now, recording each virtual completion
// on the way at its exact time, in order of time and then id.
func (vc *refCluster) Advance(now float64) {
	// The common case, inlined: nothing is due by now (so now < +Inf).
	if !vc.dirty && now >= vc.now && now < vc.due {
		vc.now = now
		return
	}
	vc.advance(now)
}

func (vc *refCluster) advance(now float64) {
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
// level segment containing now. Nothing is due before vc.due: most calls
// stop there.
func (vc *refCluster) settle() {
	if vc.now < vc.due {
		return
	}
	for vc.next < len(vc.order) {
		j := &vc.jobs[vc.order[vc.next]]
		if j.finish > vc.now {
			break
		}
		vc.seq++
		j.finished, j.seq = true, vc.seq
		vc.next++
	}
	for vc.seg+1 < len(vc.segT) && vc.segT[vc.seg+1] <= vc.now {
		vc.seg++
	}
	vc.due = math.Inf(1)
	if vc.next < len(vc.order) {
		vc.due = vc.jobs[vc.order[vc.next]].finish
	}
	if vc.seg+1 < len(vc.segT) {
		vc.due = min(vc.due, vc.segT[vc.seg+1])
	}
}

// Remaining returns job id's remaining work in slot-seconds (0 once
// finished).
func (vc *refCluster) Remaining(id int64) float64 {
	vc.ensure()
	return vc.remaining(vc.find(id))
}

func (vc *refCluster) remaining(j *refJob) float64 {
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
func (vc *refCluster) Finished(id int64) (at float64, seq int, ok bool) {
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
func (vc *refCluster) ProjectedFinish(id int64) float64 {
	vc.ensure()
	return vc.find(id).finish
}

// NextEvent returns the time of the next virtual completion, or +Inf.
func (vc *refCluster) NextEvent() float64 {
	vc.ensure()
	if vc.next < len(vc.order) {
		return vc.jobs[vc.order[vc.next]].finish
	}
	return math.Inf(1)
}

// Order appends every job id to dst and returns it: virtually finished jobs
// first in the order they finished, then the others by (projected finish,
// id). This is the order in which FSP serves jobs. Advance does not change
// it, since jobs finish in exactly this order.
func (vc *refCluster) Order(dst []int64) []int64 {
	vc.ensure()
	for _, i := range vc.order {
		dst = append(dst, vc.jobs[i].id)
	}
	return dst
}

// Completions returns the number of virtual completions so far: a caller
// waiting for jobs to finish virtually need not ask about them while it
// has not changed.
func (vc *refCluster) Completions() int {
	vc.ensure()
	return vc.seq
}

// OrderVersion returns a number that changes whenever Order would return
// another order, so that a caller may keep a copy.
func (vc *refCluster) OrderVersion() uint64 {
	vc.ensure()
	return vc.version
}

// touch prepares a change at the current time: it stores every job's
// remaining work as of now, so the projection can be recomputed from here.
func (vc *refCluster) touch() {
	if vc.dirty {
		return
	}
	for i := range vc.jobs {
		j := &vc.jobs[i]
		if !j.finished {
			j.work = vc.remaining(j)
		}
	}
	vc.dirty = true
}

func (vc *refCluster) ensure() {
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

// project recomputes the fluid future from the sizes stored at now.
//
// With no arrivals the level L never falls: a finishing job frees slots and
// leaves fewer jobs to share them. So a job, once capped (c ≤ L), stays capped
// and finishes at a fixed time; the jobs at the level all receive the same
// service G(t), and finish in order of size. Sweeping the jobs once by cap
// (to cap them as L rises) and once by size (to finish level jobs), with a
// heap of capped finish times, gives every finish time in O(n log n).
func (vc *refCluster) project() {
	now := vc.now
	for i := range vc.jobs {
		j := &vc.jobs[i]
		switch {
		case j.finished:
			j.state = stDone
		case j.work <= FinishedEpsilon: // too small to age: finishes now
			j.state, j.finish = stDone, now
		default:
			j.state, j.finish, j.capAt, j.gAtCap = stLevel, math.Inf(1), math.Inf(1), 0
		}
	}
	byWork := vc.resort(&vc.workKeys, byWorkKind, vc.byWork)
	byCap := vc.resort(&vc.capKeys, byCapKind, vc.byCap)

	vc.segT, vc.segG, vc.segL = vc.segT[:0], vc.segG[:0], vc.segL[:0]
	vc.heap = vc.heap[:0]
	t, g, level := now, 0.0, 0.0
	atLevel, capped := len(byWork), 0.0
	pc, pw := 0, 0
	for {
		// Cap every level job whose cap the level has reached.
		for atLevel > 0 {
			level = max((vc.slots-capped)/float64(atLevel), 0)
			for vc.jobs[byCap[pc]].state != stLevel {
				pc++
			}
			j := &vc.jobs[byCap[pc]]
			if j.cap > level {
				break
			}
			j.state, j.capAt, j.gAtCap = stCapped, t, g
			if j.cap > 0 {
				j.finish = t + max(j.work-g, 0)/(vc.speed*j.cap)
			}
			capped += j.cap
			atLevel--
			vc.push(byCap[pc])
		}
		if atLevel == 0 {
			level = 0
		}
		vc.segT = append(vc.segT, t)
		vc.segG = append(vc.segG, g)
		vc.segL = append(vc.segL, level)

		tl := math.Inf(1) // next finish among level jobs: the smallest
		if atLevel > 0 {
			for vc.jobs[byWork[pw]].state != stLevel {
				pw++
			}
			if level > 0 {
				tl = t + max(vc.jobs[byWork[pw]].work-g, 0)/(vc.speed*level)
			}
		}
		tc := math.Inf(1)
		if len(vc.heap) > 0 {
			tc = vc.jobs[vc.heap[0]].finish
		}
		switch {
		case math.IsInf(tl, 1) && math.IsInf(tc, 1): // the rest never finish
			vc.byWork, vc.byCap = byWork, byCap
			vc.buildOrder()
			return
		case tl <= tc:
			j := &vc.jobs[byWork[pw]]
			g = max(g, j.work) // exactly its size: equal sizes finish together
			t, j.finish, j.state = tl, tl, stDone
			atLevel--
		default:
			j := &vc.jobs[vc.pop()]
			g += vc.speed * level * (tc - t)
			t, j.state = tc, stDone
			capped -= j.cap
		}
	}
}

// buildOrder sorts jobs as Order reports them and rewinds the cursors.
func (vc *refCluster) buildOrder() {
	vc.version++
	vc.order = vc.resort(&vc.orderKeys, byFinishKind, vc.order)
	vc.next = 0
	for vc.next < len(vc.order) && vc.jobs[vc.order[vc.next]].finished {
		vc.next++
	}
	vc.seg = 0
	vc.due = math.Inf(-1)
}

// heapLess orders capped jobs by (finish, id).
func (vc *refCluster) heapLess(a, b int32) bool {
	ja, jb := &vc.jobs[a], &vc.jobs[b]
	return ja.finish < jb.finish || ja.finish == jb.finish && ja.id < jb.id
}

func (vc *refCluster) push(i int32) {
	h := append(vc.heap, i)
	for k := len(h) - 1; k > 0 && vc.heapLess(h[k], h[(k-1)/2]); k = (k - 1) / 2 {
		h[k], h[(k-1)/2] = h[(k-1)/2], h[k]
	}
	vc.heap = h
}

func (vc *refCluster) pop() int32 {
	h := vc.heap
	top, n := h[0], len(h)-1
	h[0] = h[n]
	h = h[:n]
	for k, c := 0, 1; c < n; k, c = c, 2*c+1 {
		if c+1 < n && vc.heapLess(h[c+1], h[c]) {
			c++
		}
		if !vc.heapLess(h[c], h[k]) {
			break
		}
		h[k], h[c] = h[c], h[k]
	}
	vc.heap = h
	return top
}

// The projection sorts the jobs three times: by remaining work and by cap
// (the jobs still aging), and by finish (the Order). From one projection
// to the next these orders barely change: a job arrives, one is
// re-estimated or removed, the rest age alike. So each sorted list is kept
// and the next sort starts from it, by insertion. The keys are distinct
// (they end with the job id), so any sort gives the same order.

// sortKind is what a kept list sorts by.
type sortKind uint8

const (
	byWorkKind   sortKind = iota // the jobs still aging, by remaining work
	byCapKind                    // the jobs still aging, by cap
	byFinishKind                 // every job, as Order reports them
)

// sortKey is a job's place in a sort: by x, then seq, then id. Sorting
// these, rather than indices looked up through the jobs, is what makes a
// projection cheap.
type sortKey struct {
	x   float64
	seq int
	id  int64
	i   int32
}

// compareKeys orders sort keys. Sizes, caps and times are never NaN
// (Add and Update refuse it), so < is cmp.Compare.
func compareKeys(a, b sortKey) int {
	switch {
	case a.x < b.x:
		return -1
	case a.x > b.x:
		return 1
	case a.seq != b.seq:
		return cmp.Compare(a.seq, b.seq)
	}
	return cmp.Compare(a.id, b.id)
}

// keyLess is compareKeys(a, b) < 0, for the insertion sort's inner loop.
func keyLess(a, b *sortKey) bool {
	if a.x != b.x {
		return a.x < b.x
	}
	if a.seq != b.seq {
		return a.seq < b.seq
	}
	return a.id < b.id
}

// listed reports whether job j belongs in a list of kind kind.
func listed(j *refJob, kind sortKind) bool {
	return kind == byFinishKind || j.state == stLevel
}

// keyOf is job j's (at index i) key in a list of kind kind.
func keyOf(j *refJob, i int32, kind sortKind) sortKey {
	switch kind {
	case byWorkKind:
		return sortKey{x: j.work, id: j.id, i: i}
	case byCapKind:
		return sortKey{x: j.cap, id: j.id, i: i}
	}
	// Recorded finishes are ≤ now ≤ projected ones, and sequence numbers
	// follow recorded finish times; unfinished jobs rank after finished
	// ones that finished at the same time.
	seq := math.MaxInt
	if j.finished {
		seq = j.seq
	}
	return sortKey{x: j.finish, seq: seq, id: j.id, i: i}
}

// resort sorts the jobs of kind kind, starting from the kept list *keys
// (the last projection's order), keeps the new one there and returns the
// jobs' indices in order, in dst.
func (vc *refCluster) resort(keys *[]sortKey, kind sortKind, dst []int32) []int32 {
	vc.epoch++
	if vc.epoch == 0 { // wrapped: no job may look marked
		for i := range vc.jobs {
			vc.jobs[i].mark = 0
		}
		vc.epoch = 1
	}
	// The jobs of the last order still listed, in that order (in place:
	// the write position never passes the read one), then the others.
	ks := (*keys)[:0]
	for _, k := range *keys {
		i, ok := vc.index.get(k.id)
		if !ok {
			continue
		}
		j := &vc.jobs[i]
		if !listed(j, kind) {
			continue
		}
		j.mark = vc.epoch
		ks = append(ks, keyOf(j, i, kind))
	}
	for i := range vc.jobs {
		if j := &vc.jobs[i]; j.mark != vc.epoch && listed(j, kind) {
			ks = append(ks, keyOf(j, int32(i), kind))
		}
	}
	sortNearly(ks)
	*keys = ks
	dst = dst[:0]
	for _, k := range ks {
		dst = append(dst, k.i)
	}
	return dst
}

// sortNearly sorts keys that are mostly in order: by insertion, and with
// a full sort once the insertions have moved keys more than a few times
// their number.
func sortNearly(keys []sortKey) {
	budget := 4*len(keys) + 16
	for i := 1; i < len(keys); i++ {
		if !keyLess(&keys[i], &keys[i-1]) {
			continue
		}
		k := keys[i]
		p := i - 1
		for p > 0 && keyLess(&k, &keys[p-1]) {
			p--
		}
		if budget -= i - p; budget < 0 {
			slices.SortFunc(keys, compareKeys)
			return
		}
		copy(keys[p+1:i+1], keys[p:i])
		keys[p] = k
	}
}
