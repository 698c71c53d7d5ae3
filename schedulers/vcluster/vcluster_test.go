package vcluster

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func near(a, b float64) bool {
	return a == b || math.Abs(a-b) <= 1e-9*max(1, math.Abs(a), math.Abs(b))
}

// HFSP paper, Section 3.3: "resource allocation in the virtual cluster uses
// a max-min fairness discipline" and "each job arrival or task completion
// triggers a call to the job aging function, which uses the time difference
// between two consecutive events as a basis to distribute progress".
//
// S = 10 slots; job 1: 100 slot-s, cap 2; job 2: 100, cap 20; job 3: 20, cap 20.
//
//	[0,5)   water-filling: job 1 is capped at 2, the level is (10−2)/2 = 4:
//	        rates 2, 4, 4. Job 3 needs 20/4 = 5 s → finishes at 5.
//	        Left: job 1 100−10 = 90, job 2 100−20 = 80.
//	[5,15)  job 1 at 2, job 2 at min(20, 10−2) = 8: 80/8 = 10 s → 15.
//	        Left: job 1 90−20 = 70.
//	[15,50) job 1 alone, still capped at 2: 70/2 = 35 s → 50.
//
// At t = 7: job 1 has 100 − 2·7 = 86 left, job 2 100 − 4·5 − 8·2 = 64.
// At half speed (the HFSP code) every duration doubles.
func TestVirtualClusterWaterFilling(t *testing.T) {
	for _, speed := range []float64{1, 0.5} {
		t.Run(fmt.Sprint("speed ", speed), func(t *testing.T) {
			k := 1 / speed
			vc := New(10, speed)
			vc.Add(1, 100, 2)
			vc.Add(2, 100, 20)
			vc.Add(3, 20, 20)
			// At the current shares: job 2 at level 4 needs 100/4 = 25 s.
			for id, want := range map[int64]float64{3: 5 * k, 2: 25 * k, 1: 50 * k} {
				if got := vc.ProjectedFinish(id); !near(got, want) {
					t.Errorf("ProjectedFinish(%d) = %g, want %g", id, got, want)
				}
			}
			if got := vc.Order(nil); !slices.Equal(got, []int64{3, 2, 1}) {
				t.Errorf("Order = %v, want [3 2 1]", got)
			}
			if got := vc.NextEvent(); got != 5*k {
				t.Errorf("NextEvent = %g, want %g", got, 5*k)
			}
			vc.Advance(7 * k)
			if at, seq, ok := vc.Finished(3); !ok || at != 5*k || seq != 1 {
				t.Errorf("Finished(3) = %g, %d, %v; want %g, 1, true", at, seq, ok, 5*k)
			}
			if _, _, ok := vc.Finished(2); ok {
				t.Error("job 2 finished early")
			}
			for id, want := range map[int64]float64{1: 86, 2: 64, 3: 0} {
				if got := vc.Remaining(id); !near(got, want) {
					t.Errorf("Remaining(%d) at %g = %g, want %g", id, 7*k, got, want)
				}
			}
			if got := vc.NextEvent(); !near(got, 15*k) {
				t.Errorf("NextEvent = %g, want %g", got, 15*k)
			}
			vc.Advance(100)
			if at, seq, _ := vc.Finished(1); !near(at, 50*k) || seq != 3 {
				t.Errorf("Finished(1) = %g, %d; want %g, 3", at, seq, 50*k)
			}
		})
	}
}

// HFSP paper, Section 2.1, Figure 2 (S = 20; caps 20, 11, 7; sizes 600,
// 110, 70 slot-s; arrivals 0, 10, 13). At 13 the virtual cluster holds
// j1 600 − 20·10 − 10·3 = 370, j2 110 − 10·3 = 80 and j3 70, and projects
// (see TestPaperFigure2/PS) j3 at 23.5, j2 at 24.5 and j1 at 39: the
// order in which ideal FSP serves them.
func TestVirtualClusterPaperFigure2(t *testing.T) {
	vc := New(20, 1)
	vc.Add(1, 600, 20)
	vc.Advance(10)
	vc.Add(2, 110, 11)
	vc.Advance(13)
	vc.Add(3, 70, 7)
	// Projected at the current shares (20/3 slots each): 13 + 3·rem/20.
	for id, want := range map[int64][2]float64{1: {370, 68.5}, 2: {80, 25}, 3: {70, 23.5}} {
		if rem, fin := vc.Remaining(id), vc.ProjectedFinish(id); !near(rem, want[0]) || !near(fin, want[1]) {
			t.Errorf("j%d: remaining %g, projected finish %g; want %g, %g", id, rem, fin, want[0], want[1])
		}
	}
	if got := vc.Order(nil); !slices.Equal(got, []int64{3, 2, 1}) {
		t.Errorf("Order = %v, want [3 2 1]", got)
	}
	// The paper's finish times, as the fluid system ages on.
	for id, want := range runOut(vc) {
		if w := map[int64]float64{1: 39, 2: 24.5, 3: 23.5}[id]; !near(want, w) {
			t.Errorf("j%d finished at %g, want %g", id, want, w)
		}
	}
}

