package hfsp

import (
	"sojourn/replay"
	"sojourn/schedulers/internal/victim"
)

// Map preemption (option map-preemption; off by default, as in the paper,
// whose maps wait: they last about a minute and suspending one costs a
// swap). With it, maps are preempted as reduces are, without the reduce
// ledger: on a full node, the first job in the map order allotted more
// map slots than it holds (walking the order, each job is given its
// running, suspended and pending maps until the slots run out) that can
// use this node takes the slot of the youngest map here of the latest job
// holding more than it is allotted; samples are never taken. The walk is
// over every job, so it costs O(jobs) per full node's heartbeat while the
// option is on.

// mapAllotment returns, by position in the map order, each job's allotted
// map slots.
func (h *HFSP) mapAllotment(v *replay.View, order []int64) []int32 {
	a := h.mapAllot[:0]
	left := int32(v.Slots(replay.Map))
	for _, id := range order {
		j := int32(id)
		var want int32
		if hj := &h.jobs[j]; hj.arrived[replay.Map] && !hj.realDone[replay.Map] {
			jv := v.Job(j)
			want = int32(jv.Running(replay.Map) + jv.Suspended(replay.Map) + jv.Pending(replay.Map))
		}
		g := min(want, left)
		left -= g
		a = append(a, g)
	}
	h.mapAllot = a
	return a
}

// mapPreemptionWanted reports whether some job is allotted more maps than
// it holds, with one to launch or resume, before a job holding more than
// it is allotted.
func (h *HFSP) mapPreemptionWanted(v *replay.View) bool {
	order := h.orderOf(replay.Map)
	a := h.mapAllotment(v, order)
	needy := false
	for i, id := range order {
		jv := v.Job(int32(id))
		run := int32(jv.Running(replay.Map))
		switch {
		case a[i] > run && (jv.Pending(replay.Map) > 0 || jv.Suspended(replay.Map) > 0):
			needy = true
		case a[i] < run && needy:
			return true
		}
	}
	return false
}

// preemptMaps frees this full node's map slots for the jobs the order
// gives more than they hold.
func (h *HFSP) preemptMaps(hb *replay.Heartbeat) error {
	const k = replay.Map
	for iter := 0; iter < 2*len(hb.Running())+2; iter++ {
		order := h.orderOf(k)
		a := h.mapAllotment(hb.View, order)
		needy := -1
		for i, id := range order {
			j := int32(id)
			if a[i] > int32(hb.Job(j).Running(k)) && h.mayUseHere(hb, j) {
				needy = i
				break
			}
		}
		if needy < 0 {
			return nil
		}
		v, ok := h.mapVictim(hb, order, a, needy)
		if !ok || !victim.Frees(hb, v, int32(order[needy]), k) {
			return nil
		}
		ok, err := victim.Evict(hb, v, h.o.mapPreemption)
		h.noteServable(hb.View, v.Job)
		if err != nil || !ok {
			return err
		}
		if ok, err := h.serveJob(hb, k, int32(order[needy])); err != nil || !ok {
			return err
		}
	}
	return nil
}

// mayUseHere reports, without side effects, whether job j could take a map
// slot on this node: a map of its suspended here, or a pending one at the
// locality its wait allows.
func (h *HFSP) mayUseHere(hb *replay.Heartbeat, j int32) bool {
	if suspendedHere(hb, j, replay.Map) {
		return true
	}
	if hb.Job(j).Pending(replay.Map) == 0 {
		return false
	}
	_, _, ok := hb.PendingMap(j, hb.Node(), h.waits[j].level(h.delay))
	return ok
}

// mapVictim is the youngest map on this node, not a sample, of the latest
// job in order after position needy that holds more than it is allotted.
func (h *HFSP) mapVictim(hb *replay.Heartbeat, order []int64, a []int32, needy int) (replay.TaskRef, bool) {
	if len(h.mapRank) < len(h.jobs) {
		h.mapRank = make([]int32, len(h.jobs))
	}
	for i, id := range order {
		h.mapRank[id] = int32(i)
	}
	best, bestPos := replay.TaskRef{}, -1
	for _, r := range hb.Running() {
		if r.Kind != replay.Map || h.isSample(r) || !h.jobs[r.Job].inVC[replay.Map] {
			continue
		}
		p := int(h.mapRank[r.Job])
		if p <= needy || p < bestPos || a[p] >= int32(hb.Job(r.Job).Running(replay.Map)) {
			continue
		}
		if p > bestPos {
			best, bestPos = r, p
			continue
		}
		bs, rs := hb.Task(best).AttemptStart(), hb.Task(r).AttemptStart()
		if rs > bs || rs == bs && r.Index > best.Index {
			best = r
		}
	}
	return best, bestPos >= 0
}
