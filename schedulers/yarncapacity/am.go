package yarncapacity

import (
	"cmp"
	"slices"

	"sojourn/replay"
	"sojourn/schedulers/internal/order"
)

// ApplicationMasters (see the package documentation): an app is held from
// its submission, pending in its leaf until LeafQueue.activateApplications
// lets it in under the leaf's and its user's AM limits, then asks for its
// AM's container, which the policy places (replay.AMScheduler).

// sync takes in the jobs submitted since the last call
// (LeafQueue.addApplicationAttempt: each is pending, then the leaf
// activates what it may).
func (c *Capacity) sync() {
	if c.seen < c.v.Submitted() { // at every event: kept inlined
		c.submitNew()
	}
}

// submitNew submits the jobs submitted since the last sync.
func (c *Capacity) submitNew() {
	for n := c.v.Submitted(); c.seen < n; c.seen++ {
		c.submit(int32(c.seen))
	}
}

// submit puts submitted job j in its leaf's pending apps and its user.
func (c *Capacity) submit(j int32) {
	jv := c.v.Job(j)
	leaf := c.leafOf(jv.Pool())
	if leaf == nil {
		c.err = cmp.Or(c.err, c.qs.NoLeaf(jv.Index(), jv.Trace().Name, jv.Pool()))
		return
	}
	name := c.userOf(jv)
	u := leaf.users[name]
	if u == nil {
		u = &user{}
		leaf.users[name] = u
	}
	c.apps[j] = app{leaf: leaf, user: u, live: true, amWait: true}
	leaf.waiting = c.insertFIFO(leaf.waiting, j)
	c.refresh(j)
	c.activate(leaf)
}

func (c *Capacity) insertFIFO(list []int32, j int32) []int32 {
	i, _ := slices.BinarySearchFunc(list, j, func(x, y int32) int { return order.FIFO(c.v, x, y) })
	return slices.Insert(list, i, j)
}

// activate is LeafQueue.activateApplications: the pending apps of leaf q,
// in FIFO order, are activated while the leaf's AMs with theirs stay
// within the leaf's AM limit and their user's within the user AM limit;
// an app that does not fit is passed over for the next. When the leaf
// has no active app, or its AMs hold nothing, the limits are not
// enforced, so that one app may start.
func (c *Capacity) activate(q *queue) {
	if len(q.waiting) == 0 {
		return
	}
	am := c.v.AMRequest()
	limit := c.amLimit(q)
	userLimit := c.userAMLimit(q, limit)
	out := q.waiting[:0]
	for _, j := range q.waiting {
		a := &c.apps[j]
		anyway := q.nActive < 1 || c.calc.size(q.amUsed) <= 0
		if !anyway && (c.calc.sizeOfSum(q.amUsed, am, 1) > c.calc.size(limit)+eps ||
			c.calc.sizeOfSum(a.user.amUsed, am, 1) > c.calc.size(userLimit)+eps) {
			out = append(out, j)
			continue
		}
		for i := range c.calc.nres {
			q.amUsed[i] += am[i]
			a.user.amUsed[i] += am[i]
		}
		q.nActive++
		a.activated = true
		q.apps = c.insertFIFO(q.apps, j)
		q.amAsk = c.insertFIFO(q.amAsk, j)
		c.amAsks++
		c.refresh(j) // its AM is now pending demand
	}
	clear(q.waiting[len(out):])
	q.waiting = out
}

// amLimit is LeafQueue.calculateAndGetAMResourceLimitPerPartition: the
// leaf's maximum-am-resource-percent of the larger of its guarantee
// (normalised up) and its current limit, normalised up to the minimum
// allocation.
func (c *Capacity) amLimit(q *queue) replay.Resources {
	guarantee := c.calc.mulNormUp(c.calc.cluster, q.q.AbsCapacity)
	usable := guarantee
	if cur := c.currentLimit(q); c.calc.fitsIn(guarantee, cur) {
		usable = cur
	}
	return c.calc.mulNormUp(usable, q.amPct)
}

// userAMLimit is LeafQueue.getUserAMResourceLimitPerPartition (users'
// weights 1): maximum-am-resource-percent × max(minimum-user-limit-percent
// / 100, 1 / active users) × user-limit-factor of the leaf's guarantee,
// normalised up, at most the leaf's AM limit.
func (c *Capacity) userAMLimit(q *queue, limit replay.Resources) replay.Resources {
	eff := max(q.q.MinUserLimitPercent/100, 1/float64(max(q.active, 1)))
	guarantee := c.calc.mulNormUp(c.calc.cluster, q.q.AbsCapacity)
	return c.calc.minOf(c.calc.mulNormUp(guarantee, q.amPct*eff*q.q.UserLimitFactor), limit)
}

// currentLimit is the queue's resource limit as its parent passes it down
// (ParentQueue.getResourceLimitsOfChild): the parent's limit less what
// the parent uses plus what q uses, at most q's maximum capacity
// (normalised down), rounded down to the minimum allocation; the root's
// is the cluster.
func (c *Capacity) currentLimit(q *queue) replay.Resources {
	if q.parent == nil {
		return c.calc.cluster
	}
	lim := c.currentLimit(q.parent)
	for i := range c.calc.nres {
		lim[i] += q.used[i] - q.parent.used[i]
	}
	lim = c.calc.minOf(lim, c.calc.mulNormDown(c.calc.cluster, q.q.AbsMaxCapacity))
	for i := range c.calc.nres {
		lim[i] = roundDownInt(lim[i], c.calc.step[i])
	}
	return lim
}

// ChooseAM implements replay.AMScheduler: the node goes to the first
// activated app waiting for its AM found from the root down, children in
// the order a heartbeat offers them the node, in a leaf in FIFO order,
// whose queues stay within their maximum capacities with the AM and whose
// user is not above its user limit (as for any container).
func (c *Capacity) ChooseAM(node int32, v *replay.View) int32 {
	c.v = v
	c.sync()
	if c.amAsks == 0 || c.err != nil {
		return -1
	}
	am := v.AMRequest()
	return c.chooseAM(c.root, am)
}

func (c *Capacity) chooseAM(q *queue, am replay.Resources) int32 {
	if q.q.Leaf() {
		for _, j := range q.amAsk {
			if c.withinLimits(q, &c.apps[j], am) {
				return j
			}
		}
		return -1
	}
	kids := slices.Clone(q.children)
	slices.SortStableFunc(kids, func(a, b *queue) int {
		return cmp.Or(cmp.Compare(c.served(a), c.served(b)), cmp.Compare(a.q.Name, b.q.Name))
	})
	for _, ch := range kids {
		if j := c.chooseAM(ch, am); j >= 0 {
			return j
		}
	}
	return -1
}

// amFitsNow reports whether a waiting AM could start on the heartbeat's
// node now: the room a kill just made there goes to it at the node's next
// heartbeat, AMs going first.
func (c *Capacity) amFitsNow(hb *replay.Heartbeat) bool {
	if c.amAsks == 0 {
		return false
	}
	am, avail := hb.AMRequest(), hb.Available()
	if !c.calc.fitsIn(am, avail) {
		return false
	}
	return c.chooseAM(c.root, am) >= 0
}
