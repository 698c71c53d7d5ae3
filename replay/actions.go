package replay

import (
	"fmt"
	"slices"
)

// Heartbeat is a node reporting in. Through it a policy reads the node's
// state and acts on it; each action is validated and applied at once, so
// the View reflects it for the policy's next decision.
type Heartbeat struct {
	*View
	node int32
}

// Node is the index of the reporting node.
func (h *Heartbeat) Node() int32 { return h.node }

// Free is the number of free slots of kind k on the node; in the
// container model, the number of minimum-size containers that fit in
// what the node has left (a task asking for more may not fit: see Fits).
func (h *Heartbeat) Free(k TaskKind) int { return int(h.e.nodes[h.node].free[k]) }

// Fits reports whether a task of kind k of job j fits in what the node
// has left: a free slot of its kind, or room for its container on every
// resource the policy counts.
func (h *Heartbeat) Fits(j int32, k TaskKind) bool {
	return h.e.fits(&h.e.nodes[h.node], h.e.request(j, k))
}

// Available is what the node has not allocated, resource by resource
// (View.ResourceNames).
func (h *Heartbeat) Available() Resources { return h.e.nodes[h.node].avail }

// Running lists the tasks running on the node. The slice is the engine's:
// read it, do not keep or change it, and re-read after an action.
func (h *Heartbeat) Running() []TaskRef { return h.e.nodes[h.node].running }

// SuspendedHere lists the tasks suspended on the node (same rules as Running).
func (h *Heartbeat) SuspendedHere() []TaskRef { return h.e.nodes[h.node].suspended }

// CanSuspend reports whether the node may hold one more suspended task.
func (h *Heartbeat) CanSuspend() bool {
	return len(h.e.nodes[h.node].suspended) < h.e.cfg.MaxSuspendedPerNode
}

func (h *Heartbeat) invalid(t TaskRef, format string, args ...any) error {
	err := fmt.Errorf("%w: policy %s at %v on node %d: %s: %s", ErrInvalidAction,
		h.e.sched.Name(), h.e.now, h.node, t, fmt.Sprintf(format, args...))
	if h.e.err == nil {
		h.e.err = err
	}
	return err
}

// lookup checks that t names an existing task of an arrived job.
func (h *Heartbeat) lookup(t TaskRef) (*job, *task, error) {
	if t.Job < 0 || int(t.Job) >= len(h.e.jobs) || !h.e.jobs[t.Job].arrived {
		return nil, nil, h.invalid(t, "no such job has arrived")
	}
	j := &h.e.jobs[t.Job]
	if t.Kind > Reduce || t.Index < 0 || t.Index >= j.count(t.Kind) || j.done && j.recs[t.Kind] == nil {
		return nil, nil, h.invalid(t, "no such task")
	}
	return j, h.e.recFor(j, t.Kind, t.Index), nil
}

