package oracle

import (
	"sojourn/replay"
	"sojourn/schedulers/internal/delay"
)

// The heartbeat path: fill a node's free slots in the order's sequence,
// resuming suspended tasks before launching new ones.

// OnHeartbeat implements replay.Scheduler.
func (o *Oracle) OnHeartbeat(hb *replay.Heartbeat) error {
	o.v = hb.View
	o.wantDirty = true
	o.clock.Credit(hb, func(j int32) *delay.Wait { return &o.jobs[j].wait })
	o.sortJobs()
	for k := replay.Map; k <= replay.Reduce; k++ {
		if err := o.fill(hb, k); err != nil {
			return err
		}
		if o.o.preempt[k] != "wait" && hb.Free(k) == 0 {
			if err := o.preempt(hb, k); err != nil {
				return err
			}
		}
	}
	return nil
}

// fill gives the node's free slots of kind k away in group order. Jobs
// that cannot use a slot are not in the candidates: offered one, they would
// turn it down, at no cost but the offer.
func (o *Oracle) fill(hb *replay.Heartbeat, k replay.TaskKind) error {
	o.epoch++
	cand := o.candidates(k)
	if o.rank.shared && !o.pickCurrent(k) {
		o.rebuildPick(k)
	}
	if o.verify != nil {
		o.verify(o, hb.View, hb, "fill", k)
	}
	start := 0
	if o.rank.shared {
		// The first group from its heap, then the others by scanning.
		if err := o.fillFirst(hb, k); err != nil {
			return err
		}
		start = len(o.pick[k])
	}
	for lo, hi := start, start; lo < len(cand) && hb.Free(k) > 0; {
		if hi <= lo { // the group's candidates are cand[lo:hi]
			hi = lo + 1
			for o.rank.shared && hi < len(cand) && o.jobs[cand[hi]].key == o.jobs[cand[lo]].key {
				hi++
			}
		}
		best := int32(-1)
		for _, j := range cand[lo:hi] {
			if o.jobs[j].tried == o.epoch {
				continue
			}
			if best < 0 {
				best = j
				continue
			}
			if o.pickLess(k, j, best) {
				best = j
			}
		}
		if best < 0 {
			lo = hi
			continue
		}
		ok, err := o.serve(hb, k, best)
		if err != nil {
			return err
		}
		if !ok {
			o.jobs[best].tried = o.epoch
		} else {
			o.noteServed(best)
		}
	}
	return nil
}

// serve resumes job j's oldest task of kind k suspended on this node, or
// launches one of its pending tasks.
func (o *Oracle) serve(hb *replay.Heartbeat, k replay.TaskKind, j int32) (bool, error) {
	if !hb.Fits(j, k) {
		return false, nil // its container does not fit what the node has left
	}
	jv := hb.Job(j)
	if jv.Suspended(k) > 0 {
		if t, ok := oldestSuspended(hb, j, k); ok {
			return true, hb.Resume(t)
		}
	}
	if jv.Pending(k) == 0 {
		return false, nil
	}
	idx, ok := delay.Next(hb, j, k, &o.jobs[j].wait, &o.clock, o.delay)
	if !ok {
		return false, nil
	}
	return true, hb.Launch(replay.TaskRef{Job: j, Kind: k, Index: idx})
}

// oldestSuspended is job j's task of kind k suspended on the node that
// started first (ties: lowest index).
func oldestSuspended(hb *replay.Heartbeat, j int32, k replay.TaskKind) (replay.TaskRef, bool) {
	var best replay.TaskRef
	found := false
	for _, s := range hb.SuspendedHere() {
		if s.Job != j || s.Kind != k {
			continue
		}
		if !found || olderTask(hb.View, s, best) {
			best, found = s, true
		}
	}
	return best, found
}

// olderTask orders attempts by start time, then index.
func olderTask(v *replay.View, a, b replay.TaskRef) bool {
	sa, sb := v.Task(a).AttemptStart(), v.Task(b).AttemptStart()
	return sa < sb || sa == sb && a.Index < b.Index
}
