package analysis

import (
	"fmt"
	"math"
	"testing"
)

// Student-t quantiles against printed tables (two-sided 95%: p = 0.975).
func TestStudentTQuantile(t *testing.T) {
	for _, c := range []struct{ p, df, want float64 }{
		{0.975, 1, 12.7062}, {0.975, 2, 4.3027}, {0.975, 5, 2.5706}, {0.975, 19, 2.0930},
		{0.975, 30, 2.0423}, {0.975, 1e6, 1.9600}, {0.95, 10, 1.8125}, {0.995, 4, 4.6041},
		{0.025, 19, -2.0930}, {0.5, 7, 0},
	} {
		if got := StudentTQuantile(c.p, c.df); math.Abs(got-c.want) > 5e-4 {
			t.Errorf("t quantile p=%v df=%v: %.4f, want %.4f", c.p, c.df, got, c.want)
		}
	}
}

func TestMeanCI(t *testing.T) {
	// Sample 1..5: mean 3, sd sqrt(2.5), t(0.975, 4) = 2.7764.
	m, lo, hi := MeanCI([]float64{1, 2, 3, 4, 5}, 0.95)
	half := 2.7764 * math.Sqrt(2.5) / math.Sqrt(5)
	if m != 3 || math.Abs(lo-(3-half)) > 1e-3 || math.Abs(hi-(3+half)) > 1e-3 {
		t.Errorf("MeanCI = %v [%v, %v], want 3 ± %.4f", m, lo, hi, half)
	}
	if m, lo, hi := MeanCI([]float64{7}, 0.95); m != 7 || lo != 7 || hi != 7 {
		t.Errorf("one value: %v [%v, %v]", m, lo, hi)
	}
}

func TestECDF(t *testing.T) {
	in := []float64{3, 1, 2, 2}
	x, y := ECDF(in)
	wantX, wantY := []float64{1, 2, 2, 3}, []float64{0.25, 0.5, 0.75, 1}
	for i := range wantX {
		if x[i] != wantX[i] || y[i] != wantY[i] {
			t.Fatalf("ECDF(%v) = %v %v, want %v %v", in, x, y, wantX, wantY)
		}
	}
	if in[0] != 3 {
		t.Error("ECDF modified its input")
	}
	for _, c := range []struct{ t, want float64 }{{0.5, 0}, {1, 0.25}, {2, 0.75}, {2.5, 0.75}, {3, 1}, {9, 1}} {
		if got := FractionAtMost(in, c.t); got != c.want {
			t.Errorf("FractionAtMost(%v) = %v, want %v", c.t, got, c.want)
		}
	}
	if x, y := ECDF(nil); x != nil || y != nil {
		t.Error("ECDF of nothing is not nil")
	}
}

func TestSummarizeAndQuantile(t *testing.T) {
	xs := []float64{10, 40, 20, 30}
	s := Summarize(xs)
	if s.N != 4 || s.Mean != 25 || s.Median != 25 || s.Min != 10 || s.Max != 40 || s.P95 != 40 {
		t.Errorf("Summarize(%v) = %+v", xs, s)
	}
	if q := Quantile(xs, 0.5); q != 20 {
		t.Errorf("nearest-rank median of %v = %v, want 20", xs, q)
	}
	if s := Summarize(nil); s.N != 0 || !math.IsNaN(s.Mean) {
		t.Errorf("Summarize(nil) = %+v", s)
	}
	if err := Check("sojourn", []float64{1, math.NaN()}); err == nil || err.Error() != "analysis: sojourn[1] is NaN, want a finite number" {
		t.Errorf("Check: %v", err)
	}
	if got := Finite([]float64{1, math.NaN(), 3}); len(got) != 2 {
		t.Errorf("Finite kept %v", got)
	}
}

func ExampleECDF() {
	x, y := ECDF([]float64{30, 10, 20})
	fmt.Println(x, y)
	// Output: [10 20 30] [0.3333333333333333 0.6666666666666666 1]
}

func ExampleMeanCI() {
	m, lo, hi := MeanCI([]float64{98, 102, 100, 101, 99}, 0.95)
	fmt.Printf("%.1f [%.2f, %.2f]\n", m, lo, hi)
	// Output: 100.0 [98.04, 101.96]
}