// runOut advances vc through every completion and returns the finish
// times of the jobs that finish.
func runOut(vc *Cluster) map[int64]float64 {
	for at := vc.NextEvent(); !math.IsInf(at, 1); at = vc.NextEvent() {
		vc.Advance(at)
	}
	done := map[int64]float64{}
	for _, id := range vc.Order(nil) {
		if at, _, ok := vc.Finished(id); ok {
			done[id] = at
		}
	}
	return done
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// checkOrder verifies Order: finished jobs first by sequence number, then
// the others by (projected finish, id).
func checkOrder(t *testing.T, vc *Cluster) {
	t.Helper()
	order := vc.Order(nil)
	if len(order) != vc.Len() {
		t.Fatalf("Order has %d jobs, Len %d", len(order), vc.Len())
	}
	for k := 1; k < len(order); k++ {
		a, b := order[k-1], order[k]
		_, sa, fa := vc.Finished(a)
		_, sb, fb := vc.Finished(b)
		pa, pb := vc.ProjectedFinish(a), vc.ProjectedFinish(b)
		ok := fa && (!fb || sa < sb) || !fa && !fb && (pa < pb || pa == pb && a < b)
		if !ok {
			t.Fatalf("Order %v: %d (finished %v seq %d at %g) before %d (finished %v seq %d at %g)",
				order, a, fa, sa, pa, b, fb, sb, pb)
		}
	}
}

// The fluid system is memoryless: a change undone mid-way (which
// materializes the service and rebalances the shares) leaves every finish
// time where it was.
func TestVirtualClusterProjectionIsStable(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	for trial := range 100 {
		s := float64(1 + r.IntN(20))
		a, b := New(s, 1), New(s, 1)
		for id := range int64(1 + r.IntN(30)) {
			w, c := r.Float64()*100, float64(r.IntN(6))
			a.Add(id, w, c)
			b.Add(id, w, c)
		}
		b.Advance(r.Float64() * 60)
		b.SetSlots(s + 1)
		b.SetSlots(s)
		checkOrder(t, b)
		want, got := runOut(a), runOut(b)
		if len(want) != len(got) {
			t.Fatalf("trial %d: %d finished, %d after the change", trial, len(want), len(got))
		}
		for id, w := range want {
			if g := got[id]; !near(g, w) && math.Abs(g-w) > 1e-7 {
				t.Fatalf("trial %d: job %d finished at %g, after the change at %g", trial, id, w, g)
			}
		}
	}
}

func TestVirtualClusterChanges(t *testing.T) {
	tests := []struct {
		name string
		run  func(vc *Cluster) // on 2 slots, jobs 1 and 2: 10 slot-s, cap 2
		want map[int64]float64 // finish times, as the cluster ages on
		seq  []int64           // jobs finished after run, in finish order
	}{
		// Both run at 1 slot and finish at 10, ties by id.
		{"tie", func(vc *Cluster) { vc.Advance(10) }, map[int64]float64{1: 10, 2: 10}, []int64{1, 2}},
		// At 4 job 2 has 6 left and the whole cluster: 6/2 = 3 s → 7.
		{"remove", func(vc *Cluster) { vc.Advance(4); vc.Remove(1); vc.Remove(99) }, map[int64]float64{2: 7}, nil},
		// At 4 job 1 is capped at 0.5: job 2 gets 1.5; job 2: 6/1.5 = 4 s → 8,
		// then job 1 has 6 − 2 = 4 left at rate 0.5 → 16.
		{"cap", func(vc *Cluster) { vc.Advance(4); vc.SetCap(1, 0.5) }, map[int64]float64{2: 8, 1: 16}, nil},
		// Re-estimation at 4: job 1 now has 2 left, at 1 slot: → 6. Job 2
		// has 6 − 2 = 4 left then, alone on 2 slots: → 8.
		{"update", func(vc *Cluster) { vc.Advance(4); vc.Update(1, 2, 2) }, map[int64]float64{1: 6, 2: 8}, nil},
		// Job 1 finished at 10 and is re-estimated at 12 with 3 left: it
		// ages again, alone: 3/2 → 13.5, and finishes a second time.
		{"update finished", func(vc *Cluster) { vc.Advance(12); vc.Update(1, 3, 2); vc.Advance(20) },
			map[int64]float64{1: 13.5, 2: 10}, []int64{2, 1}},
		// A size at or below FinishedEpsilon finishes at once, as it is
		// added, and takes no share.
		{"tiny", func(vc *Cluster) { vc.Advance(1); vc.Add(4, 1e-10, 1); vc.Add(3, 0, 1) },
			map[int64]float64{3: 1, 4: 1, 1: 10, 2: 10}, []int64{4, 3}},
		// Half the slots: rate 0.5 each from 4 on: 6/0.5 = 12 s → 16.
		{"slots", func(vc *Cluster) { vc.Advance(4); vc.SetSlots(1) }, map[int64]float64{1: 16, 2: 16}, nil},
		{"no slots", func(vc *Cluster) { vc.SetSlots(0) }, map[int64]float64{1: math.Inf(1), 2: math.Inf(1)}, nil},
		// Job 1, re-estimated at 0 to 4 slot-s, finishes at 4; job 2 then
		// has 6 left on 2 slots → 7. Removing job 1 later changes nothing.
		{"remove finished", func(vc *Cluster) { vc.Update(1, 4, 2); vc.Advance(6); vc.Remove(1); vc.Advance(10) },
			map[int64]float64{2: 7}, []int64{2}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			vc := New(2, 0)
			vc.Add(1, 10, 2)
			vc.Add(2, 10, 2)
			tc.run(vc)
			checkOrder(t, vc)
			var finished []int64
			for _, id := range vc.Order(nil) {
				if _, _, ok := vc.Finished(id); ok {
					finished = append(finished, id)
				}
			}
			if !slices.Equal(finished, tc.seq) {
				t.Errorf("finished %v, want %v", finished, tc.seq)
			}
			done := runOut(vc)
			for id, want := range tc.want {
				got, ok := done[id]
				if math.IsInf(want, 1) {
					if ok || !math.IsInf(vc.ProjectedFinish(id), 1) {
						t.Errorf("job %d finished at %g or projected at %g; want never", id, got, vc.ProjectedFinish(id))
					}
				} else if !near(got, want) {
					t.Errorf("job %d finished at %g, want %g", id, got, want)
				}
			}
		})
	}
}

