package hfsp

import (
	"slices"

	"sojourn/replay"
)

// The serve list of a phase is the virtual cluster's order restricted to
// the jobs that may take a slot: arrived, not done for real, with a task
// suspended or one to launch (reduces past slow-start). It starts anew
// when the order changes; in between, a job found unable to take a slot
// any more leaves it, and one that may again (a task killed, lost or
// suspended, or reduces past slow-start) comes back at its place. So a
// heartbeat walks past the jobs that wait for delay scheduling, not past
// every job whose tasks all run.
//
// The list is read from the order lazily, as far as heartbeats walk it:
// on an overloaded cluster a walk ends at one of the first jobs, and the
// order behind them need not even be projected (vcluster.OrderAt). It
// holds what a list built whole when it started would hold by the time a
// walk reaches it: a job not yet read joins when read if it could take a
// slot when the list started, or was put back since. So a job's flag is
// kept as it was at the start when it changes before the job is read.
type hfspServe struct {
	ver  uint64  // OrderVersion the list follows (0: never)
	jobs []int32 // the joining jobs among the first read of the order, in order
	read int     // positions of the order read so far
	by   []serveEntry
	// epoch counts the starts, so that a job's entry need not be cleared.
	epoch uint32
}

// serveEntry is a job's place in a serve list, in one record because a
// list is read one job at a time.
type serveEntry struct {
	rank    int32  // position in the order, once read
	readAt  uint32 // the epoch in which the job was read
	fixedAt uint32 // the epoch in which its joining was fixed before it was read
	joins   bool   // when fixed: whether it joins
	in      bool   // in jobs
}

// serveList returns phase k's serve list, started anew if the order
// changed.
func (h *HFSP) serveList(k replay.TaskKind) *hfspServe {
	s := &h.serve[k]
	ver := h.vc[k].OrderVersion()
	if s.ver == ver && s.ver != 0 {
		return s
	}
	if len(s.by) < len(h.jobs) {
		s.by = make([]serveEntry, len(h.jobs))
	}
	for _, j := range s.jobs {
		s.by[j].in = false
	}
	s.jobs, s.read = s.jobs[:0], 0
	if s.epoch++; s.epoch == 0 { // wrapped: no job may look read or fixed
		clear(s.by)
		s.epoch = 1
	}
	s.ver = ver
	// The zombies, done for real, will never join: the walk passes over
	// them (NextActive) without reading each one. Marked only now, as the
	// list starts, because a job's flag when this list started is the one
	// that counts (noteFlag): one that became a zombie since the last
	// start may still join the old list.
	for _, j := range h.unmarked[k] {
		if h.jobs[j].inVC[k] {
			h.vc[k].SetPassive(int64(j))
		}
	}
	h.unmarked[k] = h.unmarked[k][:0]
	return s
}

// has reports whether the list has a job at position i, reading the
// order of phase k on as far as that needs. The order does not change
// during a walk: the virtual cluster changes at events and before a
// heartbeat's walks.
func (s *hfspServe) has(h *HFSP, k replay.TaskKind, i int) bool {
	if len(s.jobs) > i {
		return true
	}
	vc := h.vc[k]
	if vc.OrderVersion() != s.ver {
		panic("hfsp: the virtual cluster changed during a walk of its serve list")
	}
	for len(s.jobs) <= i && s.read < vc.Len() {
		// A passive job passed over is a zombie, which never joins and
		// whose entry nothing reads: its flag cannot change again.
		p, id := vc.NextActive(s.read)
		if id < 0 {
			s.read = p
			break
		}
		j := int32(id)
		e := &s.by[j]
		e.rank, e.readAt = int32(p), s.epoch
		s.read = p + 1
		joins := h.servable(k, j)
		if e.fixedAt == s.epoch {
			joins = e.joins
		}
		if joins {
			e.in = true
			s.jobs = append(s.jobs, j)
		}
	}
	return len(s.jobs) > i
}

