package fair

import (
	"math"
	"slices"

	"sojourn/replay"
	"sojourn/schedulers/fairshare"
	"sojourn/schedulers/pools"
)

// update is FairScheduler.update: runnability, demands, weights, job
// orders, fair shares and preemption clocks. Runnability and the job
// orders are rebuilt only after a job arrived or finished (or always, with
// size-based weights); in between the orders are kept sorted as running
// counts change, and runnability cannot change.
func (f *Fair) update(v *replay.View) {
	now := v.Now()
	relist := f.dirty || f.o.sizeWeight
	if f.dirty {
		f.updateRunnability()
	}
	f.dirty = false
	f.nextUpdate = now + replay.Seconds(f.o.update)
	f.updates++ // the jobs' demands now are those of this update
	f.demand = [2]int{}
	for _, p := range f.live {
		for k := range 2 {
			kind := replay.TaskKind(k)
			if f.o.sizeWeight {
				for _, j := range p.jobs {
					jb := &f.jobs[j]
					jb.weight[k] = fairshare.PriorityWeight(jb.prio) * math.Log2(1+float64(jb.demand[k]))
					jb.key[k] = taskRatio(v.Job(j).Running(kind), jb.weight[k])
				}
			}
			p.demand[k] = min(p.liveDemand[k], p.maxSlots[k])
			f.demand[k] += p.demand[k]
			if relist {
				f.relist(p, kind)
			}
		}
	}
	for k := range 2 {
		f.poolShares(v, replay.TaskKind(k))
	}
	f.jobSharesOK = false
	for _, p := range f.live {
		for k := range 2 {
			if p.running[k] >= min(p.minShare[k], p.demand[k]) {
				p.lastAtMin[k] = now
			}
			if p.running[k] >= int(math.Floor(math.Min(p.share[k]/2, float64(p.demand[k])))) {
				p.lastAtHalf[k] = now
			}
		}
	}
}

// updateRunnability marks jobs runnable in FIFO order until their pool's
// or their user's maxRunningJobs is reached.
func (f *Fair) updateRunnability() {
	for _, p := range f.live {
		p.count = 0
	}
	for _, u := range f.users {
		u.count = 0
	}
	for _, j := range f.order {
		jb := &f.jobs[j]
		jb.runnable = jb.pool.count < jb.pool.cfg.MaxRunningJobs && jb.user.count < jb.user.max
		if jb.runnable {
			jb.pool.count++
			jb.user.count++
		}
		f.refreshDemand(j)
	}
}

// refreshDemand brings job j's demand, and its pool's sum, up to date,
// keeping what it was at the last update the first time it changes.
func (f *Fair) refreshDemand(j int32) {
	jb := &f.jobs[j]
	for k := range 2 {
		d := f.jobDemand(f.v, j, replay.TaskKind(k))
		if d == jb.demand[k] {
			continue
		}
		if jb.snapAt != f.updates {
			jb.snap, jb.snapAt = jb.demand, f.updates
		}
		jb.pool.liveDemand[k] += d - jb.demand[k]
		jb.demand[k] = d
	}
}

// demandAtUpdate is job j's demand of kind k at the last update.
func (f *Fair) demandAtUpdate(j int32, k int) int {
	jb := &f.jobs[j]
	if jb.snapAt == f.updates {
		return jb.snap[k]
	}
	return jb.demand[k]
}

// relist rebuilds p's scheduling order of its runnable jobs for kind k
// (those with a task to launch, see launchable).
func (f *Fair) relist(p *fairPool, k replay.TaskKind) {
	for _, j := range p.list[k] {
		f.jobs[j].listed[k] = false
	}
	l := p.list[k][:0]
	for _, j := range p.jobs {
		if jb := &f.jobs[j]; jb.runnable && f.launchable(k, j) {
			jb.listed[k], jb.listedKey[k] = true, jb.key[k]
			l = append(l, j)
		}
	}
	slices.SortFunc(l, func(a, b int32) int { return f.compareListed(k, a, b) })
	p.list[k] = l
}

// jobDemand is JobSchedulable.updateDemand without speculation: the
// unfinished tasks of a runnable job (reduces once past slow-start).
func (f *Fair) jobDemand(v *replay.View, j int32, k replay.TaskKind) int {
	jv := v.Job(j)
	if !f.jobs[j].runnable || k == replay.Reduce && !jv.ReducesEligible() {
		return 0
	}
	return jv.Tasks(k) - jv.Finished(k)
}

// poolShares runs fairshare.FairShares across the live pools.
func (f *Fair) poolShares(v *replay.View, k replay.TaskKind) {
	s := f.scratch[:0]
	for _, p := range f.live {
		s = append(s, fairshare.Schedulable{Weight: p.cfg.Weight, MinShare: float64(p.minShare[k]), Demand: float64(p.demand[k])})
	}
	f.shares = fairshare.FairShares(f.shares, s, float64(v.Slots(k)))
	for i, p := range f.live {
		p.share[k] = f.shares[i]
	}
	f.scratch = s
}

// jobShares runs fairshare.FairShares over the jobs of each fair-mode pool with the
// pool's share (fifo-mode pools give their jobs 0). Hadoop 1.x only
// reports these shares, so they are computed when asked for.
func (f *Fair) jobShares() {
	if f.jobSharesOK {
		return
	}
	f.jobSharesOK = true
	for k := range 2 {
		for _, p := range f.live {
			s := f.scratch[:0]
			for _, j := range p.jobs {
				jb := &f.jobs[j]
				s = append(s, fairshare.Schedulable{Weight: jb.weight[k], Demand: float64(f.demandAtUpdate(j, k))})
			}
			f.scratch = s
			if p.cfg.Mode == pools.ModeFair {
				f.shares = fairshare.FairShares(f.shares, s, p.share[k])
			} else {
				f.shares = slices.Grow(f.shares[:0], len(s))[:len(s)]
				clear(f.shares)
			}
			for i, j := range p.jobs {
				f.jobs[j].share[k] = f.shares[i]
			}
		}
	}
}

// FairShare returns the fair share of kind k of job j at the last update
// (0 for a job of a fifo-mode pool, as in Hadoop).
func (f *Fair) FairShare(j int32, k replay.TaskKind) float64 {
	f.jobShares()
	return f.jobs[j].share[k]
}

// PoolShare returns the fair share of kind k of the pool called name at
// the last update, and whether the pool has unfinished jobs.
func (f *Fair) PoolShare(name string, k replay.TaskKind) (float64, bool) {
	p := f.byName[name]
	if p == nil || !p.live {
		return 0, false
	}
	return p.share[k], true
}
