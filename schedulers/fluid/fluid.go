package fluid

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"sojourn/schedulers/fairshare"
	"sojourn/schedulers/internal/must"
	"sojourn/schedulers/vcluster"
)

// Job is a job for the fluid reference schedulers PS and
// FSP: it arrives at Arrival (seconds), needs Work slot-seconds and can
// use at most Cap slots at once.
type Job struct {
	ID      int64
	Arrival float64
	Work    float64
	Cap     float64
}

// PS returns the completion time of each job (indexed like jobs) under
// max-min fair processor sharing of slots with parallelism caps: at every
// instant job j gets min(Cap_j, L) slots, L chosen so the jobs present use
// min(slots, Σ Cap). It is a direct event loop that recomputes every share
// at each arrival and completion, O(n² log n) in all, written independently
// of vcluster.Cluster so that it can serve as its test oracle. A job that can
// never finish (cap 0, or no slots) completes at +Inf.
//
// PS panics on duplicate ids, a non-finite arrival, or negative or
// NaN work, caps or slots.
func PS(jobs []Job, slots float64) []float64 {
	var sched []fairshare.Schedulable
	var shares []float64
	return fluid(jobs, slots, func(float64, int) {}, func(_ float64, active []int, rate []float64) {
		sched = sched[:0]
		for _, i := range active {
			sched = append(sched, fairshare.Schedulable{Weight: 1, Demand: jobs[i].Cap})
		}
		shares = fairshare.ExactFairShares(shares, sched, slots)
		copy(rate, shares)
	})
}

// FSP returns the completion time of each job (indexed like jobs)
// under the ideal multi-processor Fair Sojourn Protocol of the HFSP paper
// (Section 2.1, Figure 2): at every instant the jobs are ranked by their
// completion time in a virtual processor-sharing system (a vcluster.Cluster
// with the true sizes, speed 1), and each in turn gets as many slots as its
// cap allows from those left, preempting lower-ranked jobs. Jobs already
// finished in the virtual system come first, in their virtual finish order;
// the others are ranked by their projected virtual finish, which only an
// arrival can change. A job that has finished for real stays in the virtual
// system until it finishes there too.
//
// FSP panics like PS.
func FSP(jobs []Job, slots float64) []float64 {
	vc := vcluster.New(slots, 1)
	pos := make(map[int64]int, len(jobs))
	var order []int64
	return fluid(jobs, slots, func(t float64, i int) {
		vc.Advance(t)
		vc.Add(jobs[i].ID, jobs[i].Work, jobs[i].Cap)
	}, func(t float64, active []int, rate []float64) {
		vc.Advance(t)
		clear(pos)
		for a, i := range active {
			pos[jobs[i].ID] = a
			rate[a] = 0
		}
		free := slots
		order = vc.Order(order[:0])
		for _, id := range order {
			if a, ok := pos[id]; ok && free > 0 {
				rate[a] = min(jobs[active[a]].Cap, free)
				free -= rate[a]
			}
		}
	})
}

// fluid runs an event loop over arrivals and completions. arrive(t, i) is
// called as job i arrives; rates(t, active, rate) then sets the slots of
// each active job (indexes into jobs, in arrival order), constant until the
// next event.
func fluid(jobs []Job, slots float64, arrive func(t float64, i int),
	rates func(t float64, active []int, rate []float64)) []float64 {
	must.NonNeg("slots", slots)
	seen := make(map[int64]bool, len(jobs))
	byArrival := make([]int, len(jobs))
	for i, j := range jobs {
		must.Work(j.Work, j.Cap)
		if math.IsNaN(j.Arrival) || math.IsInf(j.Arrival, 0) || seen[j.ID] {
			panic(fmt.Sprintf("schedulers: fluid job %d: duplicate id or arrival %g", j.ID, j.Arrival))
		}
		seen[j.ID] = true
		byArrival[i] = i
	}
	slices.SortFunc(byArrival, func(a, b int) int {
		return cmp.Or(cmp.Compare(jobs[a].Arrival, jobs[b].Arrival), cmp.Compare(jobs[a].ID, jobs[b].ID))
	})

	done := make([]float64, len(jobs))
	rem := make([]float64, len(jobs))
	var active []int
	var rate []float64
	t, next := math.Inf(-1), 0
	for {
		if len(active) == 0 {
			if next == len(jobs) {
				return done
			}
			t = max(t, jobs[byArrival[next]].Arrival)
		}
		for next < len(jobs) && jobs[byArrival[next]].Arrival <= t {
			i := byArrival[next]
			next++
			arrive(t, i)
			if rem[i] = jobs[i].Work; rem[i] <= vcluster.FinishedEpsilon {
				done[i] = t
			} else {
				active = append(active, i)
			}
		}
		if len(active) == 0 {
			continue
		}
		rate = slices.Grow(rate[:0], len(active))[:len(active)]
		rates(t, active, rate)

		tn, first := math.Inf(1), -1 // next event, and the job finishing then
		if next < len(jobs) {
			tn = jobs[byArrival[next]].Arrival
		}
		for a, i := range active {
			if f := t + rem[i]/rate[a]; rate[a] > 0 && f < tn {
				tn, first = f, a
			}
		}
		if math.IsInf(tn, 1) { // nothing can progress any more
			for _, i := range active {
				done[i] = tn
			}
			return done
		}
		for a, i := range active {
			rem[i] -= rate[a] * (tn - t)
		}
		if first >= 0 {
			rem[active[first]] = 0
		}
		t = tn
		active = slices.DeleteFunc(active, func(i int) bool {
			if rem[i] <= vcluster.FinishedEpsilon {
				done[i] = t
				return true
			}
			return false
		})
	}
}
