package analysis

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
)

// Statistic computes a figure (a mean, a quantile, a ratio) of a sample
// from the rows drawn from it, repetitions included. The statistics below
// keep a buffer between calls: use each from one goroutine.
type Statistic func(rows []int) float64

// Interval is a point estimate with the bounds of its confidence interval.
type Interval struct {
	Est, Lo, Hi float64
}

// Bootstrap is a percentile bootstrap (Efron and Tibshirani, An
// Introduction to the Bootstrap, ch. 13): the statistic is recomputed on
// Resamples samples drawn with replacement, and the interval is the
// (1−Level)/2 and (1+Level)/2 nearest-rank quantiles of the replicates.
type Bootstrap struct {
	Resamples int     // 0 means 2000
	Level     float64 // 0 means 0.95
	// Paired draws the same rows from both samples, for two samples that
	// describe the same jobs in the same order (one trace replayed twice):
	// the interval then reflects the change job by job, not the spread of
	// the jobs. Both samples must have the same length.
	Paired bool
	// Blocks makes a paired bootstrap of rows in time order (jobs by
	// submit time) draw blocks of consecutive rows rather than single
	// rows, so that each resample keeps the dependence between neighbours
	// (the moving block bootstrap of Künsch, 1989, wrapped around the end
	// as in the circular block bootstrap of Politis and Romano, 1992).
	// Blocks[i] >= 1 is the number of rows of the block that starts at row
	// i, continuing past the last row at the first. A resample draws a
	// start uniformly, takes its block, and so on until it holds as many
	// rows as the sample; the last block is cut short. nil means blocks of
	// one row: the plain paired bootstrap, draw for draw. FixedBlocks and
	// TimeBlocks make it.
	Blocks []int
	// Rand is the only source of randomness; it is required, so that an
	// interval is reproducible from its seed.
	Rand *rand.Rand
	// Done, when closed, stops RelChange between resamples (it then
	// returns NaN bounds): an interrupted command ends at once rather than
	// after millions of resamples. nil never stops.
	Done <-chan struct{}
}

// DefaultResamples and DefaultLevel are the zero values' meanings.
const (
	DefaultResamples = 2000
	DefaultLevel     = 0.95
)

// MaxResamples bounds Resamples: a thousand times the default, far past
// where a percentile interval stops moving, and still seconds per row.
const MaxResamples = 2_000_000

// WithDefaults returns bs with a zero Level and Resamples set to their
// defaults, or an error naming a level outside (0, 1) or a negative
// number of resamples.
func (bs Bootstrap) WithDefaults() (Bootstrap, error) {
	if bs.Level == 0 {
		bs.Level = DefaultLevel
	}
	if !(bs.Level > 0 && bs.Level < 1) {
		return bs, fmt.Errorf("level %v: want a confidence level between 0 and 1", bs.Level)
	}
	if bs.Resamples == 0 {
		bs.Resamples = DefaultResamples
	}
	if bs.Resamples < 1 || bs.Resamples > MaxResamples {
		return bs, fmt.Errorf("resamples %d: want 1 to %d", bs.Resamples, MaxResamples)
	}
	return bs, nil
}

