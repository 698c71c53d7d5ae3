package experiments

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"sojourn/analysis"
	"sojourn/reports"
	"sojourn/results"
	"sojourn/run"
)

// Every experiment is run once, into a shared directory, and its data
// checked against the result files it wrote: not pixels, numbers.

// testSeeds are the claims' seeds in the tests: the figures' seed and
// two more.
var testSeeds = []uint64{1, 2, 3}

var (
	once     sync.Once
	shared   string
	sections map[string]reports.Section
	runErr   error
)

func runAll(t *testing.T) (string, map[string]reports.Section) {
	t.Helper()
	if testing.Short() {
		t.Skip("runs every experiment; skipped with -short")
	}
	once.Do(func() {
		shared, runErr = os.MkdirTemp("", "sojourn-experiments-")
		if runErr != nil {
			return
		}
		env := &Env{Results: shared, Seed: 1, Seeds: testSeeds, Version: "test"}
		sections = map[string]reports.Section{}
		for _, ex := range All() {
			s, err := env.Run(ex)
			if err != nil {
				runErr = err
				return
			}
			sections[ex.Name] = s
		}
	})
	if runErr != nil {
		t.Fatal(runErr)
	}
	return shared, sections
}

func TestMain(m *testing.M) {
	code := m.Run()
	if shared != "" {
		os.RemoveAll(shared)
	}
	os.Exit(code)
}

func readManifest(t *testing.T, dir, name string) Manifest {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, name, ManifestFile))
	if err != nil {
		t.Fatal(err)
	}
	var m Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func readJobs(t *testing.T, dir, name, run string) *results.Jobs {
	t.Helper()
	j, err := results.ReadJobs(filepath.Join(dir, name, filepath.FromSlash(run), results.JobsFile))
	if err != nil {
		t.Fatal(err)
	}
	return j
}

// checkECDF: a first point (min, 0) where the staircase leaves the axis,
// then one point per sample, non-decreasing in x and increasing in y up
// to exactly 1.
func checkECDF(t *testing.T, where string, s reports.Series, n int) {
	t.Helper()
	if n == 0 {
		if len(s.X) != 0 || len(s.Y) != 0 {
			t.Errorf("%s: ECDF %q of no job has %d points", where, s.Label, len(s.X))
		}
		return
	}
	if len(s.X) != n+1 || len(s.Y) != n+1 {
		t.Errorf("%s: ECDF %q has %d points, want one per job (%d) and its start", where, s.Label, len(s.X), n)
		return
	}
	if s.Y[0] != 0 || s.X[0] != s.X[1] {
		t.Errorf("%s: ECDF %q starts at (%v, %v), want (%v, 0)", where, s.Label, s.X[0], s.Y[0], s.X[1])
	}
	for i := 1; i <= n; i++ {
		if s.X[i] < s.X[i-1] || s.Y[i] <= s.Y[i-1] {
			t.Errorf("%s: ECDF %q decreases at point %d", where, s.Label, i)
			return
		}
	}
	if s.Y[n] != 1 {
		t.Errorf("%s: ECDF %q ends at %v, want 1", where, s.Label, s.Y[n])
	}
}

func TestFig3ECDFsCoverEveryJob(t *testing.T) {
	dir, secs := runAll(t)
	fig := secs["fig3"].Figures[0]
	total := 0
	for i, cl := range fb2009Classes {
		for k, pol := range figurePolicies {
			jobs := readJobs(t, dir, "fig3", pol)
			n := 0
			for _, c := range jobs.Class {
				if c == cl.class {
					n++
				}
			}
			checkECDF(t, "fig3 "+cl.class, fig.Panels[i].Series[k], n)
			if k == 0 {
				total += n
			}
		}
	}
	if total != 100 {
		t.Errorf("fig3's classes hold %d jobs, want all 100", total)
	}
}

