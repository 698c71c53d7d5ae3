package yarncapacity

import (
	"cmp"
	"math"

	"sojourn/replay"
)

// Container assignment on a node's heartbeat (see the package
// documentation): one container per descent from the root, as
// CapacityScheduler.allocateContainersToNode asks the root queue again
// after each assignment.

// assignment is how a container was placed: node-local, rack-local or
// off-switch, YARN's NodeType of the request it served (a reduce, which
// asks for any node, is off-switch).
type assignment = replay.Locality

// OnHeartbeat implements replay.Scheduler.
func (c *Capacity) OnHeartbeat(hb *replay.Heartbeat) error {
	c.v = hb.View
	c.sync()
	if c.err != nil {
		return c.err // from a job's submission, which cannot return it
	}
	c.seq++
	if c.o.preempt {
		if hb.Now() >= c.nextRound {
			c.round()
			c.nextRound = (hb.Now()/c.o.interval + 1) * c.o.interval
		}
		if err := c.killHere(hb); err != nil {
			return err
		}
		// The room a kill made goes to a waiting ApplicationMaster that
		// may take it: the engine starts it at the node's next
		// heartbeat, AMs going first.
		if c.amFitsNow(hb) {
			return nil
		}
	}
	assigned, offSwitch := 0, 0
	for hb.Free(replay.Map) > 0 && hb.Demand(replay.Map)+hb.Demand(replay.Reduce) > 0 {
		kind, ok, err := c.assign(hb, c.root)
		if err != nil || !ok {
			return err
		}
		assigned++
		if kind == replay.OffRack {
			offSwitch++
		}
		if !c.o.multiple || assigned == c.o.maxAssign || offSwitch >= c.o.maxOffSwitch {
			break
		}
	}
	return nil
}

// assign gives one container on the node to an app below queue q: the
// children are offered it in increasing order of used capacity relative
// to their guarantee, ties by name, and a leaf to its apps in its order.
// A queue found with nothing to assign is not asked again during the
// heartbeat.
func (c *Capacity) assign(hb *replay.Heartbeat, q *queue) (assignment, bool, error) {
	if q.tried == c.seq {
		return 0, false, nil
	}
	if q.q.Leaf() {
		kind, ok, err := c.assignInLeaf(hb, q)
		if !ok && err == nil {
			q.tried = c.seq
		}
		return kind, ok, err
	}
	if len(q.children) == 1 {
		// Nothing to order: the common single leaf under the root.
		if kind, ok, err := c.assign(hb, q.children[0]); ok || err != nil {
			return kind, ok, err
		}
		q.tried = c.seq
		return 0, false, nil
	}
	q.kids = append(q.kids[:0], q.children...)
	for _, ch := range q.kids {
		ch.served = c.served(ch) // once per child, not per comparison
	}
	// A stable insertion sort: a parent has few children.
	for i := 1; i < len(q.kids); i++ {
		for j := i; j > 0 && servedFirst(q.kids[j], q.kids[j-1]); j-- {
			q.kids[j], q.kids[j-1] = q.kids[j-1], q.kids[j]
		}
	}
	for _, ch := range q.kids {
		if kind, ok, err := c.assign(hb, ch); ok || err != nil {
			return kind, ok, err
		}
	}
	q.tried = c.seq
	return 0, false, nil
}

// servedFirst reports whether queue a is offered a node before b: less
// used capacity relative to its guarantee (served, set), then its name.
func servedFirst(a, b *queue) bool {
	if d := cmp.Compare(a.served, b.served); d != 0 {
		return d < 0
	}
	return a.q.Name < b.q.Name
}

// assignInLeaf offers the node to leaf q's apps with a container to ask
// for, in the leaf's order, until one takes a container. Apps passed over
// during this heartbeat are not offered the node again in it: the scan
// resumes where the last one ended.
func (c *Capacity) assignInLeaf(hb *replay.Heartbeat, q *queue) (assignment, bool, error) {
	i := 0
	if q.curSeq == c.seq {
		i = q.cursor
	}
	q.curSeq = c.seq
	for i < len(q.ready) {
		j := q.ready[i]
		t, kind, ok := c.offer(hb, q, j)
		switch {
		case !ok && !c.apps[j].ready:
			continue // it had nothing to launch and left the list
		case !ok:
			i++
			continue
		}
		if err := hb.Launch(t); err != nil {
			return 0, false, err
		}
		c.launched(t)
		q.cursor = i // the app moved on or out (fair order): the next is at i
		return kind, true, nil
	}
	q.cursor = i
	return 0, false, nil
}

// launched accounts app t.Job's new container.
func (c *Capacity) launched(t replay.TaskRef) {
	if c.o.preempt {
		a := &c.apps[t.Job]
		a.run[t.Kind] = append(a.run[t.Kind], runRef{idx: t.Index, attempt: int32(c.v.Task(t).Attempts())})
	}
	c.charge(t.Job, c.v.Job(t.Job).Request(t.Kind), +1)
	c.refresh(t.Job)
}

