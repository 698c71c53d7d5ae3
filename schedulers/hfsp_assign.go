package schedulers

import (
	"sojourn/replay"
)

// OnHeartbeat implements replay.Scheduler: sample tasks first, within the
// training slots; then jobs in virtual-cluster order; then, for reduces,
// preemption of jobs holding more slots than the order gives them.
func (h *HFSP) OnHeartbeat(hb *replay.Heartbeat) error {
	h.advance(hb.Now().Sec())
	h.checkReduceSamples(hb.View)
	for k := replay.Map; k <= replay.Reduce; k++ {
		if err := h.assign(hb, k); err != nil {
			return err
		}
	}
	return nil
}

// checkReduceSamples re-estimates reduce phases whose samples have all run
// their reduce function for Δ seconds (or finished).
func (h *HFSP) checkReduceSamples(v *replay.View) {
	for i := 0; i < len(h.training[replay.Reduce]); i++ {
		j := h.training[replay.Reduce][i]
		if len(h.jobs[j].samples[replay.Reduce]) == h.sampleTarget(v.Job(j), replay.Reduce) {
			before := len(h.training[replay.Reduce])
			h.tryEstimate(j, replay.Reduce, v)
			if len(h.training[replay.Reduce]) < before {
				i--
			}
		}
	}
}

func (h *HFSP) assign(hb *replay.Heartbeat, k replay.TaskKind) error {
	// Training: sample tasks of jobs in training, oldest job first, while
	// fewer than the training slots run samples.
	for hb.Free(k) > 0 && h.trainingRunning[k] < h.trainSlots[k] {
		launched := false
		for _, j := range h.training[k] {
			if len(h.jobs[j].samples[k]) >= h.sampleTarget(hb.Job(j), k) {
				continue
			}
			ok, err := h.launchNew(hb, k, j)
			if err != nil {
				return err
			}
			if ok {
				launched = true
				break
			}
		}
		if !launched {
			break
		}
	}
	// Size-based: jobs in increasing order of virtual completion.
	h.order[k] = h.vc[k].Order(h.order[k][:0])
	for hb.Free(k) > 0 {
		ok, err := h.serveOne(hb, k)
		if err != nil {
			return err
		}
		if !ok {
			break
		}
	}
	if k == replay.Reduce && h.o.preemption != "wait" && hb.Free(k) == 0 {
		return h.preempt(hb)
	}
	return nil
}

// serveOne gives one free slot of kind k to the first job in order that
// can use it on this node. Late jobs (done in the virtual cluster, not for
// real) come first: in virtual finish order, or under late=ps to the late
// job with the fewest running tasks.
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

// serveJob resumes one of job j's tasks suspended on this node (the oldest
// first) or launches a new one.
func (h *HFSP) serveJob(hb *replay.Heartbeat, k replay.TaskKind, j int32) (bool, error) {
	hj := &h.jobs[j]
	if hj.realDone[k] || !hj.arrived[k] {
		return false, nil
	}
	jv := hb.Job(j)
	if jv.Suspended(k) > 0 {
		var oldest replay.TaskRef
		found := false
		for _, s := range hb.SuspendedHere() {
			if s.Job != j || s.Kind != k {
				continue
			}
			st := hb.Task(s).AttemptStart()
			if !found || st < hb.Task(oldest).AttemptStart() || (st == hb.Task(oldest).AttemptStart() && s.Index < oldest.Index) {
				oldest, found = s, true
			}
		}
		if found {
			// OnEvent counts a resumed sample back into training.
			return true, hb.Resume(oldest)
		}
	}
	return h.launchNew(hb, k, j)
}

// launchNew launches a pending task of job j, maps under delay scheduling.
func (h *HFSP) launchNew(hb *replay.Heartbeat, k replay.TaskKind, j int32) (bool, error) {
	jv := hb.Job(j)
	if jv.Pending(k) == 0 {
		return false, nil
	}
	var idx int32
	hj := &h.jobs[j]
	if k == replay.Map {
		level := h.allowedLevel(hj, hb.Now())
		t, _, ok := hb.PendingMap(j, hb.Node(), level)
		if !ok {
			if !hj.skipping {
				hj.skipping, hj.skipSince = true, hb.Now()
			}
			return false, nil
		}
		hj.skipping = false
		idx = t
	} else {
		t, ok := hb.PendingReduce(j)
		if !ok {
			return false, nil
		}
		idx = t
	}
	ref := replay.TaskRef{Job: j, Kind: k, Index: idx}
	if h.isSample(ref) {
		h.trainingRunning[k]++
	} else if !hj.trained[k] && len(hj.samples[k]) < h.sampleTarget(jv, k) {
		hj.samples[k] = append(hj.samples[k], idx)
		h.trainingRunning[k]++
	}
	return true, hb.Launch(ref)
}

// allowedLevel is delay scheduling (Zaharia et al.): a job skipped for
// want of a node-local map may take a rack-local one after waiting D, and
// any after 2D.
func (h *HFSP) allowedLevel(hj *hfspJob, now replay.Time) replay.Locality {
	if h.delay == 0 {
		return replay.OffRack
	}
	if !hj.skipping {
		return replay.NodeLocal
	}
	switch w := now - hj.skipSince; {
	case w < h.delay:
		return replay.NodeLocal
	case w < 2*h.delay:
		return replay.RackLocal
	}
	return replay.OffRack
}