func TestFig4ECDFsAndTable(t *testing.T) {
	dir, all := runAll(t)
	sec := all["fig4"]
	for k, pol := range figurePolicies {
		jobs := readJobs(t, dir, "fig4", pol)
		reduces := len(analysis.Finite(jobs.ReduceSojourn))
		for i, n := range []int{jobs.Len(), reduces, jobs.Len()} {
			checkECDF(t, fmt.Sprintf("fig4 panel %d", i), sec.Figures[0].Panels[i].Series[k], n)
		}
		if jobs.Len() != 93 {
			t.Errorf("fig4 %s: %d jobs, want 93", pol, jobs.Len())
		}
	}
	// The "jobs ≤ 60 min" column is the ECDF of the result file at 60 min.
	// The public code's coupling rows come from their own runs.
	dirs := map[string]string{"HFSP, public code's coupling": "hfsp-public-coupling", "FSP, public code's coupling": "fsp-public-coupling"}
	for _, row := range sec.Tables[0].Rows {
		d, ok := dirs[row[0]]
		if !ok {
			d = policyOf(t, row[0])
		}
		jobs := readJobs(t, dir, "fig4", d)
		if want := pct(analysis.FractionAtMost(jobs.Sojourn, hour)); row[6] != want {
			t.Errorf("fig4 table %s: %s jobs within 60 min, the result file says %s", d, row[6], want)
		}
		// The reduce phase from the map phase's end: finish less maps done.
		var fromMapEnd []float64
		for i := range jobs.Index {
			if jobs.Reduces[i] > 0 {
				fromMapEnd = append(fromMapEnd, jobs.Sojourn[i]-jobs.MapSojourn[i])
			}
		}
		if want := secs(analysis.Median(fromMapEnd) / 60); row[3] != want {
			t.Errorf("fig4 table %s: reduce phase from map end %s, the result file says %s", d, row[3], want)
		}
	}
	if len(sec.Tables[0].Rows) != len(comparedPolicies())+2 {
		t.Errorf("fig4 table: %d rows, want every policy and the two public-coupling runs", len(sec.Tables[0].Rows))
	}
}

// Summary tables match the result files they come from.
func TestTablesMatchResultFiles(t *testing.T) {
	dir, all := runAll(t)
	for _, tab := range all["tables"].Tables {
		w, ok := strings.CutPrefix(tab.Name, "summary-")
		if !ok {
			continue // the offered load, TestOfferedLoad
		}
		if len(tab.Rows) != len(comparedPolicies()) {
			t.Errorf("%s: %d rows, want one per policy (%d)", tab.Name, len(tab.Rows), len(comparedPolicies()))
		}
		// SJF, the size-based baseline, right after HFSP.
		if len(tab.Rows) < 4 || tab.Rows[2][0] != "HFSP" || tab.Rows[3][0] != "SJF" {
			t.Errorf("%s: rows 3 and 4 are not HFSP and SJF", tab.Name)
		}
		for _, row := range tab.Rows {
			pol := policyOf(t, strings.TrimSuffix(row[0], " (oracle)"))
			jobs := readJobs(t, dir, "tables", w+"/"+pol)
			s := analysis.Summarize(jobs.Sojourn)
			if row[1] != secs(s.Mean) || row[2] != secs(s.Median) || row[5] != pct(nodeLocal(jobs)) {
				t.Errorf("%s %s: table %v, result file mean %s median %s local %s", w, pol, row, secs(s.Mean), secs(s.Median), pct(nodeLocal(jobs)))
			}
		}
	}
}

func TestFig5EverySizeAndPolicy(t *testing.T) {
	dir, sections := runAll(t)
	m := readManifest(t, dir, "fig5")
	if want := len(clusterSizes) * len(comparedPolicies()); len(m.Runs) != want {
		t.Fatalf("fig5 has %d runs, want %d", len(m.Runs), want)
	}
	for _, r := range m.Runs {
		if r.Cluster["nodes"] != r.Labels["nodes"] {
			t.Errorf("run %s replayed on %s nodes, labelled %s", r.Dir, r.Cluster["nodes"], r.Labels["nodes"])
		}
	}
	// The table of --seed's runs matches the result files; the figure
	// draws the mean over the claims' seeds inside its interval.
	one := sections["fig5"].Tables[1]
	s := sections["fig5"].Figures[0].Panels[0].Series
	for k, pol := range figurePolicies {
		col := slices.Index(one.Columns, label(pol))
		for i, n := range clusterSizes {
			jobs := readJobs(t, dir, "fig5", fmt.Sprintf("nodes-%03d/%s", n, pol))
			if got, want := one.Rows[i][col], secs(analysis.Mean(jobs.Sojourn)); got != want {
				t.Errorf("fig5 %s at %d nodes: table %v, result file %v", pol, n, got, want)
			}
			if y := s[k].Y[i]; !(s[k].YLo[i] <= y && y <= s[k].YHi[i]) || s[k].Policy != pol {
				t.Errorf("fig5 %s at %d nodes: plotted %v outside [%v, %v], or policy %q", pol, n, y, s[k].YLo[i], s[k].YHi[i], s[k].Policy)
			}
		}
	}
}