// Random operations at large and small magnitudes keep the invariants:
// remaining work never grows without a change and never goes negative,
// completions are recorded in time order, and between completions the
// cluster does speed·min(S, Σ caps) slot-seconds of work per second.
func TestVirtualClusterRandomOperations(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 8))
	for trial := range 40 {
		scale := math.Pow(10, float64(r.IntN(7)-1)) // work and time units
		slots, speed := float64(1+r.IntN(50)), []float64{1, 0.5}[r.IntN(2)]
		vc := New(slots, speed)
		vc.Advance(scale * 1000 * r.Float64())
		caps := map[int64]float64{}
		lastSeq, lastAt := 0, math.Inf(-1)
		for op := range 400 {
			id := int64(r.IntN(30))
			_, known := caps[id]
			switch k := r.IntN(10); {
			case k < 2 && !known:
				caps[id] = float64(r.IntN(8))
				vc.Add(id, scale*r.Float64()*100, caps[id])
			case k == 2 && known:
				caps[id] = float64(r.IntN(8))
				vc.SetCap(id, caps[id])
			case k == 3 && known:
				vc.Update(id, scale*r.Float64()*50, caps[id])
			case k == 4 && known:
				vc.Remove(id)
				delete(caps, id)
			case k == 5:
				slots = float64(r.IntN(50))
				vc.SetSlots(slots)
			default:
				before, busy, total := map[int64]float64{}, 0.0, 0.0
				for id, c := range caps {
					before[id] = vc.Remaining(id)
					total += before[id]
					if before[id] > 0 {
						busy += c
					}
				}
				now, next := vc.Now(), vc.NextEvent()
				if next < now {
					t.Fatalf("trial %d op %d: NextEvent %g before now %g", trial, op, next, now)
				}
				to := now + scale*r.ExpFloat64()*[]float64{0.01, 1, 10}[r.IntN(3)]
				vc.Advance(to)
				after := 0.0
				for id := range caps {
					rem := vc.Remaining(id)
					if rem < 0 || rem > before[id]+1e-12*max(1, before[id]) {
						t.Fatalf("trial %d op %d: job %d remaining %g → %g", trial, op, id, before[id], rem)
					}
					after += rem
				}
				if to < next { // no completion: work is conserved
					want := speed * min(slots, busy) * (to - now)
					if d := total - after; math.Abs(d-want) > 1e-9*max(1, total) {
						t.Fatalf("trial %d op %d: did %g slot-s in [%g, %g], want %g", trial, op, d, now, to, want)
					}
				}
			}
			for id := range caps {
				if at, seq, ok := vc.Finished(id); ok && seq > lastSeq {
					if at < lastAt || at > vc.Now() {
						t.Fatalf("trial %d op %d: job %d finished at %g (seq %d) after one at %g, now %g", trial, op, id, at, seq, lastAt, vc.Now())
					}
					lastSeq, lastAt = seq, at
				}
			}
		}
		checkOrder(t, vc)
	}
}