// offer offers the node to app j of leaf q and returns the task it takes.
// The app's requests come in order, maps then reduces (see the package
// documentation): the first it has is served or the app is passed over.
// An app with nothing to launch leaves the ready list.
func (c *Capacity) offer(hb *replay.Heartbeat, q *queue, j int32) (replay.TaskRef, assignment, bool) {
	jv := hb.Job(j)
	k := replay.Map
	if !jv.Launchable(replay.Map) {
		if !jv.Launchable(replay.Reduce) {
			c.refresh(j)
			return replay.TaskRef{}, 0, false
		}
		k = replay.Reduce
	}
	if !hb.Fits(j, k) || !c.withinLimits(q, &c.apps[j], jv.Request(k)) {
		return replay.TaskRef{}, 0, false
	}
	if k == replay.Reduce {
		t, _ := hb.PendingReduce(j)
		return replay.TaskRef{Job: j, Kind: replay.Reduce, Index: t}, replay.OffRack, true
	}
	t, kind, ok := c.mapFor(hb, j)
	return replay.TaskRef{Job: j, Kind: replay.Map, Index: t}, kind, ok
}

// mapFor is the delay scheduling of RegularContainerAllocator: app j
// takes a node-local map at once, a rack-local one once it has missed
// node-locality-delay scheduling opportunities, any map once it has
// missed the off-switch delay. Missed opportunities count once per
// heartbeat, including the ones it takes off-switch, and restart from
// zero with a node-local or rack-local map.
func (c *Capacity) mapFor(hb *replay.Heartbeat, j int32) (int32, assignment, bool) {
	a := &c.apps[j]
	t, loc, ok := hb.PendingMap(j, hb.Node(), replay.OffRack)
	if !ok {
		return 0, 0, false
	}
	if loc == replay.NodeLocal || loc == replay.RackLocal && a.missed >= min(c.nodes, c.o.nodeDelay) {
		a.missed = 0
		return t, loc, true
	}
	allowed := c.offSwitchAllowed(a, hb.Job(j).Pending(replay.Map))
	if a.missedSeq != c.seq {
		a.missedSeq = c.seq
		a.missed++
	}
	// Off-switch, the container goes to the best map the node has for
	// the job: a rack-local one if there is one.
	return t, replay.OffRack, allowed
}

// offSwitchAllowed reports whether app a, with pending maps, may take a
// container off-switch after its missed opportunities.
func (c *Capacity) offSwitchAllowed(a *app, pending int) bool {
	if c.o.rackDelay >= 0 {
		return a.missed >= min(c.nodes, c.o.nodeDelay+c.o.rackDelay)
	}
	if a.locations <= 1 {
		return true // it asks for any node only
	}
	// YARN's locality wait factor: the share of the cluster the job's
	// nodes and racks are, times its pending maps, at most the nodes.
	n := float64(c.nodes)
	factor := min(float64(a.locations-1)/n, 1)
	return float64(a.missed+1) > math.Min(n, float64(pending)*factor)
}

// withinLimits reports whether app a of leaf q may take a container req:
// its queues stay within their maximum capacities, and its user is not
// over the user limit already. The request itself is left out of the
// user's check, as LeafQueue.canAssignToUser does ("We aren't
// considering the current request since there is a fixed overhead of
// the AM, but it's a > check, not a >= check"): a user may end one
// container past the limit.
//
// The queues' part and the user limit depend only on the queues' usage,
// the leaf's active users and req: they are computed once per change of
// those (limGen), not once per app offered the node.
func (c *Capacity) withinLimits(q *queue, a *app, req replay.Resources) bool {
	if q.limAt != c.limGen+1 || q.limReq != req {
		q.limAt, q.limReq = c.limGen+1, req
		q.limQueues = true
		for p := q; p != nil; p = p.parent {
			if c.calc.sizeOfSum(p.used, req, 1) > p.maxSize {
				q.limQueues = false
				break
			}
		}
		if q.limQueues {
			q.limUser = c.userLimit(q, req)
		}
	}
	return q.limQueues && c.calc.size(a.user.used) <= q.limUser+eps
}

// userLimit is LeafQueue.computeUserLimit (Hadoop 2.7) for a request req:
// with the queue's capacity C (its guarantee rounded up to the minimum
// allocation, at least req), its current capacity C while its use is
// below C and use + req beyond, and n the users with apps asking for
// containers, a user may hold max(⌈current / n⌉, ⌈current ×
// minimum-user-limit-percent / 100⌉), at most C × user-limit-factor,
// rounded up to the minimum allocation.
func (c *Capacity) userLimit(q *queue, req replay.Resources) float64 {
	size := c.calc.size(req)
	capa := max(q.guarUp, size)
	current := capa
	if used := c.calc.size(q.used); used >= capa-eps {
		current = used + size
	}
	active := float64(max(q.active, 1))
	limit := max(ceil(current/active), ceil(floor(current*q.q.MinUserLimitPercent)/100))
	limit = min(limit, floor(capa*q.q.UserLimitFactor))
	return roundUp(limit, c.calc.minAlloc)
}
