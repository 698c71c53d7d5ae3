package replay

import "math/bits"

// eventKind orders events of equal time: task ends free slots before node
// failures, arrivals and heartbeats look at the cluster. The kinds before
// evQuiet change the cluster; once the last of them due at a time is
// applied, a Decider decides (Engine.decide), before that time's
// heartbeats.
type eventKind uint8

const (
	evTaskEnd eventKind = iota
	evNodeFail
	evNodeRecover
	evArrival
	evDecide // a Decider's wake-up: it changes nothing but the policy's state
	evQuiet  // before heartbeats: a heartbeat at quietUntil is a real one
	evHeartbeat
	evSweep
)

// event is an entry of the engine's queue. Task-end events carry the
// attempt generation, heartbeat and sweep events their own, so that
// superseded events are recognised as stale and dropped.
//
// Its fields are packed into four words: the compiler keeps a struct of
// at most four fields in registers, where a bigger one is copied through
// memory at every push, pop and sift, and a copy just stored field by
// field stalls on store forwarding.
type event struct {
	at  Time
	key uint64 // the kind in the top 4 bits, then (once queued) the insertion sequence
	ref uint64 // the job in the high 32 bits, the task index or node in the low 32
	tag uint64 // the generation in the low 32 bits, the task kind above
}

// newEvent returns an event of kind k at time at: job j's task idx of
// kind rk in generation gen, or node idx.
func newEvent(at Time, k eventKind, j, idx, gen int32, rk TaskKind) event {
	return event{
		at:  at,
		key: uint64(k) << 60,
		ref: uint64(uint32(j))<<32 | uint64(uint32(idx)),
		tag: uint64(uint32(gen)) | uint64(rk)<<32,
	}
}

func (e event) kind() eventKind { return eventKind(e.key >> 60) }
func (e event) job() int32      { return int32(e.ref >> 32) }
func (e event) idx() int32      { return int32(uint32(e.ref)) }
func (e event) gen() int32      { return int32(uint32(e.tag)) }
func (e event) rk() TaskKind    { return TaskKind(e.tag >> 32) }

func (a event) less(b event) bool {
	return a.at < b.at || (a.at == b.at && a.key < b.key)
}

// eventQueue pops events in (time, kind, insertion sequence) order: a
// total order, so equal-time events always pop the same way. Task ends,
// due tens of seconds to hours ahead, and the other events, mostly
// heartbeats due within the interval, wait in two queues: in one, every
// heartbeat would climb past all the task ends. On a large cluster the
// queues are calendars (see calendar), on a small one plain heaps.
type eventQueue struct {
	ends, other calendar
	beats       hbRing
	seq         uint64
}

// calendarSlots is the cluster size, in slots, from which the queues are
// calendars: below it a bucket would hold a handful of events, and the
// heaps are faster (measured on 100 and 3,000 nodes).
const calendarSlots = 4096

// init sizes the queue for a cluster of the given number of slots.
func (q *eventQueue) init(slots int) {
	if slots >= calendarSlots {
		q.ends.shift = 20  // about 1 s: a few hundred task ends per bucket
		q.other.shift = 18 // about 0.26 s: a few dozen heartbeats
	}
}

func (q *eventQueue) len() int { return q.ends.n + q.other.n + q.beats.n }

func (q *eventQueue) push(e event) { q.putBack(q.stamp(e)) }

// pushEnd is push of a task end, straight to its queue.
func (q *eventQueue) pushEnd(e event) { q.ends.push(q.stamp(e)) }

// pushBeat is push of a heartbeat, straight to its queue.
func (q *eventQueue) pushBeat(e event) {
	e = q.stamp(e)
	if q.beats.slots != nil { // as putBack
		q.beats.push(e)
		return
	}
	q.other.push(e)
}

// stamp gives e the next insertion sequence number.
func (q *eventQueue) stamp(e event) event {
	e.key |= q.seq
	q.seq++
	return e
}

// putBack queues e with the key it has, in the queue of its kind: an
// event just popped goes back to pop next again (push comes here once it
// has given e its sequence number).
func (q *eventQueue) putBack(e event) {
	switch k := e.kind(); {
	case k == evTaskEnd:
		q.ends.push(e)
	case k == evHeartbeat && q.beats.slots != nil: // the ring of a large cluster
		q.beats.push(e)
	default:
		q.other.push(e)
	}
}