// Ties are broken by id, whatever the insertion order.
func TestVirtualClusterDeterministic(t *testing.T) {
	var orders [][]int64
	for _, ids := range [][]int64{{5, 3, 9, 1}, {1, 9, 3, 5}} {
		vc := New(3, 1)
		for _, id := range ids {
			vc.Add(id, 12, 3)
		}
		vc.Advance(16)
		orders = append(orders, vc.Order(nil))
	}
	if !slices.Equal(orders[0], orders[1]) || !slices.Equal(orders[0], []int64{1, 3, 5, 9}) {
		t.Errorf("orders %v; want [1 3 5 9] twice", orders)
	}
}

func TestVirtualClusterPanics(t *testing.T) {
	tests := []struct {
		name string
		f    func(vc *Cluster)
	}{
		{"duplicate id", func(vc *Cluster) { vc.Add(1, 1, 1) }},
		{"unknown id", func(vc *Cluster) { vc.SetCap(7, 1) }},
		{"negative work", func(vc *Cluster) { vc.Add(2, -1, 1) }},
		{"NaN cap", func(vc *Cluster) { vc.Update(1, 1, math.NaN()) }},
		{"time goes back", func(vc *Cluster) { vc.Advance(5); vc.Advance(4) }},
		{"negative slots", func(vc *Cluster) { vc.SetSlots(-1) }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Error("no panic")
				}
			}()
			vc := New(1, 1)
			vc.Add(1, 10, 1)
			tc.f(vc)
		})
	}
}

// Advance is called on every heartbeat: it must not allocate, nor must a
// re-projection once the scratch space has grown.
func TestVirtualClusterAllocations(t *testing.T) {
	vc := New(100, 0.5)
	for id := range int64(200) {
		vc.Add(id, float64(10+id%37*50), float64(1+id%13))
	}
	now := 0.0
	advance := func() {
		now += 0.25
		vc.Advance(now)
		_ = vc.Remaining(150) + vc.NextEvent()
	}
	if n := testing.AllocsPerRun(1000, advance); n != 0 {
		t.Errorf("Advance allocates %g times per call", n)
	}
	c := 1.0
	reproject := func() {
		c = 3 - c
		vc.SetCap(199, c)
		advance()
	}
	reproject()
	if n := testing.AllocsPerRun(100, reproject); n != 0 {
		t.Errorf("re-projection allocates %g times per call", n)
	}
}

func BenchmarkVirtualClusterAdvance(b *testing.B) {
	vc := New(400, 1)
	for id := range int64(1000) {
		vc.Add(id, float64(100+id*7%5000), float64(1+id%50))
	}
	now := 0.0
	for range b.N {
		now += 0.01
		vc.Advance(now)
	}
}

func BenchmarkVirtualClusterReproject(b *testing.B) {
	vc := New(400, 1)
	for id := range int64(1000) {
		vc.Add(id, float64(100+id*7%5000), float64(1+id%50))
	}
	for i := range b.N {
		vc.SetCap(int64(i%1000), float64(1+i%7))
		vc.NextEvent()
	}
}

