package oracle

import "sojourn/replay"

// Under the shared ranks (las, ps), fill gives each free slot to the job
// of the first group (equal keys) with the fewest running tasks of the
// kind, then the least recently served. Scanning the group for each slot
// costs its size per slot, and on an overloaded cluster the first group
// (under ps every job; under las those with the least service) holds
// thousands of jobs. So the first group's candidates are kept in a heap
// by that rule: the keys are read live (the engine's running counts), and
// every change of one is followed by a fix of its job's place (at the
// job's events, through update; after fill serves it, in both kinds'
// heaps, since the service order is shared; after preemption evicts from
// or serves it), so the root is the candidate the scan would pick. A
// candidate that turns the slot down is set aside for the rest of the
// fill, as the scan skips it. The later groups are scanned as before.

// pickLess orders the candidates of a group of kind k, for fill's scan
// and its heap: fewer running tasks first, then the one served longer ago
// (service numbers are distinct).
func (o *Oracle) pickLess(k replay.TaskKind, a, b int32) bool {
	ra, rb := o.v.Job(a).Running(k), o.v.Job(b).Running(k)
	return ra < rb || ra == rb && o.jobs[a].served < o.jobs[b].served
}

// pickCurrent reports whether the heap of kind k holds exactly the
// candidates of the first group.
func (o *Oracle) pickCurrent(k replay.TaskKind) bool {
	return o.rank.shared && !o.reorder && o.candVer[k] == o.orderVer && o.pickVer[k] == o.orderVer
}

// rebuildPick makes the heap of kind k from the candidates of the first
// group.
func (o *Oracle) rebuildPick(k replay.TaskKind) {
	for _, j := range o.pick[k] {
		o.jobs[j].at[k] = -1
	}
	c := o.cand[k]
	n := 0
	for n < len(c) && o.jobs[c[n]].key == o.jobs[c[0]].key {
		n++
	}
	h := append(o.pick[k][:0], c[:n]...)
	for i, j := range h {
		o.jobs[j].at[k] = int32(i)
	}
	o.pick[k], o.pickVer[k] = h, o.orderVer
	for i := len(h)/2 - 1; i >= 0; i-- {
		o.pickDown(k, i)
	}
}

func (o *Oracle) pickSwap(k replay.TaskKind, i, j int) {
	h := o.pick[k]
	h[i], h[j] = h[j], h[i]
	o.jobs[h[i]].at[k], o.jobs[h[j]].at[k] = int32(i), int32(j)
}

func (o *Oracle) pickUp(k replay.TaskKind, i int) {
	h := o.pick[k]
	for i > 0 {
		p := (i - 1) / 2
		if !o.pickLess(k, h[i], h[p]) {
			return
		}
		o.pickSwap(k, i, p)
		i = p
	}
}

func (o *Oracle) pickDown(k replay.TaskKind, i int) {
	h := o.pick[k]
	for {
		c := 2*i + 1
		if c >= len(h) {
			return
		}
		if c+1 < len(h) && o.pickLess(k, h[c+1], h[c]) {
			c++
		}
		if !o.pickLess(k, h[c], h[i]) {
			return
		}
		o.pickSwap(k, i, c)
		i = c
	}
}

// pickFix restores job j's place after its key changed.
func (o *Oracle) pickFix(k replay.TaskKind, j int32) {
	if i := int(o.jobs[j].at[k]); i >= 0 {
		o.pickUp(k, i)
		o.pickDown(k, int(o.jobs[j].at[k]))
	}
}

// pickJoined follows job j's entry into the candidates, at index i: it
// joins the first group, or a later one, or makes a new first group, in
// which case the heap is made again at the next fill.
func (o *Oracle) pickJoined(k replay.TaskKind, j int32, i int) {
	c := o.cand[k]
	switch key := o.jobs[j].key; {
	case i > 0 && key != o.jobs[c[0]].key: // a later group
	case i == 0 && (len(c) == 1 || key != o.jobs[c[1]].key): // a group of its own, first
		o.pickVer[k] = 0
	default:
		o.pickAdd(k, j)
	}
}

// pickLeft follows job j's leaving the candidates. When the first group
// has none left, the next becomes first, and the heap is made again at
// the next fill.
func (o *Oracle) pickLeft(k replay.TaskKind, j int32) {
	if o.jobs[j].at[k] < 0 {
		return
	}
	o.pickRemove(k, j)
	if len(o.pick[k]) == 0 {
		o.pickVer[k] = 0
	}
}

// pickAdd and pickRemove put a job in the heap and take it out.
func (o *Oracle) pickAdd(k replay.TaskKind, j int32) {
	o.jobs[j].at[k] = int32(len(o.pick[k]))
	o.pick[k] = append(o.pick[k], j)
	o.pickUp(k, len(o.pick[k])-1)
}

func (o *Oracle) pickRemove(k replay.TaskKind, j int32) {
	i := int(o.jobs[j].at[k])
	if i < 0 {
		return
	}
	last := len(o.pick[k]) - 1
	if i != last {
		o.pickSwap(k, i, last)
	}
	o.pick[k] = o.pick[k][:last]
	o.jobs[j].at[k] = -1
	if i != last {
		o.pickFix(k, o.pick[k][i])
	}
}

// fillFirst is fill's part for the first group: each free slot to the
// heap's root, the candidates that turn it down set aside, and back in
// the heap when the group has none left or the slots are gone.
func (o *Oracle) fillFirst(hb *replay.Heartbeat, k replay.TaskKind) error {
	aside := o.aside[:0]
	defer func() {
		for _, j := range aside {
			o.pickAdd(k, j)
		}
		o.aside = aside[:0]
	}()
	for hb.Free(k) > 0 && len(o.pick[k]) > 0 {
		best := o.pick[k][0]
		ok, err := o.serve(hb, k, best)
		if err != nil {
			return err
		}
		if !ok {
			o.jobs[best].tried = o.epoch
			o.pickRemove(k, best)
			aside = append(aside, best)
			continue
		}
		o.noteServed(best)
	}
	return nil
}

// noteServed records that job j was given a slot: it goes last in the
// service order, which both kinds share, so its place in both heaps
// follows (with its running tasks in the slot's kind).
func (o *Oracle) noteServed(j int32) {
	o.served++
	o.jobs[j].served = o.served
	o.repick(replay.Map, j)
	o.repick(replay.Reduce, j)
}

// repick restores job j's place in the heap of kind k after its running
// tasks or service changed, if the heap is current (otherwise it is made
// again before its next use).
func (o *Oracle) repick(k replay.TaskKind, j int32) {
	if o.pickCurrent(k) {
		o.pickFix(k, j)
	}
}
