package swim

import (
	"bytes"
	"fmt"
	"go/format"
	"math"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
)

// FitOptions name a model and set its resolution. Zero fields take the
// defaults below.
type FitOptions struct {
	Name          string
	Sources       []string
	OriginalNodes int
	// Strata are the upper ends of the input-quantile strata; the last
	// must be 1. Default: DefaultStrata.
	Strata []float64
	// OutputGroups is the number of output groups per stratum; default
	// DefaultOutputGroups.
	OutputGroups int
	// InputGrid and GapGrid are the probabilities of the input and gap
	// tables, RatioGrid those of the per-stratum ratio tables. Each runs
	// from 0 to 1. Defaults: FineGrid, FineGrid, CoarseGrid.
	InputGrid, GapGrid, RatioGrid []float64
}

// DefaultStrata split jobs by input quantile into twentieths up to the
// 95th percentile, then the next 3%, 1% and 0.5% and the top 0.5%: finer
// where the bytes are.
var DefaultStrata = []float64{0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 0.98, 0.99, 0.995, 1}

// DefaultOutputGroups is the default number of output groups.
const DefaultOutputGroups = 4

// FineGrid has a knot at every percentile and more in both tails.
var FineGrid = func() []float64 {
	g := []float64{0, 0.001, 0.002, 0.005}
	for i := 1; i < 100; i++ {
		g = append(g, float64(i)/100)
	}
	return append(g, 0.995, 0.998, 0.999, 0.9995, 0.9998, 0.9999, 1)
}()

// CoarseGrid has a knot every 5% and more in both tails.
var CoarseGrid = func() []float64 {
	g := []float64{0, 0.01, 0.025}
	for i := 1; i < 20; i++ {
		g = append(g, float64(i)/20)
	}
	return append(g, 0.975, 0.99, 1)
}()

// Fit estimates a Model from SWIM records (see Model for its structure):
//
//  1. Sort the jobs by input bytes (ties keep record order); the input
//     table holds the quantiles of ln(1+input) at InputGrid.
//  2. The job of rank r (from 0) has input quantile (r+0.5)/n and belongs
//     to the first stratum whose Upper is at least that.
//  3. In each stratum, ZeroShuffle, ZeroOutput and MapZeroOutput are the
//     shares of jobs without shuffle, of jobs with a shuffle but no
//     output, and of map-only jobs without output.
//  4. Each Link is fitted to its jobs in the stratum (x, y the logs of
//     the bytes): X0 is the mean of x; Slope the least-squares slope of y
//     on x clamped to [0, 1] (0 when x does not vary); Resid the quantiles
//     at RatioGrid of y − Slope·(x − X0).
//  5. The gap table holds the quantiles of the records' gap column at
//     GapGrid.
//
// Quantiles interpolate between order statistics (type 7), so the fit is
// a deterministic function of the records and the options.
func Fit(recs []Record, opt FitOptions) (*Model, error) {
	if len(recs) == 0 {
		return nil, fmt.Errorf("swim: fit %s: no records", opt.Name)
	}
	if opt.OutputGroups == 0 {
		opt.OutputGroups = DefaultOutputGroups
	}
	if opt.Strata == nil {
		opt.Strata = DefaultStrata
	}
	if opt.InputGrid == nil {
		opt.InputGrid = FineGrid
	}
	if opt.GapGrid == nil {
		opt.GapGrid = FineGrid
	}
	if opt.RatioGrid == nil {
		opt.RatioGrid = CoarseGrid
	}
	if opt.Strata[len(opt.Strata)-1] != 1 {
		return nil, fmt.Errorf("swim: fit %s: last stratum ends at %v, want 1", opt.Name, opt.Strata[len(opt.Strata)-1])
	}
	n := len(recs)
	byInput := make([]int, n)
	for i := range byInput {
		byInput[i] = i
	}
	sort.SliceStable(byInput, func(a, b int) bool { return recs[byInput[a]].InputBytes < recs[byInput[b]].InputBytes })

	m := &Model{Name: opt.Name, Sources: opt.Sources, Jobs: n, OriginalNodes: opt.OriginalNodes}
	li := make([]float64, n)
	gaps := make([]float64, n)
	for r, i := range byInput {
		li[r] = math.Log1p(float64(recs[i].InputBytes))
		gaps[r] = recs[i].Gap
	}
	sort.Float64s(gaps)
	m.Input = fitTable(li, opt.InputGrid)
	m.Gap = fitTable(gaps, opt.GapGrid)

	r := 0
	for _, upper := range opt.Strata {
		var shuf, mapOut pairs
		var louts []float64 // output of the jobs in shuf, NaN for none
		var jobs, zeroShuffle, mapZeroOut int
		for ; r < n && (float64(r)+0.5)/float64(n) <= upper; r++ {
			rec := &recs[byInput[r]]
			jobs++
			lin, lsh, lout := math.Log1p(float64(rec.InputBytes)), math.Log1p(float64(rec.ShuffleBytes)), math.Log1p(float64(rec.OutputBytes))
			switch {
			case rec.ShuffleBytes == 0 && rec.OutputBytes == 0:
				zeroShuffle++
				mapZeroOut++
			case rec.ShuffleBytes == 0:
				zeroShuffle++
				mapOut.add(lin, lout)
			case rec.OutputBytes == 0:
				shuf.add(lin, lsh)
				louts = append(louts, math.NaN())
			default:
				shuf.add(lin, lsh)
				louts = append(louts, lout)
			}
		}
		shufLink := shuf.fit(opt.RatioGrid)
		m.Strata = append(m.Strata, Stratum{
			Upper:         upper,
			Jobs:          jobs,
			ZeroShuffle:   share(zeroShuffle, jobs),
			Shuffle:       shufLink,
			Outputs:       fitOutputs(&shuf, louts, shufLink, opt),
			MapZeroOutput: share(mapZeroOut, zeroShuffle),
			MapOutput:     mapOut.fit(opt.RatioGrid),
		})
	}
	return m, m.validate()
}

