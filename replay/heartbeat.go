package replay

import (
	"cmp"
	"math/bits"
	"slices"
)

// wantsHeartbeat reports whether node n has anything a heartbeat could do.
func (e *Engine) wantsHeartbeat(n *node) bool {
	busy := busyUnknown
	return e.wantsHB(n, &busy)
}

// busyWish caches a preempting policy's wish for busy heartbeats across a
// walk over the nodes, during which nothing changes.
type busyWish int8

const (
	busyUnknown busyWish = iota
	busyNo
	busyYes
)

// wantsHB is wantsHeartbeat asking the policy at most once per walk.
func (e *Engine) wantsHB(n *node, busy *busyWish) bool {
	if !n.alive {
		return false
	}
	// A free slot where tasks wait, or one suspended, by kind (unrolled:
	// this runs at nearly every wake-up and heartbeat).
	if n.free[Map] > 0 && (e.demand[Map] > 0 || n.hasSuspended(Map)) ||
		n.free[Reduce] > 0 && (e.demand[Reduce] > 0 || n.hasSuspended(Reduce)) {
		return true
	}
	if e.amWaiting() && e.amFits(n) {
		return true
	}
	if e.pre == nil || len(n.running) == 0 {
		return false
	}
	if *busy == busyUnknown {
		*busy = busyNo
		if e.pre.WantsBusyHeartbeats(&e.view) {
			*busy = busyYes
		}
	}
	return *busy == busyYes
}

// Heartbeats. Node i reports at its grid times phase_i + k·H, phases
// staggered evenly over the interval H, plus out-of-band heartbeats when
// enabled. A node that has nothing to do is silent: it costs no events.
// A node wakes individually when one of its slots frees (wake); when work
// appears for silent nodes (demand rising from zero, or a preempting
// policy's wishes changing), a sweep visits the silent nodes one at a time
// in grid order, at their grid times, and stops as soon as a whole cycle
// finds none that wants to heartbeat. The sweep gives every silent node
// the heartbeat it would have had at its grid time, for one queued event
// instead of one per node.

// nextGrid is node ni's first grid time strictly after after and not
// before the current time.
func (e *Engine) nextGrid(ni int32, after Time) Time {
	p := e.nodes[ni].phase
	from := max(after+1, e.now)
	if from <= p {
		return p
	}
	k := (from - p + e.interval - 1) / e.interval
	return p + k*e.interval
}

// wake queues node ni's next grid heartbeat if it wants one and has none
// queued.
func (e *Engine) wake(ni int32) {
	n := &e.nodes[ni]
	if n.hbQueued {
		return
	}
	if n.dozing {
		if !e.idle(n) {
			e.undoze(ni)
		}
		return
	}
	if !e.wantsHeartbeat(n) {
		return
	}
	if e.idle(n) {
		e.doze(ni)
		return
	}
	e.queueHeartbeat(ni, e.nextGrid(ni, n.lastHB))
}

// queueHeartbeat queues a heartbeat of node ni at time at, superseding any
// heartbeat of that node already queued.
func (e *Engine) queueHeartbeat(ni int32, at Time) {
	n := &e.nodes[ni]
	n.hbGen++
	e.setQueued(ni, true)
	e.q.pushBeat(newEvent(at, evHeartbeat, 0, ni, n.hbGen, Map))
}

// startSweep starts a sweep at the silent node that wants a heartbeat and
// whose grid time comes first, unless the sweep under way gets there
// first.
//
// A node's next grid time at or after now is now + (phase − now) mod H,
// which grows along the nodes in cyclic order from the first whose phase
// is at or past now's offset in the interval (phases grow with the node
// index). So the first node in that order that wants a heartbeat, unless
// it already had one at that grid time, is the one: the walk usually stops
// after a few nodes.
func (e *Engine) startSweep() {
	if !e.silentMayWant() {
		return
	}
	nn := int32(len(e.nodes))
	off := e.now % e.interval
	start, _ := slices.BinarySearchFunc(e.nodes, off, func(n node, t Time) int { return cmp.Compare(n.phase, t) })
	best, at := int32(-1), Never
	busy := busyUnknown
	i := e.nextSilent(int32(start), nn)
	if i < 0 {
		i = e.nextSilent(0, int32(start))
	}
	for ; i >= 0; i = e.nextSilentCyclic(i, int32(start)) {
		n := &e.nodes[i]
		if !e.wantsHB(n, &busy) {
			continue
		}
		if natural := e.now + (n.phase-off+e.interval)%e.interval; n.lastHB < natural {
			best, at = i, natural
			break
		}
		best = -2 // a node that heartbeated now: look at them all
		break
	}
	if best == -2 {
		best, at = e.firstSilent()
	}
	if best >= 0 && (!e.sweeping || at < e.sweepAt) {
		e.pushSweep(best, at)
	}
}

