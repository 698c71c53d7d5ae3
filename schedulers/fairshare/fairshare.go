package fairshare

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"sojourn/schedulers/internal/must"
)

// Schedulable is one participant in the Hadoop 1.x FairScheduler's share
// computation: a pool among pools, or a job inside a pool.
type Schedulable struct {
	Weight   float64 // pool weight, or job weight (see PriorityWeight)
	MinShare float64 // guaranteed slots (pool minMaps/minReduces; 0 for jobs)
	Demand   float64 // slots it could use now (tasks it could run)
}

// share is the FairScheduler's clamp for weight-to-slots ratio r: r·w,
// raised to the minimum share, then cut to the demand, in that order, so a
// minimum share above the demand yields the demand.
func (s Schedulable) share(r float64) float64 {
	x := s.Weight * r
	if s.Weight == 0 { // keep 0·Inf from producing NaN
		x = 0
	}
	return min(max(x, s.MinShare), s.Demand)
}

// fairShareIterations is Hadoop's COMPUTE_FAIR_SHARES_ITERATIONS: bits of
// precision of the ratio, better than 0.1 slot for a million slots.
const fairShareIterations = 25

// FairShares computes the Hadoop 1.x FairScheduler's fair shares
// (SchedulingAlgorithms.computeFairShares) of totalSlots among s, writes
// them to dst (grown as needed; it may be nil) and returns it.
//
// Shares are share_i(R) = min(max(R·w_i, minShare_i), demand_i) for the
// weight-to-slots ratio R that makes Σ share = min(totalSlots, Σ demand).
// As in Hadoop, R starts at 1 and doubles until the shares reach that
// target, then 25 bisection steps run on [0, R]; the shares use the upper
// end, so they may exceed the target by a hair.
//
// If the minimum shares alone (each capped by its demand) exceed the
// target, Hadoop does not scale them down: R converges to ≈ 0, every
// schedulable gets min(minShare, demand), and the shares sum to more than
// totalSlots. Other schedulables get ≈ 0 (at most w·2⁻²⁵).
//
// One deviation keeps the result finite: a zero-weight schedulable whose
// minimum share is below its demand can never reach the target; Hadoop then
// doubles R to +Inf and returns NaN for it, whereas here it gets its
// minimum share (0·Inf is taken as 0).
//
// FairShares panics if a weight, minimum share, demand or totalSlots is
// negative or NaN.
func FairShares(dst []float64, s []Schedulable, totalSlots float64) []float64 {
	target := fairShareTarget(s, totalSlots)
	used := func(r float64) float64 {
		var sum float64
		for _, x := range s {
			sum += x.share(r)
		}
		return sum
	}
	hi := 1.0
	for used(hi) < target && !math.IsInf(hi, 1) {
		hi *= 2
	}
	lo := 0.0
	for range fairShareIterations {
		mid := (lo + hi) / 2
		if used(mid) < target {
			lo = mid
		} else {
			hi = mid
		}
	}
	return fillShares(dst, s, hi)
}

// ExactFairShares solves the same problem as FairShares exactly, by
// sweeping the breakpoints of the piecewise-linear total Σ share_i(R): the
// ratio R_i = minShare_i/w_i where schedulable i starts growing and
// demand_i/w_i where it stops. The result agrees with FairShares to within
// w_i·max(1, 2R)·2⁻²⁵ slots for schedulable i (bisection's resolution; at
// most totalSlots·2⁻²⁴ when R ≥ 1/2), and sums to min(totalSlots,
// Σ demand), or to Σ min(minShare, demand) if that is larger. It costs
// O(n log n).
//
// With Weight 1, MinShare 0 and Demand c_j it is max-min fair
// water-filling of totalSlots among jobs with parallelism caps c_j.
func ExactFairShares(dst []float64, s []Schedulable, totalSlots float64) []float64 {
	target := fairShareTarget(s, totalSlots)
	type breakpoint struct{ r, dw float64 } // at ratio r the slope changes by dw
	var bps []breakpoint
	sum := 0.0 // Σ share(0)
	for _, x := range s {
		sum += x.share(0)
		if x.Weight > 0 && x.MinShare < x.Demand {
			bps = append(bps,
				breakpoint{x.MinShare / x.Weight, x.Weight},
				breakpoint{x.Demand / x.Weight, -x.Weight})
		}
	}
	if sum >= target {
		return fillShares(dst, s, 0)
	}
	slices.SortFunc(bps, func(a, b breakpoint) int {
		return cmp.Or(cmp.Compare(a.r, b.r), cmp.Compare(a.dw, b.dw))
	})
	r, slope := 0.0, 0.0
	for _, bp := range bps {
		if next := sum + slope*(bp.r-r); slope > 0 && next >= target {
			return fillShares(dst, s, r+(target-sum)/slope)
		} else if slope > 0 {
			sum = next
		}
		r = bp.r
		slope += bp.dw
	}
	// Only zero-weight schedulables are short of their demand: every
	// schedulable with a positive weight gets its demand.
	return fillShares(dst, s, math.Inf(1))
}

func fairShareTarget(s []Schedulable, totalSlots float64) float64 {
	must.NonNeg("total slots", totalSlots)
	var demand float64
	for _, x := range s {
		must.NonNeg("weight", x.Weight)
		must.NonNeg("min share", x.MinShare)
		must.NonNeg("demand", x.Demand)
		demand += x.Demand
	}
	return min(totalSlots, demand)
}

func fillShares(dst []float64, s []Schedulable, r float64) []float64 {
	dst = slices.Grow(dst[:0], len(s))
	for _, x := range s {
		dst = append(dst, x.share(r))
	}
	return dst
}

// PriorityWeight returns the factor by which the FairScheduler multiplies a
// job's weight for its Hadoop priority p, as stored in sojourn traces:
// VERY_LOW (-2) 0.25, LOW (-1) 0.5, NORMAL (0) 1, HIGH (1) 2, VERY_HIGH (2)
// 4. It panics for other values.
func PriorityWeight(p int8) float64 {
	if p < -2 || p > 2 {
		panic(fmt.Sprintf("schedulers: priority %d; want -2 (VERY_LOW) to 2 (VERY_HIGH)", p))
	}
	return math.Ldexp(1, int(p))
}
