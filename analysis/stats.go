package analysis

import (
	"fmt"
	"math"
	"sort"

	"github.com/montanaflynn/stats"
)

// Check returns an error naming the first NaN or infinite value of xs;
// what names the data in the message.
func Check(what string, xs []float64) error {
	for i, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("analysis: %s[%d] is %v, want a finite number", what, i, x)
		}
	}
	return nil
}

// Finite returns the finite values of xs, in order (a map-only job has no
// reduce-phase sojourn, stored as NaN).
func Finite(xs []float64) []float64 {
	out := make([]float64, 0, len(xs))
	for _, x := range xs {
		if !math.IsNaN(x) && !math.IsInf(x, 0) {
			out = append(out, x)
		}
	}
	return out
}

// Summary describes a sample of sojourn times.
type Summary struct {
	N      int
	Mean   float64
	Median float64
	P95    float64 // 95th percentile, nearest rank
	Min    float64
	Max    float64
}

// Summarize returns the summary of xs; every field but N is NaN when xs is
// empty.
func Summarize(xs []float64) Summary {
	s := Summary{N: len(xs), Mean: math.NaN(), Median: math.NaN(), P95: math.NaN(), Min: math.NaN(), Max: math.NaN()}
	if len(xs) == 0 {
		return s
	}
	d := stats.Float64Data(xs)
	s.Mean, _ = d.Mean()
	s.Median, _ = d.Median()
	s.Min, _ = d.Min()
	s.Max, _ = d.Max()
	s.P95 = Quantile(xs, 0.95)
	return s
}

// Mean is the arithmetic mean of xs, NaN when xs is empty.
func Mean(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	m, _ := stats.Mean(xs)
	return m
}

// Median is the median of xs (the mean of the two middle values for an
// even count), NaN when xs is empty.
func Median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	m, _ := stats.Median(xs)
	return m
}

// Quantile is the nearest-rank p-quantile of xs: the smallest x such that
// at least a fraction p of the sample is ≤ x. p is clamped to [0, 1].
func Quantile(xs []float64, p float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	return sortedQuantile(sortedCopy(xs), p)
}

// MeanCI is the mean of xs with a two-sided Student-t confidence interval
// at the given level (0.95 for 95%). With fewer than two values the
// interval collapses to the mean.
func MeanCI(xs []float64, level float64) (mean, lo, hi float64) {
	mean = Mean(xs)
	if len(xs) < 2 {
		return mean, mean, mean
	}
	sd, _ := stats.StandardDeviationSample(xs)
	half := StudentTQuantile(0.5+level/2, float64(len(xs)-1)) * sd / math.Sqrt(float64(len(xs)))
	return mean, mean - half, mean + half
}

func sortedCopy(xs []float64) []float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	return s
}
