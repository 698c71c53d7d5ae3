package versus

import (
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"sojourn/analysis"
	"sojourn/run/sweep"
	"sojourn/traces"
)

// Metric is one figure compared; each is computed on the jobs pooled over
// the seeds, as bench sweep's summary.json computes its figures.
type Metric struct {
	Name  string // mean, median, p95, slowdown
	Label string // "mean sojourn"
	Unit  string // "s", or "" for a ratio
	// Down and Up are the verdict's verbs for a lower and a higher figure.
	Down, Up string
	slowdown bool // on the slowdowns rather than the sojourns
	stat     func(xs []float64) float64
}

// Metrics are the figures compared, in output order.
var Metrics = []Metric{
	{"mean", "mean sojourn", "s", "shortens", "lengthens", false, analysis.Mean},
	{"median", "median sojourn", "s", "shortens", "lengthens", false, analysis.Median},
	{"p95", "p95 sojourn", "s", "shortens", "lengthens", false, func(xs []float64) float64 { return analysis.Quantile(xs, 0.95) }},
	{"slowdown", "mean slowdown", "", "lowers", "raises", true, analysis.Mean},
}

// Options configure a comparison.
type Options struct {
	Baseline, Candidate string // policy names
	Level               float64
	Resamples           int
	Seed                uint64 // of the bootstrap
	// Resample chooses the bootstrap of a workload replayed from one trace
	// on every seed: "" (ResampleWindows) or ResampleSeeds (placement
	// only). A workload generated anew for each seed is always resampled
	// by seeds.
	Resample string
	// Window is the width (s) of the submit-time windows of
	// ResampleWindows, or WindowJobs the mean number of jobs they hold;
	// both 0: DefaultWindowJobs.
	Window     float64
	WindowJobs int
	// Done, when closed, stops the bootstrap: Read then fails with
	// ErrInterrupted.
	Done <-chan struct{}
	// only, if set, restricts the rows to the classes and metrics it
	// accepts (the calibration needs few of them).
	only func(class, metric string) bool
}

// Row is one metric of one workload and job class.
type Row struct {
	Workload string `json:"workload"`
	// Params are the sweep's swept parameters of the pair ("–" for none).
	Params string `json:"parameters"`
	Class  string `json:"class"` // "all" or a class label of the trace
	// Bounds are the class's jobs' task counts ("1–2 maps, 0 reduces"),
	// empty for "all".
	Bounds string            `json:"class_bounds,omitempty"`
	Metric string            `json:"metric"`
	Label  string            `json:"label"`
	Unit   string            `json:"unit"`
	Seeds  int               `json:"seeds"`
	Jobs   int               `json:"jobs"` // per policy, over the seeds
	Base   float64           `json:"baseline"`
	Cand   float64           `json:"candidate"`
	Change analysis.Interval `json:"-"`
	// Traces is the number of distinct traces replayed: 1 when every seed
	// replayed the same (a trace file, or one seed of a profile).
	Traces     int    `json:"traces"`
	Resampling string `json:"resampling"` // ResampleSeeds, ResampleWindows or ResampleClusterSeeds
	// WindowS is the width of the submit-time windows (ResampleWindows),
	// WindowJobs the mean number of jobs they hold.
	WindowS    float64 `json:"window_s,omitempty"`
	WindowJobs float64 `json:"window_jobs,omitempty"`
	Verdict    string  `json:"verdict"`
	// Significant: the interval excludes 0.
	Significant bool `json:"significant"`
}

// Report is a comparison of two policies.
type Report struct {
	Baseline  string  `json:"baseline"`
	Candidate string  `json:"candidate"`
	Level     float64 `json:"level"`
	Resamples int     `json:"resamples"`
	Seed      uint64  `json:"bootstrap_seed"`
	Rows      []Row   `json:"rows"`
}

// seedJobs are one policy's jobs on one seed, in trace order.
type seedJobs struct {
	sojourn, slowdown []float64
	*jobInfo
}

// jobInfo is what the trace says of its jobs, in trace order.
type jobInfo struct {
	class   []string
	submit  []float64          // s, non-decreasing
	classes []traces.ClassInfo // smallest jobs first
}

// group is one policy's cells of one workload and parameter combination.
type group struct {
	workload string
	params   map[string]string // swept, this policy's options included
	key      string            // workload and cluster parameters
	seeds    []uint64
	sums     []string
	jobs     []seedJobs
}