// Every α of Figure 6 has its repetitions, each with its own error seed,
// and the plotted point is their mean with an interval around it.
func TestFig6Repetitions(t *testing.T) {
	dir, secs := runAll(t)
	m := readManifest(t, dir, "fig6")
	seeds := map[string]map[string]bool{}
	for _, r := range m.Runs {
		a, rep := r.Labels["alpha"], r.Labels["repetition"]
		if rep == "" {
			continue
		}
		if seeds[a] == nil {
			seeds[a] = map[string]bool{}
		}
		if r.PolicyOptions["error-seed"] != rep || r.PolicyOptions["alpha"] != a || r.PolicyOptions["error"] != "uniform" {
			t.Errorf("run %s: options %v do not match labels %v", r.Dir, r.PolicyOptions, r.Labels)
		}
		seeds[a][rep] = true
	}
	if len(seeds) != len(alphas) {
		t.Fatalf("fig6 sweeps %d values of α, want %d", len(seeds), len(alphas))
	}
	pts := secs["fig6"].Figures[0].Panels[0].Series[0]
	for i, a := range alphas {
		if n := len(seeds[fmt.Sprint(a)]); n != repetitions {
			t.Errorf("α = %v has %d repetitions, want %d", a, n, repetitions)
		}
		var per []float64
		for rep := 1; rep <= repetitions; rep++ {
			jobs := readJobs(t, dir, "fig6", fmt.Sprintf("hfsp-alpha-%.2f/rep-%02d", a, rep))
			if len(analysis.Finite(jobs.ReduceSojourn)) != 0 {
				t.Fatalf("fig6's workload has reduce phases")
			}
			per = append(per, analysis.Mean(jobs.Sojourn))
		}
		mean, lo, hi := analysis.MeanCI(per, 0.95)
		if pts.Y[i] != mean || pts.YLo[i] != lo || pts.YHi[i] != hi || !(lo <= mean && mean <= hi) {
			t.Errorf("α = %v: plotted %v [%v, %v], result files %v [%v, %v]", a, pts.Y[i], pts.YLo[i], pts.YHi[i], mean, lo, hi)
		}
	}
}

// Figure 7's stacked allocation never exceeds the cluster's 8 reduce
// slots, and its area is the reduce work done.
func TestFig7Allocation(t *testing.T) {
	_, secs := runAll(t)
	for _, p := range secs["fig7"].Figures[0].Panels {
		top := p.Series[len(p.Series)-1]
		for i, y := range top.Y {
			if y > 8 {
				t.Errorf("%s: %v reduce slots held at %.2f min, the cluster has 8", p.Title, y, top.X[i])
			}
		}
		last := top.Y[len(top.Y)-1]
		if last != 0 {
			t.Errorf("%s: %v slots still held at the end", p.Title, last)
		}
		var area float64 // slot-minutes
		for i := 0; i+1 < len(top.X); i++ {
			area += top.Y[i] * (top.X[i+1] - top.X[i])
		}
		// 11 reduces of 480…520 s (5,500 s) and 5 of 310…460 s (1,850 s):
		// at least 7,350 slot-seconds, more under Kill.
		if area*60 < 7350-1 {
			t.Errorf("%s: %.0f reduce slot-seconds drawn, want at least 7350", p.Title, area*60)
		}
	}
}

// Figure 8: swap time is 2 × footprint / 100 MB/s, hand-computed.
func TestFig8SwapTimes(t *testing.T) {
	_, secs := runAll(t)
	s := secs["fig8"].Figures[0].Panels[0].Series[0]
	for i, gb := range footprintsGB {
		if want := 2 * gb * 1e9 / 100e6; math.Abs(s.Y[i]-want) > 1e-6 {
			t.Errorf("footprint %v GB: swap %v s, want %v", gb, s.Y[i], want)
		}
	}
}

