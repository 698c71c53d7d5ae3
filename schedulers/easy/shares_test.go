package easy

import (
	"math"
	"math/rand/v2"
	"testing"

	"sojourn/schedulers/fairshare"
)

// TestUnitSharesExact: unitShares gives fairshare.ExactFairShares' shares bit for
// bit, for whole-number demands (with zeros and ties) and whole or
// fractional totals below, at and above the demand.
func TestUnitSharesExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var got, buf []float64
	for it := range 20000 {
		n := rng.IntN(40)
		dem := make([]float64, n)
		s := make([]fairshare.Schedulable, n)
		var sum float64
		for i := range dem {
			switch rng.IntN(4) {
			case 0:
				dem[i] = 0
			case 1:
				dem[i] = float64(rng.IntN(4))
			default:
				dem[i] = float64(rng.IntN(3000))
			}
			s[i] = fairshare.Schedulable{Weight: 1, Demand: dem[i]}
			sum += dem[i]
		}
		var total float64
		switch rng.IntN(5) {
		case 0:
			total = sum
		case 1:
			total = float64(rng.IntN(int(sum) + 2))
		case 2:
			total = rng.Float64() * sum * 1.2
		case 3:
			total = 0
		default:
			total = float64(rng.IntN(5000)) / 3
		}
		want := fairshare.ExactFairShares(nil, s, total)
		got = unitShares(got, dem, total, &buf)
		for i := range want {
			if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
				t.Fatalf("case %d: demands %v, total %v: share %d is %v, want %v", it, dem, total, i, got[i], want[i])
			}
		}
	}
}
