package analysis

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

func expSample(rng *rand.Rand, n int, mean float64) []float64 {
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = mean * rng.ExpFloat64()
	}
	return xs
}

// TestBootstrapCoversTrueChange: two exponential samples whose means
// differ by 20%; the interval of the relative change of the mean covers
// 0.2 and excludes 0.
func TestBootstrapCoversTrueChange(t *testing.T) {
	data := rand.New(rand.NewPCG(7, 7))
	a, b := expSample(data, 400, 100), expSample(data, 400, 120)
	bs := Bootstrap{Rand: rand.New(rand.NewPCG(1, 2))}
	iv := bs.RelChange(len(a), MeanOf(a), len(b), MeanOf(b))
	if !(iv.Lo <= 0.2 && 0.2 <= iv.Hi) {
		t.Errorf("interval [%.3f, %.3f] misses the true change 0.2", iv.Lo, iv.Hi)
	}
	if !(iv.Lo > 0) {
		t.Errorf("interval [%.3f, %.3f] does not exclude no change", iv.Lo, iv.Hi)
	}
	if !(iv.Lo <= iv.Est && iv.Est <= iv.Hi) {
		t.Errorf("estimate %.3f outside its interval [%.3f, %.3f]", iv.Est, iv.Lo, iv.Hi)
	}
}

// TestBootstrapCoverage: over 200 independent repetitions, the 90%
// interval of the relative change of the mean covers the true change in
// roughly 90% of them (a percentile bootstrap undercovers a little for
// skewed data; the bounds allow for that and for chance: 200 draws of a
// 0.9 coin fall in [0.82, 0.96] with probability > 0.999).
func TestBootstrapCoverage(t *testing.T) {
	data := rand.New(rand.NewPCG(11, 3))
	bs := Bootstrap{Rand: rand.New(rand.NewPCG(5, 5)), Resamples: 500, Level: 0.9}
	hit := 0
	const reps = 200
	for k := 0; k < reps; k++ {
		a, b := expSample(data, 80, 100), expSample(data, 80, 150)
		if iv := bs.RelChange(len(a), MeanOf(a), len(b), MeanOf(b)); iv.Lo <= 0.5 && 0.5 <= iv.Hi {
			hit++
		}
	}
	if f := float64(hit) / reps; f < 0.82 || f > 0.96 {
		t.Errorf("90%% intervals covered the true change in %.1f%% of %d repetitions", 100*f, reps)
	}
}

// TestBootstrapPaired: the same jobs, each 10% slower: a paired interval
// is exactly [0.1, 0.1], an unpaired one is wide.
func TestBootstrapPaired(t *testing.T) {
	a := expSample(rand.New(rand.NewPCG(3, 3)), 100, 50)
	b := make([]float64, len(a))
	for i := range a {
		b[i] = 1.1 * a[i]
	}
	p := Bootstrap{Rand: rand.New(rand.NewPCG(1, 1)), Paired: true}.RelChange(len(a), MeanOf(a), len(b), MeanOf(b))
	if math.Abs(p.Lo-0.1) > 1e-12 || math.Abs(p.Hi-0.1) > 1e-12 || math.Abs(p.Est-0.1) > 1e-12 {
		t.Errorf("paired interval %+v, want exactly 0.1", p)
	}
	u := Bootstrap{Rand: rand.New(rand.NewPCG(1, 1))}.RelChange(len(a), MeanOf(a), len(b), MeanOf(b))
	if !(u.Lo < 0 && u.Hi > 0.2) {
		t.Errorf("unpaired interval [%.3f, %.3f] is implausibly narrow", u.Lo, u.Hi)
	}
}

// TestBootstrapDeterministic: the same seed gives the same interval, and
// another seed another one.
func TestBootstrapDeterministic(t *testing.T) {
	a := expSample(rand.New(rand.NewPCG(2, 2)), 50, 10)
	b := expSample(rand.New(rand.NewPCG(4, 4)), 60, 10)
	iv := func(seed uint64) Interval {
		bs := Bootstrap{Rand: rand.New(rand.NewPCG(seed, 0))}
		return bs.RelChange(len(a), QuantileOf(a, 0.95), len(b), QuantileOf(b, 0.95))
	}
	if x, y := iv(1), iv(1); x != y {
		t.Errorf("same seed, different intervals: %+v %+v", x, y)
	}
	if x, y := iv(1), iv(2); x == y {
		t.Errorf("seeds 1 and 2 gave the same interval %+v", x)
	}
}

