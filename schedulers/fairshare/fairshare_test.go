package fairshare

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// Cases for Hadoop 1.x's SchedulingAlgorithms.computeFairShares (reference
// §5.2): share_i = min(max(R·w_i, minShare_i), demand_i), Σ share =
// min(T, Σ demand). Each comment solves for R by hand.
var fairShareCases = []struct {
	name  string
	total float64
	s     []Schedulable
	want  []float64
}{
	// 3R = 12 → R = 4.
	{"equal weights", 12, []Schedulable{{1, 0, 100}, {1, 0, 100}, {1, 0, 100}}, []float64{4, 4, 4}},
	// 2R + R + R = 12 → R = 3: 6, 3, 3.
	{"weights 2:1:1", 12, []Schedulable{{2, 0, 100}, {1, 0, 100}, {1, 0, 100}}, []float64{6, 3, 3}},
	// Weighted share would be 4 < minShare 6: max(R, 6) + R + R = 12 with
	// R < 6 → 6 + 2R = 12 → R = 3: 6, 3, 3.
	{"min share above weighted share", 12, []Schedulable{{1, 6, 100}, {1, 0, 100}, {1, 0, 100}}, []float64{6, 3, 3}},
	// Demand 2 < share 4: 2 + R + R = 12 → R = 5: 2, 5, 5.
	{"demand below share", 12, []Schedulable{{1, 0, 2}, {1, 0, 100}, {1, 0, 100}}, []float64{2, 5, 5}},
	// Clamp order: minShare 6 is applied first, then demand 4 cuts it:
	// 4 + R + R = 12 → R = 4: 4, 4, 4.
	{"min share above demand", 12, []Schedulable{{1, 6, 4}, {1, 0, 100}, {1, 0, 100}}, []float64{4, 4, 4}},
	// Min shares 6 + 6 > T = 10. Σ share ≥ 12 > 10 even at R = 0, so the
	// doubling stops at R = 1 and bisection drives R to 2⁻²⁵: Hadoop keeps
	// both minimum shares (sum 12 > 10) and the third pool gets ≈ 3·10⁻⁸.
	{"min shares exceed total", 10, []Schedulable{{1, 6, 100}, {1, 6, 100}, {1, 0, 100}}, []float64{6, 6, 0}},
	// Σ demand = 18 < T = 100: everyone gets its demand.
	{"total demand below total", 100, []Schedulable{{1, 0, 3}, {2, 0, 5}, {1, 0, 10}}, []float64{3, 5, 10}},
	// All three twists, T = 20: min(2R, 4) + max(R, 8) + R + 4R. Guess
	// 2R < 4 and R < 8: 2R + 8 + R + 4R = 20 → R = 12/7 ≈ 1.714, which
	// satisfies both: 24/7, 8, 12/7, 48/7 (sum 140/7 = 20).
	{"weights, min share and demand", 20, []Schedulable{{2, 0, 4}, {1, 8, 100}, {1, 0, 100}, {4, 0, 100}},
		[]float64{24.0 / 7, 8, 12.0 / 7, 48.0 / 7}},
	// A zero-weight pool never grows past its min share 2; the other pool
	// takes its demand 3, and 5 slots stay unassigned (Hadoop: NaN for the
	// first pool, see FairShares).
	{"zero weight", 10, []Schedulable{{0, 2, 100}, {1, 0, 3}}, []float64{2, 3}},
	{"no demand", 10, []Schedulable{{1, 0, 0}, {1, 3, 0}}, []float64{0, 0}},
	{"none", 10, nil, []float64{}},
}

func TestFairShares(t *testing.T) {
	for _, tc := range fairShareCases {
		t.Run(tc.name, func(t *testing.T) {
			for _, f := range []struct {
				name string
				f    func([]float64, []Schedulable, float64) []float64
				tol  float64
			}{{"Hadoop", FairShares, 1e-5}, {"exact", ExactFairShares, 1e-9}} {
				got := f.f(nil, tc.s, tc.total)
				if len(got) != len(tc.want) {
					t.Fatalf("%s: %d shares, want %d", f.name, len(got), len(tc.want))
				}
				for i := range got {
					if math.Abs(got[i]-tc.want[i]) > f.tol {
						t.Errorf("%s: share %d = %.9g, want %.9g", f.name, i, got[i], tc.want[i])
					}
				}
			}
		})
	}
}

// The bisection and the exact sweep agree to 0.1 slot (Hadoop's stated
// precision) on random pools with priority weights, min shares and demands.
func TestFairSharesAgree(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	var a, b []float64
	for trial := range 2000 {
		total := float64(r.IntN(2000))
		s := make([]Schedulable, r.IntN(30))
		for i := range s {
			s[i] = Schedulable{
				Weight:   PriorityWeight(int8(r.IntN(5)-2)) * float64(r.IntN(4)),
				MinShare: float64(r.IntN(1 + int(total)/4)),
				Demand:   float64(r.IntN(1 + int(total))),
			}
		}
		a, b = FairShares(a, s, total), ExactFairShares(b, s, total)
		var sum float64
		for i := range s {
			if math.IsNaN(a[i]) || math.Abs(a[i]-b[i]) > 0.1 {
				t.Fatalf("trial %d: share %d: Hadoop %g, exact %g\n%+v (T=%g)", trial, i, a[i], b[i], s, total)
			}
			sum += b[i]
		}
		floor, demand := 0.0, 0.0
		for _, x := range s {
			floor += min(x.MinShare, x.Demand)
			demand += x.Demand
		}
		if want := max(min(total, demand), floor); sum > want+1e-6 {
			t.Fatalf("trial %d: exact shares sum to %g > %g", trial, sum, want)
		}
	}
}

func TestPriorityWeight(t *testing.T) {
	for p, want := range map[int8]float64{-2: 0.25, -1: 0.5, 0: 1, 1: 2, 2: 4} {
		if got := PriorityWeight(p); got != want {
			t.Errorf("PriorityWeight(%d) = %g, want %g", p, got, want)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("PriorityWeight(3) did not panic")
		}
	}()
	PriorityWeight(3)
}

// Three pools with weights 2:1:1 on 12 slots; the first pool can only use
// 4 slots, so R = 4: 4, 4, 4.
func ExampleFairShares() {
	pools := []Schedulable{
		{Weight: 2, Demand: 4},
		{Weight: 1, Demand: 50},
		{Weight: 1, Demand: 50},
	}
	fmt.Printf("%.3f\n", FairShares(nil, pools, 12))
	fmt.Printf("%.3f\n", ExactFairShares(nil, pools, 12))
	// Output:
	// [4.000 4.000 4.000]
	// [4.000 4.000 4.000]
}