// Job aging for the paper's Figure 1 (Section 2.1): one slot, j1 (30 s)
// at 0, j2 (10 s) at 10, j3 (10 s) at 15.
func ExampleCluster() {
	vc := New(1, 1)
	vc.Add(1, 30, 1)
	vc.Advance(10)
	vc.Add(2, 10, 1)
	vc.Advance(15)
	vc.Add(3, 10, 1)
	fmt.Println("order:", vc.Order(nil))
	vc.Advance(45)
	fmt.Println("j1 left at 45:", vc.Remaining(1))
	for _, id := range []int64{1, 2, 3} {
		fmt.Printf("j%d projected %g\n", id, vc.ProjectedFinish(id))
	}
	at, seq, _ := vc.Finished(3)
	fmt.Println("j3 finished at", at, "seq", seq)
	// Output:
	// order: [2 3 1]
	// j1 left at 45: 5
	// j1 projected 50
	// j2 projected 37.5
	// j3 projected 42.5
	// j3 finished at 42.5 seq 2
}

// BenchmarkVirtualClusterBacklog is the virtual cluster of an overloaded
// trace: thousands of jobs share 400 slots, each with a cap far above the
// level, some virtually finished and waiting for removal; every step
// removes one job and adds one (a projection each) and ages the cluster.
func BenchmarkVirtualClusterBacklog(b *testing.B) {
	for _, n := range []int{1000, 3000, 10000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) { benchBacklog(b, n, false, false) })
	}
}

// BenchmarkVirtualClusterWalk is the walk of HFSP's serve list on the
// same backlog: the smaller half of the jobs are done for real (passive),
// so they lead the Order, and after every change the walk reads the
// first job still served (NextActive), which the active heaps give
// without passing the passive ones.
func BenchmarkVirtualClusterWalk(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) { benchBacklog(b, n, true, false) })
	}
}

// BenchmarkVirtualClusterOrder is HFSP's preemption ledger on the same
// backlog: after every change it reads the whole Order.
func BenchmarkVirtualClusterOrder(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) { benchBacklog(b, n, false, true) })
	}
}

// benchBacklog runs the steps of the backlog benchmarks on n jobs, each
// step ending with the next event or, with walk, with HFSP's walk, or
// with order, with the whole Order.
func benchBacklog(b *testing.B, n int, walk, order bool) {
	vc := New(400, 1)
	r := rand.New(rand.NewPCG(1, 2))
	next := int64(0)
	add := func() int64 {
		w := 1e4 * (1 + r.ExpFloat64()*10)
		vc.Add(next, w, float64(10+r.IntN(5000)))
		if walk && w < 1e4*(1+10*math.Ln2) { // below the median
			vc.SetPassive(next)
		}
		next++
		return next - 1
	}
	live := make([]int64, n)
	for k := range live {
		live[k] = add()
	}
	now := 0.0
	var ids []int64
	b.ResetTimer()
	for range b.N {
		now += 5
		vc.Advance(now)
		k := r.IntN(len(live))
		vc.Remove(live[k])
		live[k] = add()
		switch {
		case order:
			ids = vc.Order(ids[:0])
		case !walk:
			vc.NextEvent()
		default:
			if _, id := vc.NextActive(0); id < 0 {
				b.Fatal("no active job")
			}
		}
	}
}

// Order, which sorts each heap from the one it sorted before, gives after
// every change what sorting the heaps afresh gives (the order before that
// reuse). Ids are reused after Remove, some with the same key again.
func TestVirtualClusterOrderFollowsChanges(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 3))
	for trial := range 30 {
		vc := New(float64(1+r.IntN(20)), 1)
		known := map[int64]bool{}
		for op := range 600 {
			id := int64(r.IntN(40))
			switch k := r.IntN(8); {
			case k < 3 && !known[id]:
				vc.Add(id, float64(1+r.IntN(4))*10, float64(r.IntN(5)))
				known[id] = true
			case k == 3 && known[id]:
				vc.SetCap(id, float64(r.IntN(5)))
			case k == 4 && known[id]:
				vc.Update(id, float64(r.IntN(4))*10, float64(r.IntN(5)))
			case k == 5 && known[id]:
				vc.Remove(id)
				delete(known, id)
			case k == 6:
				vc.SetSlots(float64(r.IntN(20)))
			default:
				vc.Advance(vc.Now() + r.ExpFloat64()*5)
			}
			if got, want := vc.Order(nil), orderAfresh(vc); !slices.Equal(got, want) {
				t.Fatalf("trial %d op %d: Order %v; sorted afresh %v", trial, op, got, want)
			}
		}
	}
}

// orderAfresh is Order with both heaps sorted from scratch.
func orderAfresh(vc *Cluster) []int64 {
	ls, cs := slices.Clone(vc.heaps[hLevelF]), slices.Clone(vc.heaps[hCapT])
	slices.SortFunc(ls, cmpEnt)
	slices.SortFunc(cs, cmpEnt)
	return vc.orderOf(nil, ls, cs)
}