// Launch starts pending task t on the node.
func (h *Heartbeat) Launch(t TaskRef) error {
	j, tk, err := h.lookup(t)
	if err != nil {
		return err
	}
	e, n := h.e, &h.e.nodes[h.node]
	// A map's locality and duration are on lines of their own, as cold as
	// its record and independent of it: read first, their misses overlap
	// the record's. Placing a job's blocks changes nothing but memory.
	var loc Locality
	var mapWork Time
	if t.Kind == Map {
		e.placed(t.Job, j)
		loc = e.mapLocality(j, t.Index, h.node)
		mapWork = j.mapWork(t.Index)
	}
	switch {
	case tk.state != pending:
		return h.invalid(t, "launch of a task that is not pending")
	case !e.fitsTask(n, t.Job, t.Kind):
		return h.noRoom(t, "launch")
	case t.Kind == Reduce && !j.reducesEligible:
		return h.invalid(t, "reduce launched before slow-start (%d of %d maps finished, %d needed)",
			j.finished[Map], j.nmaps, j.slowStartMaps)
	}
	now := e.now
	var swap Time
	if len(n.unswapped) > 0 { // else there is nothing to swap out
		swap = e.swapFor(h.node, t, j)
	}
	tk.state = running
	if t.Kind == Map {
		j.pendingMaps[t.Index>>6] &^= 1 << (t.Index & 63)
	}
	tk.onNode = h.node + 1
	tk.gen++
	tk.attempts++
	tk.attemptStart, tk.segStart = now, now
	tk.runTime = 0
	tk.swapDelay = swap
	if e.check && tk.attempts == 1 {
		// Causality: nothing launches before its job's submit, no reduce
		// before slow-start.
		switch {
		case now < j.submit:
			e.violate("job %d %s %d launched at %v before submit %v", t.Job, t.Kind, t.Index, now, j.submit)
		case t.Kind == Reduce && now < j.eligibleAt:
			e.violate("job %d reduce %d launched at %v before slow-start at %v", t.Job, t.Index, now, j.eligibleAt)
		case e.model == ContainerModel && (j.amNode < 0 || now < j.amStart):
			e.violate("job %d %s %d launched at %v before its ApplicationMaster", t.Job, t.Kind, t.Index, now)
		}
	}
	if !j.launchedOnce {
		j.firstLaunch = now
		j.launchedOnce = true
	}
	speed := n.speed
	var work Time // the attempt's run time on this node, without swap
	if t.Kind == Map {
		tk.loc = loc
		f := 1.0
		switch loc {
		case RackLocal:
			f = e.cfg.RackLocalFactor
		case OffRack:
			f = e.cfg.OffRackFactor
		}
		work = scaled(mapWork, f, speed)
	} else {
		work = e.transfer(j, t.Index) + scaled(j.reduceWork(t.Index), 1, speed)
	}
	j.pending[t.Kind]--
	j.running[t.Kind]++
	e.addDemand(t.Kind, -1)
	if t.Kind == Map && j.pending[Map] == 0 {
		if !j.keepPlaced {
			// Its last map launched: nothing needs its placement now.
			e.unplace(j)
			j.keepPlaced = true
		}
		if e.model == ContainerModel {
			e.maybeEligible(t.Job, j)
		}
	}
	e.occupy(h.node, t, +1)
	if t.Kind == Reduce && j.finished[Map] < j.nmaps {
		tk.waiting = true
		tk.remaining = work
		tk.end = now + swap // the shuffle can start once the swap is done
	} else {
		tk.waiting = false
		e.startWork(h.node, t, tk, now+swap, work)
	}
	e.stats.TaskEvents++
	e.rec.occupancyChange(e, t.Job)
	e.notify(TaskStarted, t.Job, t, h.node)
	return nil
}

// scaled is Seconds(w.Sec() × f / speed): run time w under a locality
// factor on a node of some speed. With both 1 it is w (below 2^50 µs the
// round trip through seconds is exact), which saves the rounding.
func scaled(w Time, f, speed float64) Time {
	if f == 1 && speed == 1 && w < 1<<50 {
		return w
	}
	return Seconds(w.Sec() * f / speed)
}

// noRoom refuses an action for want of a slot or of room for the
// container.
func (h *Heartbeat) noRoom(t TaskRef, what string) error {
	e := h.e
	if e.model == SlotModel {
		return h.invalid(t, "%s with no free %s slot", what, t.Kind)
	}
	n := &e.nodes[h.node]
	return h.invalid(t, "%s of a container of %s on a node with %s left", what,
		formatRes(e.request(t.Job, t.Kind), e.resNames), formatRes(&n.avail, e.resNames))
}

// swapFor is the swap-out delay of launching t on node ni: in the slot
// model a suspended task of its kind gives up the memory t needs; in the
// container model suspended containers are swapped out, oldest first,
// while the node's resident memory would exceed its capacity.
func (e *Engine) swapFor(ni int32, t TaskRef, j *job) Time {
	if e.model == ContainerModel {
		return e.swapContainers(ni, e.reqs[t.Job][t.Kind][0])
	}
	mem := j.tj.ReduceMemoryBytes
	if t.Kind == Map {
		mem = j.tj.MapMemoryBytes
	}
	return e.swapOutFor(ni, t.Kind, mem)
}

// swapContainers swaps out the memory of suspended containers of node ni,
// oldest first, until needMB more fits in its memory with what stays
// resident, and returns the time that takes.
func (e *Engine) swapContainers(ni int32, needMB int64) Time {
	n := &e.nodes[ni]
	var resident int64
	for _, s := range n.unswapped {
		resident += e.reqs[s.Job][s.Kind][0]
	}
	over := needMB + resident - n.avail[0] // MiB beyond the node's memory
	var bytes int64
	for over > 0 && len(n.unswapped) > 0 {
		s := n.unswapped[0]
		st := e.taskOf(s)
		mb := e.reqs[s.Job][s.Kind][0]
		st.swapped = true
		e.swapBytes[s] = mb << 20
		bytes += mb << 20
		over -= mb
		n.unswapped = n.unswapped[1:]
	}
	if bytes == 0 {
		return 0
	}
	return Seconds(float64(bytes) / e.cfg.DiskBandwidth)
}

