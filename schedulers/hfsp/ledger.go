package hfsp

import (
	"math/bits"

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
// none of the three. So every position before the boundary gets all it
// wants, the boundary what is left, the later ones nothing. The ledger
// keeps the boundary (the allotment follows from it), and which positions
// are needy (allotted more than they hold, with a task suspended or to
// launch) or over (holding more than allotted), as the counts change: a
// change of a job's want moves only the boundary, so the busy heartbeats'
// tests never walk the order.
type reduceLedger struct {
	ver               uint64  // OrderVersion it was built from (0: never)
	rank              []int32 // by job: position in the order, -1 if none
	members           []int32 // jobs with a rank
	run, susp, launch []int32 // by position
	// slots is the number of reduce slots allotted; bnd the first position
	// given less than it wants (len if none), and before the slots given
	// to the positions before it.
	slots, bnd, before int32
	needy, over        []uint64 // bit sets by position
}

// ledger returns the reduce ledger, rebuilt if the order changed and
// allotted again if the cluster's reduce slots did.
func (h *HFSP) ledger(v *replay.View) *reduceLedger {
	const k = replay.Reduce
	l := &h.led
	order := h.orderOf(k)
	if l.ver != h.orderVer[k] || l.ver == 0 {
		h.rebuildLedger(v, order)
	} else if int(l.slots) != v.Slots(k) {
		l.allot(int32(v.Slots(k)))
	}
	return l
}

// rebuildLedger fills the ledger from the jobs in order.
func (h *HFSP) rebuildLedger(v *replay.View, order []int64) {
	l := &h.led
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
		l.run[i], l.susp[i], l.launch[i] = h.reduceCounts(v, int32(id))
	}
	l.ver = h.orderVer[replay.Reduce]
	l.allot(int32(v.Slots(replay.Reduce)))
}

func grow32(s []int32, n int) []int32 {
	if cap(s) < n {
		return make([]int32, n)
	}
	return s[:n]
}

// reduceCounts is job j's ledger entry: its running, suspended and
// launchable reduces.
func (h *HFSP) reduceCounts(v *replay.View, j int32) (run, susp, launch int32) {
	const k = replay.Reduce
	jv := v.Job(j)
	if jv.ReducesEligible() {
		launch = int32(jv.Pending(k))
	}
	return int32(jv.Running(k)), int32(jv.Suspended(k)), launch
}

// noteReduces refreshes job j's ledger entry after its reduces changed.
// A stale ledger is left alone: it is rebuilt before use.
func (h *HFSP) noteReduces(v *replay.View, j int32) {
	h.reducesTouched = true
	l := &h.led
	if l.ver == 0 || l.ver != h.orderVer[replay.Reduce] || int(j) >= len(l.rank) || l.rank[j] < 0 {
		return
	}
	run, susp, launch := h.reduceCounts(v, j)
	l.set(int(l.rank[j]), run, susp, launch)
}

func (l *reduceLedger) want(i int) int32 { return l.run[i] + l.susp[i] + l.launch[i] }

// allotted is position i's allotment: all it wants before the boundary,
// what is left at it, nothing after.
func (l *reduceLedger) allotted(i int) int32 {
	switch {
	case i < int(l.bnd):
		return l.want(i)
	case i == int(l.bnd):
		return l.slots - l.before
	}
	return 0
}

// allot computes the allotment for slots slots, and every position's bits.
func (l *reduceLedger) allot(slots int32) {
	n := len(l.run)
	l.slots, l.bnd, l.before = slots, int32(n), 0
	for i := range n {
		w := l.want(i)
		if l.before+w > slots {
			l.bnd = int32(i)
			break
		}
		l.before += w
	}
	words := (n + 63) / 64
	l.needy, l.over = growBits(l.needy, words), growBits(l.over, words)
	for i := range n {
		l.reallot(i)
	}
}

func growBits(s []uint64, n int) []uint64 {
	if cap(s) < n {
		return make([]uint64, n)
	}
	s = s[:n]
	clear(s)
	return s
}

// set changes position i's counts and the bits of the allotments that
// change with them: i's own, and those between the boundary's old and new
// places.
func (l *reduceLedger) set(i int, run, susp, launch int32) {
	old := l.want(i)
	l.run[i], l.susp[i], l.launch[i] = run, susp, launch
	d := l.want(i) - old
	if d == 0 || i > int(l.bnd) {
		l.reallot(i) // the same allotment, other counts
		return
	}
	if i < int(l.bnd) {
		l.before += d
	}
	from := int(l.bnd)
	l.moveBoundary()
	l.reallot(i)
	lo, hi := min(from, int(l.bnd)), min(max(from, int(l.bnd)), len(l.run)-1)
	for p := lo; p <= hi; p++ {
		l.reallot(p)
	}
}

// moveBoundary finds the boundary again after a want before it or at it
// changed (before is up to date): left while the positions before it want
// more than there are slots, right while the next one fits.
func (l *reduceLedger) moveBoundary() {
	for l.before > l.slots {
		l.bnd--
		l.before -= l.want(int(l.bnd))
	}
	for int(l.bnd) < len(l.run) && l.before+l.want(int(l.bnd)) <= l.slots {
		l.before += l.want(int(l.bnd))
		l.bnd++
	}
}

// reallot sets position i's needy and over bits from its allotment.
func (l *reduceLedger) reallot(i int) {
	a := l.allotted(i)
	w, b := i>>6, uint64(1)<<(i&63)
	l.needy[w] &^= b
	l.over[w] &^= b
	switch {
	case a > l.run[i] && (l.launch[i] > 0 || l.susp[i] > 0):
		l.needy[w] |= b
	case a < l.run[i]:
		l.over[w] |= b
	}
}

// firstBit is the lowest position in the set s, or -1.
func firstBit(s []uint64) int {
	for w, x := range s {
		if x != 0 {
			return w<<6 + bits.TrailingZeros64(x)
		}
	}
	return -1
}

// lastBit is the highest position in the set s, or -1.
func lastBit(s []uint64) int {
	for w := len(s) - 1; w >= 0; w-- {
		if x := s[w]; x != 0 {
			return w<<6 + 63 - bits.LeadingZeros64(x)
		}
	}
	return -1
}
