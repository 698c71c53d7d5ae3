package vcluster_test

import (
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"

	"sojourn/schedulers/vcluster"
)

// The cluster must answer every query bit for bit as the reference does,
// through random calls in the same sequence (queries included, since a
// query projects a changed cluster): ties of sizes, caps and finish times,
// sizes at and below FinishedEpsilon, caps of 0, many jobs or few.
// VCLUSTER_TRIALS=N runs N trials instead of 300.
func TestMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 13))
	trials := 300
	if testing.Short() {
		trials = 50
	}
	if n := os.Getenv("VCLUSTER_TRIALS"); n != "" {
		trials, _ = strconv.Atoi(n)
	}
	for trial := range trials {
		slots, speed := float64(r.IntN(40)), []float64{1, 0.5}[r.IntN(2)]
		if trial%7 == 0 {
			slots = 0.5 + float64(r.IntN(3))
		}
		got, want := vcluster.New(slots, speed), newRef(slots, speed)
		ids := []int64{}
		known := map[int64]bool{}
		passive := map[int64]bool{} // marked by SetPassive, until removed
		nIDs := 1 + r.IntN([]int{5, 40, 300}[trial%3])
		size := func() float64 {
			switch r.IntN(12) {
			case 0:
				return 0
			case 1:
				return vcluster.FinishedEpsilon * r.Float64() * 2
			case 2:
				return float64(1 + r.IntN(4)) // ties
			}
			return r.ExpFloat64() * 100
		}
		capOf := func() float64 {
			switch r.IntN(8) {
			case 0:
				return 0
			case 1:
				return 0.5 + r.Float64()
			}
			return float64(1 + r.IntN(10))
		}
		now := 0.0
		same := func(op int, what string, a, b float64) {
			if math.Float64bits(a) != math.Float64bits(b) {
				t.Fatalf("trial %d op %d: %s = %v, reference %v", trial, op, what, a, b)
			}
		}
		for op := range 600 {
			id := int64(r.IntN(nIDs))
			switch k := r.IntN(16); {
			case k < 4:
				if !known[id] {
					w, c := size(), capOf()
					got.Add(id, w, c)
					want.Add(id, w, c)
					known[id] = true
					ids = append(ids, id)
				}
			case k == 4 && known[id]:
				w, c := size(), capOf()
				got.Update(id, w, c)
				want.Update(id, w, c)
			case k == 5 && known[id]:
				c := capOf()
				got.SetCap(id, c)
				want.SetCap(id, c)
			case k == 6 && known[id]:
				got.Remove(id)
				want.Remove(id)
				delete(known, id)
				delete(passive, id)
			case k == 8 && known[id] && r.IntN(2) == 0: // HFSP marks a job done for real
				got.SetPassive(id)
				passive[id] = true
			case k == 7 && r.IntN(2) == 0: // HFSP's pass over the jobs done for real
				for _, q := range ids {
					if !known[q] || r.IntN(3) == 0 {
						continue
					}
					_, _, a := got.Finished(q)
					_, _, b := want.Finished(q)
					if a != b {
						t.Fatalf("trial %d op %d: Finished(%d) %v, reference %v", trial, op, q, a, b)
					}
					if a {
						got.Remove(q)
						want.Remove(q)
						delete(known, q)
						delete(passive, q)
					}
				}
			case k == 7 && r.IntN(10) == 0:
				s := float64(r.IntN(40))
				got.SetSlots(s)
				want.SetSlots(s)
			case k < 12:
				switch r.IntN(4) {
				case 0: // to the next completion exactly
					if n := want.NextEvent(); !math.IsInf(n, 1) {
						same(op, "NextEvent", got.NextEvent(), n)
						now = n
					}
				default:
					now += r.ExpFloat64() * []float64{0.01, 1, 30}[r.IntN(3)]
				}
				got.Advance(now)
				want.Advance(now)
			default: // a query, which may project
				if len(ids) == 0 {
					same(op, "NextEvent", got.NextEvent(), want.NextEvent())
					continue
				}
				q := ids[r.IntN(len(ids))] // any id seen
				if !known[q] {
					same(op, "NextEvent", got.NextEvent(), want.NextEvent())
					continue
				}
				switch r.IntN(6) {
				case 5: // the head of the Order, as HFSP reads it
					b := want.Order(nil)
					for p := range min(len(b), 1+r.IntN(4)) {
						if a := got.OrderAt(p); a != b[p] {
							t.Fatalf("trial %d op %d: OrderAt(%d) %d, reference %v", trial, op, p, a, b)
						}
					}
					// The first job not passive from a position on.
					from := r.IntN(len(b) + 1)
					wq, wid := len(b), int64(-1)
					for p := from; p < len(b); p++ {
						if !passive[b[p]] {
							wq, wid = p, b[p]
							break
						}
					}
					if q, id := got.NextActive(from); q != wq || id != wid {
						t.Fatalf("trial %d op %d: NextActive(%d) = %d, %d; want %d, %d (order %v, passive %v)",
							trial, op, from, q, id, wq, wid, b, passive)
					}
				case 0:
					same(op, "Remaining", got.Remaining(q), want.Remaining(q))
				case 1:
					same(op, "ProjectedFinish", got.ProjectedFinish(q), want.ProjectedFinish(q))
				case 2:
					a, sa, oka := got.Finished(q)
					b, sb, okb := want.Finished(q)
					same(op, "Finished", a, b)
					if sa != sb || oka != okb {
						t.Fatalf("trial %d op %d: Finished(%d) seq %d %v, reference %d %v", trial, op, q, sa, oka, sb, okb)
					}
				case 3:
					if a, b := got.Completions(), want.Completions(); a != b {
						t.Fatalf("trial %d op %d: Completions %d, reference %d", trial, op, a, b)
					}
				case 4:
					a, b := got.Order(nil), want.Order(nil)
					if len(a) != len(b) {
						t.Fatalf("trial %d op %d: Order %v, reference %v", trial, op, a, b)
					}
					for i := range a {
						if a[i] != b[i] {
							t.Fatalf("trial %d op %d: Order %v, reference %v", trial, op, a, b)
						}
					}
				}
			}
		}
		// Everything at the end.
		for id := range known {
			same(-1, "Remaining", got.Remaining(id), want.Remaining(id))
			same(-1, "ProjectedFinish", got.ProjectedFinish(id), want.ProjectedFinish(id))
		}
		if got.Len() != want.Len() {
			t.Fatalf("trial %d: Len %d, reference %d", trial, got.Len(), want.Len())
		}
	}
}