// Read reads the cells of the sweep in dir (it needs its summary.json,
// written once every cell is done) and compares o.Candidate with
// o.Baseline on every workload and parameter combination both ran.
func Read(dir string, o Options) (*Report, error) {
	sum, err := sweep.ReadSummary(dir)
	if err != nil {
		return nil, err
	}
	if st, err := os.Stat(dir); err == nil && !st.IsDir() {
		dir = filepath.Dir(dir)
	}
	infos := map[string]*jobInfo{}  // by trace file
	groups := map[string][]*group{} // by policy
	byKey := map[string]*group{}
	for _, cs := range sum.Cells {
		if cs.Policy != o.Baseline && cs.Policy != o.Candidate {
			continue
		}
		path := filepath.Join(dir, filepath.FromSlash(cs.Dir), sweep.CellFile)
		rec, err := sweep.ReadCell(path)
		if err != nil {
			return nil, err
		}
		info, ok := infos[rec.Trace]
		if !ok {
			tr, err := traces.Read(filepath.Join(dir, filepath.FromSlash(rec.Trace)))
			if err != nil {
				return nil, err
			}
			info = &jobInfo{classes: traces.Classes(tr)}
			for i := range tr.Jobs {
				info.class = append(info.class, tr.Jobs[i].Class)
				info.submit = append(info.submit, tr.Jobs[i].Submit)
			}
			infos[rec.Trace] = info
		}
		if n := len(info.class); n != len(rec.PerJob.SojournS) || len(rec.PerJob.Slowdown) != n {
			return nil, fmt.Errorf("%s: %d jobs, its trace %s %d", path, len(rec.PerJob.SojournS), rec.Trace, n)
		}
		full := rec.Workload + " " + rec.Policy + " " + strings.Join(paramList(rec.Params, ""), " ")
		g := byKey[full]
		if g == nil {
			g = &group{workload: rec.Workload, params: rec.Params,
				key: rec.Workload + " " + strings.Join(paramList(rec.Params, rec.Policy), " ")}
			byKey[full] = g
			groups[rec.Policy] = append(groups[rec.Policy], g)
		}
		g.seeds = append(g.seeds, rec.Seed)
		g.sums = append(g.sums, rec.TraceSum)
		g.jobs = append(g.jobs, seedJobs{rec.PerJob.SojournS, rec.PerJob.Slowdown, info})
	}
	if len(groups[o.Baseline]) == 0 || len(groups[o.Candidate]) == 0 {
		var have []string
		seen := map[string]bool{}
		for _, c := range sum.Cells {
			if !seen[c.Policy] {
				seen[c.Policy] = true
				have = append(have, c.Policy)
			}
		}
		missing := o.Baseline
		if len(groups[o.Baseline]) > 0 {
			missing = o.Candidate
		}
		return nil, fmt.Errorf("%s: no cell of policy %s (the sweep has %s)", dir, missing, strings.Join(have, ", "))
	}
	return compare(groups[o.Baseline], groups[o.Candidate], o)
}

