package swim

import (
	"math"
	"testing"
)

func TestTable(t *testing.T) {
	// Values 0 with probability 0.2 (a point mass), then linear to 10 at
	// 0.6 and to 30 at 1.
	tb := Table{P: []float64{0, 0.2, 0.6, 1}, V: []float64{0, 0, 10, 30}}
	for _, c := range []struct{ u, x float64 }{{0, 0}, {0.1, 0}, {0.2, 0}, {0.4, 5}, {0.6, 10}, {0.8, 20}, {1, 30}} {
		if got := tb.Quantile(c.u); math.Abs(got-c.x) > 1e-12 {
			t.Errorf("Quantile(%v) = %v; want %v", c.u, got, c.x)
		}
	}
	for _, c := range []struct{ x, u float64 }{{-1, 0}, {0, 0.2}, {5, 0.4}, {20, 0.8}, {30, 1}, {31, 1}} {
		if got := tb.CDF(c.x); math.Abs(got-c.u) > 1e-12 {
			t.Errorf("CDF(%v) = %v; want %v", c.x, got, c.u)
		}
	}
	// Mean: 0.2·0 + 0.4·5 + 0.4·20 = 10.
	if got := tb.Mean(); math.Abs(got-10) > 1e-12 {
		t.Errorf("Mean = %v; want 10", got)
	}
}

func TestFitTable(t *testing.T) {
	// Type 7 on {1, 2, 4, 8}: position p·3.
	tb := fitTable([]float64{1, 2, 4, 8}, []float64{0, 0.5, 0.9, 1})
	want := []float64{1, 3, 6.8, 8}
	for i := range want {
		if math.Abs(tb.V[i]-want[i]) > 1e-12 {
			t.Errorf("V[%d] = %v; want %v", i, tb.V[i], want[i])
		}
	}
	if e := fitTable(nil, FineGrid); len(e.P) != 0 {
		t.Error("an empty sample gave a table")
	}
}
