package replay

import (
	"math"
	"slices"
)

// Shared CPUs (Engine.cpuShared): when a policy does not count vcores
// (YARN's DefaultResourceCalculator) a node may hold containers asking
// for more vcores than it has, and its tasks then share its CPUs, each at
// vcores / vcores allocated of its speed, as processes do when the
// NodeManager does not isolate CPUs. Every change of a node's allocation
// then changes the speed of each task running there.
//
// Each node keeps a CPU clock (nodeCPU.vt): the work, at reference speed,
// that each of its running tasks has done since the node's start, which
// advances at the node's rate. A task's work ends at a fixed reading of
// that clock (cpuTask.vend), so a change of rate moves one number, the
// clock's, and no task's end; a task's end in time is worked out from the
// clock when it is needed, rounded to the microsecond then. The node has
// one event in the engine's queue, at the end of its task due first.
//
// A resumed task's swap-in is not CPU work: until it is done the task
// holds its work aside (swapping) and joins the clock at the first change
// of rate after it, with the clock's reading then.
//
// A task end scans its node's list, so an entry is kept to 32 bytes, two
// to a cache line; the rare swap-ins' ends are kept apart (nodeCPU.swaps).

// cpuTask is a task running on a node whose CPUs may be shared.
type cpuTask struct {
	ref TaskRef
	// waiting marks a reduce whose shuffle waits for its job's maps: it
	// does no CPU work yet and has no end (vend +Inf, see waitingTask).
	waiting bool
	// swapping marks a task whose CPU work starts at the end of its
	// swap-in (nodeCPU.swaps), later than the node's clock was last set
	// (nodeCPU.at); vend is then its work.
	swapping bool
	// seq orders tasks ending at the same reading: the earlier started
	// first.
	seq uint32
	// vend is the node's clock reading at which its work is done.
	vend float64
}

// waitingTask is task t as it joins its node's list, its CPU work not
// started: its vend is +Inf so that scan passes it over without a test.
func waitingTask(t TaskRef) cpuTask {
	return cpuTask{ref: t, waiting: true, vend: math.Inf(1)}
}

// cpuSwap is the end of a swapping task's swap-in.
type cpuSwap struct {
	ref TaskRef
	end Time
}

// nodeCPU is a node's CPU clock, its running tasks in the order of
// node.running, and its event in the engine's queue (qAt, qKey), if
// queued.
//
// first caches next: the index+1 of the task due first (0: none), or
// -1 when a change made it unknown.
type nodeCPU struct {
	tasks []cpuTask
	// vt is the clock's reading at time at; it advances at rate, the
	// speed of the node's tasks relative to their own: below 1 while its
	// vcores are overcommitted.
	vt    float64
	at    Time
	rate  float64
	swaps []cpuSwap // of the tasks swapping
	seq   uint32    // tasks started
	first int32
	// queued: the node's event is in the queue, at (qAt, qKey).
	queued bool
	qAt    Time
	qKey   uint64
}

// reserveSeq takes the queue's next sequence number, as a push would.
func (e *Engine) reserveSeq() uint64 {
	s := e.q.seq
	e.q.seq++
	return s
}