// swapOutFor returns the time a task of kind k needing mem bytes waits for
// the memory of a task suspended earlier on node ni to be swapped out, and
// marks that task swapped. A task that finds no resident suspended task
// starts at once.
func (e *Engine) swapOutFor(ni int32, k TaskKind, mem int64) Time {
	n := &e.nodes[ni]
	for i, s := range n.unswapped {
		if s.Kind != k {
			continue
		}
		j := &e.jobs[s.Job]
		st := j.rec(k, s.Index)
		have := j.tj.ReduceMemoryBytes
		if k == Map {
			have = j.tj.MapMemoryBytes
		}
		b := min(have, mem)
		st.swapped = true
		e.swapBytes[s] = b
		n.unswapped = append(n.unswapped[:i], n.unswapped[i+1:]...)
		return Seconds(float64(b) / e.cfg.DiskBandwidth)
	}
	return 0
}

// Kill ends task t, running or suspended on the node; its work is lost and
// it is pending again.
func (h *Heartbeat) Kill(t TaskRef) error {
	j, tk, err := h.lookup(t)
	if err != nil {
		return err
	}
	if (tk.state != running && tk.state != suspended) || tk.node() != h.node {
		return h.invalid(t, "kill of a task that is not running or suspended on this node")
	}
	e := h.e
	if tk.state == running {
		e.endSegment(t, tk, OutcomeKilled)
		e.occupy(h.node, t, -1)
		j.running[t.Kind]--
	} else {
		e.unsuspend(h.node, t, tk)
		j.suspended[t.Kind]--
	}
	e.lostWork += tk.runTime
	j.kills++
	e.requeue(j, t, tk)
	e.stats.TaskEvents++
	e.rec.occupancyChange(e, t.Job)
	e.notify(TaskKilled, t.Job, t, h.node)
	return nil
}

// Suspend stops task t, running on the node; it keeps its progress and its
// place on this node, and frees its slot.
func (h *Heartbeat) Suspend(t TaskRef) error {
	j, tk, err := h.lookup(t)
	if err != nil {
		return err
	}
	e, n := h.e, &h.e.nodes[h.node]
	switch {
	case tk.state != running || tk.node() != h.node:
		return h.invalid(t, "suspend of a task that is not running on this node")
	case len(n.suspended) >= e.cfg.MaxSuspendedPerNode:
		return h.invalid(t, "suspend beyond the node's cap of %d suspended tasks (the policy must wait)", e.cfg.MaxSuspendedPerNode)
	}
	if !tk.waiting {
		// The work left, at full speed (a node's shared CPUs slow it).
		tk.remaining = e.workLeft(t, tk)
	}
	e.endSegment(t, tk, OutcomeSuspended)
	e.occupy(h.node, t, -1)
	tk.state = suspended
	tk.gen++
	tk.swapped = false
	n.suspended = append(n.suspended, t)
	n.unswapped = append(n.unswapped, t)
	n.nSusp[t.Kind]++
	j.running[t.Kind]--
	j.suspended[t.Kind]++
	j.suspensions++
	e.stats.TaskEvents++
	e.rec.occupancyChange(e, t.Job)
	e.notify(TaskSuspended, t.Job, t, h.node)
	return nil
}

// Resume restarts task t, suspended on this node, in a free slot.
func (h *Heartbeat) Resume(t TaskRef) error {
	j, tk, err := h.lookup(t)
	if err != nil {
		return err
	}
	e, n := h.e, &h.e.nodes[h.node]
	switch {
	case tk.state != suspended:
		return h.invalid(t, "resume of a task that is not suspended")
	case tk.node() != h.node:
		return h.invalid(t, "resume on node %d of a task suspended on node %d", h.node, tk.node())
	case !e.fitsTask(n, t.Job, t.Kind):
		return h.noRoom(t, "resume")
	}
	var swapIn Time
	if tk.swapped {
		swapIn = Seconds(float64(e.swapBytes[t]) / e.cfg.DiskBandwidth)
		if e.model == ContainerModel {
			swapIn += e.swapContainers(h.node, e.reqs[t.Job][t.Kind][0])
		}
	}
	e.unsuspend(h.node, t, tk)
	tk.state = running
	tk.gen++
	tk.segStart = e.now
	tk.swapDelay = swapIn
	j.suspended[t.Kind]--
	j.running[t.Kind]++
	e.occupy(h.node, t, +1)
	if tk.waiting {
		tk.end = e.now + swapIn
	} else {
		e.startWork(h.node, t, tk, e.now+swapIn, tk.remaining)
	}
	e.stats.TaskEvents++
	e.rec.occupancyChange(e, t.Job)
	e.notify(TaskResumed, t.Job, t, h.node)
	return nil
}

