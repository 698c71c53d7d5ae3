package hfsp

import (
	"sojourn/replay"
	"sojourn/schedulers/internal/delay"
)

// Most offers of a map slot are refused: a job waiting under delay
// scheduling (the rule of package delay: Hadoop's FairScheduler) takes only
// a node-local map until it has been credited the delay D, then only a
// rack-local one until 2D, and small jobs have blocks on few of the nodes.
// Such a refusal only flags the job skipped at this heartbeat, so it need
// not be asked at all when it is known to have no pending map close
// enough: it is flagged directly.
//
// That is what a job's locality bitmap tells, one bit per node and one per
// rack: clear means no pending map of the job has a block there. A job
// gets one when it is first refused (a job queued behind others and never
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
// of its locality bitmap in the arena. It copies delay.Wait's fields
// rather than embed it: that packs the record in 16 bytes instead of 24,
// and the heartbeat's walk reads one per job.
type hfspWait struct {
	waited replay.Time     // credited since its last map launch
	bits   int32           // offset of its bitmap in the arena; -1: none
	last   replay.Locality // locality of its last map launch
	mark   delay.Mark      // what it did at this heartbeat
}

// level is delay.Wait.Level for this record: the worst locality the job
// may accept now.
func (w *hfspWait) level(d replay.Time) replay.Locality {
	return delay.Allowed(w.last, w.waited, d)
}

// credit gives the jobs skipped at the last heartbeat the time since
// (delay.Clock.Tick).
func (h *HFSP) credit(hb *replay.Heartbeat) {
	gap, listed := h.clock.Tick(hb.Now(), hb.HeartbeatInterval())
	for _, j := range listed {
		w := &h.waits[j]
		delay.Settle(&w.mark, &w.waited, gap)
	}
}

// localBits is the arena and layout of the jobs' locality bitmaps: each
// has nodeWords words of node bits, then its rack bits, words in all.
type localBits struct {
	arena            []uint64
	free             []int32 // offsets of bitmaps let go, for reuse
	nodeWords, words int
	bits             int // nodes and racks: the bits a bitmap uses
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
// j's maps, in the bitmap at off. It stops once it has set every node's
// and every rack's bit: a large job's blocks cover the cluster long
// before its last replica.
func (h *HFSP) noteBlocks(j, off int32, v *replay.View) {
	left := h.local.bits // bits still clear, as far as this call knows
	for _, n := range v.Job(j).Replicas() {
		if p, b := h.local.nodeBit(off, n); *p&b == 0 {
			*p |= b
			left--
		}
		if p, b := h.local.rackBit(off, v.Rack(n)); *p&b == 0 {
			*p |= b
			left--
		}
		if left == 0 {
			return
		}
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

// refusesHere reports that job j would refuse this node's map slot, and
// then flags it skipped as asking it would: it has a bitmap and no pending
// map as close as it may take, node-local or rack-local, and no map
// suspended (under map preemption).
func (h *HFSP) refusesHere(hb *replay.Heartbeat, j int32) bool {
	w := &h.waits[j]
	if w.bits < 0 || h.o.preemptMaps && hb.Job(j).Suspended(replay.Map) > 0 {
		return false
	}
	n := hb.Node()
	var p *uint64
	var b uint64
	switch w.level(h.delay) {
	case replay.NodeLocal:
		p, b = h.local.nodeBit(w.bits, n)
	case replay.RackLocal:
		p, b = h.local.rackBit(w.bits, hb.Rack(n))
	default:
		return false
	}
	if *p&b != 0 {
		return false
	}
	h.clock.Skip(j, &w.mark)
	return true
}

// pendingMap is pendingTask for a map of job j, which also clears the
// node's bit when the job has no node-local map there, and the rack's
// when it was asked for a rack-local one and has none.
func (h *HFSP) pendingMap(hb *replay.Heartbeat, j int32) (int32, bool) {
	w := &h.waits[j]
	n := hb.Node()
	lvl := w.level(h.delay)
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
		h.clock.Skip(j, &w.mark)
		return 0, false
	}
	w.waited, w.last = 0, loc
	h.clock.Launch(j, &w.mark)
	return t, true
}
