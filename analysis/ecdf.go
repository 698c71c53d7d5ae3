package analysis

import "sort"

// ECDF is the empirical distribution of xs as a staircase: X holds the
// sorted sample and Y[i] = (i+1)/n is the fraction of the sample ≤ X[i]
// (ties give repeated X with increasing Y; the last of them is the value
// of the ECDF there). It is nil for an empty sample.
func ECDF(xs []float64) (x, y []float64) {
	if len(xs) == 0 {
		return nil, nil
	}
	x = sortedCopy(xs)
	y = make([]float64, len(x))
	for i := range y {
		y[i] = float64(i+1) / float64(len(x))
	}
	return x, y
}

// FractionAtMost is the fraction of xs that are ≤ t: the ECDF at t.
func FractionAtMost(xs []float64, t float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := sortedCopy(xs)
	return float64(sort.Search(len(s), func(i int) bool { return s[i] > t })) / float64(len(s))
}