// unsuspend removes a suspended task from its node's lists.
func (e *Engine) unsuspend(ni int32, t TaskRef, tk *task) {
	n := &e.nodes[ni]
	n.suspended = removeTask(n.suspended, t, ni)
	n.nSusp[t.Kind]--
	for i, s := range n.unswapped {
		if s == t {
			n.unswapped = append(n.unswapped[:i], n.unswapped[i+1:]...)
			break
		}
	}
	if tk.swapped {
		delete(e.swapBytes, t)
	}
	tk.swapped = false
}

// removeTask removes t from list, one of node ni's lists, by moving the
// last task into its place. The task is found by a scan: a node's lists
// are as short as its slots, and the scan is cheaper than keeping each
// task's position in its record, which every removal would update in the
// moved task's record, a cache miss at nearly every task end.
func removeTask(list []TaskRef, t TaskRef, ni int32) []TaskRef {
	return removeAt(list, taskIndex(list, t, ni))
}

// taskIndex is the position of t in list, one of node ni's lists.
func taskIndex(list []TaskRef, t TaskRef, ni int32) int {
	p := slices.Index(list, t)
	if p < 0 {
		panic(fmt.Sprintf("replay: task %v is not in the list of node %d", t, ni))
	}
	return p
}

// removeAt removes the task at p from list by moving the last into its
// place.
func removeAt(list []TaskRef, p int) []TaskRef {
	last := len(list) - 1
	list[p] = list[last]
	return list[:last]
}

// startWork starts the work of task t, running on node ni: work at
// reference speed from time start on. It queues the task's end: in the
// queue, or, if its node's CPUs may be shared, on its node's CPU clock,
// which then holds the end (runEnd).
func (e *Engine) startWork(ni int32, t TaskRef, tk *task, start, work Time) {
	if e.cpuShared {
		e.cpuRun(ni, t, start, work)
		return
	}
	tk.end = start + work
	e.q.pushEnd(newEvent(tk.end, evTaskEnd, t.Job, t.Index, tk.gen, t.Kind))
}

func (e *Engine) taskOf(t TaskRef) *task { return e.jobs[t.Job].rec(t.Kind, t.Index) }

// occupy changes the busy slots of node ni by d for task t, keeping the
// running list, the free count and the busy-time integral.
func (e *Engine) occupy(ni int32, t TaskRef, d int32) {
	n := &e.nodes[ni]
	n.busyIntegr += (e.now - n.busySince) * Time(n.busySlots)
	n.busySince = e.now
	n.busySlots += d
	if e.model == SlotModel {
		// A task takes a slot of its kind: only that kind's count changes.
		k := t.Kind & 1
		n.avail[k] -= int64(d)
		before := n.free[k]
		n.free[k] = int32(n.avail[k])
		e.countFree(n, k, before)
		if e.check && (n.avail[k] < 0 || n.avail[k] > n.capa[k]) {
			e.badSlots(ni, k)
		}
	} else {
		e.allocate(ni, e.request(t.Job, t.Kind), int64(d))
	}
	if d > 0 {
		n.running = append(n.running, t)
	} else {
		var p int
		if e.cpuShared {
			// The CPU list is in the running list's order, and a task's
			// end has just read it where the running list is cold.
			p = e.cpuFind(ni, t)
			e.cpuRemoveAt(ni, p)
		} else {
			p = taskIndex(n.running, t, ni)
		}
		n.running = removeAt(n.running, p)
	}
	if e.cpuShared {
		// A new task has no end yet: the clock is set at the old rate
		// before it joins.
		e.rerate(ni)
		if d > 0 {
			e.cpus[ni].tasks = append(e.cpus[ni].tasks, waitingTask(t))
		}
	}
}

// endSegment closes the running segment of t at the current time.
func (e *Engine) endSegment(t TaskRef, tk *task, out Outcome) {
	seg := e.now - tk.segStart
	tk.runTime += seg
	e.swapTime += min(tk.swapDelay, seg)
	e.rec.segment(e, t, tk, out)
}

// requeue makes t pending again after a kill or a loss.
func (e *Engine) requeue(j *job, t TaskRef, tk *task) {
	tk.state = pending
	if t.Kind == Map {
		j.pendingMaps[t.Index>>6] |= 1 << (t.Index & 63)
	}
	tk.onNode = 0
	tk.gen++
	tk.waiting = false
	j.pending[t.Kind]++
	j.repend[t.Kind] = append(j.repend[t.Kind], t.Index)
	if t.Kind == Map || j.reducesEligible {
		e.addDemand(t.Kind, 1)
	}
}

func (e *Engine) violate(format string, args ...any) {
	if e.err == nil {
		e.err = fmt.Errorf("%w at %v under %s: %s", ErrInvariant, e.now, e.sched.Name(), fmt.Sprintf(format, args...))
	}
}
