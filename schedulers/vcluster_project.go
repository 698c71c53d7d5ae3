package schedulers

import (
	"cmp"
	"math"
	"slices"
)

// project recomputes the fluid future from the sizes stored at now.
//
// With no arrivals the level L never falls: a finishing job frees slots and
// leaves fewer jobs to share them. So a job, once capped (c ≤ L), stays capped
// and finishes at a fixed time; the jobs at the level all receive the same
// service G(t), and finish in order of size. Sweeping the jobs once by cap
// (to cap them as L rises) and once by size (to finish level jobs), with a
// heap of capped finish times, gives every finish time in O(n log n).
func (vc *VirtualCluster) project() {
	now := vc.now
	byWork, byCap := vc.byWork[:0], vc.byCap[:0]
	for i := range vc.jobs {
		j := &vc.jobs[i]
		switch {
		case j.finished:
			j.state = stDone
		case j.work <= FinishedEpsilon: // too small to age: finishes now
			j.state, j.finish = stDone, now
		default:
			j.state, j.finish, j.capAt, j.gAtCap = stLevel, math.Inf(1), math.Inf(1), 0
			byWork = append(byWork, int32(i))
			byCap = append(byCap, int32(i))
		}
	}
	vc.sortBy(byWork, func(j *vjob) float64 { return j.work })
	vc.sortBy(byCap, func(j *vjob) float64 { return j.cap })

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

// sortBy sorts the jobs idx by (x(job), id).
func (vc *VirtualCluster) sortBy(idx []int32, x func(*vjob) float64) {
	keys := vc.keys[:0]
	for _, i := range idx {
		j := &vc.jobs[i]
		keys = append(keys, sortKey{x: x(j), id: j.id, i: i})
	}
	slices.SortFunc(keys, compareKeys)
	for k := range keys {
		idx[k] = keys[k].i
	}
	vc.keys = keys
}

// buildOrder sorts jobs as Order reports them and rewinds the cursors.
func (vc *VirtualCluster) buildOrder() {
	vc.version++
	vc.order = vc.order[:0]
	for i := range vc.jobs {
		vc.order = append(vc.order, int32(i))
	}
	// Recorded finishes are ≤ now ≤ projected ones, and sequence numbers
	// follow recorded finish times; unfinished jobs rank after finished
	// ones that finished at the same time.
	seqKey := func(j *vjob) int {
		if j.finished {
			return j.seq
		}
		return math.MaxInt
	}
	keys := vc.keys[:0]
	for _, i := range vc.order {
		j := &vc.jobs[i]
		keys = append(keys, sortKey{j.finish, seqKey(j), j.id, i})
	}
	slices.SortFunc(keys, compareKeys)
	for k := range keys {
		vc.order[k] = keys[k].i
	}
	vc.keys = keys
	vc.next = 0
	for vc.next < len(vc.order) && vc.jobs[vc.order[vc.next]].finished {
		vc.next++
	}
	vc.seg = 0
}

// heapLess orders capped jobs by (finish, id).
func (vc *VirtualCluster) heapLess(a, b int32) bool {
	ja, jb := &vc.jobs[a], &vc.jobs[b]
	return ja.finish < jb.finish || ja.finish == jb.finish && ja.id < jb.id
}

func (vc *VirtualCluster) push(i int32) {
	h := append(vc.heap, i)
	for k := len(h) - 1; k > 0 && vc.heapLess(h[k], h[(k-1)/2]); k = (k - 1) / 2 {
		h[k], h[(k-1)/2] = h[(k-1)/2], h[k]
	}
	vc.heap = h
}

func (vc *VirtualCluster) pop() int32 {
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