// silentMayWant reports whether a silent node may want a heartbeat: one
// with a free slot where tasks wait to launch, or a busy one if the
// policy wishes. A node with a free slot and a task suspended on it never
// is silent: it is woken when the slot frees, and again after each
// heartbeat while both hold.
func (e *Engine) silentMayWant() bool {
	for k := Map; k <= Reduce; k++ {
		if e.demand[k] > 0 && e.freeNodes[k] > 0 {
			return true
		}
	}
	if e.amWaiting() {
		return true
	}
	return e.pre != nil && e.pre.WantsBusyHeartbeats(&e.view)
}

// countFree keeps freeNodes after node n's free slots of kind k changed
// from before.
func (e *Engine) countFree(n *node, k TaskKind, before int32) {
	if !n.alive || (before > 0) == (n.free[k] > 0) {
		return
	}
	if before > 0 {
		e.freeNodes[k]--
	} else {
		e.freeNodes[k]++
	}
}

// firstSilent is startSweep's choice by brute force: the silent node that
// wants a heartbeat with the earliest grid time, the lowest index on ties.
func (e *Engine) firstSilent() (best int32, at Time) {
	best, at = -1, Never
	busy := busyUnknown
	nn := int32(len(e.nodes))
	for i := e.nextSilent(0, nn); i >= 0; i = e.nextSilent(i+1, nn) {
		n := &e.nodes[i]
		if !e.wantsHB(n, &busy) {
			continue
		}
		if t := e.nextGrid(i, n.lastHB); t < at {
			best, at = i, t
		}
	}
	return best, at
}

// pushSweep queues the sweep's next step, superseding any queued one.
func (e *Engine) pushSweep(ni int32, at Time) {
	e.sweeping = true
	e.sweepAt = at
	e.sweepGen++
	e.q.push(newEvent(at, evSweep, 0, ni, e.sweepGen, Map))
}

// sweep gives node ev.idx() its grid heartbeat if it is still silent and
// wants one, then moves on to the next silent node in grid order that
// wants one. Nodes that want nothing now can only start wanting through a
// freed slot (they are woken then) or new work (a new sweep starts).
func (e *Engine) sweep(ev event) {
	if ev.gen() != e.sweepGen {
		return // superseded by an earlier-starting sweep
	}
	ni := ev.idx()
	n := &e.nodes[ni]
	if !n.hbQueued && !n.dozing && e.wantsHeartbeat(n) && e.nextGrid(ni, n.lastHB) == e.now {
		if e.idle(n) {
			n.lastHB = e.now
			e.doze(ni)
		} else {
			e.doHeartbeat(ni)
		}
	}
	e.sweeping = false
	if !e.silentWork() {
		return
	}
	nn := int32(len(e.nodes))
	busy := busyUnknown
	i := e.nextSilent(ni+1, nn)
	if i < 0 {
		i = e.nextSilent(0, ni+1)
	}
	for ; i >= 0; i = e.nextSilentCyclic(i, ni+1) {
		c := &e.nodes[i]
		if !e.wantsHB(c, &busy) {
			continue
		}
		e.pushSweep(i, e.nextGrid(i, c.lastHB))
		return
	}
}

// setQueued records whether node ni has a heartbeat queued, keeping the
// set of silent nodes.
func (e *Engine) setQueued(ni int32, q bool) {
	e.nodes[ni].hbQueued = q
	e.markSilent(ni)
}

// markSilent sets node ni's bit in the set of silent nodes (up, with no
// heartbeat queued), which the walks over silent nodes skip through a
// word at a time.
func (e *Engine) markSilent(ni int32) {
	n := &e.nodes[ni]
	if n.alive && !n.hbQueued && !n.dozing {
		e.silent[ni>>6] |= 1 << (ni & 63)
	} else {
		e.silent[ni>>6] &^= 1 << (ni & 63)
	}
}

// nextSilent is the first silent node in [from, to), or -1.
func (e *Engine) nextSilent(from, to int32) int32 { return nextSet(e.silent, from, to) }

