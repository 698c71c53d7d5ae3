package yarnfair

import (
	"cmp"
	"math"

	"sojourn/replay"
)

// warning is a container asked back (YARN warns, then kills after
// waitTimeBeforeKill).
type warning struct {
	t     replay.TaskRef
	start replay.Time // the attempt's start, to tell it from a later one
	node  int32
	at    replay.Time // when it was first warned
}

// WantsBusyHeartbeats implements replay.Preempter. Full nodes keep
// heartbeating with preemption on while a queue is starved, something
// changed since the last update (which may starve a queue), a container
// is warned or a victim waits for its node, so that warnings and kills
// happen on time; and with delay scheduling while an app asks for
// containers, since YARN counts a scheduling opportunity at every
// node's heartbeat, full nodes included.
func (p *YARNFair) WantsBusyHeartbeats(v *replay.View) bool {
	p.sync(v)
	if p.delayScheduling() && p.root.ready > 0 {
		return true
	}
	return p.o.preempt && (p.starved || p.nKills > 0 || len(p.warned) > 0 || p.dirty && p.root.runnable > 0)
}

// tick runs the updates due up to now, included or not: one every
// update-interval from time 0, as FairScheduler's UpdateThread runs
// whether or not nodes heartbeat. The policy's state changes only when
// it is called, so the updates since its last call all see the state
// as it is now: once nothing is starved and no container is warned, the
// rest up to now repeat the last, and only the latest runs (its clocks
// are those of the skipped ones).
func (p *YARNFair) tick(now replay.Time, incl bool, v *replay.View) {
	u := max(p.o.updateInterval, 1)
	due := func() bool { return p.nextUpdate < now || incl && p.nextUpdate == now }
	for due() {
		p.update(p.nextUpdate, v)
		p.nextUpdate += u
		if !due() || p.o.preempt && (p.starved || len(p.warned) > 0) && p.canPreempt() {
			continue
		}
		last := now
		if !incl {
			last--
		}
		k := (last - p.nextUpdate) / u
		if k <= 0 {
			continue
		}
		g := p.nextUpdate + k*u
		if p.o.preempt && p.busyEnough() {
			step := (p.o.preemptInterval + u - 1) / u * u
			if step > 0 && g-p.lastPreempt >= step {
				p.lastPreempt += (g - p.lastPreempt) / step * step
			}
		}
		p.nextUpdate = g
	}
}

// canPreempt reports whether either preemption timeout is set.
func (p *YARNFair) canPreempt() bool {
	return p.o.minTimeout != replay.Never || p.o.fairTimeout != replay.Never
}

// update recomputes fair shares and, with preemption on, starvation,
// then, every preemption-interval while the cluster is busy enough,
// preempts for the starved queues (FairScheduler.update and
// preemptTasksIfNecessary).
func (p *YARNFair) update(now replay.Time, v *replay.View) {
	p.lastUpdate = now
	p.dirty = false
	if p.sharesStale {
		p.computeShares()
	}
	if !p.o.preempt {
		return
	}
	p.starved = false
	for _, q := range p.leaves {
		if !p.starvedFor(q, &q.min) {
			q.lastMin = now
		}
		var th replay.Resources
		for r := 0; r < p.nres; r++ {
			th[r] = int64(float64(q.fair[r]) * p.o.fairThreshold)
		}
		if !p.starvedFor(q, &th) {
			q.lastFair = now
		}
		if q.lastMin < now || q.lastFair < now {
			p.starved = true
		}
	}
	if !p.busyEnough() || now-p.lastPreempt < p.o.preemptInterval {
		return
	}
	p.lastPreempt = now
	var toPreempt replay.Resources
	for _, q := range p.leaves {
		d := p.deficit(q, now)
		for r := 0; r < p.nres; r++ {
			toPreempt[r] += d[r]
		}
	}
	if toPreempt[0] > 0 {
		p.preemptResources(toPreempt, now, v)
	}
}

// busyEnough reports whether the cluster's most used resource is
// allocated above preemption-utilization-threshold.
func (p *YARNFair) busyEnough() bool {
	var u float64
	for r := 0; r < p.nres; r++ {
		if p.cluster[r] > 0 {
			u = max(u, float64(p.root.usage[r])/float64(p.cluster[r]))
		}
	}
	return u > p.o.utilThreshold
}

// computeShares sets the instantaneous fair shares from the root down:
// the cluster among the active children (with runnable apps) of each
// queue by its policy, memory alone under fair, every resource under
// drf; the leaf's among its runnable apps (FIFO: all to the first).
func (p *YARNFair) computeShares() {
	p.sharesStale = false
	p.root.fair = p.cluster
	p.sharesBelow(p.root)
}

// shareArgs returns ComputeShares' argument slices for n schedulables,
// reused from one computation to the next.
func (p *YARNFair) shareArgs(n int) ([]float64, []int64, []int64, []int64) {
	if cap(p.shareW) < n {
		p.shareW, p.shareLo, p.shareHi, p.shareOut = make([]float64, n), make([]int64, n), make([]int64, n), make([]int64, n)
	}
	return p.shareW[:n], p.shareLo[:n], p.shareHi[:n], p.shareOut[:n]
}

