package compare

import (
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"sort"
	"strings"

	"sojourn/analysis"
	"sojourn/run/sweep"
)

// Metric is one figure compared.
type Metric struct {
	Name  string // as given to --metrics
	Label string // in the table, with its unit
	// HigherIsWorse: sojourns and slowdowns regress upwards, the
	// node-local fraction downwards.
	HigherIsWorse bool
	stat          func(p *sweep.PerJob) analysis.Statistic
}

// Metrics are the figures compared, in table order.
var Metrics = []Metric{
	{"mean", "mean sojourn (s)", true, func(p *sweep.PerJob) analysis.Statistic { return analysis.MeanOf(p.SojournS) }},
	{"median", "median sojourn (s)", true, func(p *sweep.PerJob) analysis.Statistic { return analysis.MedianOf(p.SojournS) }},
	{"p95", "p95 sojourn (s)", true, func(p *sweep.PerJob) analysis.Statistic { return analysis.QuantileOf(p.SojournS, 0.95) }},
	{"slowdown", "mean slowdown", true, func(p *sweep.PerJob) analysis.Statistic { return analysis.MeanOf(p.Slowdown) }},
	{"local", "node-local maps", false, func(p *sweep.PerJob) analysis.Statistic { return analysis.RatioOfSums(p.NodeLocalMaps, p.Maps) }},
}

// MetricNames lists the metrics' names.
func MetricNames() []string {
	var out []string
	for _, m := range Metrics {
		out = append(out, m.Name)
	}
	return out
}

// Options configure a comparison.
type Options struct {
	// Threshold is the relative change (0.05 for 5%) beyond which a
	// change in the worse direction is a regression, provided its
	// interval excludes no change.
	Threshold float64
	Level     float64 // confidence level; 0 means 0.95
	Resamples int     // 0 means 2000
	Seed      uint64  // seeds every interval
	Metrics   []string
}

// Verdicts of a row.
const (
	OK        = "ok"
	Regressed = "regressed"
	Improved  = "improved"
	NA        = "n/a" // the baseline's figure is 0 or undefined
)

// Row is one metric of one group.
type Row struct {
	Group     *sweep.Group // the baseline's
	Metric    Metric
	Base      float64
	Cand      float64
	Change    analysis.Interval // relative change, candidate over baseline
	Paired    bool              // same jobs on both sides, resampled together
	Verdict   string
	Candidate *sweep.Group
}

// Unpaired is a group compared without pairing its jobs, and why.
type Unpaired struct {
	Key string // the group's
	Why string // e.g. "seed 1: trace_sha256 e30f0986… in the baseline, 5d1c42aa… in the candidate"
}

// FixedChange is a fixed setting of the sweeps that differs between them;
// an empty value is a setting the sweep does not fix.
type FixedChange struct {
	Name       string
	Base, Cand sweep.Value
}

func (f FixedChange) String() string {
	show := func(v sweep.Value) string {
		if v == "" {
			return "not set"
		}
		return string(v)
	}
	return fmt.Sprintf("%s %s in the baseline, %s in the candidate", f.Name, show(f.Base), show(f.Cand))
}

// Report is a comparison.
type Report struct {
	Options     Options
	Rows        []Row
	Missing     []string // groups of the baseline absent from the candidate
	Added       []string // groups only in the candidate
	Regressions int      // rows that regressed, plus missing groups
	// UnpairedRows counts the rows whose jobs were not paired; Unpaired
	// lists their groups. Such a row's interval measures the spread
	// between jobs, not the change job by job.
	UnpairedRows int
	Unpaired     []Unpaired
	// FixedChanges are the fixed settings that differ between the sweeps
	// (in no group's key, so every group compares a different cluster or
	// policy configuration); FixedUnknown says a side did not record them.
	FixedChanges []FixedChange
	FixedUnknown bool
	BaseVersion  string
	CandVersion  string
}

// Compare compares candidate with baseline. The intervals depend only on
// the seed and each row's group and metric, not on the other rows.
func Compare(base, cand *sweep.Summary, o Options) (*Report, error) {
	if !(o.Threshold >= 0) {
		return nil, fmt.Errorf("threshold %v: want a relative change >= 0", o.Threshold)
	}
	bs, err := analysis.Bootstrap{Level: o.Level, Resamples: o.Resamples}.WithDefaults()
	if err != nil {
		return nil, err
	}
	o.Level, o.Resamples = bs.Level, bs.Resamples
	metrics, err := pick(o.Metrics)
	if err != nil {
		return nil, err
	}
	r := &Report{Options: o, BaseVersion: base.CodeVersion, CandVersion: cand.CodeVersion}
	r.FixedChanges, r.FixedUnknown = fixedChanges(base.Fixed, cand.Fixed)
	byKey := map[string]*sweep.Group{}
	for _, g := range cand.Groups {
		byKey[g.Key()] = g
	}
	seen := map[string]bool{}
	for _, bg := range base.Groups {
		seen[bg.Key()] = true
		cg, ok := byKey[bg.Key()]
		if !ok {
			r.Missing = append(r.Missing, bg.Key())
			r.Regressions++
			continue
		}
		why := unpaired(bg, cg)
		paired := why == ""
		if !paired {
			r.Unpaired = append(r.Unpaired, Unpaired{bg.Key(), why})
		}
		for _, m := range metrics {
			row := compareMetric(bg, cg, m, paired, o)
			if row.Verdict == Regressed {
				r.Regressions++
			}
			if !paired {
				r.UnpairedRows++
			}
			r.Rows = append(r.Rows, row)
		}
	}
	for _, g := range cand.Groups {
		if !seen[g.Key()] {
			r.Added = append(r.Added, g.Key())
		}
	}
	return r, nil
}