// nextSet is the first bit set in [from, to) of the bitset words, or -1,
// a word at a time.
func nextSet(words []uint64, from, to int32) int32 {
	for from < to {
		w := words[from>>6] >> (from & 63)
		if w != 0 {
			if i := from + int32(bits.TrailingZeros64(w)); i < to {
				return i
			}
			return -1
		}
		from = (from | 63) + 1
	}
	return -1
}

// nextSilentCyclic is the silent node after i in a cyclic walk over all
// nodes that started at start, or -1 when the walk is over.
func (e *Engine) nextSilentCyclic(i, start int32) int32 {
	nn := int32(len(e.nodes))
	if i >= start {
		if j := e.nextSilent(i+1, nn); j >= 0 {
			return j
		}
		return e.nextSilent(0, start)
	}
	return e.nextSilent(i+1, start)
}

// silentWork reports whether a silent node could have anything to do:
// tasks waiting to launch, or a preempting policy wanting heartbeats. (A
// node with a suspended task and a free slot is woken when the slot frees.)
func (e *Engine) silentWork() bool {
	return e.demand[Map] > 0 || e.demand[Reduce] > 0 || e.amWaiting() || (e.pre != nil && e.pre.WantsBusyHeartbeats(&e.view))
}

func (e *Engine) heartbeat(ev event) {
	n := &e.nodes[ev.idx()]
	if ev.gen() != n.hbGen || !n.hbQueued {
		return // superseded by an out-of-band heartbeat
	}
	e.setQueued(ev.idx(), false)
	if n.alive && e.wantsHeartbeat(n) {
		if e.idle(n) {
			n.lastHB = e.now
			e.doze(ev.idx())
			return
		}
		e.doHeartbeat(ev.idx())
	}
}

// doHeartbeat hands node ni to the policy and queues its next heartbeat if
// it still has something to do.
func (e *Engine) doHeartbeat(ni int32) {
	n := &e.nodes[ni]
	n.lastHB = e.now
	e.stats.Events++
	e.stats.Heartbeats++
	e.hb.node = ni
	if e.amWaiting() {
		e.startAMs(ni)
	}
	e.inHB = true
	err := e.sched.OnHeartbeat(&e.hb)
	e.inHB = false
	if err != nil && e.err == nil {
		e.err = e.policyErr(err)
	}
	for i := 0; i < len(e.deferred); i++ {
		e.dispatch(&e.deferred[i])
	}
	e.deferred = e.deferred[:0]
	e.polCalls++
	e.wake(ni)
}

// Dozing. A Quieter policy may say that free slots of a kind are of no
// use to it until some time (see Quieter). A node whose only reason to
// report is such a slot dozes instead: it stays out of the silent set, as
// a node with a heartbeat queued, and its reports at each grid time,
// which would change nothing, are skipped. It is woken, to report at its
// next grid time as it would have, when that no longer holds: the policy
// wants the kind again or quietUntil has come (freshQuiet, evQuiet),
// demand for a kind rose from zero (dozeCheck), or one of its own slots
// changed (wake).

// idle reports whether a heartbeat of node n, which wants one, would be
// skipped: its free slots of some kind wait for tasks the policy will not
// launch, and nothing else could happen there.
func (e *Engine) idle(n *node) bool {
	if e.quiet == nil {
		return false
	}
	// Free slots where tasks wait, by kind (unrolled: this runs at
	// nearly every wake-up and heartbeat while the Quieter is on).
	freeMap, freeReduce := n.free[Map] > 0, n.free[Reduce] > 0
	if freeMap && n.hasSuspended(Map) || freeReduce && n.hasSuspended(Reduce) {
		return false
	}
	waitMap, waitReduce := freeMap && e.demand[Map] > 0, freeReduce && e.demand[Reduce] > 0
	if !waitMap && !waitReduce {
		return false
	}
	if waitMap && e.wantsKind(Map) || waitReduce && e.wantsKind(Reduce) {
		return false
	}
	e.freshQuiet(true)
	return e.now < e.quietUntil
}

// doze makes node ni doze.
func (e *Engine) doze(ni int32) {
	e.nDozing++
	e.nodes[ni].dozing = true
	e.dozing[ni>>6] |= 1 << (ni & 63)
	e.markSilent(ni)
}