func TestManifestsAndClaims(t *testing.T) {
	dir, secs := runAll(t)
	for _, ex := range All() {
		m := readManifest(t, dir, ex.Name)
		if m.Parameters["seed"] != "1" || m.CodeVersion != "test" || len(m.Runs) == 0 {
			t.Errorf("%s manifest: seed %q, version %q, %d runs", ex.Name, m.Parameters["seed"], m.CodeVersion, len(m.Runs))
		}
		for _, r := range m.Runs {
			_, err := os.Stat(filepath.Join(dir, ex.Name, filepath.FromSlash(r.Dir), results.TasksFile))
			if wantTasks := r.Labels["repetition"] == "" || r.Labels["repetition"] == "1"; (err == nil) != wantTasks {
				t.Errorf("%s run %s: %v", ex.Name, r.Dir, err)
			}
			if _, err := os.Stat(filepath.Join(dir, ex.Name, filepath.FromSlash(r.Trace))); err != nil {
				t.Errorf("%s run %s: trace %v", ex.Name, r.Dir, err)
			}
			if r.Cluster["seed"] == "" || r.Cluster["nodes"] == "" {
				t.Errorf("%s run %s: cluster parameters missing: %v", ex.Name, r.Dir, r.Cluster)
			}
		}
		if ex.Name != "estimates" {
			if len(secs[ex.Name].Claims) == 0 {
				t.Errorf("%s checks no claim of the paper", ex.Name)
			}
		}
		for _, c := range secs[ex.Name].Claims {
			if c.Experiment != ex.Name || c.Paper == "" || c.Ours == "" || c.Verdict == "" {
				t.Errorf("%s: incomplete claim %+v", ex.Name, c)
			}
		}
		back, err := reports.ReadSection(filepath.Join(dir, ex.Name, SectionFile))
		if err != nil || back.Name != ex.Name || len(back.Claims) != len(secs[ex.Name].Claims) {
			t.Errorf("%s: section.json reads back as %q with %d claims (%v)", ex.Name, back.Name, len(back.Claims), err)
		}
	}
}

// Same seed, any number of workers: byte-identical result directories.
func TestDeterministicAcrossWorkers(t *testing.T) {
	if testing.Short() {
		t.Skip("runs experiments twice")
	}
	a, b := t.TempDir(), t.TempDir()
	for _, name := range []string{"fig3", "fig7", "fig8"} {
		ex, _ := Lookup(name)
		for _, w := range []struct {
			dir string
			n   int
		}{{a, 1}, {b, 3}} {
			if _, err := (&Env{Results: w.dir, Seed: 7, Seeds: []uint64{7, 8}, Version: "test", Workers: w.n}).Run(ex); err != nil {
				t.Fatal(err)
			}
		}
	}
	files := 0
	err := filepath.WalkDir(a, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(a, path)
		x, _ := os.ReadFile(path)
		y, err := os.ReadFile(filepath.Join(b, rel))
		if err != nil || !bytes.Equal(x, y) {
			t.Errorf("%s differs between 1 and 3 workers (%v)", rel, err)
		}
		files++
		return nil
	})
	if err != nil || files < 20 {
		t.Fatalf("compared %d files (%v)", files, err)
	}
}

// A failing experiment leaves the previous results in place and no
// half-written directory.
func TestFailedRunKeepsPreviousResults(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "broken"), 0o755); err != nil {
		t.Fatal(err)
	}
	marker := filepath.Join(dir, "broken", "previous")
	os.WriteFile(marker, []byte("x"), 0o644)
	ex := &Experiment{Name: "broken", run: func(x *Ctx) (reports.Section, error) {
		os.WriteFile(filepath.Join(x.Dir, "half"), []byte("x"), 0o644)
		return reports.Section{}, errors.New("disk full")
	}}
	if _, err := (&Env{Results: dir, Seed: 1}).Run(ex); err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Fatalf("error %v, want the experiment's", err)
	}
	if _, err := os.Stat(marker); err != nil {
		t.Error("the previous results were removed")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("result root holds %d entries after a failed run, want only the previous results", len(entries))
	}
}