func pick(names []string) ([]Metric, error) {
	if len(names) == 0 {
		return Metrics, nil
	}
	var out []Metric
	for _, n := range names {
		found := false
		for _, m := range Metrics {
			if m.Name == n {
				out, found = append(out, m), true
			}
		}
		if !found {
			return nil, fmt.Errorf("metric %q: want one of %s", n, strings.Join(MetricNames(), ", "))
		}
	}
	return out, nil
}

// unpaired says why the jobs of baseline group a and candidate group b
// cannot be paired, or returns "" when both replayed the same traces
// (same seeds, same trace bytes), so that job i is the same job on both
// sides.
func unpaired(a, b *sweep.Group) string {
	if len(a.Traces) != len(b.Traces) {
		return fmt.Sprintf("%d seeds in the baseline, %d in the candidate", len(a.Traces), len(b.Traces))
	}
	for i := range a.Traces {
		switch {
		case a.Seeds[i] != b.Seeds[i]:
			return fmt.Sprintf("seed %d in the baseline, %d in the candidate", a.Seeds[i], b.Seeds[i])
		case a.Traces[i] != b.Traces[i]:
			return fmt.Sprintf("seed %d: trace_sha256 %s in the baseline, %s in the candidate", a.Seeds[i], short(a.Traces[i]), short(b.Traces[i]))
		}
	}
	if na, nb := len(a.PerJob.SojournS), len(b.PerJob.SojournS); na != nb {
		return fmt.Sprintf("%d jobs in the baseline, %d in the candidate", na, nb)
	}
	return ""
}

func short(sum string) string {
	if len(sum) > 8 {
		return sum[:8] + "…"
	}
	return sum
}

// fixedChanges lists the settings, in name order, whose values differ
// between two sweeps' fixed settings; unknown is true when either side
// did not record them (nil).
func fixedChanges(base, cand map[string]sweep.Value) (changes []FixedChange, unknown bool) {
	if base == nil || cand == nil {
		return nil, true
	}
	names := map[string]bool{}
	for k := range base {
		names[k] = true
	}
	for k := range cand {
		names[k] = true
	}
	var sorted []string
	for k := range names {
		sorted = append(sorted, k)
	}
	sort.Strings(sorted)
	for _, k := range sorted {
		if base[k] != cand[k] {
			changes = append(changes, FixedChange{k, base[k], cand[k]})
		}
	}
	return changes, false
}

func compareMetric(bg, cg *sweep.Group, m Metric, paired bool, o Options) Row {
	h := fnv.New64a()
	fmt.Fprintf(h, "%s\x00%s", bg.Key(), m.Name)
	bs := analysis.Bootstrap{Resamples: o.Resamples, Level: o.Level, Paired: paired,
		Rand: rand.New(rand.NewPCG(o.Seed, h.Sum64()))}
	nb, nc := len(bg.PerJob.SojournS), len(cg.PerJob.SojournS)
	all := func(n int) []int {
		r := make([]int, n)
		for i := range r {
			r[i] = i
		}
		return r
	}
	row := Row{Group: bg, Candidate: cg, Metric: m, Paired: paired,
		Base: m.stat(&bg.PerJob)(all(nb)), Cand: m.stat(&cg.PerJob)(all(nc))}
	row.Change = bs.RelChange(nb, m.stat(&bg.PerJob), nc, m.stat(&cg.PerJob))
	row.Verdict = verdict(row.Change, m.HigherIsWorse, o.Threshold)
	return row
}

// verdict: a change beyond the threshold whose interval lies wholly on
// the same side of zero; "worse" by the metric's direction.
func verdict(c analysis.Interval, higherIsWorse bool, threshold float64) string {
	if math.IsNaN(c.Est) {
		return NA
	}
	up := c.Est > threshold && c.Lo > 0
	down := c.Est < -threshold && c.Hi < 0
	switch {
	case up && higherIsWorse, down && !higherIsWorse:
		return Regressed
	case up || down:
		return Improved
	}
	return OK
}
