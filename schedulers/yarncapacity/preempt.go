package yarncapacity

import (
	"cmp"
	"math"
	"slices"

	"sojourn/replay"
	"sojourn/schedulers/internal/victim"
)

// The ProportionalCapacityPreemptionPolicy (see the package
// documentation), run every monitoring-interval at the first heartbeat
// at or after the round's time. All amounts are sizes (calc.size).

// mark records since when a container has been selected for preemption.
type mark struct {
	at      replay.Time
	attempt int32
}

// pick is a container a round selects.
type pick struct {
	ref     replay.TaskRef
	attempt int32
}

// round computes every queue's ideal assignment, what to take back from
// the leaves above theirs, selects the containers, and kills those
// selected for max-wait-before-kill.
func (c *Capacity) round() {
	now := c.v.Now()
	allowed := c.o.perRound * c.calc.total
	c.root.ideal = c.calc.total
	c.distribute(c.root, allowed)
	c.picked = c.picked[:0]
	for _, l := range c.leaves {
		l.obtain = 0
		if used := c.calc.size(l.used); used > c.guarantee(l)*(1+c.o.ignored)+eps && l.toPreempt > eps {
			l.obtain = ceil(l.toPreempt * c.o.natural)
		}
		if l.obtain > 0 {
			allowed = c.selectFrom(l, allowed)
		}
	}
	for _, p := range c.picked {
		m, ok := c.marks[p.ref]
		switch {
		case ok && m.attempt == p.attempt && m.at+c.o.maxWait <= now:
			tv := c.v.Task(p.ref)
			c.kills[tv.Node()] = append(c.kills[tv.Node()], victim.Victim{Ref: p.ref, Node: tv.Node(), Attempts: tv.Attempts(), Start: tv.AttemptStart()})
			c.nKills++
			delete(c.marks, p.ref)
		case !ok || m.attempt != p.attempt:
			c.marks[p.ref] = mark{at: now, attempt: p.attempt}
		}
	}
	for ref, m := range c.marks {
		if m.at+2*c.o.maxWait < now {
			delete(c.marks, ref) // no longer selected
		}
	}
}

func (c *Capacity) guarantee(q *queue) float64 { return q.q.AbsCapacity * c.calc.total }

// distribute computes the ideal assignment of p's children from p's
// (PreemptableResourceCalculator.computeIdealResourceDistribution), then
// how much each should give back, scaled down so that a round takes at
// most allowed, and goes down the tree.
func (c *Capacity) distribute(p *queue, allowed float64) {
	if len(p.children) == 0 {
		return
	}
	unassigned := p.ideal
	var withGuarantee, without []*queue
	for _, ch := range p.children {
		if c.guarantee(ch) > 0 {
			withGuarantee = append(withGuarantee, ch)
		} else {
			without = append(without, ch)
			ch.ideal = 0 // what is left, if anything, below
		}
	}
	unassigned = c.fixpoint(withGuarantee, unassigned, false)
	if len(without) > 0 && unassigned > eps {
		c.fixpoint(without, unassigned, true)
	}
	need := 0.0
	for _, ch := range p.children {
		need += max(c.calc.size(ch.used)-ch.ideal, 0)
	}
	scale := 1.0
	if need > allowed {
		scale = allowed / need
	}
	for _, ch := range p.children {
		used := c.calc.size(ch.used)
		keep := max(min(c.calc.sizeOfSum(ch.used, ch.pending, 1), c.guarantee(ch)), ch.ideal)
		ch.toPreempt = 0
		if used > keep+eps {
			ch.toPreempt = (used - keep) * scale
		}
		c.distribute(ch, allowed)
	}
}