func TestCellChecks(t *testing.T) {
	tr, cfg := mustPreemption()
	for _, cells := range [][]*run.Cell{
		{{Dir: "../escape", Trace: tr, TraceFile: "t.arrow", Policy: "hfsp", Cluster: cfg}},
		{{Dir: "a", Trace: tr, TraceFile: "t.arrow", Policy: "hfsp", Cluster: cfg}, {Dir: "a", Trace: tr, TraceFile: "t.arrow", Policy: "fair", Cluster: cfg}},
		{{Dir: "a", TraceFile: "t.arrow", Policy: "hfsp", Cluster: cfg}},
	} {
		env := &Env{Results: t.TempDir()}
		if _, err := env.replayCells("x", filepath.Join(env.Results, "x"), cells); err == nil {
			t.Errorf("cells %q accepted", cells[0].Dir)
		}
	}
	env := &Env{Results: t.TempDir()}
	_, err := env.replayCells("x", filepath.Join(env.Results, "x"), []*run.Cell{{Dir: "a", Trace: tr, TraceFile: "t.arrow", Policy: "no-such-policy", Cluster: cfg}})
	if err == nil || !strings.Contains(err.Error(), "cell a") || !strings.Contains(err.Error(), "no-such-policy") {
		t.Errorf("unknown policy: %v", err)
	}
}

func TestRoundAndLabels(t *testing.T) {
	if round(math.NaN(), 3) != 0 || round(1.23456, 2) != 1.23 {
		t.Error("round")
	}
	if got := strconv.Quote(label("hfsp")); got != `"HFSP"` {
		t.Errorf("label(hfsp) = %s", got)
	}
	if _, err := Lookup("fig9"); err == nil || !strings.Contains(err.Error(), "fig3") {
		t.Errorf("Lookup(fig9): %v", err)
	}
}

// The backfilling tables are the finish times of the result files.
func TestBackfillTables(t *testing.T) {
	dir, all := runAll(t)
	for i, c := range backfillCases {
		tab := all["backfill"].Tables[i]
		fair := readJobs(t, dir, "backfill", c.name+"/fair")
		easy := readJobs(t, dir, "backfill", c.name+"/easy")
		if len(tab.Rows) != fair.Len() || fair.Len() != len(c.paper) {
			t.Fatalf("%s: %d rows, %d jobs, %d paper rows", c.name, len(tab.Rows), fair.Len(), len(c.paper))
		}
		for j, row := range tab.Rows {
			if row[3] != fmt.Sprintf("%.2f", fair.Finish[j]) || row[4] != fmt.Sprintf("%.2f", easy.Finish[j]) {
				t.Errorf("%s j%d: table %v, result files %.2f and %.2f", c.name, j+1, row, fair.Finish[j], easy.Finish[j])
			}
		}
	}
}

// Disco's experiment has both policies for every seed, each seed its own
// trace, and Disco speeds the production job up in every one.
func TestDiscoSeeds(t *testing.T) {
	dir, all := runAll(t)
	m := readManifest(t, dir, "disco")
	if len(m.Runs) != 2*len(testSeeds) {
		t.Fatalf("%d runs, want %d", len(m.Runs), 2*len(testSeeds))
	}
	traces := map[string]bool{}
	for _, r := range m.Runs {
		traces[r.Trace] = true
	}
	if len(traces) != len(testSeeds) {
		t.Errorf("%d distinct traces, want one per seed", len(traces))
	}
	for i, seed := range testSeeds {
		f := readJobs(t, dir, "disco", fmt.Sprintf("seed-%02d/fair", seed))
		d := readJobs(t, dir, "disco", fmt.Sprintf("seed-%02d/disco", seed))
		if want := ratio(f.Sojourn[1] / d.Sojourn[1]); all["disco"].Tables[0].Rows[i][3] != want {
			t.Errorf("seed %d: speed-up %s in the table, %s from the result files", seed, all["disco"].Tables[0].Rows[i][3], want)
		}
		if got := all["disco"].Claims[0].Values[i]; math.Abs(float64(got)-f.Sojourn[1]/d.Sojourn[1]) > 1e-6 {
			t.Errorf("seed %d: claim's speed-up %v, the result files' %v", seed, got, f.Sojourn[1]/d.Sojourn[1])
		}
		if d.Sojourn[1] >= f.Sojourn[1] {
			t.Errorf("seed %d: production job no faster under disco", seed)
		}
	}
}

// policyOf is the policy a table row's label names.
func policyOf(t *testing.T, l string) string {
	t.Helper()
	for _, p := range comparedPolicies() {
		if label(p) == l {
			return p
		}
	}
	t.Fatalf("no policy is labelled %q", l)
	return ""
}