// paramList is "k=v" for each parameter, sorted, leaving out the options
// of policy (so that two policies' groups of one cluster match). An
// external policy that declares its name has its options as exec's
// (exec.args), which only its cells have.
func paramList(m map[string]string, policy string) []string {
	var out []string
	for k, v := range m {
		if policy != "" && (strings.HasPrefix(k, policy+".") || strings.HasPrefix(k, "exec.")) {
			continue
		}
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return out
}

func compare(base, cand []*group, o Options) (*Report, error) {
	bs, err := analysis.Bootstrap{Level: o.Level, Resamples: o.Resamples}.WithDefaults()
	if err != nil {
		return nil, err
	}
	o.Level, o.Resamples = bs.Level, bs.Resamples
	if err := o.checkResampling(); err != nil {
		return nil, err
	}
	r := &Report{Baseline: o.Baseline, Candidate: o.Candidate, Level: o.Level, Resamples: o.Resamples, Seed: o.Seed}
	paired := 0
	for _, b := range base {
		for _, c := range cand {
			if b.key != c.key {
				continue
			}
			rows, err := comparePair(b, c, o)
			if err != nil {
				return nil, err
			}
			r.Rows = append(r.Rows, rows...)
			paired++
		}
	}
	if paired == 0 {
		return nil, fmt.Errorf("%s and %s ran on no common workload and cluster", o.Baseline, o.Candidate)
	}
	return r, nil
}

// comparePair compares two groups of one workload and cluster, seed by
// seed: both must have replayed the same traces.
func comparePair(b, c *group, o Options) ([]Row, error) {
	if len(b.seeds) != len(c.seeds) {
		return nil, fmt.Errorf("workload %s: %s ran %d seeds, %s %d; want the same seeds", b.workload, o.Baseline, len(b.seeds), o.Candidate, len(c.seeds))
	}
	for i := range b.seeds {
		if b.seeds[i] != c.seeds[i] || b.sums[i] != c.sums[i] {
			return nil, fmt.Errorf("workload %s, seed %d: the two policies replayed different traces; a paired comparison needs the same", b.workload, b.seeds[i])
		}
	}
	params := strings.Join(append(paramList(b.params, ""), paramList(c.params, "")...), ", ")
	if params == "" {
		params = "–"
	}
	rs, err := o.resampling(b)
	if err != nil {
		return nil, err
	}
	var rows []Row
	for _, class := range classesOf(b) {
		bounds := ""
		if class != allClasses {
			bounds = classBounds(b, class)
		}
		for _, m := range Metrics {
			if o.only != nil && !o.only(class, m.Name) {
				continue
			}
			row := Row{Workload: b.workload, Params: params, Class: class, Bounds: bounds, Metric: m.Name, Label: m.Label, Unit: m.Unit,
				Seeds: len(b.seeds), Traces: distinct(b.sums), Resampling: rs.method, WindowS: rs.window, WindowJobs: rs.windowJobs}
			h := fnv.New64a()
			fmt.Fprintf(h, "%s\x00%s\x00%s\x00%s", row.Workload, row.Params, row.Class, row.Metric)
			bs := analysis.Bootstrap{Resamples: o.Resamples, Level: o.Level, Paired: true, Rand: rand.New(rand.NewPCG(o.Seed, h.Sum64())), Done: o.Done}
			bx, cx := values(b, m, class), values(c, m, class)
			for _, xs := range bx {
				row.Jobs += len(xs)
			}
			row.Base, row.Cand = m.stat(concat(bx, nil)), m.stat(concat(cx, nil))
			if rs.method == ResampleWindows {
				// Every job of the trace is a row, drawn with its results
				// on every seed; a class's figure keeps its own jobs of
				// those drawn.
				bs.Blocks = rs.blocks
				n := len(b.jobs[0].class)
				row.Change = bs.RelChange(n, pooledStat(b, m, class), n, pooledStat(c, m, class))
			} else {
				row.Change = bs.RelChange(len(bx), seedStat(bx, m.stat), len(cx), seedStat(cx, m.stat))
			}
			if interrupted(o.Done) {
				return nil, ErrInterrupted
			}
			row.Significant = row.Change.Lo > 0 || row.Change.Hi < 0
			row.Verdict = Verdict(o.Candidate, m, &row)
			rows = append(rows, row)
		}
	}
	return rows, nil
}

// values are a group's figures of metric m for the jobs of class, seed by
// seed.
func values(g *group, m Metric, class string) [][]float64 {
	var out [][]float64
	for _, sj := range g.jobs {
		xs := sj.sojourn
		if m.slowdown {
			xs = sj.slowdown
		}
		var sel []float64
		for j, x := range xs {
			if class == allClasses || sj.class[j] == class {
				sel = append(sel, x)
			}
		}
		out = append(out, sel)
	}
	return out
}

// distinct counts the distinct strings of ss.
func distinct(ss []string) int {
	seen := map[string]bool{}
	for _, s := range ss {
		seen[s] = true
	}
	return len(seen)
}

// allClasses labels the rows of every job.
const allClasses = "all"

// classesOf lists "all", then the trace's classes, when it has more than
// one, from the smallest jobs to the largest (traces.Classes; the first
// seed's order, then classes only later seeds have).
func classesOf(g *group) []string {
	seen := map[string]bool{}
	var cl []string
	for _, sj := range g.jobs {
		for _, c := range sj.classes {
			if !seen[c.Name] {
				seen[c.Name] = true
				cl = append(cl, c.Name)
			}
		}
	}
	out := []string{allClasses}
	if len(cl) < 2 {
		return out
	}
	return append(out, cl...)
}

// classBounds is the task counts of class's jobs over every seed of g:
// "1–2 maps, 0 reduces".
func classBounds(g *group, class string) string {
	var b traces.ClassInfo
	found := false
	for _, sj := range g.jobs {
		for _, c := range sj.classes {
			if c.Name != class {
				continue
			}
			if !found {
				b, found = c, true
			}
			b.Widen(c)
		}
	}
	if !found {
		return ""
	}
	return b.Bounds()
}

func concat(parts [][]float64, rows []int) []float64 {
	var out []float64
	if rows == nil {
		for _, p := range parts {
			out = append(out, p...)
		}
		return out
	}
	for _, r := range rows {
		out = append(out, parts[r]...)
	}
	return out
}

// seedStat is the metric of the jobs of the seeds drawn, pooled.
func seedStat(seeds [][]float64, f func([]float64) float64) analysis.Statistic {
	return func(rows []int) float64 {
		xs := concat(seeds, rows)
		if len(xs) == 0 {
			return math.NaN()
		}
		return f(xs)
	}
}

// pooledStat is metric m of the jobs of class among those drawn (rows of
// the trace), each with its results on every seed of g.
func pooledStat(g *group, m Metric, class string) analysis.Statistic {
	var buf []float64
	return func(rows []int) float64 {
		buf = buf[:0]
		for _, sj := range g.jobs {
			xs := sj.sojourn
			if m.slowdown {
				xs = sj.slowdown
			}
			for _, r := range rows {
				if class == allClasses || sj.class[r] == class {
					buf = append(buf, xs[r])
				}
			}
		}
		if len(buf) == 0 {
			return math.NaN()
		}
		return m.stat(buf)
	}
}

// Verdict says in words what a row's change means: "HFSP shortens mean
// sojourn by 10% [7%, 13%] on fb2009, 20 workloads", or "no significant
// difference" when the interval contains 0. The basis names what varied:
// workloads (a trace per seed), or one trace and its submit-time windows.
func Verdict(candidate string, m Metric, r *Row) string {
	ch := r.Change
	where := r.Workload
	if r.Class != allClasses {
		where += " (" + r.Class + " jobs)"
	}
	n := basis(r)
	who := DisplayName(candidate)
	switch {
	case math.IsNaN(ch.Est):
		return fmt.Sprintf("%s of %s on %s: undefined (the baseline's is 0)", m.Label, who, where)
	case math.IsNaN(ch.Lo) || math.IsNaN(ch.Hi):
		return fmt.Sprintf("%s of %s on %s: %s, no interval", m.Label, who, where, signedPct(ch.Est))
	case ch.Hi < 0:
		return fmt.Sprintf("%s %s %s by %s [%s, %s] on %s, %s", who, m.Down, m.Label, pct(-ch.Est), pct(-ch.Hi), pct(-ch.Lo), where, n)
	case ch.Lo > 0:
		return fmt.Sprintf("%s %s %s by %s [%s, %s] on %s, %s", who, m.Up, m.Label, pct(ch.Est), pct(ch.Lo), pct(ch.Hi), where, n)
	}
	return fmt.Sprintf("no significant difference in %s on %s: %s [%s, %s], %s", m.Label, where, signedPct(ch.Est), signedPct(ch.Lo), signedPct(ch.Hi), n)
}

// DisplayName is a policy's name as the verdicts write it: HFSP, FAIR.
func DisplayName(policy string) string { return strings.ToUpper(policy) }

// pct writes a fraction as a percentage with the precision it deserves.
func pct(x float64) string {
	v := math.Round(x*1000) / 10 // one decimal
	if a := math.Abs(v); a < 10 && a != math.Trunc(a) {
		return fmt.Sprintf("%.1f%%", x*100)
	}
	return fmt.Sprintf("%.0f%%", x*100)
}

func signedPct(x float64) string {
	if x >= 0 {
		return "+" + pct(x)
	}
	return "−" + pct(-x)
}

// ErrInterrupted is Read's error when Options.Done closed during the
// bootstrap.
var ErrInterrupted = errors.New("interrupted during the bootstrap")

func interrupted(done <-chan struct{}) bool {
	select {
	case <-done:
		return true
	default:
		return false
	}
}
