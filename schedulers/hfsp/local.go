package hfsp

import (
	"sojourn/replay"
	"sojourn/schedulers/internal/delay"
)

// Most offers of a map slot are refused: a job waiting under delay
// scheduling (Zaharia et al.) takes only a node-local map until it has
// waited the delay, then only a rack-local one until twice the delay, and
// small jobs have blocks on few of the nodes. Once a job waits, such a
// refusal changes nothing (its wait started at the first one), so it need
// not be asked at all when it is known to have no pending map close
// enough.
//
// That is what a job's locality bitmap tells, one bit per node and one per
// rack: clear means no pending map of the job has a block there. A job
// gets one when it starts waiting (a job queued behind others and never
// asked needs none), with the bits of every node and rack holding one of
// its blocks set, set again when a map is pending anew (killed or lost);
// a bit is cleared when the job, asked on that node, had no map that
// close. So a set bit may be stale (the maps there have launched since),
// which costs one full lookup, never a wrong answer.
//
// A heartbeat's walk over the jobs reads, for most of them, only their
// wait and one word of their bitmap: both are kept apart from the jobs'
// other state, the waits in a slice of small records and the bitmaps in
// one arena.

// hfspWait is a job's delay-scheduling state (as delay.Wait) and the place
// of its locality bitmap in the arena. It copies delay.Wait's two fields
// rather than embed it: that packs the record in 16 bytes instead of 24,
// and the heartbeat's walk reads one per job.
type hfspWait struct {
	since    replay.Time // when it started waiting, if skipping
	bits     int32       // offset of its bitmap in the arena; -1: none
	skipping bool        // it was refused for want of a close map
}

// level is delay.Wait.Level for this record: the worst locality the job
// may accept now.
func (w *hfspWait) level(d, now replay.Time) replay.Locality {
	dw := delay.Wait{Skipping: w.skipping, Since: w.since}
	return dw.Level(d, now)
}

// localBits is the arena and layout of the jobs' locality bitmaps: each
// has nodeWords words of node bits, then its rack bits, words in all.
type localBits struct {
	arena            []uint64
	free             []int32 // offsets of bitmaps let go, for reuse
	nodeWords, words int
}

// take returns the offset of a cleared bitmap.
func (b *localBits) take() int32 {
	if n := len(b.free); n > 0 {
		off := b.free[n-1]
		b.free = b.free[:n-1]
		clear(b.arena[off : int(off)+b.words])
		return off
	}
	off := int32(len(b.arena))
	b.arena = append(b.arena, make([]uint64, b.words)...)
	return off
}

// nodeBit and rackBit locate node n's and rack r's bit in the bitmap at
// off.
func (b *localBits) nodeBit(off, n int32) (*uint64, uint64) {
	return &b.arena[int(off)+int(n>>6)], 1 << (n & 63)
}

func (b *localBits) rackBit(off, r int32) (*uint64, uint64) {
	return &b.arena[int(off)+b.nodeWords+int(r>>6)], 1 << (r & 63)
}

// noteBlocks sets the bits of every node, and rack, holding a block of job
// j's maps, in the bitmap at off.
func (h *HFSP) noteBlocks(j, off int32, v *replay.View) {
	for _, n := range v.Job(j).Replicas() {
		p, b := h.local.nodeBit(off, n)
		*p |= b
		p, b = h.local.rackBit(off, v.Rack(n))
		*p |= b
	}
}

// mapPendingAgain keeps job j's bitmap, if it has one, a superset of its
// pending maps' places after one of them was killed or lost.
func (h *HFSP) mapPendingAgain(j int32, v *replay.View) {
	if w := &h.waits[j]; w.bits >= 0 {
		h.noteBlocks(j, w.bits, v)
	}
}

// dropBlocks lets job j's bitmap go once its maps have all finished.
func (h *HFSP) dropBlocks(j int32) {
	if w := &h.waits[j]; w.bits >= 0 {
		h.local.free = append(h.local.free, w.bits)
		w.bits = -1
	}
}

// refusesHere reports that job j would refuse this node's map slot
// without any effect: it already waits, and has no pending map as close
// as it may still take, node-local or rack-local. (HFSP never suspends
// maps, so the job has none to resume either.)
func (h *HFSP) refusesHere(hb *replay.Heartbeat, j int32) bool {
	w := &h.waits[j]
	if !w.skipping || w.bits < 0 {
		return false
	}
	waited, n := hb.Now()-w.since, hb.Node()
	switch {
	case waited < h.delay:
		p, b := h.local.nodeBit(w.bits, n)
		return *p&b == 0
	case waited < 2*h.delay:
		p, b := h.local.rackBit(w.bits, hb.Rack(n))
		return *p&b == 0
	}
	return false
}

// pendingMap is pendingTask for a map of job j, which also clears the
// node's bit when the job has no node-local map there, and the rack's
// when it was asked for a rack-local one and has none.
func (h *HFSP) pendingMap(hb *replay.Heartbeat, j int32) (int32, bool) {
	w := &h.waits[j]
	n := hb.Node()
	lvl := w.level(h.delay, hb.Now())
	t, loc, ok := hb.PendingMap(j, n, lvl)
	if !ok && w.bits < 0 && h.delay > 0 {
		w.bits = h.local.take() // it starts waiting
		h.noteBlocks(j, w.bits, hb.View)
	}
	if w.bits >= 0 {
		if !ok || loc != replay.NodeLocal {
			p, b := h.local.nodeBit(w.bits, n)
			*p &^= b
		}
		if lvl >= replay.RackLocal && (!ok || loc == replay.OffRack) {
			p, b := h.local.rackBit(w.bits, hb.Rack(n))
			*p &^= b
		}
	}
	if !ok {
		if !w.skipping {
			w.skipping, w.since = true, hb.Now()
		}
		return 0, false
	}
	w.skipping = false
	return t, true
}
