package vcluster

import (
	"fmt"
	"math"
	"slices"
)

// project starts a new fluid future from the sizes stored at now.
//
// With no arrivals the level L never falls: a finishing job frees slots and
// leaves fewer jobs to share them. So a job, once capped (c ≤ L), stays capped
// and finishes at a fixed time; the jobs at the level all receive the same
// service G(t), and finish in order of size. Sweeping the jobs once by cap
// (to cap them as L rises) and once by size (to finish level jobs), with a
// heap of capped finish times, gives every finish time in O(n log n).
//
// The sweep meets the jobs in order of finish, so the Order is built as it
// goes (after the jobs finished before now, kept from the last Order), and
// only its ties need sorting. It is lazy: project sets it up, and it goes
// on, one finish at a time, only as far as a caller needs (the next
// completion after now, or a prefix of the Order). A caller that reads
// the head of the Order between changes, as HFSP does, pays for the jobs
// it reads rather than for the backlog. Pausing changes no operation, so
// every answer is the one the whole sweep gives, bit for bit.
func (vc *Cluster) project() {
	now := vc.now
	n := len(vc.jobs)
	if cap(vc.st) < n {
		vc.st = make([]uint8, n, 2*n)
	}
	st := vc.st[:n]
	vc.st = st

	// The Order starts with the finished jobs, by sequence number: the
	// start of the last Order holds every one of them.
	ord := vc.spare[:0]
	for _, k := range vc.orderKeys[:vc.next] {
		if i, ok := vc.index.get(k.id); ok && vc.jobs[i].finished {
			ord = append(ord, sortKey{x: k.x, seq: k.seq, id: k.id, i: i})
		}
	}
	finished := len(ord)
	wpos := vc.wpos[:n]
	for i := range vc.jobs {
		j := &vc.jobs[i]
		if !j.sized && !j.finished {
			j.work = vc.remaining(j) // as of now, by the projection replaced
		}
		j.sized = false
		if p := wpos[i]; p >= 0 {
			vc.workKeys[p].x = j.work // sortByWork reads the list, not the jobs
		}
		switch {
		case j.finished:
			st[i] = stDone
		case j.work <= FinishedEpsilon: // too small to age: finishes now
			st[i], j.finish = stDone, now
			ord = append(ord, sortKey{x: now, seq: math.MaxInt, id: j.id, i: int32(i)})
		default:
			st[i], j.finish, j.capAt, j.gAtCap = stLevel, math.Inf(1), math.Inf(1), 0
		}
	}
	byWork := vc.sortByWork(st)

	vc.segT, vc.segG, vc.segL = vc.segT[:0], vc.segG[:0], vc.segL[:0]
	vc.heap = vc.heap[:0]
	vc.sw = sweep{t: now, atLevel: len(byWork), byWork: byWork}
	vc.version++
	vc.spare, vc.orderKeys = vc.orderKeys, ord
	vc.final = 0
	// Every key is (x ≤ now, finite seq) for the finished jobs and
	// (x ≥ now, MaxInt) for the others: the finished ones come first.
	vc.next = finished
	vc.seg = 0
	vc.due = math.Inf(-1)
	vc.capUp()
}

// sweep is the state of a projection's sweep between steps: the time of
// its last event, the service every level job has received since the
// projection started, the level, the jobs at the level and the slots
// held by capped ones, and its places in the lists by cap and by work.
type sweep struct {
	t, g, level, capped float64
	atLevel, pc, pw     int
	byWork              []sortKey
	done                bool
}

// capUp caps every level job whose cap the level has reached, at the
// sweep's time, and opens the level segment that starts there.
func (vc *Cluster) capUp() {
	sw, st, byCap := &vc.sw, vc.st, vc.caps
	for sw.atLevel > 0 {
		sw.level = max((vc.slots-sw.capped)/float64(sw.atLevel), 0)
		i := vc.position(byCap[sw.pc].id)
		for st[i] != stLevel {
			sw.pc++
			i = vc.position(byCap[sw.pc].id)
		}
		if byCap[sw.pc].cap > sw.level {
			break
		}
		j := &vc.jobs[i]
		st[i], j.capAt, j.gAtCap = stCapped, sw.t, sw.g
		if j.cap > 0 {
			j.finish = sw.t + max(j.work-sw.g, 0)/(vc.speed*j.cap)
		}
		sw.capped += j.cap
		sw.atLevel--
		vc.push(i)
	}
	if sw.atLevel == 0 {
		sw.level = 0
	}
	vc.segT = append(vc.segT, sw.t)
	vc.segG = append(vc.segG, sw.g)
	vc.segL = append(vc.segL, sw.level)
}