// fixpoint shares unassigned among queues qs as
// computeFixpointAllocation does and returns what is left: each starts
// with its use, at most its guarantee; then, while some want more (use +
// pending) and something is left, the most under-served ones (ideal /
// guarantee) are offered what is left in proportion to their guarantees
// among those that want more (equally if byCount), and accept up to
// their maximum capacity, their use + pending and, for a leaf, the
// larger of its guarantee and its use.
func (c *Capacity) fixpoint(qs []*queue, unassigned float64, byCount bool) float64 {
	var needy []*queue
	for _, q := range qs {
		used, g := c.calc.size(q.used), c.guarantee(q)
		q.ideal = min(used, g)
		unassigned -= q.ideal
		if q.ideal < c.calc.sizeOfSum(q.used, q.pending, 1)-eps {
			needy = append(needy, q)
		}
	}
	ratio := func(q *queue) float64 {
		if g := c.guarantee(q); g > 0 {
			return q.ideal / g
		}
		return math.MaxInt32
	}
	for len(needy) > 0 && unassigned > eps {
		sumG := 0.0
		for _, q := range needy {
			sumG += c.guarantee(q)
		}
		slices.SortStableFunc(needy, func(a, b *queue) int { return cmp.Compare(ratio(a), ratio(b)) })
		k := 1
		for k < len(needy) && ratio(needy[k]) == ratio(needy[0]) {
			k++
		}
		keep := make([]*queue, 0, len(needy))
		assigned := 0.0
		for _, q := range needy[:k] {
			share := 1 / float64(len(needy))
			if !byCount {
				share = c.guarantee(q) / sumG
			}
			accepted := min(ceil(unassigned*share), c.calc.sizeOfSum(q.used, q.pending, 1)-q.ideal,
				q.q.AbsMaxCapacity*c.calc.total-q.ideal)
			if q.q.Leaf() {
				accepted = min(accepted, max(c.guarantee(q), c.calc.size(q.used))-q.ideal)
			}
			if accepted > eps {
				q.ideal += accepted
				assigned += accepted
				keep = append(keep, q)
			}
		}
		unassigned -= assigned
		needy = append(keep, needy[k:]...)
	}
	return unassigned
}

// selectFrom selects containers of leaf l to take back its obtain, and
// returns what the round may still take: apps last in the leaf's order
// first, and in each its maps before its reduces (MapReduce asks for maps
// at a lower priority), the most recently launched first; a container
// larger than what the round may still take is skipped. ApplicationMasters
// are never taken.
func (c *Capacity) selectFrom(l *queue, allowed float64) float64 {
	c.byUse = append(c.byUse[:0], l.apps...)
	if c.o.fair {
		slices.SortStableFunc(c.byUse, c.before)
	}
	for i := len(c.byUse) - 1; i >= 0 && l.obtain > eps; i-- {
		j := c.byUse[i]
		a := &c.apps[j]
		for k := replay.Map; k <= replay.Reduce && l.obtain > eps; k++ {
			size := c.calc.size(c.v.Job(j).Request(k))
			for r := len(a.run[k]) - 1; r >= 0 && l.obtain > eps; r-- {
				ref := a.run[k][r]
				if size > allowed+eps || !c.running(j, k, ref) {
					continue
				}
				c.picked = append(c.picked, pick{ref: replay.TaskRef{Job: j, Kind: k, Index: ref.idx}, attempt: ref.attempt})
				l.obtain -= size
				allowed -= size
			}
		}
	}
	return allowed
}

// killHere kills the containers marked for this node that still run the
// attempt marked.
func (c *Capacity) killHere(hb *replay.Heartbeat) error {
	n, err := victim.KillMarked(hb, &c.kills[hb.Node()], func(r replay.TaskRef) {
		c.charge(r.Job, hb.Job(r.Job).Request(r.Kind), -1)
		c.refresh(r.Job)
	})
	c.nKills -= n
	return err
}

// WantsBusyHeartbeats implements replay.Preempter: with preemption, full
// nodes report while containers are marked or to be killed, and while a
// round may find something to take back: some leaf is above its
// guarantee × (1 + max-ignored-over-capacity) and some queue may want
// more than it holds (a leaf below its guarantee, or a parent queue,
// with containers pending).
func (c *Capacity) WantsBusyHeartbeats(v *replay.View) bool {
	if !c.o.preempt {
		return false
	}
	c.v = v
	c.sync() // a waiting AM may be demand
	if c.nKills > 0 || len(c.marks) > 0 {
		return true
	}
	if c.dirty {
		c.dirty = false
		c.trigger = c.mayPreempt(c.root)
	}
	return c.trigger
}

func (c *Capacity) mayPreempt(root *queue) bool {
	over, wanting := false, false
	var walk func(q *queue)
	walk = func(q *queue) {
		used := c.calc.size(q.used)
		if q.pending != (replay.Resources{}) && q != root && (!q.q.Leaf() || used < c.guarantee(q)-eps) {
			wanting = true
		}
		if q.q.Leaf() && used > c.guarantee(q)*(1+c.o.ignored)+eps {
			over = true
		}
		for _, ch := range q.children {
			walk(ch)
		}
	}
	walk(root)
	return over && wanting
}