func (p *YARNFair) sharesBelow(q *queue) {
	nr := 1
	if q.pol == polDRF {
		nr = p.nres
	}
	if q.leaf {
		for _, a := range q.apps {
			a.fair = replay.Resources{}
		}
		if len(q.apps) == 0 {
			return
		}
		if q.pol == polFIFO {
			q.apps[0].fair = q.fair
			return
		}
		w, lo, hi, out := p.shareArgs(len(q.apps))
		for i := range q.apps {
			w[i], lo[i], hi[i] = 1, 0, unbounded
		}
		for r := 0; r < nr; r++ {
			ComputeShares(w, lo, hi, q.fair[r], out)
			for i, a := range q.apps {
				a.fair[r] = out[i]
			}
		}
		return
	}
	act := p.shareAct[:0]
	for _, c := range q.children {
		c.fair = replay.Resources{}
		if c.runnable > 0 {
			act = append(act, c)
		}
	}
	p.shareAct = act // used up before the children's turn
	if len(act) > 0 {
		w, lo, hi, out := p.shareArgs(len(act))
		for r := 0; r < nr; r++ {
			for i, c := range act {
				w[i], lo[i], hi[i] = c.weight, c.min[r], unbounded
				if c.hasMax && r < 2 {
					hi[i] = c.max[r]
				}
			}
			ComputeShares(w, lo, hi, q.fair[r], out)
			for i, c := range act {
				c.fair[r] = out[i]
			}
		}
	}
	for _, c := range q.children {
		p.sharesBelow(c)
	}
}

// calcCompare compares two amounts the way policy k's resource
// calculator does: memory alone (fair, fifo), or dominant shares of the
// cluster, then the smallest shares (drf).
func (p *YARNFair) calcCompare(k policyKind, a, b *replay.Resources) int {
	if k != polDRF {
		return cmp.Compare(a[0], b[0])
	}
	amax, amin := p.shareRange(a)
	bmax, bmin := p.shareRange(b)
	if c := cmp.Compare(amax, bmax); c != 0 {
		return c
	}
	return cmp.Compare(amin, bmin)
}

func (p *YARNFair) shareRange(x *replay.Resources) (hi, lo float64) {
	lo = math.Inf(1)
	for r := 0; r < p.nres; r++ {
		if p.cluster[r] > 0 {
			s := float64(x[r]) / float64(p.cluster[r])
			hi, lo = max(hi, s), min(lo, s)
		}
	}
	return hi, lo
}

// starvedFor reports whether leaf q uses less than share, capped by its
// demand (FSLeafQueue.isStarved).
func (p *YARNFair) starvedFor(q *queue, share *replay.Resources) bool {
	desired := share
	if p.calcCompare(q.pol, &q.demand, share) < 0 {
		desired = &q.demand
	}
	return p.calcCompare(q.pol, &q.usage, desired) < 0
}

// deficit is what leaf q is owed once starved past a timeout: its min
// share (past min-share-preemption-timeout) or its fair share (past
// fair-share-preemption-timeout), each capped by its demand, less its
// usage; the larger of the two (FairScheduler.resourceDeficit).
func (p *YARNFair) deficit(q *queue, now replay.Time) replay.Resources {
	var zero, dMin, dFair replay.Resources
	owed := func(share *replay.Resources) replay.Resources {
		var d replay.Resources
		for r := 0; r < p.nres; r++ {
			d[r] = min(share[r], q.demand[r]) - q.usage[r]
		}
		if p.calcCompare(q.pol, &d, &zero) > 0 {
			return d
		}
		return zero
	}
	if p.o.minTimeout != replay.Never && now-q.lastMin > p.o.minTimeout {
		dMin = owed(&q.min)
	}
	if p.o.fairTimeout != replay.Never && now-q.lastFair > p.o.fairTimeout {
		dFair = owed(&q.fair)
	}
	if p.calcCompare(q.pol, &dMin, &dFair) >= 0 {
		return dMin
	}
	return dFair
}

