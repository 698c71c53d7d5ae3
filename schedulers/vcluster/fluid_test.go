package vcluster_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"sojourn/schedulers/fluid"
	"sojourn/schedulers/vcluster"
)

// virtualPS replays jobs through a Cluster, adding each at its
// arrival and advancing in steps of at most step seconds, and returns the
// virtual finish times.
func virtualPS(t *testing.T, jobs []fluid.Job, slots, step float64) []float64 {
	byArrival := slices.Clone(jobs)
	slices.SortStableFunc(byArrival, func(a, b fluid.Job) int { return vcluster.CmpFloat(a.Arrival, b.Arrival) })
	vc := vcluster.New(slots, 1)
	for _, j := range byArrival {
		for vc.Now()+step < j.Arrival {
			vc.Advance(vc.Now() + step)
		}
		vc.Advance(j.Arrival)
		vc.Add(j.ID, j.Work, j.Cap)
		vcluster.CheckOrder(t, vc)
	}
	for at := vc.NextEvent(); !math.IsInf(at, 1); at = vc.NextEvent() {
		vc.Advance(min(at, vc.Now()+step))
		vcluster.CheckOrder(t, vc)
	}
	got := make([]float64, len(jobs))
	for i, j := range jobs {
		got[i] = math.Inf(1)
		if at, _, ok := vc.Finished(j.ID); ok {
			got[i] = at
		}
	}
	return got
}

// The incremental projection must agree with the direct event loop of
// fluid.PS, whatever the caps (including 0), slots and step sizes.
func TestVirtualClusterMatchesFluidPS(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 7))
	for trial := range 300 {
		n := 1 + r.IntN(15)
		jobs := make([]fluid.Job, n)
		for i := range jobs {
			c := float64(r.IntN(8))
			if r.IntN(4) == 0 {
				c += r.Float64()
			}
			jobs[i] = fluid.Job{ID: int64(r.IntN(1000)*100 + i), Arrival: math.Floor(r.Float64() * 40), Work: r.Float64() * 80, Cap: c}
		}
		slots := float64(1 + r.IntN(12))
		want := fluid.PS(jobs, slots)
		got := virtualPS(t, jobs, slots, 0.1+r.Float64()*5)
		for i := range jobs {
			if !vcluster.Near(got[i], want[i]) && math.Abs(got[i]-want[i]) > 1e-7 {
				t.Fatalf("trial %d (S=%g): job %d finishes at %g, fluid.PS says %g\njobs: %+v", trial, slots, jobs[i].ID, got[i], want[i], jobs)
			}
		}
	}
}