// cpuFind is the index of running task t in node ni's list. A task
// that ends is nearly always the node's cached first due (cpuDue), so
// that is tried before the scan.
func (e *Engine) cpuFind(ni int32, t TaskRef) int {
	c := &e.cpus[ni]
	if f := int(c.first) - 1; f >= 0 && c.tasks[f].ref == t {
		return f
	}
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
	if c.tasks[p].swapping {
		c.dropSwap(c.tasks[p].ref)
	}
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

// cpuRun starts the CPU work of task t on node ni: work at reference
// speed from time start (now, or the end of its swap-in), and queues its
// end.
func (e *Engine) cpuRun(ni int32, t TaskRef, start, work Time) {
	p := e.cpuFind(ni, t)
	c := &e.cpus[ni]
	x := &c.tasks[p]
	x.waiting = false
	x.seq = c.seq
	c.seq++
	if start > e.now {
		x.swapping, x.vend = true, float64(work)
		c.swaps = append(c.swaps, cpuSwap{t, start})
	} else {
		x.vend = c.vt + float64(e.now-c.at)*c.rate + float64(work)
	}
	// Its sequence number is the newest: it comes first only if it ends
	// strictly before the first.
	if c.first == 0 || (c.first > 0 && c.key(x) < c.key(&c.tasks[c.first-1])) {
		c.first = int32(p) + 1
	} else if c.first > 0 && c.queued && !x.swapping && !c.tasks[c.first-1].swapping {
		// It ends no earlier than the first (due grows with vend), and
		// the node's event is queued by the first's end.
		return
	}
	if !c.queuedBy(c.due(x)) {
		e.cpuQueue(ni)
	}
}

// key orders the node's tasks by end at its current rate: the clock
// reading at which each is done, for a swapping task the reading it will
// have then if the rate holds.
func (c *nodeCPU) key(x *cpuTask) float64 {
	if x.swapping {
		return c.vt + float64(c.swapEnd(x.ref)-c.at)*c.rate + x.vend
	}
	return x.vend
}

// due is the time task x ends if the node's rate holds.
//
// The reading left, v, is rounded as max(0, Time(math.Round(v))) is,
// by its truncation and fraction, both exact for v in (-1, 2^62), where
// math.Round takes the float's bits apart. Outside, the truncation is
// negative or beyond 2^62 (or, from NaN or an infinity, undefined) and
// math.Round decides.
func (c *nodeCPU) due(x *cpuTask) Time {
	if x.swapping {
		return c.swapDue(x)
	}
	v := (x.vend - c.vt) / c.rate
	i := Time(v)
	if uint64(i) >= 1<<62 {
		return c.at + max(0, Time(math.Round(v)))
	}
	if v-float64(i) >= 0.5 {
		i++
	}
	return c.at + i
}

// swapDue is due for a swapping task.
func (c *nodeCPU) swapDue(x *cpuTask) Time {
	return c.swapEnd(x.ref) + Time(math.Round(x.vend/c.rate))
}

// left is the work task x has left at time now, at reference speed, with
// what is left of its swap-in.
func (c *nodeCPU) left(x *cpuTask, now Time) Time {
	if x.swapping {
		// Its swap-in may be over: the clock was not set since.
		end := c.swapEnd(x.ref)
		if end > now {
			return end - now + Time(math.Round(x.vend))
		}
		return max(0, Time(math.Round(x.vend-float64(now-end)*c.rate)))
	}
	return max(0, Time(math.Round(x.vend-c.vt-float64(now-c.at)*c.rate)))
}

// swapEnd is the end of swapping task t's swap-in.
func (c *nodeCPU) swapEnd(t TaskRef) Time {
	for _, s := range c.swaps {
		if s.ref == t {
			return s.end
		}
	}
	panic("replay: a swapping task is missing from its node's swap-ins")
}

// dropSwap forgets swapping task t's swap-in.
func (c *nodeCPU) dropSwap(t TaskRef) {
	for i, s := range c.swaps {
		if s.ref == t {
			c.swaps = slices.Delete(c.swaps, i, i+1)
			return
		}
	}
}

// runEnd is the end of task t's current run if it is running and not
// waiting for its maps, at its node's current rate; otherwise the task's
// own end field.
func (e *Engine) runEnd(t TaskRef, tk *task) Time {
	if e.cpuShared && tk.state == running && !tk.waiting {
		c := &e.cpus[tk.node()]
		return c.due(&c.tasks[e.cpuFind(tk.node(), t)])
	}
	return tk.end
}

// workLeft is the work running task t, not waiting for its maps, has
// left now at reference speed, with what is left of its swap-in.
func (e *Engine) workLeft(t TaskRef, tk *task) Time {
	if e.cpuShared {
		c := &e.cpus[tk.node()]
		return c.left(&c.tasks[e.cpuFind(tk.node(), t)], e.now)
	}
	return max(0, tk.end-e.now)
}

// next is the index of the node's task due first, -1 if none runs.
func (c *nodeCPU) next() int {
	if c.first < 0 {
		c.first = int32(c.scan()) + 1
	}
	return int(c.first) - 1
}

// scan finds the node's task due first, -1 if none runs. A waiting
// task's vend is +Inf, so it is never first; a swapping task's key is
// worked out only while the node has swap-ins.
func (c *nodeCPU) scan() int {
	if len(c.swaps) > 0 {
		return c.scanSwaps()
	}
	p, key, seq := -1, math.Inf(1), uint32(0)
	for i := range c.tasks {
		x := &c.tasks[i]
		if x.vend <= key && (x.vend < key || x.seq < seq) {
			p, key, seq = i, x.vend, x.seq
		}
	}
	return p
}

// scanSwaps is scan while the node has swap-ins.
func (c *nodeCPU) scanSwaps() int {
	p, key, seq := -1, math.Inf(1), uint32(0)
	for i := range c.tasks {
		x := &c.tasks[i]
		k := x.vend
		if x.swapping {
			k = c.key(x)
		}
		if k < key || (k == key && x.seq < seq) {
			p, key, seq = i, k, x.seq
		}
	}
	return p
}

// queuedBy reports whether the node's queued event pops no later than
// time due. While a node's event is queued it pops no later than its
// first due task: a change that brings a task earlier than it queues the
// node again, and one that delays the first leaves it, to pop and queue
// the node again then (cpuDue).
func (c *nodeCPU) queuedBy(due Time) bool {
	return c.queued && c.qAt <= due
}

// cpuQueue makes sure node ni's event is queued no later than its first
// due task.
func (e *Engine) cpuQueue(ni int32) {
	c := &e.cpus[ni]
	if c.queued && c.qAt <= e.now {
		return // no task is due before now
	}
	p := c.next()
	if p < 0 {
		return
	}
	due := c.due(&c.tasks[p])
	if c.queuedBy(due) {
		return
	}
	e.cpuPush(ni, p, due)
}

// cpuPush queues node ni's event at time due, the end of its task p.
func (e *Engine) cpuPush(ni int32, p int, due Time) {
	c := &e.cpus[ni]
	x := &c.tasks[p]
	seq := e.reserveSeq()
	c.queued, c.qAt, c.qKey = true, due, seq
	// The event names the task for touchTasks and carries the node
	// where a task's event carries its generation.
	ev := newEvent(due, evTaskEnd, x.ref.Job, x.ref.Index, ni, x.ref.Kind)
	ev.key |= seq
	e.q.ends.push(ev) // putBack's queue for a task end
}

// cpuDue handles node ni's event: it ends the node's first due task if
// its end has come, and queues the node's next.
func (e *Engine) cpuDue(ev event) {
	ni := ev.gen()
	c := &e.cpus[ni]
	if !c.queued || c.qAt != ev.at || c.qKey != ev.key {
		return // superseded by an earlier one
	}
	// Whatever follows, the event being handled stands for the node's
	// until it is queued again: nothing on the node is due before it.
	p := c.next()
	if p < 0 {
		c.queued = false
		return
	}
	if due := c.due(&c.tasks[p]); due > e.now {
		// Its first task was slowed since (rerate) and is due later:
		// the node is queued again at its end.
		c.queued = false
		e.cpuPush(ni, p, due)
		return
	}
	e.finishTask(c.tasks[p].ref, e.taskOf(c.tasks[p].ref))
	c.queued = false
	e.cpuQueue(ni)
}

// rerate sets node ni's task rate after its allocation changed and, if it
// changed, sets the node's CPU clock to now at the old rate. Reduces
// waiting for their maps are not running yet; ApplicationMasters count in
// the allocation.
func (e *Engine) rerate(ni int32) {
	n := &e.nodes[ni]
	rate := 1.0
	if used := n.capa[1] - n.avail[1]; used > n.capa[1] && n.capa[1] > 0 {
		rate = float64(n.capa[1]) / float64(used)
	}
	c := &e.cpus[ni]
	if rate == c.rate {
		return
	}
	now := e.now
	if len(c.swaps) > 0 {
		// The tasks whose swap-in is over join the clock as it read then.
		for i := range c.tasks {
			if x := &c.tasks[i]; x.swapping {
				if end := c.swapEnd(x.ref); end <= now {
					x.vend += c.vt + float64(end-c.at)*c.rate
					x.swapping = false
					c.dropSwap(x.ref)
				}
			}
		}
	}
	c.vt += float64(now-c.at) * c.rate
	c.at = now
	faster := rate > c.rate
	c.rate = rate
	if len(c.swaps) > 0 {
		// A swapping task's end moves otherwise than the others'.
		c.first = -1
	}
	if faster {
		e.cpuQueue(ni)
	}
}
