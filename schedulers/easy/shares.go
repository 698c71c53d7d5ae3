package easy

import (
	"math"
	"slices"

	"sojourn/replay"
	"sojourn/schedulers/fairshare"
)

// Easy's fair shares, recomputed after nearly every event. When the
// admitted jobs are all in one pool and of weight 1 (NORMAL priority),
// which is the common case, every share is min(level, demand) for one
// level per kind, found from the demands kept sorted by track (unitLevel)
// without a pass over the jobs, and only the rates (state.go) of the
// jobs whose share moves are updated. A job's demand changes only with
// events that recompute the shares, so the demand a rate is computed
// with is the one the level was. Otherwise the admitted jobs are grouped
// by pool (the groups kept until a job is admitted or ends) and the
// shares computed pool by pool as always, with unitShares for pools of
// weight-1 jobs. unitShares and unitLevel give fairshare.ExactFairShares' results
// bit for bit (TestUnitSharesExact).

// easyShares is computeShares' state and scratch.
type easyShares struct {
	groups  []easyGroup
	groupOf []int32 // pool → group, during regroup
	dirty   bool    // groups must be rebuilt
	// With fast, every admitted job's share of kind k is
	// min(max(level[k], 0), its demand); otherwise it is in easyTaskLevel.shr.
	fast    bool
	level   [2]float64
	dem     []float64
	poolDem []float64
	pool    []float64 // pool shares
	job     []float64 // job shares of a pool
	s       []fairshare.Schedulable
	buf     []float64
}

// easyGroup is one pool's admitted jobs, in admission order.
type easyGroup struct {
	pool int
	jobs []int32
	unit bool // every job has weight 1
}

// regroup rebuilds the groups from the admitted jobs: pools by id, jobs in
// admission order, as computeShares has always taken them.
func (e *Easy) regroup() {
	sh := &e.shares
	sh.dirty = false
	for i := range sh.groups {
		sh.groups[i].jobs = sh.groups[i].jobs[:0]
	}
	if len(sh.groupOf) < len(e.pools) {
		sh.groupOf = make([]int32, len(e.pools))
	}
	for i := range sh.groupOf {
		sh.groupOf[i] = -1
	}
	n := 0
	for _, j := range e.admitted {
		p := e.jobs[j].pool
		if sh.groupOf[p] < 0 {
			if n == len(sh.groups) {
				sh.groups = append(sh.groups, easyGroup{})
			}
			sh.groupOf[p] = int32(n)
			sh.groups[n].pool, sh.groups[n].unit = p, true
			n++
		}
		g := &sh.groups[sh.groupOf[p]]
		g.jobs = append(g.jobs, j)
		g.unit = g.unit && e.jobs[j].weight == 1
	}
	sh.groups = sh.groups[:n]
	slices.SortFunc(sh.groups, func(a, b easyGroup) int { return a.pool - b.pool })
}