// peek returns the event pop would return, or nil.
func (q *eventQueue) peek() *event {
	m, o := q.ends.min(), q.other.min()
	if m != nil && (o == nil || m.less(*o)) {
		o = m
	}
	if q.beats.n > 0 && (o == nil || q.beats.first().less(*o)) {
		return q.beats.first()
	}
	return o
}

func (q *eventQueue) pop() event {
	m, o := q.ends.min(), q.other.min()
	c := &q.other
	if m != nil && (o == nil || m.less(*o)) {
		c, o = &q.ends, m
	}
	if q.beats.n > 0 && (o == nil || q.beats.first().less(*o)) {
		return q.beats.pop()
	}
	c.n-- // min moved c to the bucket of its earliest event
	return c.cur.pop()
}

// hbRing holds the queued heartbeats of a cluster whose heartbeats are
// all on the grid (no out-of-band heartbeat, no node failure, whose stale
// heartbeats must pop as in a heap): at most one per node, due within an
// interval of now at the node's phase, the phases distinct and growing
// with the node index. The earliest is then the first queued node after
// the one that last heartbeated, in cyclic order, and a heartbeat costs
// a bit scan where a heap costs a sift through its levels.
type hbRing struct {
	slots  []event  // node i's queued heartbeat
	queued []uint64 // bit i: node i has one
	first_ int32    // the node of the earliest, when n > 0
	n      int
}

// initBeats makes the queue keep heartbeats in a ring of nodes nodes.
func (q *eventQueue) initBeats(nodes int) {
	q.beats.slots = make([]event, nodes)
	q.beats.queued = make([]uint64, (nodes+63)/64)
}

func (r *hbRing) first() *event { return &r.slots[r.first_] }

func (r *hbRing) push(e event) {
	i := e.idx()
	r.slots[i] = e
	r.queued[i>>6] |= 1 << (i & 63)
	r.n++
	if r.n == 1 || e.less(r.slots[r.first_]) {
		r.first_ = i
	}
}

// pop removes the earliest heartbeat. Every other one queued is due after
// it and at most an interval later, so at the next grid time of its node:
// the next queued node in cyclic order comes first.
func (r *hbRing) pop() event {
	i := r.first_
	r.queued[i>>6] &^= 1 << (i & 63)
	r.n--
	if r.n > 0 {
		nn := int32(len(r.slots))
		if j := r.next(i+1, nn); j >= 0 {
			r.first_ = j
		} else {
			r.first_ = r.next(0, i)
		}
	}
	return r.slots[i]
}

// next is the first queued node in [from, to), or -1.
func (r *hbRing) next(from, to int32) int32 { return nextSet(r.queued, from, to) }

// calendar is a calendar queue: time is cut into buckets of 2^shift µs, a
// ring holds the next calRing buckets as unsorted lists, and the current
// bucket is a small heap. A push into a later bucket is an append; a pop
// works on the current bucket's heap only, a few hundred events where one
// heap of every task end holds tens of thousands and misses the caches.
// Events beyond the ring wait in an overflow heap. Every event of the
// current bucket precedes every event of later buckets, so events pop in
// exactly a heap's order. With shift 0 it is a plain heap (cur).
type calendar struct {
	shift uint      // bucket width: 2^shift µs; 0 for a plain heap
	cur   heap4     // events due before the end of bucket cb
	cb    int64     // current bucket number (time >> shift)
	ring  [][]event // bucket b in ring[b%calRing], for cb < b < cb+calRing
	full  []uint64  // bit b%calRing set when that ring bucket is not empty
	far   heap4     // events due at or after bucket cb+calRing
	n     int       // events in all
	// touch, if set, is called with a bucket's events when it becomes
	// the current one (the engine loads their records ahead of use).
	touch func([]event)
}

// calRing is the number of buckets in the ring: about 68 minutes of task
// ends ahead.
const calRing = 4096

