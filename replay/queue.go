package replay

// eventKind orders events of equal time: task ends free slots before node
// failures, arrivals and heartbeats look at the cluster.
type eventKind uint8

const (
	evTaskEnd eventKind = iota
	evNodeFail
	evNodeRecover
	evArrival
	evHeartbeat
	evSweep
)

// event is an entry of the engine's queue. Task-end events carry the
// attempt generation, heartbeat and sweep events their own, so that
// superseded events are recognised as stale and dropped.
type event struct {
	at   Time
	key  uint64 // kind in the top 4 bits, then the insertion sequence
	job  int32
	idx  int32 // task index, or node for node events
	gen  int32
	rk   TaskKind
	kind eventKind
}

func (a *event) less(b *event) bool {
	return a.at < b.at || (a.at == b.at && a.key < b.key)
}

// eventQueue pops events in (time, kind, insertion sequence) order: a
// total order, so equal-time events always pop the same way. Task ends,
// due tens of seconds ahead, and the other events, mostly heartbeats due
// within the interval, are kept in two heaps: each push then sifts up a
// step or two, where in one heap every heartbeat would climb past all the
// task ends to the root.
type eventQueue struct {
	ends, other heap4
	seq         uint64
}

func (q *eventQueue) len() int { return len(q.ends) + len(q.other) }

func (q *eventQueue) push(e event) {
	e.key = uint64(e.kind)<<60 | q.seq
	q.seq++
	if e.kind == evTaskEnd {
		q.ends.push(e)
	} else {
		q.other.push(e)
	}
}

func (q *eventQueue) pop() event {
	if len(q.other) == 0 || len(q.ends) > 0 && q.ends[0].less(&q.other[0]) {
		return q.ends.pop()
	}
	return q.other.pop()
}

// heap4 is a 4-ary min-heap of events.
type heap4 []event

func (hp *heap4) push(e event) {
	h := append(*hp, e)
	i := len(h) - 1
	for i > 0 {
		p := (i - 1) / 4
		if !e.less(&h[p]) {
			break
		}
		h[i] = h[p]
		i = p
	}
	h[i] = e
	*hp = h
}

func (hp *heap4) pop() event {
	h := *hp
	top := h[0]
	n := len(h) - 1
	last := h[n]
	h = h[:n]
	*hp = h
	if n == 0 {
		return top
	}
	// Move the hole at the root down to a leaf along the smallest
	// children, then sift the last element up from there (Floyd): the last
	// element nearly always belongs near the bottom, so this saves
	// comparing it on the way down.
	i := 0
	for {
		c := 4*i + 1
		if c+3 < n {
			m := c
			if h[c+1].less(&h[m]) {
				m = c + 1
			}
			if h[c+2].less(&h[m]) {
				m = c + 2
			}
			if h[c+3].less(&h[m]) {
				m = c + 3
			}
			h[i] = h[m]
			i = m
			continue
		}
		if c >= n {
			break
		}
		m := c
		for k := c + 1; k < n; k++ {
			if h[k].less(&h[m]) {
				m = k
			}
		}
		h[i] = h[m]
		i = m
	}
	for i > 0 {
		p := (i - 1) / 4
		if !last.less(&h[p]) {
			break
		}
		h[i] = h[p]
		i = p
	}
	h[i] = last
	return top
}
