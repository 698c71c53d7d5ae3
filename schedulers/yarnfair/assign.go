package yarnfair

import (
	"slices"

	"sojourn/replay"
)

// OnHeartbeat implements replay.Scheduler: updates shares and starvation
// when due, kills the victims marked on the node, then assigns
// containers from the root down (FairScheduler.attemptScheduling).
func (p *YARNFair) OnHeartbeat(hb *replay.Heartbeat) error {
	p.sync(hb.View)
	p.tick(hb.Now(), true, hb.View)
	if p.o.preempt {
		if err := p.killMarked(hb); err != nil {
			return err
		}
	}
	// The room preemption just made goes to a waiting ApplicationMaster
	// that may take it: the engine starts it at the node's next
	// heartbeat, AMs going first.
	if p.o.preempt && p.root.amAsk > 0 && p.amFitsNow(hb) {
		return nil
	}
	// A full node is offered to the apps too when delay scheduling
	// counts its heartbeat as a scheduling opportunity.
	if p.root.ready == 0 || (hb.Free(replay.Map) == 0 && hb.Free(replay.Reduce) == 0 && !p.delayScheduling()) {
		return nil
	}
	avail := hb.Available()
	var half, assigned replay.Resources
	for r := 0; r < p.nres; r++ {
		half[r] = avail[r] / 2
	}
	for n := 1; ; n++ {
		req, ok, err := p.assignQueue(p.root, hb)
		if err != nil || !ok {
			return err
		}
		for r := 0; r < p.nres; r++ {
			assigned[r] += req[r]
		}
		if !p.continueAssigning(n, &assigned, &half) {
			return nil
		}
	}
}

// continueAssigning is FairScheduler.shouldContinueAssigning after n
// containers worth assigned: with assignmultiple, while what is assigned
// fits in half the node's resources unallocated before the heartbeat
// (dynamic), or fewer than max-assign containers.
func (p *YARNFair) continueAssigning(n int, assigned, half *replay.Resources) bool {
	switch {
	case !p.o.assignMultiple:
		return false
	case p.o.dynamicMaxAssign:
		for r := 0; r < p.nres; r++ {
			if assigned[r] > half[r] {
				return false
			}
		}
		return true
	}
	return p.o.maxAssign <= 0 || n < p.o.maxAssign
}

// delayScheduling reports whether maps wait for locality: both
// thresholds set, or both delays with continuous scheduling.
func (p *YARNFair) delayScheduling() bool {
	if p.o.continuous {
		return p.o.nodeDelay >= 0
	}
	return p.o.nodeThreshold >= 0 && p.o.rackThreshold >= 0
}

// assignQueue offers the node to queue q's subtree: its children with
// apps that ask for containers, the most deserving first by q's policy,
// until one takes a container (FSParentQueue and FSLeafQueue
// assignContainer). It returns the container's size.
func (p *YARNFair) assignQueue(q *queue, hb *replay.Heartbeat) (replay.Resources, bool, error) {
	if q.ready == 0 {
		return replay.Resources{}, false, nil
	}
	if q.leaf {
		return p.assignLeaf(q, hb)
	}
	for len(p.scratchQ) <= q.depth {
		p.scratchQ = append(p.scratchQ, nil)
	}
	kids := p.scratchQ[q.depth][:0]
	for _, c := range q.children {
		if c.ready > 0 {
			kids = append(kids, c)
		}
	}
	p.scratchQ[q.depth] = kids
	if len(kids) > 1 {
		cmpf := p.comparator(q.pol)
		slices.SortFunc(kids, func(a, b *queue) int { return cmpf(&a.sched, &b.sched) })
	}
	for _, c := range kids {
		req, ok, err := p.assignQueue(c, hb)
		if ok || err != nil {
			return req, ok, err
		}
	}
	return replay.Resources{}, false, nil
}

// assignLeaf offers the node to the ready apps of leaf q, the most
// deserving first by q's policy: the top of the leaf's heap, which
// stays in it while it is offered the node (a container it takes fixes
// its place), and leaves it for the rest of the heartbeat if it takes
// nothing.
func (p *YARNFair) assignLeaf(q *queue, hb *replay.Heartbeat) (replay.Resources, bool, error) {
	h := &q.heap
	tried := p.scratchA[:0]
	var req replay.Resources
	var ok bool
	var err error
	for len(h.apps) > 0 {
		a := h.apps[0]
		if req, ok, err = p.tryApp(a, hb); ok || err != nil {
			break
		}
		if a.hk.hpos >= 0 {
			h.remove(a)
		}
		a.popped = true
		tried = append(tried, a)
	}
	for _, a := range tried {
		a.popped = false
		if a.ready && a.hk.hpos < 0 {
			h.push(a)
		}
	}
	p.scratchA = tried[:0]
	return req, ok, err
}

