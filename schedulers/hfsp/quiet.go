package hfsp

import (
	"math"

	"sojourn/replay"
)

// WantsSlots implements replay.Quieter: a free slot of kind k is of use
// while a job in the virtual cluster has a task to launch, or a sample may
// launch within the training slots (the engine lets a node holding a
// suspended task with a free slot report whatever the answer). Reduce slots are of none, for instance,
// while every waiting reduce belongs to a job whose maps still run and
// the training slots are full. Under map preemption every heartbeat of a
// node whose map slots are full may preempt, whatever else is free.
func (h *HFSP) WantsSlots(k replay.TaskKind, _ *replay.View) bool {
	if h.o.preemptMaps {
		return true
	}
	return h.ready[k] > 0 || len(h.sampling[k]) > 0 && h.trainingRunning[k] < h.trainSlots[k]
}

// QuietUntil implements replay.Quieter. A heartbeat that launches nothing
// still changes HFSP's state when reduce samples are due to report (their
// re-estimation is made at the first heartbeat after: nextCheck) and when
// a job done for real finishes in the virtual cluster (it leaves it at
// the first heartbeat or event after, which re-projects the rest). Its
// delay-scheduling clock credits skipped jobs at most interval/nodes a
// heartbeat, which regular heartbeats (see replay.Quieter) never fall
// short of.
func (h *HFSP) QuietUntil(v *replay.View) replay.Time {
	until := h.nextCheck
	for k := replay.Map; k <= replay.Reduce; k++ {
		if h.zombies[k] == 0 {
			continue
		}
		at, known := h.vc[k].NextCompletion()
		if !known {
			return v.Now() // changed since the last projection
		}
		if at != h.quietAt[k] { // timeBefore(at), worked out once per completion
			h.quietAt[k], h.quietBefore[k] = at, timeBefore(at)
		}
		until = min(until, h.quietBefore[k])
	}
	return until
}

// QuietVersion implements replay.QuietVersioner: what WantsSlots and
// QuietUntil read changes only with quietVer (ready, sampling, the running
// samples, nextCheck, the zombies) or the virtual clusters' orders (whose
// next completion changes only with them).
func (h *HFSP) QuietVersion() uint64 {
	return h.quietVer + h.vc[replay.Map].OrderVersion() + h.vc[replay.Reduce].OrderVersion()
}

// timeBefore is a time, a microsecond or so before t seconds, at which a
// heartbeat's Advance(now.Sec()) has not passed t yet.
func timeBefore(t float64) replay.Time {
	us := math.Floor(t*float64(replay.Second)) - 1
	if !(us < float64(replay.Never)/2) {
		return replay.Never
	}
	return replay.Time(max(us, 0))
}