func TestBootstrapEdges(t *testing.T) {
	bs := Bootstrap{Rand: rand.New(rand.NewPCG(1, 1))}
	if iv := bs.RelChange(0, MeanOf(nil), 3, MeanOf([]float64{1, 2, 3})); !math.IsNaN(iv.Est) {
		t.Errorf("empty base: %+v", iv)
	}
	zero := []float64{0, 0}
	if iv := bs.RelChange(2, MeanOf(zero), 2, MeanOf([]float64{1, 1})); !math.IsNaN(iv.Est) {
		t.Errorf("base statistic 0: %+v", iv)
	}
	same := []float64{4, 8, 15, 16, 23, 42}
	for name, st := range map[string]func([]float64) Statistic{"mean": MeanOf, "median": MedianOf} {
		if iv := bs.RelChange(6, st(same), 6, st(same)); iv.Est != 0 {
			t.Errorf("%s of identical samples: %+v", name, iv)
		}
	}
	for _, c := range []struct {
		name string
		f    func()
	}{
		{"nil Rand", func() { Bootstrap{}.RelChange(1, MeanOf([]float64{1}), 1, MeanOf([]float64{1})) }},
		{"paired lengths", func() {
			Bootstrap{Rand: bs.Rand, Paired: true}.RelChange(1, MeanOf([]float64{1}), 2, MeanOf([]float64{1, 2}))
		}},
		{"ratio lengths", func() { RatioOfSums([]float64{1}, nil) }},
	} {
		func() {
			defer func() {
				if p := recover(); p == nil || fmt.Sprint(p)[:9] != "analysis:" {
					t.Errorf("%s: panic %v, want an analysis: panic", c.name, p)
				}
			}()
			c.f()
		}()
	}
}

func TestStatistics(t *testing.T) {
	xs := []float64{10, 40, 20, 30}
	rows := []int{0, 1, 2, 3}
	if got := MeanOf(xs)(rows); got != 25 {
		t.Errorf("MeanOf = %v", got)
	}
	if got, want := MedianOf(xs)(rows), Median(xs); got != want {
		t.Errorf("MedianOf = %v, Median = %v", got, want)
	}
	if got, want := QuantileOf(xs, 0.95)([]int{0, 0, 2}), Quantile([]float64{10, 10, 20}, 0.95); got != want {
		t.Errorf("QuantileOf = %v, want %v", got, want)
	}
	if got := RatioOfSums([]float64{1, 2, 3}, []float64{2, 2, 4})([]int{1, 2, 2}); got != 8.0/10 {
		t.Errorf("RatioOfSums = %v", got)
	}
	if got := RatioOfSums([]float64{1}, []float64{0})([]int{0}); !math.IsNaN(got) {
		t.Errorf("RatioOfSums over no maps = %v", got)
	}
}

func ExampleBootstrap_RelChange() {
	before := []float64{12, 15, 9, 30, 22, 18, 11, 25}
	after := []float64{13, 16, 10, 33, 24, 20, 12, 27}
	bs := Bootstrap{Paired: true, Rand: rand.New(rand.NewPCG(1, 0))}
	iv := bs.RelChange(len(before), MeanOf(before), len(after), MeanOf(after))
	fmt.Printf("%+.1f%% [%+.1f%%, %+.1f%%]\n", 100*iv.Est, 100*iv.Lo, 100*iv.Hi)
	// Output: +9.2% [+8.2%, +10.1%]
}

func TestBootstrapWithDefaults(t *testing.T) {
	bs, err := Bootstrap{}.WithDefaults()
	if err != nil || bs.Level != DefaultLevel || bs.Resamples != DefaultResamples {
		t.Errorf("zero settings: %+v, %v; want the defaults", bs, err)
	}
	for _, c := range []struct {
		bs   Bootstrap
		want string
	}{
		{Bootstrap{Level: 1}, "level 1: want a confidence level between 0 and 1"},
		{Bootstrap{Level: -0.5}, "level -0.5"},
		{Bootstrap{Resamples: -3}, "resamples -3: want 1 to 2000000"},
	} {
		if _, err := c.bs.WithDefaults(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want %q", c.bs, err, c.want)
		}
	}
}
