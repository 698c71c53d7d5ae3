package swim

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
)

// Model is a statistical model of a SWIM workload, fitted by Fit, from
// which the profiles draw jobs when no SWIM file is at hand. It keeps the
// joint structure of a job's three byte counts that matters for scheduling:
//
//   - Input bytes follow the quantile table Input of ln(1+bytes).
//   - The input quantile u of a job picks its stratum (say, the jobs
//     between the 90th and 95th percentile of input), which holds
//     everything that depends on the input size.
//   - In the stratum, the shuffle is 0 (a map-only job) with probability
//     ZeroShuffle; otherwise ln(1+shuffle) follows Shuffle, a Link from
//     ln(1+input): a constant elasticity (slope) plus a residual table, so
//     that the shuffle/input ratio keeps its spread and its dependence on
//     the input size.
//   - A job with a shuffle falls in one of the stratum's Outputs groups
//     by how much it shuffles for its input (the quantile of its shuffle
//     residual). It has no output with the group's probability Zero;
//     otherwise ln(1+output) follows the group's Link from ln(1+shuffle).
//     A map-only job has no output with probability MapZeroOutput;
//     otherwise ln(1+output) follows MapOutput, a Link from ln(1+input).
//
// Gaps between submits follow the quantile table Gap (seconds), drawn
// independently of sizes and of each other: the model keeps the
// distribution of gaps, not their correlation in time.
type Model struct {
	Name          string   // e.g. "FB-2009"
	Sources       []string // base names of the files it was fitted to
	Jobs          int      // jobs it was fitted to
	OriginalNodes int      // machines of the traced cluster
	Gap           Table    // s between consecutive submits
	Input         Table    // ln(1 + map input bytes)
	Strata        []Stratum
}

// Stratum holds the size relations of the jobs whose input quantile lies
// in (previous stratum's Upper, Upper].
type Stratum struct {
	Upper       float64 // upper end of the stratum's input quantiles; the last is 1
	Jobs        int     // jobs fitted
	ZeroShuffle float64 // P(shuffle = 0)
	Shuffle     Link    // ln(1+shuffle) from ln(1+input), jobs with a shuffle
	// Outputs split the jobs with a shuffle into groups by the quantile
	// of their shuffle residual (group k of K holds [k/K, (k+1)/K)): jobs
	// that shuffle much for their input can write differently from jobs
	// that shuffle little.
	Outputs       []OutputGroup
	MapZeroOutput float64 // P(output = 0), jobs without a shuffle
	MapOutput     Link    // ln(1+output) from ln(1+input), jobs without a shuffle but with an output
}

// OutputGroup is the output of one group of jobs with a shuffle.
type OutputGroup struct {
	Zero float64 // P(output = 0)
	Link Link    // ln(1+output) from ln(1+shuffle), jobs with an output
}

// Link draws y given x as y = Slope·(x − X0) + r, with r from the
// residual table Resid. Slope is the least-squares slope of y on x, kept
// in [0, 1]: 1 keeps the ratio e^y/e^x's distribution whatever x, 0 makes
// y independent of x within the stratum.
type Link struct {
	X0    float64 // mean of x over the fitted jobs
	Slope float64
	Resid Table // quantiles of y − Slope·(x − X0)
}

// draw returns y for x at residual probability u.
func (l *Link) draw(x, u float64) float64 { return l.Slope*(x-l.X0) + l.Resid.Quantile(u) }

// Sizes are the byte counts of one job.
type Sizes struct {
	Input, Shuffle, Output int64
}

// Draw returns a job drawn from the model.
func (m *Model) Draw(rng *rand.Rand) Sizes {
	return m.sizesAt(rng.Float64(), rng)
}

// DrawInput returns a job drawn from the model conditioned on its input
// bytes lying in [lo, hi]. It reports false if the model gives that range
// no probability.
func (m *Model) DrawInput(lo, hi int64, rng *rand.Rand) (Sizes, bool) {
	ulo := 0.0
	if lo > 0 {
		ulo = m.Input.CDF(math.Log1p(float64(lo) - 0.5))
	}
	uhi := m.Input.CDF(math.Log1p(float64(hi) + 0.5))
	if !(uhi > ulo) {
		return Sizes{}, false
	}
	return m.sizesAt(ulo+(uhi-ulo)*rng.Float64(), rng), true
}

func (m *Model) sizesAt(u float64, rng *rand.Rand) Sizes {
	li := m.Input.Quantile(u)
	s := Sizes{Input: toBytes(li)}
	st := &m.Strata[m.stratum(u)]
	li = math.Log1p(float64(s.Input))
	if rng.Float64() >= st.ZeroShuffle && len(st.Shuffle.Resid.P) > 0 {
		us := rng.Float64()
		s.Shuffle = max(1, toBytes(st.Shuffle.draw(li, us)))
		g := &st.Outputs[min(int(us*float64(len(st.Outputs))), len(st.Outputs)-1)]
		if rng.Float64() >= g.Zero && len(g.Link.Resid.P) > 0 {
			s.Output = max(1, toBytes(g.Link.draw(math.Log1p(float64(s.Shuffle)), rng.Float64())))
		}
	} else if rng.Float64() >= st.MapZeroOutput && len(st.MapOutput.Resid.P) > 0 {
		s.Output = max(1, toBytes(st.MapOutput.draw(li, rng.Float64())))
	}
	return s
}

func (m *Model) stratum(u float64) int {
	i := sort.Search(len(m.Strata), func(i int) bool { return u <= m.Strata[i].Upper })
	return min(i, len(m.Strata)-1)
}

// maxModelBytes bounds drawn sizes (2^62 bytes, 4 EiB) so that sums and
// scaling stay far from overflow.
const maxModelBytes = 1 << 62

// toBytes inverts ln(1+b) and rounds to whole bytes.
func toBytes(l float64) int64 {
	b := math.Round(math.Expm1(l))
	switch {
	case !(b > 0):
		return 0
	case b >= maxModelBytes:
		return maxModelBytes
	}
	return int64(b)
}

// DrawGap returns the gap (s) at probability u of the model's gap table.
func (m *Model) DrawGap(u float64) float64 { return max(0, m.Gap.Quantile(u)) }

// MeanGap is the mean of the model's gap distribution, s.
func (m *Model) MeanGap() float64 { return m.Gap.Mean() }

// validate checks the structure of an embedded or fitted model.
func (m *Model) validate() error {
	if len(m.Strata) == 0 || len(m.Input.P) == 0 || len(m.Gap.P) == 0 {
		return fmt.Errorf("swim: model %s is empty", m.Name)
	}
	if m.Strata[len(m.Strata)-1].Upper != 1 {
		return fmt.Errorf("swim: model %s: last stratum ends at %v, want 1", m.Name, m.Strata[len(m.Strata)-1].Upper)
	}
	return nil
}
