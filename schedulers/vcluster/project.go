package vcluster

import "math"

// project recomputes the fluid future from the sizes stored at now.
//
// With no arrivals the level L never falls: a finishing job frees slots and
// leaves fewer jobs to share them. So a job, once capped (c ≤ L), stays capped
// and finishes at a fixed time; the jobs at the level all receive the same
// service G(t), and finish in order of size. Sweeping the jobs once by cap
// (to cap them as L rises) and once by size (to finish level jobs), with a
// heap of capped finish times, gives every finish time in O(n log n).
func (vc *Cluster) project() {
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
func (vc *Cluster) buildOrder() {
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