// tryApp offers the node to app a (FSAppAttempt.assignContainer): its
// requests in priority order, reduces (MapReduce's priority 10) before
// maps (20), though reduces only once no map waits (see the package
// documentation). The first request the app could place on the node, were it
// empty and within the queues' maxima, decides: it is placed if its
// locality is allowed and it fits what the node has left, and otherwise
// the app takes nothing here. Maps count a scheduling opportunity each
// time, full nodes included, and follow the locality thresholds. A
// container that does not fit leaves the node to the next app, where
// YARN would reserve the node (reservations are not modelled).
func (p *YARNFair) tryApp(a *app, hb *replay.Heartbeat) (replay.Resources, bool, error) {
	jv := hb.Job(a.id)
	n := hb.Node()
	for _, k := range [2]replay.TaskKind{replay.Reduce, replay.Map} {
		if !jv.Launchable(k) || k == replay.Reduce && jv.Pending(replay.Map) > 0 {
			continue // reduces only once every map is placed
		}
		req := jv.Request(k)
		if !p.could(a.q, &req, n) {
			continue
		}
		var t replay.TaskRef
		var loc replay.Locality
		if k == replay.Reduce {
			idx, _ := hb.PendingReduce(a.id)
			t = replay.TaskRef{Job: a.id, Kind: k, Index: idx}
		} else {
			a.opps++
			allowed := p.allowedLevel(a, hb.Nodes(), hb.Now())
			idx, l, ok := hb.PendingMap(a.id, n, replay.OffRack)
			if !ok || l > allowed {
				return replay.Resources{}, false, nil
			}
			t, loc = replay.TaskRef{Job: a.id, Kind: k, Index: idx}, l
		}
		if !hb.Fits(a.id, k) {
			return replay.Resources{}, false, nil
		}
		if err := hb.Launch(t); err != nil {
			return replay.Resources{}, false, err
		}
		if k == replay.Map {
			p.raiseLevel(a, loc)
		}
		p.add(a, &req, 1, 0)
		p.refresh(a, hb.View)
		return req, true, nil
	}
	return replay.Resources{}, false, nil
}

// could reports whether a container of size req could go to leaf q on
// node n: it fits the node's capacity and the maxima of q and its
// parents (hasContainerForNode).
func (p *YARNFair) could(q *queue, req *replay.Resources, n int32) bool {
	c := p.v.NodeCapacity(n)
	for r := 0; r < p.nres; r++ {
		if req[r] > c[r] {
			return false
		}
	}
	for ; q != nil; q = q.parent {
		if q.hasMax && (q.usage[0]+req[0] > q.max[0] || q.usage[1]+req[1] > q.max[1]) {
			return false
		}
	}
	return true
}

// allowedLevel is the worst locality app a's maps may take now
// (FSAppAttempt.getAllowedLocalityLevel): with both thresholds set, node-
// local at first; once more than threshold × nodes scheduling
// opportunities passed at a level, the next level, the count starting
// again.
func (p *YARNFair) allowedLevel(a *app, nodes int, now replay.Time) replay.Locality {
	if p.o.continuous {
		return p.allowedByTime(a, now)
	}
	tn, tr := min(p.o.nodeThreshold, 1), min(p.o.rackThreshold, 1)
	if tn < 0 || tr < 0 {
		return replay.OffRack
	}
	if !a.localityInit {
		a.localityInit, a.allowed = true, replay.NodeLocal
		return replay.NodeLocal
	}
	if a.allowed == replay.OffRack {
		return replay.OffRack
	}
	th := tn
	if a.allowed == replay.RackLocal {
		th = tr
	}
	if float64(a.opps) > float64(nodes)*th {
		a.allowed++
		a.opps = 0
	}
	return a.allowed
}

// raiseLevel is FSAppAttempt.allocate's update: a container placed at a
// better locality than allowed brings the allowed level back to it.
func (p *YARNFair) raiseLevel(a *app, loc replay.Locality) {
	if a.localityInit && loc < a.allowed {
		a.allowed = loc
	}
}

// allowedByTime is allowedLevel with continuous scheduling
// (FSAppAttempt.getAllowedLocalityLevelByTime): node-local at first;
// once more than locality-delay-node (then -rack) passed since the level
// was set, the next level.
func (p *YARNFair) allowedByTime(a *app, now replay.Time) replay.Locality {
	if p.o.nodeDelay < 0 || p.o.rackDelay < 0 {
		return replay.OffRack
	}
	if !a.localityInit {
		a.localityInit, a.allowed, a.lastSched = true, replay.NodeLocal, now
		return replay.NodeLocal
	}
	if a.allowed == replay.OffRack {
		return replay.OffRack
	}
	th := p.o.nodeDelay
	if a.allowed == replay.RackLocal {
		th = p.o.rackDelay
	}
	if now-a.lastSched > th {
		a.allowed++
		a.lastSched = now
	}
	return a.allowed
}

// amFitsNow reports whether a waiting ApplicationMaster would be chosen
// for the heartbeating node and fits what it has left.
func (p *YARNFair) amFitsNow(hb *replay.Heartbeat) bool {
	am := hb.AMRequest()
	avail := hb.Available()
	for r := 0; r < p.nres; r++ {
		if am[r] > avail[r] {
			return false
		}
	}
	return p.chooseAM(p.root, hb.Node(), &am) >= 0
}
