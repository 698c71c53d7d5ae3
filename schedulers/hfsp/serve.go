package hfsp

import (
	"slices"

	"sojourn/replay"
)

// The serve list of a phase is the virtual cluster's order restricted to
// the jobs that may take a slot: arrived, not done for real, with a task
// suspended or one to launch (reduces past slow-start). It is rebuilt when
// the order changes; in between, a job found unable to take a slot any
// more leaves it, and one that may again (a task killed, lost or
// suspended, or reduces past slow-start) comes back at its place. So a
// heartbeat walks past the jobs that wait for delay scheduling, not past
// every job whose tasks all run.
type hfspServe struct {
	ver  uint64  // OrderVersion the list was built from (0: never)
	jobs []int32 // in order
	in   []bool  // by job: in jobs
	rank []int32 // by job: position in the order it was built from
}

// serveList returns phase k's serve list, rebuilt if the order changed.
func (h *HFSP) serveList(v *replay.View, k replay.TaskKind) *hfspServe {
	s := &h.serve[k]
	order := h.orderOf(k)
	if s.ver == h.orderVer[k] && s.ver != 0 {
		return s
	}
	if len(s.in) < len(h.jobs) {
		s.in, s.rank = make([]bool, len(h.jobs)), make([]int32, len(h.jobs))
	}
	for _, j := range s.jobs {
		s.in[j] = false
	}
	s.jobs = s.jobs[:0]
	for i, id := range order {
		j := int32(id)
		s.rank[j] = int32(i)
		if h.servable[k][j] {
			s.in[j] = true
			s.jobs = append(s.jobs, j)
		}
	}
	s.ver = h.orderVer[k]
	return s
}

// mayServe reports whether job j may take a slot of kind k, now or after
// time passes, without an event.
func (h *HFSP) mayServe(v *replay.View, k replay.TaskKind, j int32) bool {
	hj := &h.jobs[j]
	if hj.realDone[k] || !hj.arrived[k] {
		return false
	}
	jv := v.Job(j)
	return jv.Suspended(k) > 0 || jv.Pending(k) > 0 && (k == replay.Map || jv.ReducesEligible())
}

// noteServable records whether job j may take a slot of either kind,
// after an event or an action of the job changed it, and whether it has a
// task to launch (which any node may take, where a suspended one resumes
// only on its own node).
func (h *HFSP) noteServable(v *replay.View, j int32) {
	jv := v.Job(j)
	for k := replay.Map; k <= replay.Reduce; k++ {
		h.servable[k][j] = h.mayServe(v, k, j)
		l := h.servable[k][j] && jv.Pending(k) > 0 && (k == replay.Map || jv.ReducesEligible())
		if l != h.launchable[k][j] && h.jobs[j].inVC[k] {
			h.ready[k] += readyStep(l)
		}
		h.launchable[k][j] = l
	}
}

// setInVC records whether job j's phase k is in the virtual cluster,
// keeping ready.
func (h *HFSP) setInVC(j int32, k replay.TaskKind, in bool) {
	hj := &h.jobs[j]
	if hj.inVC[k] != in && h.launchable[k][j] {
		h.ready[k] += readyStep(in)
	}
	hj.inVC[k] = in
}

func readyStep(in bool) int32 {
	if in {
		return 1
	}
	return -1
}

// reserve puts job j back in phase k's serve list after an event that may
// let it take a slot again. A stale list is left alone: it is rebuilt
// before use.
func (h *HFSP) reserve(v *replay.View, k replay.TaskKind, j int32) {
	s := &h.serve[k]
	if s.ver == 0 || s.in[j] || !h.jobs[j].inVC[k] || s.ver != h.vc[k].OrderVersion() || !h.mayServe(v, k, j) {
		return
	}
	r := s.rank[j]
	i, _ := slices.BinarySearchFunc(s.jobs, r, func(a int32, r int32) int { return int(s.rank[a] - r) })
	s.in[j] = true
	s.jobs = slices.Insert(s.jobs, i, j)
}

// serveInOrder is serveOne in virtual finish order.
func (h *HFSP) serveInOrder(hb *replay.Heartbeat, k replay.TaskKind, from *int) (bool, error) {
	s := h.serveList(hb.View, k)
	for i := *from; i < len(s.jobs); {
		j := s.jobs[i]
		if k == replay.Map && h.refusesHere(hb, j) {
			i++ // left in the list, as after any refusal
			continue
		}
		ok, err := h.serveJob(hb, k, j)
		if ok || err != nil {
			*from = i
			return ok, err
		}
		if !h.mayServe(hb.View, k, j) {
			s.in[j] = false
			s.jobs = slices.Delete(s.jobs, i, i+1)
			continue
		}
		i++
	}
	*from = len(s.jobs)
	return false, nil
}

// orderOf returns the virtual cluster's order of phase k, copied again
// only when it changed.
func (h *HFSP) orderOf(k replay.TaskKind) []int64 {
	if v := h.vc[k].OrderVersion(); v != h.orderVer[k] {
		h.order[k] = h.vc[k].Order(h.order[k][:0])
		h.orderVer[k] = v
	}
	return h.order[k]
}

// serveOne gives one free slot of kind k to the first job in order that
// can use it on this node. Late jobs (done in the virtual cluster, not for
// real) come first: in virtual finish order, or under late=ps to the late
// job with the fewest running tasks.
//
// In virtual finish order the jobs come from the serve list, from
// position *from on: the jobs before it could not use this node's slot
// earlier in this heartbeat, and cannot now (launching another job's task
// changes nothing they depend on).
func (h *HFSP) serveOne(hb *replay.Heartbeat, k replay.TaskKind, from *int) (bool, error) {
	if !h.o.latePS {
		return h.serveInOrder(hb, k, from)
	}
	order := h.order[k]
	start := 0
	if h.o.late == "ps" {
		for start < len(order) {
			if _, _, late := h.vc[k].Finished(order[start]); !late {
				break
			}
			start++
		}
		// Try late jobs by fewest running tasks.
		for tried := 0; tried < start; tried++ {
			best := -1
			for i := 0; i < start; i++ {
				j := int32(order[i])
				if h.jobs[j].realDone[k] || h.tried(i) {
					continue
				}
				if best < 0 || hb.Job(j).Running(k) < hb.Job(int32(order[best])).Running(k) {
					best = i
				}
			}
			if best < 0 {
				break
			}
			h.markTried(best)
			ok, err := h.serveJob(hb, k, int32(order[best]))
			if ok || err != nil {
				h.clearTried()
				return ok, err
			}
		}
		h.clearTried()
	}
	for _, id := range order[start:] {
		ok, err := h.serveJob(hb, k, int32(id))
		if ok || err != nil {
			return ok, err
		}
	}
	return false, nil
}

// tried marks are a small scratch set for the late=ps scan.
func (h *HFSP) tried(i int) bool {
	for _, t := range h.triedLate {
		if int(t) == i {
			return true
		}
	}
	return false
}
func (h *HFSP) markTried(i int) { h.triedLate = append(h.triedLate, int32(i)) }
func (h *HFSP) clearTried()     { h.triedLate = h.triedLate[:0] }
