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