// computeShares divides each kind's slots among the pools with admitted
// jobs (equal weights), then each pool's share among its jobs (priority
// weights), every share capped at the demand.
func (e *Easy) computeShares(v *replay.View) {
	e.sharesDirty = false
	e.nextShares = v.Now() + replay.Seconds(e.o.update)
	if len(e.admitted) == 0 {
		return
	}
	sh, tl := &e.shares, &e.tl
	if e.livePools == 1 && e.nonUnit == 0 {
		// One pool of demand D takes min(slots, D), and its jobs share it:
		// share = min(max(level, 0), demand), applied by integrate.
		wasFast := sh.fast
		sh.fast = true
		for k := range 2 {
			d := float64(tl.sum[k])
			sh.poolDem = append(sh.poolDem[:0], d)
			sh.pool = unitShares(sh.pool, sh.poolDem, float64(v.Slots(replay.TaskKind(k))), &sh.buf)
			old := max(sh.level[k], 0)
			sh.level[k] = unitLevel(tl.sorted[k], d, sh.pool[0])
			switch lv := max(sh.level[k], 0); {
			case !wasFast:
				for p := range tl.rate[k] {
					e.setRate(k, p)
				}
			case lv != old:
				// The shares that move: those of demands above a level.
				x := min(old, lv)
				for i := len(tl.sorted[k]) - 1; i >= 0 && tl.sorted[k][i] > x; i-- {
					e.setRate(k, int(tl.by[k][i]))
				}
			}
		}
		return
	}
	sh.fast = false
	if sh.dirty {
		e.regroup()
	}
	for k := range 2 {
		// Every admitted job's demand, in group order, and each pool's sum.
		dem, pd := sh.dem[:0], sh.poolDem[:0]
		for _, g := range sh.groups {
			var d float64
			for _, j := range g.jobs {
				x := tl.dem[k][e.jobs[j].pos]
				dem = append(dem, x)
				d += x
			}
			pd = append(pd, d)
		}
		sh.dem, sh.poolDem = dem, pd
		sh.pool = unitShares(sh.pool, pd, float64(v.Slots(replay.TaskKind(k))), &sh.buf)
		for i, g := range sh.groups {
			gd := dem[:len(g.jobs)]
			dem = dem[len(g.jobs):]
			if g.unit {
				sh.job = unitShares(sh.job, gd, sh.pool[i], &sh.buf)
			} else {
				s := sh.s[:0]
				for x, j := range g.jobs {
					s = append(s, fairshare.Schedulable{Weight: e.jobs[j].weight, Demand: gd[x]})
				}
				sh.s = s
				sh.job = fairshare.ExactFairShares(sh.job, s, sh.pool[i])
			}
			for x, j := range g.jobs {
				tl.shr[k][e.jobs[j].pos] = sh.job[x]
			}
		}
		for p := range tl.rate[k] {
			e.setRate(k, p)
		}
	}
}

// unitShares is fairshare.ExactFairShares(dst, s, total) for s of weight 1, no
// minimum share and demands dem (whole numbers of tasks). buf is scratch.
func unitShares(dst, dem []float64, total float64, buf *[]float64) []float64 {
	var demand float64
	for _, d := range dem {
		demand += d
	}
	dst = slices.Grow(dst[:0], len(dem))[:len(dem)]
	var sorted []float64
	if 0 < total && total < demand { // only then does unitLevel need them sorted
		sorted = append((*buf)[:0], dem...)
		slices.Sort(sorted)
		*buf = sorted
	}
	r := unitLevel(sorted, demand, total)
	for i, d := range dem {
		dst[i] = min(max(r, 0), d)
	}
	return dst
}

// unitLevel is the ratio r with which fairshare.ExactFairShares fills the shares of
// total among schedulables of weight 1, no minimum share and demands whose
// sum is demand and which, sorted, are sorted (whole numbers; needed only
// when 0 < total < demand): share = min(max(r, 0), d).
//
// fairshare.ExactFairShares' breakpoints sorted are (0, +1) for each of the m
// positive demands, then (d, −1) for each in increasing order; its sweep
// stops at the first value v whose f(v) = Σ min(d, v) reaches the target
// min(total, demand), and returns L + (target − f(L)) / n(L), where L is
// the value before v (0 if none) and n(L) the demands above L, with f(L)
// and n(L) whole numbers it computes exactly. Here the same L, f(L) and
// n(L) are found walking down from the largest demand (the capped jobs,
// usually fewer), and the same float operations give the same r. When
// the demands fit, the sweep ends exactly at the largest demand: every
// share is its demand (r = +Inf gives the same); with a target of 0, r is
// 0 (Σ share(0) = 0 reaches it at once).
func unitLevel(sorted []float64, demand, total float64) float64 {
	target := min(total, demand)
	switch {
	case target <= 0:
		return 0
	case target == demand:
		return math.Inf(1)
	}
	sum := int64(demand)
	var above, n int64 // Σ and number of the demands above the value looked at
	i := len(sorted) - 1
	for i >= 0 && sorted[i] > 0 {
		v := int64(sorted[i])
		if f := sum - (above - v*n); float64(f) < target {
			return float64(v) + (target-float64(f))/float64(n) // L = v
		}
		for i >= 0 && sorted[i] == float64(v) {
			above += v
			n++
			i--
		}
	}
	return 0 + (target-0)/float64(n) // L = 0: f(0) = 0, every positive demand above
}
