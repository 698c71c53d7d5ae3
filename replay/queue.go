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

// eventQueue is a 4-ary min-heap ordered by (time, kind, insertion
// sequence): a total order, so equal-time events always pop the same way.
type eventQueue struct {
	h   []event
	seq uint64
}

func (q *eventQueue) len() int { return len(q.h) }

func (q *eventQueue) push(e event) {
	e.key = uint64(e.kind)<<60 | q.seq
	q.seq++
	q.h = append(q.h, e)
	h := q.h
	i := len(h) - 1
	for i > 0 {
		p := (i - 1) / 4
		if !h[i].less(&h[p]) {
			break
		}
		h[i], h[p] = h[p], h[i]
		i = p
	}
}

func (q *eventQueue) pop() event {
	h := q.h
	top := h[0]
	n := len(h) - 1
	last := h[n]
	h = h[:n]
	q.h = h
	if n == 0 {
		return top
	}
	// Sift the last element down from the root.
	i := 0
	for {
		c := 4*i + 1
		if c >= n {
			break
		}
		m := c
		end := min(c+4, n)
		for k := c + 1; k < end; k++ {
			if h[k].less(&h[m]) {
				m = k
			}
		}
		if !h[m].less(&last) {
			break
		}
		h[i] = h[m]
		i = m
	}
	h[i] = last
	return top
}