// fitOutputs splits the jobs with a shuffle into opt.OutputGroups groups
// by the rank of their shuffle residual (ties keep record order) and fits
// each group's output.
func fitOutputs(shuf *pairs, louts []float64, l Link, opt FitOptions) []OutputGroup {
	n := len(louts)
	idx := make([]int, n)
	res := make([]float64, n)
	for i := range idx {
		idx[i] = i
		res[i] = shuf.y[i] - l.Slope*(shuf.x[i]-l.X0)
	}
	sort.SliceStable(idx, func(a, b int) bool { return res[idx[a]] < res[idx[b]] })
	k := opt.OutputGroups
	groups := make([]OutputGroup, k)
	for g := range groups {
		var out pairs
		zero, jobs := 0, 0
		for _, i := range idx[g*n/k : (g+1)*n/k] {
			jobs++
			if math.IsNaN(louts[i]) {
				zero++
			} else {
				out.add(shuf.y[i], louts[i])
			}
		}
		groups[g] = OutputGroup{Zero: share(zero, jobs), Link: out.fit(opt.RatioGrid)}
	}
	return groups
}

// pairs collects the (x, y) points of a Link.
type pairs struct{ x, y []float64 }

func (p *pairs) add(x, y float64) {
	p.x = append(p.x, x)
	p.y = append(p.y, y)
}

func (p *pairs) fit(grid []float64) Link {
	n := float64(len(p.x))
	if n == 0 {
		return Link{}
	}
	var mx, my float64
	for i := range p.x {
		mx += p.x[i]
		my += p.y[i]
	}
	mx /= n
	my /= n
	var sxx, sxy float64
	for i := range p.x {
		sxx += (p.x[i] - mx) * (p.x[i] - mx)
		sxy += (p.x[i] - mx) * (p.y[i] - my)
	}
	l := Link{X0: mx}
	if sxx > 0 {
		l.Slope = min(1, max(0, sxy/sxx))
	}
	r := make([]float64, len(p.x))
	for i := range r {
		r[i] = p.y[i] - l.Slope*(p.x[i]-mx)
	}
	sort.Float64s(r)
	l.Resid = fitTable(r, grid)
	return l
}

func share(k, n int) float64 {
	if n == 0 {
		return 0
	}
	return float64(k) / float64(n)
}

