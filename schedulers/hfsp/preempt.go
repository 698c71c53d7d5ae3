package hfsp

import (
	"math/bits"

	"sojourn/replay"
	"sojourn/schedulers/internal/victim"
)

// firstNeedy is the first position in the reduce order of a job allotted
// more slots than it holds that could use one here (a task suspended on
// this node, or one to launch), or -1.
func (h *HFSP) firstNeedy(hb *replay.Heartbeat, order []int64) int {
	l := h.ledger(hb.View)
	for w, x := range l.needy {
		for ; x != 0; x &= x - 1 {
			i := w<<6 + bits.TrailingZeros64(x)
			if l.launch[i] > 0 || suspendedHere(hb, int32(order[i]), replay.Reduce) {
				return i
			}
		}
	}
	return -1
}

// preempt frees reduce slots on this full node for jobs the order gives
// more slots than they hold, taking them from the latest job in order that
// holds more than it is given here: its youngest task on the node is
// suspended (eager: if the node may hold one more suspended task,
// otherwise it waits) or killed.
func (h *HFSP) preempt(hb *replay.Heartbeat) error {
	const k = replay.Reduce
	if !h.overHere(hb) {
		return nil // no victim here, whichever job is needy
	}
	order := h.orderOf(k)
	for iter := 0; iter < 2*len(hb.Running())+2; iter++ {
		needy := h.firstNeedy(hb, order)
		if needy < 0 {
			break
		}
		v, ok := h.victim(hb, needy)
		if !ok || !victim.Frees(hb, v, int32(order[needy]), k) {
			break
		}
		ok, err := victim.Evict(hb, v, h.o.preemption)
		h.noteServable(hb.View, v.Job)
		if err != nil || !ok {
			return err
		}
		h.noteReduces(hb.View, v.Job)
		if ok, err := h.serveJob(hb, k, int32(order[needy])); err != nil || !ok {
			return err
		}
	}
	return nil
}

// overHere reports whether a reduce running on this node belongs to a job
// holding more reduce slots than it is allotted: only such a task may be a
// victim. Most busy heartbeats of a cluster where preemption is wanted
// come from nodes with none, which need not look for a needy job.
func (h *HFSP) overHere(hb *replay.Heartbeat) bool {
	l := h.ledger(hb.View)
	for _, r := range hb.Running() {
		if r.Kind != replay.Reduce {
			continue
		}
		if p := l.rank[r.Job]; p >= 0 && l.over[p>>6]>>(p&63)&1 != 0 {
			return true
		}
	}
	return false
}

// suspendedHere reports whether job j has a task of kind k suspended on
// this node.
func suspendedHere(hb *replay.Heartbeat, j int32, k replay.TaskKind) bool {
	for _, s := range hb.SuspendedHere() {
		if s.Job == j && s.Kind == k {
			return true
		}
	}
	return false
}

// victim picks, on this node, the youngest reduce task of the latest job
// in order (after position needy) that holds more reduce slots than it is
// allotted and is preemptible.
func (h *HFSP) victim(hb *replay.Heartbeat, needy int) (replay.TaskRef, bool) {
	l := h.ledger(hb.View)
	best, bestPos := replay.TaskRef{}, -1
	for _, r := range hb.Running() {
		if r.Kind != replay.Reduce {
			continue
		}
		p := int(l.rank[r.Job])
		if p <= needy || p < bestPos || l.allotted(p) >= l.run[p] || !h.preemptible(r) {
			continue
		}
		// The latest job first; within it, the youngest task (the highest
		// index on ties).
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

// preemptible reports whether reduce r may be a victim: a trained job's,
// or under suspend-untrained any but a sample of a job in training.
func (h *HFSP) preemptible(r replay.TaskRef) bool {
	if h.jobs[r.Job].trained[replay.Reduce] {
		return true
	}
	return h.o.suspendUntrained && !h.isSample(r)
}

// needsNoPreemption reports, without computing anything, that preempt
// would find nothing to do on this heartbeat: WantsBusyHeartbeats' cached
// answer is still valid (no event and no action of this heartbeat has
// changed the reduces or their order since) and says that no job waits
// for slots held by a later one, which is what preempt looks for.
func (h *HFSP) needsNoPreemption() bool {
	return !h.preemptDirty && !h.reducesTouched && h.preemptVer == h.vc[replay.Reduce].OrderVersion() && !h.preemptWanted
}

// WantsBusyHeartbeats implements replay.Preempter: full nodes keep
// reporting while some reduce job is allotted more slots than it holds and
// a larger job holds more than it is allotted. The answer is cached until
// an event changes the reduces or the reduce order changes.
func (h *HFSP) WantsBusyHeartbeats(v *replay.View) bool {
	if h.o.preemptMaps && h.mapPreemptionWanted(v) {
		return true
	}
	if !h.o.preemptReduces {
		return false
	}
	const k = replay.Reduce
	if !h.preemptDirty && h.preemptVer == h.vc[k].OrderVersion() {
		return h.preemptWanted
	}
	h.preemptDirty = false
	l := h.ledger(v)
	h.preemptVer = h.orderVer[k]
	// Trained or not: a job still in training must keep the heartbeats
	// coming for its samples' Δ extrapolation, after which it becomes a
	// victim.
	first := firstBit(l.needy)
	h.preemptWanted = first >= 0 && lastBit(l.over) > first
	return h.preemptWanted
}
