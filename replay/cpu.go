package replay

import "math"

// Shared CPUs (Engine.cpuShared): when a policy does not count vcores
// (YARN's DefaultResourceCalculator) a node may hold containers asking
// for more vcores than it has, and its tasks then share its CPUs, each at
// vcores / vcores allocated of its speed, as processes do when the
// NodeManager does not isolate CPUs. Every change of a node's allocation
// then moves the end of each task running there.
//
// Each node keeps its running tasks' ends itself (nodeCPU) and has one
// event in the engine's queue: that of the task due first. A change of
// rate rewrites the ends in the node's own short list, where one queue
// event per task would be pushed again, or left stale to pop later, for
// every task at every change.
//
// Equal-time events pop in the order they were queued, and so must task
// ends: each task keeps the time and sequence number (due, seq) its end
// holds in that order, as if it had an event of its own. A task's end is
// queued when it starts running and again when a change brings it
// earlier; one that a change delays comes due at its old place, finds its
// end later and is queued again then, at its new end (cpuDue).

// cpuTask is a task running on a node whose CPUs may be shared.
type cpuTask struct {
	ref TaskRef
	// waiting marks a reduce whose shuffle waits for its job's maps: it
	// does no CPU work yet and has no end.
	waiting bool
	swapEnd Time // segStart + swapDelay: the swap-in is not CPU work
	end     Time // its end at the node's current rate
	due     Time // where its end is in the event order, with seq
	seq     uint64
}

// nodeCPU is a node's running tasks, in the order of node.running, and
// its event in the engine's queue (at, key), if queued.
//
// first caches next: the index+1 of the task due first (0: none), or
// -1 when a change made it unknown. Every task end looks for the first
// due task two or three times (cpuDue, cpuQueue, rerate); the cache makes
// that one scan, which rerate shares with its own.
type nodeCPU struct {
	tasks  []cpuTask
	first  int32
	queued bool
	at     Time
	key    uint64
}

// reserveSeq takes the queue's next sequence number, as a push would.
func (e *Engine) reserveSeq() uint64 {
	s := e.q.seq
	e.q.seq++
	return s
}

// cpuFind is the index of running task t in node ni's list.
func (e *Engine) cpuFind(ni int32, t TaskRef) int {
	c := &e.cpus[ni]
	for i := len(c.tasks) - 1; i >= 0; i-- {
		if c.tasks[i].ref == t {
			return i
		}
	}
	panic("replay: a running task is missing from its node's CPU list")
}

// cpuRemoveAt takes the task at index p out of node ni's list as
// removeAt takes it out of node.running (the last task moves into its
// place), keeping the two in the same order.
func (e *Engine) cpuRemoveAt(ni int32, p int) {
	c := &e.cpus[ni]
	last := len(c.tasks) - 1
	c.tasks[p] = c.tasks[last]
	c.tasks = c.tasks[:last]
	switch c.first - 1 {
	case int32(p):
		c.first = -1
	case int32(last):
		c.first = int32(p) + 1
	}
}

// cpuRun sets the end of task t, which has just started running (or its
// shuffle could start) on node ni, and queues it.
func (e *Engine) cpuRun(ni int32, t TaskRef, tk *task) {
	p := e.cpuFind(ni, t)
	x := &e.cpus[ni].tasks[p]
	x.waiting = false
	x.swapEnd = tk.segStart + tk.swapDelay
	x.end = tk.end
	x.due, x.seq = tk.end, e.reserveSeq()
	c := &e.cpus[ni]
	// Its sequence number is the newest: it comes first only if due
	// strictly earlier than the first.
	if c.first == 0 || (c.first > 0 && x.due < c.tasks[c.first-1].due) {
		c.first = int32(p) + 1
	}
	if !c.queuedBy(x.due, x.seq) {
		e.cpuQueue(ni)
	}
}

// runEnd is the end of task t's current run if it is running and not
// waiting for its maps; otherwise the task's own end field.
func (e *Engine) runEnd(t TaskRef, tk *task) Time {
	if e.cpuShared && tk.state == running && !tk.waiting {
		ni := tk.node()
		return e.cpus[ni].tasks[e.cpuFind(ni, t)].end
	}
	return tk.end
}

// next is the index of the node's task due first, -1 if none runs.
func (c *nodeCPU) next() int {
	if c.first >= 0 {
		return int(c.first) - 1
	}
	p := c.scan()
	c.first = int32(p) + 1
	return p
}