// GoSource renders m as a Go source file of package swim that declares
// var name = &Model{…}, with a "Code generated" header naming how to
// regenerate it. Numbers keep 9 significant digits.
func (m *Model) GoSource(name, regenerate string) ([]byte, error) {
	var b bytes.Buffer
	fmt.Fprintf(&b, "// Code generated by %s; DO NOT EDIT.\n\npackage swim\n\n", regenerate)
	fmt.Fprintf(&b, "// %s is the model of %s, fitted by Fit with the default options to %d jobs of\n", name, m.Name, m.Jobs)
	for _, s := range m.Sources {
		fmt.Fprintf(&b, "//   - %s\n", s)
	}
	fmt.Fprintf(&b, "var %s = &Model{\n", name)
	fmt.Fprintf(&b, "Name: %q,\nSources: %#v,\nJobs: %d,\nOriginalNodes: %d,\n", m.Name, m.Sources, m.Jobs, m.OriginalNodes)
	fmt.Fprintf(&b, "Gap: %s,\nInput: %s,\nStrata: []Stratum{\n", goTable(m.Gap), goTable(m.Input))
	for _, s := range m.Strata {
		fmt.Fprintf(&b, "{Upper: %s, Jobs: %d, ZeroShuffle: %s, MapZeroOutput: %s,\n",
			goFloat(s.Upper), s.Jobs, goFloat(s.ZeroShuffle), goFloat(s.MapZeroOutput))
		fmt.Fprintf(&b, "Shuffle: %s,\nMapOutput: %s,\nOutputs: []OutputGroup{\n", goLink(s.Shuffle), goLink(s.MapOutput))
		for _, g := range s.Outputs {
			fmt.Fprintf(&b, "{Zero: %s, Link: %s},\n", goFloat(g.Zero), goLink(g.Link))
		}
		b.WriteString("}},\n")
	}
	b.WriteString("},\n}\n")
	return format.Source(b.Bytes())
}

func goLink(l Link) string {
	if len(l.Resid.P) == 0 {
		return "Link{}"
	}
	return fmt.Sprintf("Link{X0: %s, Slope: %s,\nResid: %s}", goFloat(l.X0), goFloat(l.Slope), goTable(l.Resid))
}

func goTable(t Table) string {
	if len(t.P) == 0 {
		return "Table{}"
	}
	return "Table{P: " + goGrid(t.P) + ",\nV: " + goFloats(t.V) + "}"
}

// goGrid names the grid p if it is one of the package's.
func goGrid(p []float64) string {
	for name, g := range map[string][]float64{"FineGrid": FineGrid, "CoarseGrid": CoarseGrid} {
		if slices.Equal(p, g) {
			return name
		}
	}
	return goFloats(p)
}

func goFloats(v []float64) string {
	var b bytes.Buffer
	b.WriteString("[]float64{")
	for i, x := range v {
		if i > 0 {
			b.WriteString(", ")
		}
		if i%10 == 0 {
			b.WriteString("\n")
		}
		b.WriteString(goFloat(x))
	}
	b.WriteString(",\n}")
	return b.String()
}

func goFloat(x float64) string { return strconv.FormatFloat(x, 'g', 9, 64) }

// RefitCommand regenerates the embedded models (model_fb2009.go,
// model_fb2010.go) from the SWIM samples in ../shared/data/swim.
const RefitCommand = `go test ./swim -run TestRefit -refit`

// EmbeddedFit says how one embedded model is fitted: Fit with the default
// grids and strata to the records of Options.Sources, read in order from
// the SWIM samples directory and concatenated. The FB-2009 "first50jobs"
// file is left out: it repeats the first rows of FB-2009 _0.
type EmbeddedFit struct {
	Var     string // Go variable holding the model
	File    string // file it is written to, in this package
	Options FitOptions
}

// EmbeddedFits lists the embedded models.
var EmbeddedFits = []EmbeddedFit{
	{Var: "modelFB2009", File: "model_fb2009.go", Options: FitOptions{
		Name: "FB-2009", OriginalNodes: FB2009Nodes,
		Sources: []string{"FB-2009_samples_24_times_1hr_0.tsv", "FB-2009_samples_24_times_1hr_1.tsv"},
	}},
	{Var: "modelFB2010", File: "model_fb2010.go", Options: FitOptions{
		Name: "FB-2010", OriginalNodes: FB2010Nodes,
		Sources: []string{"FB-2010_samples_24_times_1hr_0.tsv", "FB-2010_samples_24_times_1hr_withInputPaths_0.tsv"},
	}},
}

// FitFiles reads opt.Sources from dir, concatenates their records and fits
// a model to them. It also returns the records.
func FitFiles(dir string, opt FitOptions) (*Model, []Record, error) {
	var recs []Record
	for _, name := range opt.Sources {
		src, err := ReadTSV(filepath.Join(dir, name))
		if err != nil {
			return nil, nil, err
		}
		recs = append(recs, src.Records...)
	}
	m, err := Fit(recs, opt)
	return m, recs, err
}