// step takes the sweep to its next finish (or, when no job would ever
// finish again, to its end) and makes final the keys it can no longer
// reorder.
func (vc *Cluster) step() {
	sw, st := &vc.sw, vc.st
	tl := math.Inf(1) // next finish among level jobs: the smallest
	if sw.atLevel > 0 {
		for st[sw.byWork[sw.pw].i] != stLevel {
			sw.pw++
		}
		if sw.level > 0 {
			tl = sw.t + max(sw.byWork[sw.pw].x-sw.g, 0)/(vc.speed*sw.level)
		}
	}
	tc := math.Inf(1)
	if len(vc.heap) > 0 {
		tc = vc.jobs[vc.heap[0]].finish
	}
	ord := vc.orderKeys
	switch {
	case math.IsInf(tl, 1) && math.IsInf(tc, 1): // the rest never finish
		for _, k := range sw.byWork[sw.pw:] {
			if st[k.i] == stLevel {
				ord = append(ord, sortKey{x: math.Inf(1), seq: math.MaxInt, id: k.id, i: k.i})
			}
		}
		for _, i := range vc.heap {
			ord = append(ord, sortKey{x: math.Inf(1), seq: math.MaxInt, id: vc.jobs[i].id, i: i})
		}
		vc.orderKeys = ord
		sw.done = true
		sortNearly(ord[vc.final:])
		vc.final = len(ord)
		return
	case tl <= tc:
		k := &sw.byWork[sw.pw]
		sw.g = max(sw.g, k.x)      // exactly its size: equal sizes finish together
		sw.t, st[k.i] = tl, stDone // its finish is in its key
		ord = append(ord, sortKey{x: tl, seq: math.MaxInt, id: k.id, i: k.i})
		sw.atLevel--
	default:
		i := vc.pop()
		j := &vc.jobs[i]
		sw.g += vc.speed * sw.level * (tc - sw.t)
		sw.t, st[i] = tc, stDone
		sw.capped -= j.cap
		ord = append(ord, sortKey{x: tc, seq: math.MaxInt, id: j.id, i: i})
	}
	vc.orderKeys = ord
	vc.capUp()
	// The keys come in order of x (the finished jobs' finishes are at most
	// now, the sweep's at least now, and its times never fall); only ties
	// of x may be out of order. Every key with x before the sweep's time
	// is known, so those are final once their ties are sorted.
	cut := len(ord)
	for cut > vc.final && ord[cut-1].x >= sw.t {
		cut--
	}
	if cut > vc.final {
		sortNearly(ord[vc.final:cut])
		vc.final = cut
	}
}

// complete runs the sweep to its end: every finish time is known and
// the Order is whole.
func (vc *Cluster) complete() {
	for !vc.sw.done {
		vc.step()
	}
}

// orderAt returns the key at position p of the Order, sweeping as far as
// it needs (p < len(jobs)).
func (vc *Cluster) orderAt(p int) sortKey {
	for p >= vc.final {
		vc.step()
	}
	return vc.orderKeys[p]
}

// position is job id's index in jobs, which it must have.
func (vc *Cluster) position(id int64) int32 {
	i, _ := vc.index.get(id)
	return i
}

// heapLess orders capped jobs by (finish, id).
func (vc *Cluster) heapLess(a, b int32) bool {
	ja, jb := &vc.jobs[a], &vc.jobs[b]
	return ja.finish < jb.finish || ja.finish == jb.finish && ja.id < jb.id
}

func (vc *Cluster) push(i int32) {
	h := append(vc.heap, i)
	for k := len(h) - 1; k > 0 && vc.heapLess(h[k], h[(k-1)/2]); k = (k - 1) / 2 {
		h[k], h[(k-1)/2] = h[(k-1)/2], h[k]
	}
	vc.heap = h
}

func (vc *Cluster) pop() int32 {
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

// orderKey is job j's key in the Order: (finish, seq, id) once it has
// finished, (finish, MaxInt, id) before. A job finishing keeps its place:
// those before it finished no later and earlier, those after it finish
// no earlier and are unfinished.
func orderKey(j *vjob, i int32) sortKey {
	seq := math.MaxInt
	if j.finished {
		seq = j.seq
	}
	return sortKey{x: j.finish, seq: seq, id: j.id, i: i}
}

// atProjectionStart reports whether the cluster stands where its
// projection starts, before the projection's first completion or change
// of level: there every job's materialized size is the one the projection
// started from (touch would change nothing), and a finished job, which
// takes no share, can leave without changing anything the projection
// computed for the others.
func (vc *Cluster) atProjectionStart() bool {
	return !vc.dirty && len(vc.segT) > 0 && vc.segT[0] == vc.now && (len(vc.segT) == 1 || vc.segT[1] > vc.now)
}

// removeFinished removes the finished job at index i at the start of the
// projection (atProjectionStart), leaving the projection as it is: what
// touching and projecting again would give, bit for bit, without the
// cost. HFSP removes the jobs done for real as they finish virtually,
// often several at once: one projection serves them all.
func (vc *Cluster) removeFinished(i int32) {
	vc.complete() // the paused sweep holds indices that change below
	j := &vc.jobs[i]
	id := j.id
	p, ok := slices.BinarySearchFunc(vc.orderKeys, orderKey(j, i), compareKeys)
	if !ok {
		panic(fmt.Sprintf("schedulers: virtual job %d missing from the order", id))
	}
	vc.orderKeys = slices.Delete(vc.orderKeys, p, p+1)
	vc.final--
	vc.next-- // it was among the finished ones, at the start
	vc.deleteCap(id, j.cap)
	if last := int32(len(vc.jobs) - 1); i != last {
		vc.orderKeys[vc.keyOf(vc.jobs[last].id)].i = i
	}
	vc.dropJob(i)
	vc.version++
}