// scan finds the node's task due first, -1 if none runs.
func (c *nodeCPU) scan() int {
	p, due, seq := -1, Time(0), uint64(0)
	for i := range c.tasks {
		x := &c.tasks[i]
		if x.waiting {
			continue
		}
		if p < 0 || x.due < due || (x.due == due && x.seq < seq) {
			p, due, seq = i, x.due, x.seq
		}
	}
	return p
}

// queuedBy reports whether the node's queued event pops no later than
// (due, seq). While a node's event is queued it pops no later than its
// first due task: a change that brings a task earlier than it queues the
// node again, and one that delays the first leaves it, to pop and queue
// the node again then (cpuDue).
func (c *nodeCPU) queuedBy(due Time, seq uint64) bool {
	return c.queued && (c.at < due || (c.at == due && c.key <= seq))
}

// cpuQueue makes sure node ni's event is queued no later than its first
// due task.
func (e *Engine) cpuQueue(ni int32) {
	c := &e.cpus[ni]
	p := c.next()
	if p < 0 {
		return
	}
	x := &c.tasks[p]
	if c.queuedBy(x.due, x.seq) {
		return
	}
	c.queued, c.at, c.key = true, x.due, x.seq
	// The event names the task for touchTasks and carries the node
	// where a task's event carries its generation.
	ev := newEvent(x.due, evTaskEnd, x.ref.Job, x.ref.Index, ni, x.ref.Kind)
	ev.key |= x.seq
	e.q.putBack(ev)
}

// cpuDue handles node ni's event: it ends the node's first due task if
// its end has come, and queues the node's next.
func (e *Engine) cpuDue(ev event) {
	ni := ev.gen()
	c := &e.cpus[ni]
	if !c.queued || c.at != ev.at || c.key != ev.key {
		return // superseded by an earlier one
	}
	if p := c.next(); p >= 0 {
		x := &c.tasks[p]
		switch {
		case x.due != e.now || x.seq != ev.key:
			// The first due task changed since and is due later.
		case x.end > e.now:
			// Its node's shared CPUs slowed it since (rerate): due again
			// at its end, behind what was queued meanwhile.
			x.due, x.seq = x.end, e.reserveSeq()
			c.first = -1
		default:
			// Meanwhile the event being handled stands for the node's:
			// nothing on the node is due before it.
			e.finishTask(x.ref, e.taskOf(x.ref))
		}
	}
	c.queued = false
	e.cpuQueue(ni)
}

// rerate sets node ni's task rate after its allocation changed and, if it
// changed, moves the end of every task running there. Reduces waiting for
// their maps are not running yet; ApplicationMasters count in the
// allocation.
func (e *Engine) rerate(ni int32) {
	n := &e.nodes[ni]
	rate := 1.0
	if used := n.capa[1] - n.avail[1]; used > n.capa[1] && n.capa[1] > 0 {
		rate = float64(n.capa[1]) / float64(used)
	}
	if rate == n.rate {
		return
	}
	old := n.rate
	n.rate = rate
	c := &e.cpus[ni]
	now := e.now
	first, firstDue := -1, Never // the earliest of the tasks queued again
	// Slower, every end moves later, so no due changes and neither does
	// the first due task; faster, ends move earlier and are queued again,
	// and the first due task is found on the way.
	slower := rate < old
	nx, nxDue, nxSeq := -1, Time(0), uint64(0)
	for i := range c.tasks {
		x := &c.tasks[i]
		if x.waiting {
			continue
		}
		from := max(now, x.swapEnd) // the swap is not CPU work
		if left := x.end - from; left > 0 {
			end := from + Time(math.Round(float64(left)*old/rate))
			if end < x.end {
				// Earlier: due at the new end, queued now. Slower, only
				// rounding can do it, and the first due task is unknown.
				x.due, x.seq = end, e.reserveSeq()
				if end < firstDue {
					first, firstDue = i, end
				}
				if slower {
					c.first = -1
				}
			}
			x.end = end
		}
		if !slower && (nx < 0 || x.due < nxDue || (x.due == nxDue && x.seq < nxSeq)) {
			nx, nxDue, nxSeq = i, x.due, x.seq
		}
	}
	if !slower {
		c.first = int32(nx) + 1
	}
	if first >= 0 && !c.queuedBy(firstDue, c.tasks[first].seq) {
		e.cpuQueue(ni)
	}
}