func (c *calendar) push(e event) {
	c.n++
	if c.shift == 0 {
		c.cur.push(e)
		return
	}
	if c.ring == nil {
		c.ring = make([][]event, calRing)
		c.full = make([]uint64, calRing/64)
	}
	b := int64(e.at) >> c.shift
	switch {
	case b <= c.cb:
		c.cur.push(e)
	case b < c.cb+calRing:
		i := b % calRing
		c.ring[i] = append(c.ring[i], e)
		c.full[i/64] |= 1 << (i % 64)
	default:
		c.far.push(e)
	}
}

// min returns the earliest event, or nil; it moves to the next bucket
// holding events when the current one is empty.
func (c *calendar) min() *event {
	if len(c.cur) > 0 {
		return &c.cur[0]
	}
	if c.n == 0 {
		return nil
	}
	return c.turn()
}

// turn is min when the current bucket is empty.
func (c *calendar) turn() *event {
	if c.n == 0 || c.shift == 0 {
		return nil
	}
	b, ok := c.nextFull()
	if !ok {
		b = int64(c.far[0].at) >> c.shift // the ring is empty: jump
	}
	c.cb = b
	if i := b % calRing; ok {
		// The bucket's list becomes the heap, and the emptied heap's
		// array the bucket's: nothing is copied.
		c.cur, c.ring[i] = heap4(c.ring[i]), []event(c.cur[:0])
		c.full[i/64] &^= 1 << (i % 64)
		c.cur.heapify()
		if c.touch != nil {
			c.touch(c.cur)
		}
	}
	// Bring the overflow events now within the ring's reach.
	for len(c.far) > 0 && int64(c.far[0].at)>>c.shift < c.cb+calRing {
		e := c.far.pop()
		c.n--
		c.push(e)
	}
	return &c.cur[0]
}

// nextFull is the first non-empty ring bucket after cb.
func (c *calendar) nextFull() (int64, bool) {
	start := (c.cb + 1) % calRing
	for k := int64(0); k < calRing; {
		i := (start + k) % calRing
		w := c.full[i/64] >> (i % 64)
		if w != 0 {
			return c.cb + 1 + k + int64(bits.TrailingZeros64(w)), true
		}
		k += 64 - i%64
	}
	return 0, false
}

// heap4 is a 4-ary min-heap of events.
type heap4 []event

// heapify orders h as a heap.
func (hp heap4) heapify() {
	for i := (len(hp) - 2) / 4; i >= 0; i-- {
		hp.down(i)
	}
}

// down sifts element i down to its place.
func (hp heap4) down(i int) {
	h := hp
	n := len(h)
	x := h[i]
	for {
		c := 4*i + 1
		if c >= n {
			break
		}
		m := c
		for k := c + 1; k < min(c+4, n); k++ {
			if h[k].less(h[m]) {
				m = k
			}
		}
		if !h[m].less(x) {
			break
		}
		h[i] = h[m]
		i = m
	}
	h[i] = x
}

func (hp *heap4) push(e event) {
	h := append(*hp, e)
	i := len(h) - 1
	for i > 0 {
		p := (i - 1) / 4
		if !e.less(h[p]) {
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
	// comparing it on the way down. The smallest of four children is
	// found with its key held in registers, in a slice of four, which
	// spares the reloads and the bounds checks.
	i := 0
	for {
		c := 4*i + 1
		if c+3 < n {
			k := h[c : c+4 : c+4]
			m, at, key := 0, k[0].at, k[0].key
			if k[1].at < at || k[1].at == at && k[1].key < key {
				m, at, key = 1, k[1].at, k[1].key
			}
			if k[2].at < at || k[2].at == at && k[2].key < key {
				m, at, key = 2, k[2].at, k[2].key
			}
			if k[3].at < at || k[3].at == at && k[3].key < key {
				m = 3
			}
			h[i] = k[m]
			i = c + m
			continue
		}
		if c >= n {
			break
		}
		m := c
		for k := c + 1; k < n; k++ {
			if h[k].less(h[m]) {
				m = k
			}
		}
		h[i] = h[m]
		i = m
	}
	for i > 0 {
		p := (i - 1) / 4
		if !last.less(h[p]) {
			break
		}
		h[i] = h[p]
		i = p
	}
	h[i] = last
	return top
}
