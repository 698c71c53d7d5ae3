package reports

import (
	"fmt"
	"testing"
)

func TestLogTicks(t *testing.T) {
	for _, c := range []struct {
		v    float64
		want string
	}{{1000, "1000"}, {3 * 0.1, "0.3"}, {1e5, "1e5"}, {2e6, "2e6"}, {1e-4, "1e-4"}, {50000, "50000"}} {
		if got := tickLabel(c.v); got != c.want {
			t.Errorf("tickLabel(%g) = %q, want %q", c.v, got, c.want)
		}
	}
	labels := func(min, max float64) (n int) {
		for _, tk := range (logTicks{}).Ticks(min, max) {
			if tk.Label != "" {
				n++
			}
		}
		return n
	}
	if n := labels(1, 1e4); n != 5 {
		t.Errorf("1..1e4: %d labels, want the 5 powers of ten", n)
	}
	if n := labels(30, 300); n < 3 {
		t.Errorf("30..300: %d labels, want at least 3", n)
	}
}

func TestLinearTickLabels(t *testing.T) {
	for _, c := range []struct {
		min, max float64
		want     []string
	}{
		{0, 55, []string{"0", "10", "20", "30", "40", "50"}},
		{0, 1, []string{"0.0", "0.2", "0.4", "0.6", "0.8", "1.0"}},
		{89, 131, []string{"90", "100", "110", "120", "130"}},
		{0, 2750, []string{"0", "500", "1000", "1500", "2000", "2500"}},
		{2.5, 20, []string{"5", "10", "15", "20"}},
		{-3, 3, []string{"-2", "0", "2"}},
		{0.1, 0.35, nil}, // only checks no float noise below
	} {
		var got []string
		for _, tk := range (linearTicks{}).Ticks(c.min, c.max) {
			if tk.Label != "" {
				got = append(got, tk.Label)
				if len(tk.Label) > 6 {
					t.Errorf("[%g, %g]: label %q is float noise", c.min, c.max, tk.Label)
				}
			}
		}
		if c.want != nil && fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("[%g, %g]: labels %v, want %v", c.min, c.max, got, c.want)
		}
	}
}
