// Package delay is delay scheduling (Zaharia et al., EuroSys 2010) as the
// policies apply it: a job skipped for want of a node-local map waits D
// before it may take a rack-local one and 2D before an off-rack one.
package delay

import "sojourn/replay"

// Wait is one job's delay-scheduling state: whether, and since when, the
// job has been skipped for want of a node-local map. Its zero value is a
// job that has not been skipped.
type Wait struct {
	Skipping bool
	Since    replay.Time
}

// Level is the worst locality the job may accept now: node-local until it
// has waited delay, rack-local until twice that, then any. A zero delay
// turns delay scheduling off.
func (w *Wait) Level(delay, now replay.Time) replay.Locality {
	switch {
	case delay == 0:
		return replay.OffRack
	case !w.Skipping || now-w.Since < delay:
		return replay.NodeLocal
	case now-w.Since < 2*delay:
		return replay.RackLocal
	}
	return replay.OffRack
}

// Duration is the delay-scheduling wait for a policy's locality-delay
// option, in seconds: -1 picks min(15 s, 1.5 heartbeats), 0 turns it off.
func Duration(opt float64, v *replay.View) replay.Time {
	if opt < 0 {
		return min(15*replay.Second, v.HeartbeatInterval()*3/2)
	}
	return replay.Seconds(opt)
}

// Next is job j's next task of kind k for this tracker: a map at the
// locality its wait allows (the wait starts when none is close enough and
// ends when one is found), or any pending reduce.
func Next(hb *replay.Heartbeat, j int32, k replay.TaskKind, w *Wait, delay replay.Time) (int32, bool) {
	if k == replay.Reduce {
		return hb.PendingReduce(j)
	}
	t, _, ok := hb.PendingMap(j, hb.Node(), w.Level(delay, hb.Now()))
	if !ok {
		if !w.Skipping {
			w.Skipping, w.Since = true, hb.Now()
		}
		return 0, false
	}
	w.Skipping = false
	return t, true
}

// Nearest is job j's next task of kind k for this tracker without delay
// scheduling: a map at the best locality the node offers, or any pending
// reduce.
func Nearest(hb *replay.Heartbeat, j int32, k replay.TaskKind) (int32, bool) {
	if k == replay.Reduce {
		return hb.PendingReduce(j)
	}
	t, _, ok := hb.PendingMap(j, hb.Node(), replay.OffRack)
	return t, ok
}