// undoze wakes dozing node ni: it reports at its first grid time from
// now on. Its skipped reports were all before now: one due now would come
// after every task end, arrival and evQuiet of this time, and no other
// node's report or sweep step can be due at the same time (grid times
// differ from node to node).
func (e *Engine) undoze(ni int32) {
	n := &e.nodes[ni]
	if !n.dozing {
		return // woken already while its case was looked at
	}
	e.nDozing--
	n.dozing = false
	e.dozing[ni>>6] &^= 1 << (ni & 63)
	e.queueHeartbeat(ni, e.nextGrid(ni, n.lastHB))
}

// wakeDozing wakes every dozing node whose report would no longer be
// skipped, in node order. One that no longer wants a report at all is
// woken too: its report at its next grid time finds that and leaves it
// silent, as it would have been from then on.
func (e *Engine) wakeDozing() {
	for w := range e.dozing {
		for b := e.dozing[w]; b != 0; b &= b - 1 {
			ni := int32(w<<6 + bits.TrailingZeros64(b))
			if !e.idle(&e.nodes[ni]) {
				e.undoze(ni)
			}
		}
	}
}

// wantsKind is the Quieter's WantsSlots(k), asked again only if the
// policy has been called since. While nodes doze every answer is taken
// again at once (freshQuiet), to wake them if one changed.
func (e *Engine) wantsKind(k TaskKind) bool {
	if e.nDozing > 0 {
		if !e.quietFresh() {
			e.freshQuiet(false)
		}
	} else if e.wantsSeen[k] != e.polCalls && !e.inHB {
		e.wantsSeen[k] = e.polCalls
		e.quietWants[k] = e.quiet.WantsSlots(k, &e.view)
	}
	return e.quietWants[k]
}

// quietFresh reports whether every answer of the Quieter was taken since
// the policy was last called: then freshQuiet has nothing to do (checked
// inline before calling it while nodes doze, after nearly every event).
func (e *Engine) quietFresh() bool {
	seen := e.polCalls
	return e.untilSeen == seen && e.wantsSeen[Map] == seen && e.wantsSeen[Reduce] == seen
}

// freshQuiet takes the Quieter's answers again if the policy has been
// called since: WantsSlots always, QuietUntil when needUntil or while
// nodes doze (it costs more, and is needed only for a node about to doze).
// Where the answers let a kind of free slot be of use again, the dozing
// nodes are woken; a later quietUntil is queued, to wake them then.
func (e *Engine) freshQuiet(needUntil bool) {
	needUntil = needUntil || e.nDozing > 0
	seen := e.polCalls
	fresh := e.wantsSeen[Map] == seen && e.wantsSeen[Reduce] == seen
	if e.quiet == nil || e.inHB || fresh && (!needUntil || e.untilSeen == seen) {
		return
	}
	if e.quietVer != nil && needUntil {
		// Every answer is taken again, unless none can have changed.
		v := e.quietVer.QuietVersion()
		if e.verOK && v == e.verSeen {
			e.wantsSeen = [2]uint64{seen, seen}
			e.untilSeen = seen
			return
		}
		e.verSeen, e.verOK = v, true
		e.wantsSeen = [2]uint64{seen - 1, seen - 1} // taken again below
	}
	// Whether free slots of each kind were of use before (the kinds
	// unrolled: this runs after nearly every event while nodes doze).
	passed := e.now >= e.quietUntil
	usedMap, usedReduce := e.quietWants[Map] || passed, e.quietWants[Reduce] || passed
	if e.wantsSeen[Map] != seen {
		e.wantsSeen[Map] = seen
		e.quietWants[Map] = e.quiet.WantsSlots(Map, &e.view)
	}
	if e.wantsSeen[Reduce] != seen {
		e.wantsSeen[Reduce] = seen
		e.quietWants[Reduce] = e.quiet.WantsSlots(Reduce, &e.view)
	}
	if needUntil && e.untilSeen != seen {
		e.untilSeen = seen
		until := e.quiet.QuietUntil(&e.view)
		if until > e.now && until != e.quietUntil && until != Never {
			e.quietGen++
			e.q.push(newEvent(until, evQuiet, 0, 0, e.quietGen, Map))
		}
		e.quietUntil = until
	}
	if e.nDozing == 0 {
		return
	}
	passed = e.now >= e.quietUntil
	if !usedMap && (e.quietWants[Map] || passed) || !usedReduce && (e.quietWants[Reduce] || passed) {
		e.wakeDozing()
	}
}
