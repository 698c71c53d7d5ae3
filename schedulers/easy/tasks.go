package easy

import (
	"sojourn/replay"
	"sojourn/schedulers/internal/delay"
)

// The task level of Easy: deficit-based fair sharing among admitted jobs
// (its state and integration: state.go; its shares: shares.go).

// snapshot recomputes the fair shares when due; with the running counts
// kept by track, they hold until the next integration.
func (e *Easy) snapshot(v *replay.View) {
	if e.sharesDirty || v.Now() >= e.nextShares {
		e.computeShares(v)
	}
}

// demand is what admitted job j could run of kind k now.
func (e *Easy) demand(v *replay.View, j int32, k replay.TaskKind) float64 {
	jv := v.Job(j)
	d := jv.Running(k)
	if jv.Launchable(k) {
		d += jv.Pending(k)
	}
	return float64(d)
}

// easyCand is a job with a task to launch, by its place among the
// admitted jobs, and its deficit.
type easyCand struct {
	def float64
	pos int32
}

// before is the heartbeat's order: decreasing deficit, then admission.
func (a easyCand) before(b easyCand) bool {
	return a.def > b.def || a.def == b.def && a.pos < b.pos
}

// OnHeartbeat implements replay.Scheduler: for each kind, rounds over the
// admitted jobs in decreasing deficit, one task per job per round, until
// the node's slots are full or no job can use them. The first round's
// first job is found by a scan, since a heartbeat mostly has one slot to
// fill; the rest of the round takes the jobs from a heap.
func (e *Easy) OnHeartbeat(hb *replay.Heartbeat) error {
	e.v = hb.View
	e.clock.Credit(hb, func(j int32) *delay.Wait { return &e.jobs[j].wait })
	e.integrate(hb.View)
	e.snapshot(hb.View)
	if len(e.gangs) > 0 && hb.Free(replay.Map) > 0 {
		if err := e.serveGangs(hb); err != nil {
			return err
		}
	}
	for k := replay.Map; k <= replay.Reduce; k++ {
		if hb.Free(k) == 0 {
			continue
		}
		next := e.cands[:0]
		var err error
		def := e.tl.def[k]
		first, any := firstCand(e.tl.ready[k].list, def)
		if any {
			if next, err = e.offer(hb, k, e.admitted[first.pos], next); err != nil {
				return err
			}
		}
		if any && hb.Free(k) > 0 {
			// The rest of the round: the ready jobs after the first, as
			// they were before its launch (which changes no other job's
			// readiness or deficit).
			h := e.heap[:0]
			for _, p := range e.tl.ready[k].list {
				if c := (easyCand{def[p], p}); first.before(c) {
					h = append(h, c)
				}
			}
			for i := len(h)/2 - 1; i >= 0; i-- {
				easyDown(h, i)
			}
			for hb.Free(k) > 0 && len(h) > 0 {
				j := e.admitted[h[0].pos]
				h[0] = h[len(h)-1]
				h = h[:len(h)-1]
				easyDown(h, 0)
				if next, err = e.offer(hb, k, j, next); err != nil {
					return err
				}
			}
			e.heap = h
		}
		cands := next
		for hb.Free(k) > 0 && len(cands) > 0 {
			next := cands[:0]
			for _, j := range cands {
				if hb.Free(k) == 0 {
					break
				}
				if next, err = e.offer(hb, k, j, next); err != nil {
					return err
				}
			}
			cands = next
		}
		e.cands = cands
	}
	e.snapshot(hb.View)
	return nil
}

// serveGangs gives the node's free map slots to the admitted rigid jobs
// first, in admission order, as many maps each as it can launch: their
// slots were reserved at admission, so that their maps start together
// rather than at the pace of the deficits.
func (e *Easy) serveGangs(hb *replay.Heartbeat) error {
	g := e.gangs[:0]
	for _, j := range e.gangs {
		for hb.Free(replay.Map) > 0 {
			ok, err := e.launch(hb, replay.Map, j)
			if err != nil {
				return err
			}
			if !ok {
				break
			}
			e.track(hb.View, j)
		}
		if hb.Job(j).Pending(replay.Map) > 0 {
			g = append(g, j)
		}
	}
	e.gangs = g
	return nil
}

// firstCand returns the candidate first in the heartbeat's order among
// the places in ready, with their deficits in def.
func firstCand(ready []int32, def []float64) (easyCand, bool) {
	if len(ready) == 0 {
		return easyCand{}, false
	}
	best := easyCand{def[ready[0]], ready[0]}
	for _, p := range ready[1:] {
		if c := (easyCand{def[p], p}); c.before(best) {
			best = c
		}
	}
	return best, true
}

// easyDown sifts h[i] down the heap ordered by before.
func easyDown(h []easyCand, i int) {
	n := len(h)
	if n == 0 {
		return
	}
	x := h[i]
	for {
		c := 2*i + 1
		if c >= n {
			break
		}
		if c+1 < n && h[c+1].before(h[c]) {
			c++
		}
		if !h[c].before(x) {
			break
		}
		h[i] = h[c]
		i = c
	}
	h[i] = x
}

// offer is one turn of job j in a round: a task of kind k launched if it
// can, the job tracked, and appended to next, the next round's jobs, if
// it can launch another.
func (e *Easy) offer(hb *replay.Heartbeat, k replay.TaskKind, j int32, next []int32) ([]int32, error) {
	ok, err := e.launch(hb, k, j)
	if err != nil || !ok {
		return next, err
	}
	e.track(hb.View, j)
	if hb.Job(j).Launchable(k) {
		next = append(next, j)
	}
	return next, nil
}

// launch starts one task of kind k of job j on the node, maps under delay
// scheduling.
func (e *Easy) launch(hb *replay.Heartbeat, k replay.TaskKind, j int32) (bool, error) {
	if !hb.Fits(j, k) {
		return false, nil // its container does not fit what the node has left
	}
	idx, ok := delay.Next(hb, j, k, &e.jobs[j].wait, &e.clock, e.delay)
	if !ok {
		return false, nil
	}
	return true, hb.Launch(replay.TaskRef{Job: j, Kind: k, Index: idx})
}