// preemptResources warns or kills containers worth toPreempt (memory):
// first those warned before and still running, then new ones chosen from
// the root down, each time from the child most over its share by the
// parent's policy, in the leaf from the app most over its share, its
// maps before its reduces and the youngest first (FairScheduler
// preemptResources). Warned containers count as gone while choosing.
func (p *YARNFair) preemptResources(toPreempt replay.Resources, now replay.Time, v *replay.View) {
	kept := p.warned[:0]
	var held []warning // warned containers subtracted from their apps' usage
	for _, w := range p.warned {
		if tv := v.Task(w.t); !tv.Running() || tv.AttemptStart() != w.start || p.apps[w.t.Job] == nil {
			continue
		}
		kept = append(kept, w)
		req := v.Job(w.t.Job).Request(w.t.Kind)
		if toPreempt[0] > 0 {
			p.warnOrKill(&kept[len(kept)-1], now)
			for r := 0; r < p.nres; r++ {
				toPreempt[r] -= req[r]
			}
		}
		p.add(p.apps[w.t.Job], &req, -1, 0)
		held = append(held, w)
	}
	p.warned = kept
	for toPreempt[0] > 0 {
		a, t, ok := p.preemptFrom(p.root, v)
		if !ok {
			break
		}
		tv := v.Task(t)
		w := warning{t: t, start: tv.AttemptStart(), node: tv.Node(), at: now}
		p.warned = append(p.warned, w)
		req := v.Job(t.Job).Request(t.Kind)
		for r := 0; r < p.nres; r++ {
			toPreempt[r] -= req[r]
		}
		p.add(a, &req, -1, 0)
		held = append(held, w)
	}
	for _, w := range held {
		req := v.Job(w.t.Job).Request(w.t.Kind)
		p.add(p.apps[w.t.Job], &req, 1, 0)
	}
}

// warnOrKill marks a warned container for a kill at its node's next
// heartbeat once it was warned more than wait-before-kill ago.
func (p *YARNFair) warnOrKill(w *warning, now replay.Time) {
	if w.at+p.o.waitBeforeKill < now && w.at >= 0 {
		p.kills[w.node] = append(p.kills[w.node], *w)
		p.nKills++
		w.at = -1 // marked; dropped once it no longer runs
	}
}

// preemptFrom chooses a container to preempt below queue q.
func (p *YARNFair) preemptFrom(q *queue, v *replay.View) (*app, replay.TaskRef, bool) {
	if !q.leaf {
		cmpf := p.comparator(q.pol)
		var cand *queue
		for _, c := range q.children {
			if cand == nil || cmpf(&c.sched, &cand.sched) > 0 {
				cand = c
			}
		}
		if cand == nil {
			return nil, replay.TaskRef{}, false
		}
		return p.preemptFrom(cand, v)
	}
	// The leaf must be over its fair share by its parent's policy.
	if !p.overShare(q.parent.pol, &q.usage, &q.fair) {
		return nil, replay.TaskRef{}, false
	}
	cmpf := p.comparator(q.pol)
	var cand *app
	for _, a := range q.apps {
		if cand == nil || cmpf(&a.sched, &cand.sched) > 0 {
			cand = a
		}
	}
	if cand == nil || !p.overShare(q.pol, &cand.usage, &cand.fair) {
		return nil, replay.TaskRef{}, false
	}
	t, ok := p.youngest(cand, v)
	return cand, t, ok
}

// overShare reports whether usage is over share: on memory (fair,
// fifo), on any resource (drf).
func (p *YARNFair) overShare(k policyKind, usage, share *replay.Resources) bool {
	if k != polDRF {
		return usage[0] > share[0]
	}
	for r := 0; r < p.nres; r++ {
		if usage[r] > share[r] {
			return true
		}
	}
	return false
}

// youngest is app a's running container to preempt first, not yet
// warned: maps (MapReduce's priority 20) before reduces (10), then the
// latest started, then the highest index.
func (p *YARNFair) youngest(a *app, v *replay.View) (replay.TaskRef, bool) {
	jv := v.Job(a.id)
	for _, k := range [2]replay.TaskKind{replay.Map, replay.Reduce} {
		if jv.Running(k) == 0 {
			continue
		}
		best, found := replay.TaskRef{}, false
		var bestStart replay.Time
		for i := int32(jv.Tasks(k)) - 1; i >= 0; i-- {
			t := replay.TaskRef{Job: a.id, Kind: k, Index: i}
			tv := v.Task(t)
			if !tv.Running() || p.isWarned(t, tv.AttemptStart()) {
				continue
			}
			if s := tv.AttemptStart(); !found || s > bestStart {
				best, bestStart, found = t, s, true
			}
		}
		if found {
			return best, true
		}
	}
	return replay.TaskRef{}, false
}

func (p *YARNFair) isWarned(t replay.TaskRef, start replay.Time) bool {
	for _, w := range p.warned {
		if w.t == t && w.start == start {
			return true
		}
	}
	return false
}

// killMarked kills the victims marked for the heartbeating node that
// still run there.
func (p *YARNFair) killMarked(hb *replay.Heartbeat) error {
	n := hb.Node()
	ks := p.kills[n]
	if len(ks) == 0 {
		return nil
	}
	p.kills[n] = nil
	p.nKills -= len(ks)
	for _, w := range ks {
		t := w.t
		tv := hb.Task(t)
		a := p.apps[t.Job]
		if a == nil || !tv.Running() || tv.Node() != n || tv.AttemptStart() != w.start {
			continue
		}
		if err := hb.Kill(t); err != nil {
			return err
		}
		req := hb.Job(t.Job).Request(t.Kind)
		p.add(a, &req, -1, 0)
		p.refresh(a, hb.View)
	}
	return nil
}
