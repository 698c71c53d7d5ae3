package schedulers

import (
	"sojourn/replay"
)

// reduceLedger holds, by position in the reduce order, each job's running,
// suspended and launchable (past slow-start) reduces: what the allotment
// and the preemption tests read, in arrays that a scan walks without
// touching the jobs. It is rebuilt when the order changes, and a job's
// entry is refreshed after every change of its reduces: at its events,
// and at once after the policy's own actions (whose events come only
// after the heartbeat).
//
// The allotment walks the reduce order and gives each job in turn as many
// of the cluster's reduce slots as it has reduce work (want = running +
// suspended + launchable), until they run out. A job done for real has
// none of the three.
type reduceLedger struct {
	ver               uint64  // OrderVersion it was built from (0: never)
	rank              []int32 // by job: position in the order, -1 if none
	members           []int32 // jobs with a rank
	run, susp, launch []int32 // by position
	// needy lists, while needyOK, the positions allotted more slots than
	// they hold with a task suspended or to launch, up to where the slots
	// run out: firstNeedy's candidates on any node.
	needy      []int32
	needyOK    bool
	needySlots int // the cluster's reduce slots they were found for
}

// ledger returns the reduce ledger, rebuilt if the order changed.
func (h *HFSP) ledger(v *replay.View) *reduceLedger {
	const k = replay.Reduce
	l := &h.led
	order := h.orderOf(k)
	if l.ver == h.orderVer[k] && l.ver != 0 {
		return l
	}
	if len(l.rank) < len(h.jobs) {
		l.rank = make([]int32, len(h.jobs))
		for i := range l.rank {
			l.rank[i] = -1
		}
	}
	for _, j := range l.members {
		l.rank[j] = -1
	}
	l.members = l.members[:0]
	n := len(order)
	l.run, l.susp, l.launch = grow32(l.run, n), grow32(l.susp, n), grow32(l.launch, n)
	for i, id := range order {
		l.rank[id] = int32(i)
		l.members = append(l.members, int32(id))
		h.fillLedger(v, i, int32(id))
	}
	l.ver = h.orderVer[k]
	l.needyOK = false
	return l
}

func grow32(s []int32, n int) []int32 {
	if cap(s) < n {
		return make([]int32, n)
	}
	return s[:n]
}

// fillLedger sets position i's entry from job j's state.
func (h *HFSP) fillLedger(v *replay.View, i int, j int32) {
	const k = replay.Reduce
	l := &h.led
	jv := v.Job(j)
	l.run[i], l.susp[i], l.launch[i] = int32(jv.Running(k)), int32(jv.Suspended(k)), 0
	if jv.ReducesEligible() {
		l.launch[i] = int32(jv.Pending(k))
	}
}

// noteReduces refreshes job j's ledger entry after its reduces changed.
// A stale ledger is left alone: it is rebuilt before use.
func (h *HFSP) noteReduces(v *replay.View, j int32) {
	h.reducesTouched = true
	l := &h.led
	if l.ver == 0 || l.ver != h.orderVer[replay.Reduce] || int(j) >= len(l.rank) || l.rank[j] < 0 {
		return
	}
	h.fillLedger(v, int(l.rank[j]), j)
	l.needyOK = false
}

// firstNeedy is the first position in the reduce order of a job allotted
// more slots than it holds that could use one here (a task suspended on
// this node, or one to launch), or -1. The candidates, found by walking
// the allotment to where the slots run out, are kept until the reduces
// change: busy heartbeats of many nodes ask in between.
func (h *HFSP) firstNeedy(hb *replay.Heartbeat, order []int64) int {
	l := h.ledger(hb.View)
	if slots := hb.Slots(replay.Reduce); !l.needyOK || l.needySlots != slots {
		l.needy = l.needy[:0]
		budget := int32(slots)
		for i := range l.run {
			run := l.run[i]
			a := min(run+l.susp[i]+l.launch[i], budget)
			budget -= a
			if a > run && (l.launch[i] > 0 || l.susp[i] > 0) {
				l.needy = append(l.needy, int32(i))
			}
			if budget == 0 {
				break
			}
		}
		l.needyOK, l.needySlots = true, slots
	}
	for _, i := range l.needy {
		if l.launch[i] > 0 || h.suspendedHere(hb, int32(order[i])) {
			return int(i)
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
	order := h.orderOf(k)
	for iter := 0; iter < 2*len(hb.Running())+2; iter++ {
		needy := h.firstNeedy(hb, order)
		if needy < 0 {
			break
		}
		victim, ok := h.victim(hb, order, needy)
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
		h.noteReduces(hb.View, victim.Job)
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
// allotted and is not in training. Only the jobs with a reduce running
// here can be picked, so the allotment is computed up to the latest of
// them.
func (h *HFSP) victim(hb *replay.Heartbeat, order []int64, needy int) (replay.TaskRef, bool) {
	l := h.ledger(hb.View)
	last := -1
	for _, r := range hb.Running() {
		if p := int(l.rank[r.Job]); r.Kind == replay.Reduce && p > needy && h.jobs[r.Job].trained[replay.Reduce] {
			last = max(last, p)
		}
	}
	if last < 0 {
		return replay.TaskRef{}, false
	}
	// The allotment of every position up to last, in h.alloc.
	alloc := h.alloc[:0]
	budget := int32(hb.Slots(replay.Reduce))
	for i := 0; i <= last; i++ {
		a := min(l.run[i]+l.susp[i]+l.launch[i], budget)
		budget -= a
		alloc = append(alloc, a)
	}
	h.alloc = alloc
	best, bestPos := replay.TaskRef{}, -1
	for _, r := range hb.Running() {
		if r.Kind != replay.Reduce {
			continue
		}
		p := int(l.rank[r.Job])
		if p <= needy || p < bestPos || !h.jobs[r.Job].trained[replay.Reduce] || alloc[p] >= l.run[p] {
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
	if h.o.preemption == "wait" {
		return false
	}
	const k = replay.Reduce
	if !h.preemptDirty && h.preemptVer == h.vc[k].OrderVersion() {
		return h.preemptWanted
	}
	h.preemptDirty = false
	l := h.ledger(v)
	h.preemptVer = h.orderVer[k]
	budget := int32(v.Slots(k))
	needy, over := false, false
	for i := range l.run {
		r := l.run[i]
		a := min(r+l.susp[i]+l.launch[i], budget)
		budget -= a
		if a > r && (l.susp[i] > 0 || l.launch[i] > 0) {
			needy = true
		} else if needy && a < r {
			// Trained or not: a job still in training must keep the
			// heartbeats coming for its samples' Δ extrapolation, after
			// which it becomes a victim.
			over = true
			break
		}
		if budget == 0 && !needy {
			break // later jobs are allotted nothing: none is needy
		}
	}
	h.preemptWanted = needy && over
	return h.preemptWanted
}
