package vcluster

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// sortNearly must give slices.SortFunc's order on any input, mostly in
// order or not: keys with equal x and seq, keys moved far, shuffled ones.
func TestSortNearly(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for trial := range 2000 {
		n := r.IntN(200)
		keys := make([]sortKey, n)
		for i := range keys {
			keys[i] = sortKey{x: float64(r.IntN(20)), seq: r.IntN(3), id: int64(i), i: int32(i)}
		}
		want := slices.Clone(keys)
		slices.SortFunc(want, compareKeys)
		got := slices.Clone(want)
		switch trial % 4 { // disorder it
		case 0: // a few keys moved anywhere
			for range r.IntN(4) {
				if n > 0 {
					i, j := r.IntN(n), r.IntN(n)
					got[i], got[j] = got[j], got[i]
				}
			}
		case 1: // reversed: past the insertions' budget
			slices.Reverse(got)
		case 2:
			r.Shuffle(n, func(i, j int) { got[i], got[j] = got[j], got[i] })
		}
		sortNearly(got)
		if !slices.Equal(got, want) {
			t.Fatalf("trial %d: sortNearly gave %v, want %v", trial, got, want)
		}
	}
}

// A virtual cluster that sorts from its last orders must behave exactly
// as one that sorts from scratch every time, through random operations.
func TestVirtualClusterKeptOrders(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 9))
	for trial := range 30 {
		kept, fresh := New(20, 1), New(20, 1)
		both := func(f func(vc *Cluster)) {
			f(kept)
			fresh.workKeys, fresh.capKeys, fresh.orderKeys = nil, nil, nil
			f(fresh)
		}
		ids := map[int64]bool{}
		now := 0.0
		for op := range 300 {
			id := int64(r.IntN(40))
			switch k := r.IntN(8); {
			case k < 2 && !ids[id]:
				ids[id] = true
				w, c := r.Float64()*1000, float64(1+r.IntN(6))
				both(func(vc *Cluster) { vc.Add(id, w, c) })
			case k == 2 && ids[id]:
				w, c := r.Float64()*500, float64(1+r.IntN(6))
				both(func(vc *Cluster) { vc.Update(id, w, c) })
			case k == 3 && ids[id]:
				delete(ids, id)
				both(func(vc *Cluster) { vc.Remove(id) })
			default:
				now += r.ExpFloat64() * 20
				both(func(vc *Cluster) { vc.Advance(now) })
			}
			a, b := kept.Order(nil), fresh.Order(nil)
			if !slices.Equal(a, b) {
				t.Fatalf("trial %d op %d: order %v, from scratch %v", trial, op, a, b)
			}
			for _, id := range a {
				fa, sa, oka := kept.Finished(id)
				fb, sb, okb := fresh.Finished(id)
				if kept.ProjectedFinish(id) != fresh.ProjectedFinish(id) || kept.Remaining(id) != fresh.Remaining(id) ||
					fa != fb || sa != sb || oka != okb {
					t.Fatalf("trial %d op %d: job %d differs from scratch", trial, op, id)
				}
			}
		}
	}
}
