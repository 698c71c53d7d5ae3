package fluid_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"sojourn/schedulers/fluid"
)

// These tests tie fluid.PS and fluid.FSP to Section 2.1 of the HFSP paper
// ("How FSP Works"), whose two figures compare PS with FSP. The paper draws
// the schedules without numbers; the completion times below are worked out
// by hand in each case's comment.

func assertTimes(t *testing.T, what string, got []float64, jobs []fluid.Job, want map[int64]float64) {
	t.Helper()
	for i, j := range jobs {
		if math.Abs(got[i]-want[j.ID]) > 1e-9 {
			t.Errorf("%s: j%d completes at %.12g, want %g", what, j.ID, got[i], want[j.ID])
		}
	}
}

// Figure 1: "three jobs, j1, j2 and j3, each requiring all the resources
// available in the system [...] arrive at time t1=0s, t2=10s and t3=15s
// [...] it takes 30 seconds to process job j1, 10 seconds to process job j2
// and 10 seconds to process job j3". One server: S = 1, caps 1.
func TestPaperFigure1(t *testing.T) {
	jobs := []fluid.Job{
		{ID: 1, Arrival: 0, Work: 30, Cap: 1},
		{ID: 2, Arrival: 10, Work: 10, Cap: 1},
		{ID: 3, Arrival: 15, Work: 10, Cap: 1},
	}
	t.Run("PS", func(t *testing.T) {
		// [0,10)  j1 alone, rate 1:        j1 30 → 20.
		// [10,15) j1, j2 at 1/2 each:      j1 20 → 17.5, j2 10 → 7.5.
		// [15, …) three jobs at 1/3 each; j2 (7.5) is smallest and needs
		//         7.5·3 = 22.5 s → j2 completes at 37.5; then j1 = 10, j3 = 2.5.
		// [37.5,…) j1, j3 at 1/2: j3 needs 2.5·2 = 5 s → 42.5; j1 = 7.5.
		// [42.5,…) j1 alone: 7.5 s → 50.
		// "The job completion order is j2, j3 and j1."
		assertTimes(t, "PS", fluid.PS(jobs, 1), jobs, map[int64]float64{2: 37.5, 3: 42.5, 1: 50})
	})
	t.Run("FSP", func(t *testing.T) {
		// At 10 the virtual PS projects j2 before j1 (j2 30 vs j1 40), so
		// "it preempts job j1": j2 runs [10,20) and completes at 20. At 15
		// the projection is j2 37.5, j3 42.5, j1 50: j3 "does not preempt
		// job j2", and "when job j2 finishes, job j3 is scheduled": [20,30)
		// → 30. j1 has 30 − 10 = 20 s left and finishes at 50.
		assertTimes(t, "FSP", fluid.FSP(jobs, 1), jobs, map[int64]float64{2: 20, 3: 30, 1: 50})
	})
}

// Figure 2: "jobs j1, j2 and j3 require 100%, 55% and 35% of the system
// resources respectively. The arrival times are t1=0s, t2=10s and t3=13s
// and the processing time (if the required share of system resources is
// given to each job) is 30 seconds for job j1, 10 seconds for job j2 and
// 10 seconds for job j3." With S = 20 slots the caps are 20, 11 and 7 and
// the sizes 20·30 = 600, 11·10 = 110 and 7·10 = 70 slot-seconds.
func TestPaperFigure2(t *testing.T) {
	jobs := []fluid.Job{
		{ID: 1, Arrival: 0, Work: 600, Cap: 20},
		{ID: 2, Arrival: 10, Work: 110, Cap: 11},
		{ID: 3, Arrival: 13, Work: 70, Cap: 7},
	}
	t.Run("PS", func(t *testing.T) {
		// [0,10)     j1 alone on 20 slots:            j1 600 → 400.
		// [10,13)    caps 20+11 > 20, level 10 < 11:  j1, j2 at 10 each;
		//            j1 400 → 370, j2 110 → 80.
		// [13,23.5)  level 20/3 ≈ 6.67 < 7: all three at 20/3; j3 (70) is
		//            smallest, 70/(20/3) = 10.5 s → j3 completes at 23.5;
		//            j2 80 → 10, j1 370 → 300.
		// [23.5,24.5) level 10 < 11: j1, j2 at 10; j2 done in 1 s → 24.5;
		//            j1 300 → 290.
		// [24.5,39)  j1 alone at 20: 290/20 = 14.5 s → 39.
		// Check: the cluster is never idle, and 780 slot-s / 20 = 39.
		assertTimes(t, "PS", fluid.PS(jobs, 20), jobs, map[int64]float64{3: 23.5, 2: 24.5, 1: 39})
	})
	t.Run("FSP", func(t *testing.T) {
		// [0,10)   j1 alone on 20 slots: j1 600 → 400.
		// At 10 the virtual PS projects j2 at 21 (10 + 110/10), before j1:
		//          "job j2 would preempt job j1 [...] the remaining 45% can
		//          still be used by j1": j2 11 slots, j1 9.
		// [10,13)  j2 110 → 77, j1 400 → 373.
		// At 13 the virtual PS (j1 370, j2 80, j3 70 left) projects j3 at
		//          23.5, j2 at 24.5, j1 at 39: "it would preempt job j1 (but
		//          not job j2) [...] leaving 10% of the server to job j1":
		//          j3 7, j2 11, j1 2.
		// [13,20)  j2 77/11 = 7 s → completes at 20; j3 70 → 21; j1 373 → 359.
		// [20,23)  j3 7, j1 13: j3 21/7 = 3 s → 23; j1 359 → 320.
		// [23,39)  j1 alone at 20: 320/20 = 16 s → 39.
		// Mean completion time: FSP (39+20+23)/3 ≈ 27.3 < PS (39+24.5+23.5)/3 = 29.
		assertTimes(t, "FSP", fluid.FSP(jobs, 20), jobs, map[int64]float64{2: 20, 3: 23, 1: 39})
	})
}

