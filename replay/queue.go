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
)

// event is an entry of the engine's queue. Task-end events carry the
// attempt generation so that ends of killed or suspended attempts are
// recognised as stale and dropped.
type event struct {
	at   Time
	seq  uint64
	kind eventKind
	job  int32
	idx  int32 // task index, or node for node events
	gen  int32
	rk   TaskKind
}

func (a *event) less(b *event) bool {
	if a.at != b.at {
		return a.at < b.at
	}
	if a.kind != b.kind {
		return a.kind < b.kind
	}
	return a.seq < b.seq
}

// eventQueue is a binary min-heap ordered by (time, kind, insertion
// sequence): a total order, so equal-time events always pop the same way.
type eventQueue struct {
	h   []event
	seq uint64
}

func (q *eventQueue) len() int { return len(q.h) }

func (q *eventQueue) push(e event) {
	e.seq = q.seq
	q.seq++
	q.h = append(q.h, e)
	i := len(q.h) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !q.h[i].less(&q.h[p]) {
			break
		}
		q.h[i], q.h[p] = q.h[p], q.h[i]
		i = p
	}
}

func (q *eventQueue) pop() event {
	top := q.h[0]
	n := len(q.h) - 1
	q.h[0] = q.h[n]
	q.h = q.h[:n]
	i := 0
	for {
		l := 2*i + 1
		if l >= n {
			break
		}
		m := l
		if r := l + 1; r < n && q.h[r].less(&q.h[l]) {
			m = r
		}
		if !q.h[m].less(&q.h[i]) {
			break
		}
		q.h[i], q.h[m] = q.h[m], q.h[i]
		i = m
	}
	return top
}

func (q *eventQueue) peekTime() Time {
	if len(q.h) == 0 {
		return Never
	}
	return q.h[0].at
}