// RelChange estimates the relative change b/a − 1 of a statistic between
// sample a (na rows) and sample b (nb rows), with a bootstrap interval.
// Est is computed on the samples themselves. With an empty sample, or a
// statistic of a that is 0, every field is NaN. It panics if Rand is nil,
// a paired bootstrap gets samples of different lengths, or Blocks is set
// without Paired, with a length other than na or a block of fewer than
// one row.
func (bs Bootstrap) RelChange(na int, a Statistic, nb int, b Statistic) Interval {
	if bs.Rand == nil {
		panic("analysis: Bootstrap needs a seeded Rand")
	}
	if bs.Paired && na != nb {
		panic("analysis: paired bootstrap of samples of different lengths")
	}
	if bs.Blocks != nil {
		if !bs.Paired {
			panic("analysis: Blocks needs a paired bootstrap")
		}
		if len(bs.Blocks) != na {
			panic("analysis: Blocks of a length other than the samples'")
		}
		for _, l := range bs.Blocks {
			if l < 1 {
				panic("analysis: a block of fewer than one row")
			}
		}
	}
	nan := Interval{math.NaN(), math.NaN(), math.NaN()}
	if na == 0 || nb == 0 {
		return nan
	}
	reps, level := bs.Resamples, bs.Level
	if reps <= 0 {
		reps = DefaultResamples
	}
	if level <= 0 || level >= 1 {
		level = DefaultLevel
	}
	all := func(n int) []int {
		r := make([]int, n)
		for i := range r {
			r[i] = i
		}
		return r
	}
	base := a(all(na))
	if base == 0 || math.IsNaN(base) {
		return nan
	}
	out := Interval{Est: b(all(nb))/base - 1}
	ra, rb := make([]int, na), make([]int, nb)
	repl := make([]float64, 0, reps)
	for k := 0; k < reps; k++ {
		if k%64 == 0 && bs.Done != nil {
			select {
			case <-bs.Done:
				return Interval{out.Est, math.NaN(), math.NaN()}
			default:
			}
		}
		if bs.Blocks == nil {
			for i := range ra {
				ra[i] = bs.Rand.IntN(na)
			}
		} else {
			drawBlocks(ra, bs.Blocks, bs.Rand)
		}
		if bs.Paired {
			copy(rb, ra)
		} else {
			for i := range rb {
				rb[i] = bs.Rand.IntN(nb)
			}
		}
		// A resample whose base is 0 has no relative change: it is left
		// out rather than counted as infinite.
		if x := a(ra); x != 0 && !math.IsNaN(x) {
			if r := b(rb)/x - 1; !math.IsNaN(r) {
				repl = append(repl, r)
			}
		}
	}
	if len(repl) == 0 {
		return Interval{out.Est, math.NaN(), math.NaN()}
	}
	sort.Float64s(repl)
	out.Lo = sortedQuantile(repl, (1-level)/2)
	out.Hi = sortedQuantile(repl, (1+level)/2)
	return out
}

// sortedQuantile is Quantile of an already sorted sample.
func sortedQuantile(s []float64, p float64) float64 {
	k := int(math.Ceil(p*float64(len(s)))) - 1
	return s[max(0, min(len(s)-1, k))]
}

// MeanOf is the mean of xs over the rows drawn.
func MeanOf(xs []float64) Statistic {
	return func(rows []int) float64 {
		if len(rows) == 0 {
			return math.NaN()
		}
		var s float64
		for _, r := range rows {
			s += xs[r]
		}
		return s / float64(len(rows))
	}
}

// MedianOf is the median of xs over the rows drawn (Median's definition:
// the mean of the two middle values for an even count).
func MedianOf(xs []float64) Statistic {
	return sortedStatistic(xs, func(s []float64) float64 {
		n := len(s)
		if n%2 == 1 {
			return s[n/2]
		}
		return (s[n/2-1] + s[n/2]) / 2
	})
}

// QuantileOf is the nearest-rank p-quantile of xs over the rows drawn
// (Quantile's definition).
func QuantileOf(xs []float64, p float64) Statistic {
	return sortedStatistic(xs, func(s []float64) float64 { return sortedQuantile(s, p) })
}

// sortedStatistic is f of xs at the rows drawn, sorted; NaN for no rows.
// One buffer serves every draw.
func sortedStatistic(xs []float64, f func(sorted []float64) float64) Statistic {
	var buf []float64
	return func(rows []int) float64 {
		if len(rows) == 0 {
			return math.NaN()
		}
		buf = buf[:0]
		for _, r := range rows {
			buf = append(buf, xs[r])
		}
		sort.Float64s(buf)
		return f(buf)
	}
}

// RatioOfSums is Σnum / Σden over the rows drawn, e.g. node-local maps
// over all maps; NaN when Σden is 0. num and den must have equal lengths.
func RatioOfSums(num, den []float64) Statistic {
	if len(num) != len(den) {
		panic("analysis: RatioOfSums of slices of different lengths")
	}
	return func(rows []int) float64 {
		var n, d float64
		for _, r := range rows {
			n += num[r]
			d += den[r]
		}
		if d == 0 {
			return math.NaN()
		}
		return n / d
	}
}