// randomJobs draws n jobs with arrivals in [0, 100), sizes in [0, 50) and
// caps 0…maxCap (a cap of 0 only if allowZero).
func randomJobs(r *rand.Rand, n int, maxCap int, allowZero bool) []fluid.Job {
	jobs := make([]fluid.Job, n)
	for i := range jobs {
		c := 1 + r.IntN(maxCap)
		if allowZero && r.IntN(10) == 0 {
			c = 0
		}
		jobs[i] = fluid.Job{ID: int64(n - i), Arrival: math.Round(r.Float64()*100) / 2, Work: r.Float64() * 50, Cap: float64(c)}
	}
	return jobs
}

// Friedman and Henderson's FSP, which the paper builds on, never completes
// a job later than PS on a single server ("The FSP discipline ensures each
// job receives a fair amount of system resources, as when PS scheduling is
// used"). Random workloads check it for S = 1.
func TestFSPDominatesPSOnOneServer(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 13))
	for trial := range 200 {
		jobs := randomJobs(r, 1+r.IntN(12), 1, false)
		ps, fsp := fluid.PS(jobs, 1), fluid.FSP(jobs, 1)
		for i := range jobs {
			if fsp[i] > ps[i]+1e-7 {
				t.Fatalf("trial %d: job %d completes at %g under FSP, %g under PS\njobs: %+v", trial, jobs[i].ID, fsp[i], ps[i], jobs)
			}
		}
	}
}

// Both disciplines are work-conserving: with caps ≥ S the last completion
// is the same (Figures 1 and 2 both end at the same time under PS and FSP).
func TestFluidMakespan(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	for trial := range 100 {
		jobs := randomJobs(r, 1+r.IntN(10), 4, false)
		for i := range jobs {
			jobs[i].Cap = 4
		}
		last := func(ts []float64) float64 {
			m := math.Inf(-1)
			for _, x := range ts {
				m = max(m, x)
			}
			return m
		}
		ps, fsp := last(fluid.PS(jobs, 4)), last(fluid.FSP(jobs, 4))
		if math.Abs(ps-fsp) > 1e-7 {
			t.Fatalf("trial %d: makespan PS %g, FSP %g", trial, ps, fsp)
		}
	}
}

func TestFluidEdgeCases(t *testing.T) {
	tests := []struct {
		name  string
		jobs  []fluid.Job
		slots float64
		want  []float64
	}{
		{"no jobs", nil, 1, []float64{}},
		{"zero work completes on arrival", []fluid.Job{{ID: 1, Arrival: 5, Cap: 1}}, 1, []float64{5}},
		{"cap 0 never completes", []fluid.Job{{ID: 1, Work: 1}, {ID: 2, Work: 2, Cap: 1}}, 1, []float64{math.Inf(1), 2}},
		{"no slots", []fluid.Job{{ID: 1, Work: 1, Cap: 1}}, 0, []float64{math.Inf(1)}},
		{"idle gap", []fluid.Job{{ID: 1, Work: 1, Cap: 2}, {ID: 2, Arrival: 10, Work: 4, Cap: 2}}, 2, []float64{0.5, 12}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for name, f := range map[string]func([]fluid.Job, float64) []float64{
				"PS": fluid.PS, "FSP": fluid.FSP} {
				got := f(tc.jobs, tc.slots)
				if fmt.Sprint(got) != fmt.Sprint(tc.want) {
					t.Errorf("%s = %v, want %v", name, got, tc.want)
				}
			}
		})
	}
}

// The paper's Figure 2 under PS and FSP.
func ExampleFSP() {
	jobs := []fluid.Job{
		{ID: 1, Arrival: 0, Work: 600, Cap: 20},
		{ID: 2, Arrival: 10, Work: 110, Cap: 11},
		{ID: 3, Arrival: 13, Work: 70, Cap: 7},
	}
	fmt.Println("PS: ", fluid.PS(jobs, 20))
	fmt.Println("FSP:", fluid.FSP(jobs, 20))
	// Output:
	// PS:  [39 24.5 23.5]
	// FSP: [39 20 23]
}