// allot walks the reduce order and gives each job, in turn, as many of the
// cluster's reduce slots as it has reduce work (running, suspended or
// launchable), returning per order position the slots allotted.
func (h *HFSP) allot(v *replay.View) []int32 {
	order := h.order[replay.Reduce]
	out := h.alloc[:0]
	budget := int32(v.Slots(replay.Reduce))
	for _, id := range order {
		j := int32(id)
		var want int32
		if !h.jobs[j].realDone[replay.Reduce] && h.jobs[j].arrived[replay.Reduce] {
			jv := v.Job(j)
			want = int32(jv.Running(replay.Reduce) + jv.Suspended(replay.Reduce))
			if jv.ReducesEligible() {
				want += int32(jv.Pending(replay.Reduce))
			}
		}
		a := min(want, budget)
		budget -= a
		out = append(out, a)
	}
	h.alloc = out
	return out
}

// preempt frees reduce slots on this full node for jobs the order gives
// more slots than they hold, taking them from the latest job in order that
// holds more than it is given here: its youngest task on the node is
// suspended (eager: if the node may hold one more suspended task,
// otherwise it waits) or killed.
func (h *HFSP) preempt(hb *replay.Heartbeat) error {
	const k = replay.Reduce
	h.order[k] = h.vc[k].Order(h.order[k][:0])
	order := h.order[k]
	for iter := 0; iter < 2*len(hb.Running())+2; iter++ {
		alloc := h.allot(hb.View)
		needy := -1
		for i, id := range order {
			j := int32(id)
			jv := hb.Job(j)
			if alloc[i] <= int32(jv.Running(k)) {
				continue
			}
			if h.suspendedHere(hb, j) || (jv.ReducesEligible() && jv.Pending(k) > 0) {
				needy = i
				break
			}
		}
		if needy < 0 {
			break
		}
		victim, ok := h.victim(hb, order, alloc, needy)
		if !ok {
			break
		}
		switch h.o.preemption {
		case "eager":
			if !hb.CanSuspend() {
				return nil // past the node's cap: wait
			}
			if err := hb.Suspend(victim); err != nil {
				return err
			}
		case "kill":
			if err := hb.Kill(victim); err != nil {
				return err
			}
		}
		if ok, err := h.serveJob(hb, k, int32(order[needy])); err != nil || !ok {
			return err
		}
	}
	return nil
}

func (h *HFSP) suspendedHere(hb *replay.Heartbeat, j int32) bool {
	for _, s := range hb.SuspendedHere() {
		if s.Job == j && s.Kind == replay.Reduce {
			return true
		}
	}
	return false
}

// victim picks, on this node, the youngest reduce task of the latest job
// in order (after position needy) that holds more reduce slots than it is
// allotted and is not in training.
func (h *HFSP) victim(hb *replay.Heartbeat, order []int64, alloc []int32, needy int) (replay.TaskRef, bool) {
	for i := len(order) - 1; i > needy; i-- {
		j := int32(order[i])
		if !h.jobs[j].trained[replay.Reduce] || alloc[i] >= int32(hb.Job(j).Running(replay.Reduce)) {
			continue
		}
		var best replay.TaskRef
		found := false
		for _, r := range hb.Running() {
			if r.Job == j && r.Kind == replay.Reduce && (!found || hb.Task(r).AttemptStart() > hb.Task(best).AttemptStart() ||
				(hb.Task(r).AttemptStart() == hb.Task(best).AttemptStart() && r.Index > best.Index)) {
				best, found = r, true
			}
		}
		if found {
			return best, true
		}
	}
	return replay.TaskRef{}, false
}

// WantsBusyHeartbeats implements replay.Preempter: full nodes keep
// reporting while some reduce job is allotted more slots than it holds and
// a larger job holds more than it is allotted. The answer is cached until
// the next event.
func (h *HFSP) WantsBusyHeartbeats(v *replay.View) bool {
	if h.o.preemption == "wait" {
		return false
	}
	if !h.preemptDirty {
		return h.preemptWanted
	}
	h.preemptDirty = false
	h.order[replay.Reduce] = h.vc[replay.Reduce].Order(h.order[replay.Reduce][:0])
	alloc := h.allot(v)
	needy, over := false, false
	for i, id := range h.order[replay.Reduce] {
		jv := v.Job(int32(id))
		r := int32(jv.Running(replay.Reduce))
		if alloc[i] > r && (jv.Suspended(replay.Reduce) > 0 || (jv.ReducesEligible() && jv.Pending(replay.Reduce) > 0)) {
			needy = true
		} else if needy && alloc[i] < r {
			// Trained or not: a job still in training must keep the
			// heartbeats coming for its samples' Δ extrapolation, after
			// which it becomes a victim.
			over = true
			break
		}
	}
	h.preemptWanted = needy && over
	return h.preemptWanted
}
