package schedulers

import (
	"cmp"
	"slices"

	"sojourn/replay"
)

// The task level of Easy: deficit-based fair sharing among admitted jobs.

// integrate adds (fair share − running) × elapsed time to every admitted
// job's deficit, with the shares and running counts of the interval since
// the last call.
func (e *Easy) integrate(v *replay.View) {
	now := v.Now()
	dt := (now - e.last).Sec()
	e.last = now
	if dt <= 0 {
		return
	}
	for _, j := range e.admitted {
		jb := &e.jobs[j]
		for k := range 2 {
			jb.deficit[k] += (jb.share[k] - float64(jb.running[k])) * dt
		}
	}
}

// snapshot records the running counts (and, when due, the fair shares)
// that hold until the next integration.
func (e *Easy) snapshot(v *replay.View) {
	for _, j := range e.admitted {
		jv := v.Job(j)
		e.jobs[j].running = [2]int{jv.Running(replay.Map), jv.Running(replay.Reduce)}
	}
	if e.sharesDirty || v.Now() >= e.nextShares {
		e.computeShares(v)
	}
}

// demand is what admitted job j could run of kind k now.
func (e *Easy) demand(v *replay.View, j int32, k replay.TaskKind) float64 {
	jv := v.Job(j)
	d := jv.Running(k)
	if launchable(jv, k) {
		d += jv.Pending(k)
	}
	return float64(d)
}

// computeShares divides each kind's slots among the pools with admitted
// jobs (equal weights), then each pool's share among its jobs (priority
// weights), every share capped at the demand.
func (e *Easy) computeShares(v *replay.View) {
	e.sharesDirty = false
	e.nextShares = v.Now() + replay.Seconds(e.o.update)
	pools := map[int][]int32{}
	var ids []int
	for _, j := range e.admitted {
		p := e.jobs[j].pool
		if pools[p] == nil {
			ids = append(ids, p)
		}
		pools[p] = append(pools[p], j)
	}
	slices.Sort(ids)
	for k := range 2 {
		kind := replay.TaskKind(k)
		s := e.scratch[:0]
		for _, p := range ids {
			var d float64
			for _, j := range pools[p] {
				d += e.demand(v, j, kind)
			}
			s = append(s, Schedulable{Weight: 1, Demand: d})
		}
		poolShares := ExactFairShares(nil, s, float64(v.Slots(kind)))
		for i, p := range ids {
			s = s[:0]
			for _, j := range pools[p] {
				s = append(s, Schedulable{Weight: e.jobs[j].weight, Demand: e.demand(v, j, kind)})
			}
			e.shares = ExactFairShares(e.shares, s, poolShares[i])
			for x, j := range pools[p] {
				e.jobs[j].share[k] = e.shares[x]
			}
		}
		e.scratch = s
	}
}

// OnHeartbeat implements replay.Scheduler: for each kind, rounds over the
// admitted jobs in decreasing deficit, one task per job per round, until
// the node's slots are full or no job can use them.
func (e *Easy) OnHeartbeat(hb *replay.Heartbeat) error {
	e.v = hb.View
	e.integrate(hb.View)
	e.snapshot(hb.View)
	for k := replay.Map; k <= replay.Reduce; k++ {
		if hb.Free(k) == 0 {
			continue
		}
		cands := e.cands[:0]
		for _, j := range e.admitted {
			if launchable(hb.Job(j), k) {
				cands = append(cands, j)
			}
		}
		slices.SortStableFunc(cands, func(a, b int32) int {
			return cmp.Compare(e.jobs[b].deficit[k], e.jobs[a].deficit[k])
		})
		e.cands = cands
		for hb.Free(k) > 0 && len(cands) > 0 {
			next := cands[:0]
			for _, j := range cands {
				if hb.Free(k) == 0 {
					break
				}
				ok, err := e.launch(hb, k, j)
				if err != nil {
					return err
				}
				if ok && launchable(hb.Job(j), k) {
					next = append(next, j)
				}
			}
			cands = next
		}
	}
	e.snapshot(hb.View)
	return nil
}

// launch starts one task of kind k of job j on the node, maps under delay
// scheduling.
func (e *Easy) launch(hb *replay.Heartbeat, k replay.TaskKind, j int32) (bool, error) {
	idx, ok := pendingTask(hb, j, k, &e.jobs[j].wait, e.delay)
	if !ok {
		return false, nil
	}
	return true, hb.Launch(replay.TaskRef{Job: j, Kind: k, Index: idx})
}
