package hfsp

import "sojourn/replay"

// OnHeartbeat implements replay.Scheduler: sample tasks first, within the
// training slots; then jobs in virtual-cluster order; then, for reduces,
// preemption of jobs holding more slots than the order gives them.
func (h *HFSP) OnHeartbeat(hb *replay.Heartbeat) error {
	h.reducesTouched = false
	h.advance(hb.Now().Sec())
	h.credit(hb)
	h.checkReduceSamples(hb.View)
	order := [2]replay.TaskKind{replay.Map, replay.Reduce}
	if hb.Model() == replay.ContainerModel {
		// MapReduce's ApplicationMaster asks for reduce containers at a
		// higher priority than maps (RMContainerAllocator's PRIORITY_REDUCE
		// 10 before PRIORITY_MAP 20): offered a node, reduces go first, or
		// the maps of later jobs would take every container.
		order = [2]replay.TaskKind{replay.Reduce, replay.Map}
	}
	for _, k := range order {
		if err := h.assign(hb, k); err != nil {
			return err
		}
	}
	return nil
}

// checkReduceSamples re-estimates reduce phases whose samples have all run
// their reduce function for Δ seconds (or finished).
func (h *HFSP) checkReduceSamples(v *replay.View) {
	now := v.Now()
	if now < h.nextCheck {
		return // no job's samples can have reported (see reduceCheckAt)
	}
	next := replay.Never
	for i := 0; i < len(h.sampled); i++ {
		j := h.sampled[i]
		hj := &h.jobs[j]
		if hj.checkAt > now {
			next = min(next, hj.checkAt)
			continue
		}
		before := len(h.sampled)
		h.tryEstimate(j, replay.Reduce, v)
		if len(h.sampled) < before {
			i--
		} else {
			hj.checkAt = h.reduceCheckAt(j, v)
			next = min(next, hj.checkAt)
		}
	}
	h.nextCheck = next
	h.quietVer++
}

// reduceCheckAt is a time before which the reduce samples of job j cannot
// all have reported, as their states stand: each running one Δ after its
// shuffle ends, less a microsecond for rounding. It is Never while a
// sample waits for the map phase, is suspended or pending: only an event
// changes that.
func (h *HFSP) reduceCheckAt(j int32, v *replay.View) replay.Time {
	d := replay.Seconds(h.o.delta)
	var at replay.Time
	for _, s := range h.jobs[j].samples[replay.Reduce] {
		tv := v.Task(replay.TaskRef{Job: j, Kind: replay.Reduce, Index: s})
		if tv.Done() {
			continue
		}
		end, ok := tv.ShuffleEnd()
		if !ok {
			return replay.Never
		}
		at = max(at, end+d-2)
	}
	return at
}

func (h *HFSP) assign(hb *replay.Heartbeat, k replay.TaskKind) error {
	if hb.Free(k) > 0 {
		if err := h.fill(hb, k); err != nil {
			return err
		}
	}
	if k == replay.Reduce && h.o.preemptReduces && hb.Free(k) == 0 && !h.needsNoPreemption() {
		return h.preempt(hb)
	}
	if k == replay.Map && h.o.preemptMaps && hb.Free(k) == 0 {
		return h.preemptMaps(hb)
	}
	return nil
}

// fill gives this node's free slots of kind k away: to sample tasks first,
// within the training slots, then in virtual finish order.
func (h *HFSP) fill(hb *replay.Heartbeat, k replay.TaskKind) error {
	// Training: sample tasks of jobs in training, oldest job first, while
	// fewer than the training slots run samples.
	for hb.Free(k) > 0 && h.trainingRunning[k] < h.trainSlots[k] {
		launched := false
		for _, j := range h.sampling[k] {
			if k == replay.Map && h.refusesHere(hb, j) {
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
	if !h.o.latePS {
		return h.serveInOrder(hb, k)
	}
	h.orderOf(k)
	for hb.Free(k) > 0 {
		ok, err := h.serveOne(hb, k)
		if err != nil {
			return err
		}
		if !ok {
			break
		}
	}
	return nil
}

// serveJob resumes one of job j's tasks suspended on this node (the oldest
// first) or launches a new one.
func (h *HFSP) serveJob(hb *replay.Heartbeat, k replay.TaskKind, j int32) (bool, error) {
	hj := &h.jobs[j]
	if hj.realDone[k] || !hj.arrived[k] || !hb.Fits(j, k) {
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
			err := hb.Resume(oldest)
			h.noteServable(hb.View, j)
			if k == replay.Reduce {
				h.noteReduces(hb.View, j)
			}
			return true, err
		}
	}
	return h.launchFitting(hb, k, j)
}

// launchNew launches a pending task of job j, maps under delay scheduling.
func (h *HFSP) launchNew(hb *replay.Heartbeat, k replay.TaskKind, j int32) (bool, error) {
	if !hb.Fits(j, k) {
		return false, nil
	}
	return h.launchFitting(hb, k, j)
}

// launchFitting is launchNew for a job whose task of kind k fits this
// node, as serveJob has already asked.
func (h *HFSP) launchFitting(hb *replay.Heartbeat, k replay.TaskKind, j int32) (bool, error) {
	jv := hb.Job(j)
	if jv.Pending(k) == 0 {
		return false, nil
	}
	hj := &h.jobs[j]
	var idx int32
	var ok bool
	if k == replay.Map {
		idx, ok = h.pendingMap(hb, j)
	} else {
		idx, ok = hb.PendingReduce(j)
	}
	if !ok {
		return false, nil
	}
	ref := replay.TaskRef{Job: j, Kind: k, Index: idx}
	if h.isSample(ref) {
		h.trainingRunning[k]++
		h.quietVer++
	} else if !hj.trained[k] && len(hj.samples[k]) < h.sampleTarget(hj, k) {
		hj.samples[k] = append(hj.samples[k], idx)
		hj.sampleBits[k] |= 1 << (idx & 63)
		h.trainingRunning[k]++
		h.quietVer++
		if len(hj.samples[k]) == h.sampleTarget(hj, k) {
			h.stopSampling(j, k) // every sample launched
			if k == replay.Reduce {
				h.sampled = insertSorted(h.sampled, j)
			}
		}
	}
	err := hb.Launch(ref)
	if jv.Pending(k) == 0 {
		// Only the last pending task's launch changes the job's serve
		// flags: the launch changed nothing else noteServable reads.
		h.noteServable(hb.View, j)
	}
	if k == replay.Reduce {
		h.noteReduces(hb.View, j)
	}
	return true, err
}