// noteFlag keeps job j's flag as it was when the list started, before it
// changes to now, if the list has not read the job yet.
func (s *hfspServe) noteFlag(j int32, was, now bool) {
	if was == now || int(j) >= len(s.by) {
		return
	}
	if e := &s.by[j]; e.readAt != s.epoch && e.fixedAt != s.epoch {
		e.fixedAt, e.joins = s.epoch, was
	}
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

// The bits of serveFlags: servable of phase k is bit k, launchable bit
// launchBit+k.
const launchBit = 2

// servable reports whether job j may take a slot of kind k (mayServe, as
// last noted).
func (h *HFSP) servable(k replay.TaskKind, j int32) bool { return h.serveFlags[j]>>k&1 != 0 }

// launchable reports whether job j has a task of kind k to launch, as
// last noted.
func (h *HFSP) launchable(k replay.TaskKind, j int32) bool {
	return h.serveFlags[j]>>(launchBit+k)&1 != 0
}

// noteServable records whether job j may take a slot of either kind,
// after an event or an action of the job changed it, and whether it has a
// task to launch (which any node may take, where a suspended one resumes
// only on its own node).
func (h *HFSP) noteServable(v *replay.View, j int32) {
	jv := v.Job(j)
	hj := &h.jobs[j]
	// mayServe for both kinds, on the job's view taken once.
	var f uint8
	if !hj.realDone[replay.Map] && hj.arrived[replay.Map] {
		if jv.Pending(replay.Map) > 0 {
			f |= 1<<replay.Map | 1<<(launchBit+replay.Map)
		} else if jv.Suspended(replay.Map) > 0 {
			f |= 1 << replay.Map
		}
	}
	if !hj.realDone[replay.Reduce] && hj.arrived[replay.Reduce] {
		if jv.Pending(replay.Reduce) > 0 && jv.ReducesEligible() {
			f |= 1<<replay.Reduce | 1<<(launchBit+replay.Reduce)
		} else if jv.Suspended(replay.Reduce) > 0 {
			f |= 1 << replay.Reduce
		}
	}
	was := h.serveFlags[j]
	if f == was {
		return
	}
	h.serveFlags[j] = f
	for k := replay.Map; k <= replay.Reduce; k++ {
		if s, t := was>>k&1 != 0, f>>k&1 != 0; s != t {
			h.serve[k].noteFlag(j, s, t)
		}
		if l := f>>(launchBit+k)&1 != 0; l != (was>>(launchBit+k)&1 != 0) && hj.inVC[k] {
			h.ready[k] += readyStep(l)
			h.quietVer++
		}
	}
}

// setInVC records whether job j's phase k is in the virtual cluster,
// keeping ready.
func (h *HFSP) setInVC(j int32, k replay.TaskKind, in bool) {
	hj := &h.jobs[j]
	if hj.inVC[k] != in && h.launchable(k, j) {
		h.ready[k] += readyStep(in)
		h.quietVer++
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
	if s.ver == 0 || s.by[j].in || !h.jobs[j].inVC[k] || s.ver != h.vc[k].OrderVersion() || !h.mayServe(v, k, j) {
		return
	}
	e := &s.by[j]
	if e.readAt != s.epoch { // it joins when read
		e.fixedAt, e.joins = s.epoch, true
		return
	}
	i, _ := slices.BinarySearchFunc(s.jobs, e.rank, func(a int32, r int32) int { return int(s.by[a].rank - r) })
	e.in = true
	s.jobs = slices.Insert(s.jobs, i, j)
}

// serveInOrder gives this node's free slots of kind k away in virtual
// finish order, from the serve list: each to the first job that can use
// it. A job that took a slot is asked again for the next; the jobs before
// it could not use this node's slot earlier in this heartbeat, and cannot
// now (launching another job's task changes nothing they depend on).
func (h *HFSP) serveInOrder(hb *replay.Heartbeat, k replay.TaskKind) error {
	s := h.serveList(k)
	// Only a launch or resumption changes what is free: asked once, and
	// again after each.
	free := hb.Free(k) > 0
	for i := 0; free && (i < len(s.jobs) || s.has(h, k, i)); {
		j := s.jobs[i]
		if k == replay.Map && h.refusesHere(hb, j) {
			i++ // left in the list, as after any refusal
			continue
		}
		ok, err := h.serveJob(hb, k, j)
		if err != nil {
			return err
		}
		if ok {
			free = hb.Free(k) > 0
			continue
		}
		if !h.mayServe(hb.View, k, j) {
			s.by[j].in = false
			s.jobs = slices.Delete(s.jobs, i, i+1)
			continue
		}
		i++
	}
	return nil
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
// can use it on this node, under late=ps: late jobs (done in the virtual
// cluster, not for real) first, to the one with the fewest running tasks.
// Virtual finish order without late=ps is serveInOrder.
func (h *HFSP) serveOne(hb *replay.Heartbeat, k replay.TaskKind) (bool, error) {
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
