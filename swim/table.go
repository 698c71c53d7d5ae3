package swim

import (
	"math"
	"sort"
)

// Table is a piecewise-linear quantile function: the value at probability
// P[i] is V[i], and values in between are interpolated linearly. P runs
// from 0 to 1 and V never decreases. Repeated values in V are point masses.
// An empty table stands for a distribution that is never drawn.
type Table struct {
	P []float64
	V []float64
}

// Quantile returns the value at probability u in [0, 1].
func (t *Table) Quantile(u float64) float64 {
	n := len(t.P)
	if n == 0 {
		return 0
	}
	if u <= 0 {
		return t.V[0]
	}
	if u >= 1 {
		return t.V[n-1]
	}
	i := sort.SearchFloat64s(t.P, u) // first P[i] >= u, 1 <= i < n
	if t.P[i] == u {
		return t.V[i]
	}
	p0, p1 := t.P[i-1], t.P[i]
	return t.V[i-1] + (t.V[i]-t.V[i-1])*(u-p0)/(p1-p0)
}

// CDF returns P(X <= x), the inverse of Quantile (where it is flat, the
// largest probability).
func (t *Table) CDF(x float64) float64 {
	n := len(t.V)
	if n == 0 || x < t.V[0] {
		return 0
	}
	if x >= t.V[n-1] {
		return 1
	}
	i := sort.Search(n, func(i int) bool { return t.V[i] > x }) - 1 // last V[i] <= x, i < n-1
	return t.P[i] + (t.P[i+1]-t.P[i])*(x-t.V[i])/(t.V[i+1]-t.V[i])
}

// Mean returns the mean of the distribution: the integral of Quantile over
// [0, 1].
func (t *Table) Mean() float64 {
	var m float64
	for i := 1; i < len(t.P); i++ {
		m += (t.P[i] - t.P[i-1]) * (t.V[i] + t.V[i-1]) / 2
	}
	return m
}

// fitTable returns the table of sorted at the probabilities of grid, which
// must run from 0 to 1. It interpolates between order statistics: the
// quantile at p is at position p·(n−1) (Hyndman and Fan's type 7), so the
// ends are the sample's minimum and maximum.
func fitTable(sorted []float64, grid []float64) Table {
	if len(sorted) == 0 {
		return Table{}
	}
	t := Table{P: append([]float64(nil), grid...), V: make([]float64, len(grid))}
	for i, p := range grid {
		h := p * float64(len(sorted)-1)
		lo := int(math.Floor(h))
		hi := min(lo+1, len(sorted)-1)
		t.V[i] = sorted[lo] + (sorted[hi]-sorted[lo])*(h-float64(lo))
	}
	return t
}
