package schedulers

import "sojourn/replay"

// delayWait is one job's delay-scheduling state (Zaharia et al.), as the
// oracles and easy apply it (HFSP keeps the same state next to its
// locality bitmaps, hfsp_local.go): whether, and since when, the job has
// been skipped for want of a node-local map.
type delayWait struct {
	skipping bool
	since    replay.Time
}

// level is the worst locality the job may accept now: node-local until it
// has waited delay, rack-local until twice that, then any. A zero delay
// turns delay scheduling off.
func (w *delayWait) level(delay, now replay.Time) replay.Locality {
	switch {
	case delay == 0:
		return replay.OffRack
	case !w.skipping || now-w.since < delay:
		return replay.NodeLocal
	case now-w.since < 2*delay:
		return replay.RackLocal
	}
	return replay.OffRack
}

// localityDelay is the delay-scheduling wait for the locality-delay
// option, in seconds: -1 picks min(15 s, 1.5 heartbeats), 0 turns it off.
func localityDelay(opt float64, v *replay.View) replay.Time {
	if opt < 0 {
		return min(15*replay.Second, v.HeartbeatInterval()*3/2)
	}
	return replay.Seconds(opt)
}

// pendingTask is job j's next task of kind k for this tracker: a map at
// the locality its wait allows (the wait starts when none is close enough
// and ends when one is found), or any pending reduce.
func pendingTask(hb *replay.Heartbeat, j int32, k replay.TaskKind, w *delayWait, delay replay.Time) (int32, bool) {
	if k == replay.Reduce {
		return hb.PendingReduce(j)
	}
	t, _, ok := hb.PendingMap(j, hb.Node(), w.level(delay, hb.Now()))
	if !ok {
		if !w.skipping {
			w.skipping, w.since = true, hb.Now()
		}
		return 0, false
	}
	w.skipping = false
	return t, true
}

// anyPending is job j's next task of kind k for this tracker without delay
// scheduling: a map at the best locality the node offers, or any pending
// reduce.
func anyPending(hb *replay.Heartbeat, j int32, k replay.TaskKind) (int32, bool) {
	if k == replay.Reduce {
		return hb.PendingReduce(j)
	}
	t, _, ok := hb.PendingMap(j, hb.Node(), replay.OffRack)
	return t, ok
}

// killMarked kills the victims marked for this tracker's heartbeat that
// still run the attempt marked, calls killed (if not nil) for each, empties
// the tracker's list and returns how many victims it held.
func killMarked(hb *replay.Heartbeat, marked *[]fairVictim, killed func(replay.TaskRef)) (int, error) {
	vs := *marked
	*marked = vs[:0]
	n := hb.Node()
	for _, vi := range vs {
		tv := hb.Task(vi.ref)
		if !tv.Running() || tv.Node() != n || tv.Attempts() != vi.attempts {
			continue // it finished, or was lost, since
		}
		if err := hb.Kill(vi.ref); err != nil {
			return len(vs), err
		}
		if killed != nil {
			killed(vi.ref)
		}
	}
	return len(vs), nil
}
