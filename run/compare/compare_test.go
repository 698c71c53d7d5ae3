package compare

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	"sojourn/run/sweep"
)

// group makes a group of n jobs with exponential sojourns.
func group(workload, policy string, seed uint64, n int) *sweep.Group {
	rng := rand.New(rand.NewPCG(seed, 1))
	g := &sweep.Group{Workload: workload, Policy: policy, Seeds: []uint64{1}, Traces: []string{"t-" + workload}}
	for i := 0; i < n; i++ {
		s := 10 + 100*rng.ExpFloat64()
		g.PerJob.SojournS = append(g.PerJob.SojournS, s)
		g.PerJob.Slowdown = append(g.PerJob.Slowdown, s/10)
		g.PerJob.NodeLocalMaps = append(g.PerJob.NodeLocalMaps, 9)
		g.PerJob.Maps = append(g.PerJob.Maps, 10)
	}
	return g
}

func summary(gs ...*sweep.Group) *sweep.Summary {
	return &sweep.Summary{Format: sweep.SummaryFormat, Groups: gs, CodeVersion: "v"}
}

// scaled copies g with sojourns and slowdowns times f.
func scaled(g *sweep.Group, f float64) *sweep.Group {
	c := *g
	c.PerJob = sweep.PerJob{NodeLocalMaps: g.PerJob.NodeLocalMaps, Maps: g.PerJob.Maps}
	for i := range g.PerJob.SojournS {
		c.PerJob.SojournS = append(c.PerJob.SojournS, f*g.PerJob.SojournS[i])
		c.PerJob.Slowdown = append(c.PerJob.Slowdown, f*g.PerJob.Slowdown[i])
	}
	return &c
}

func verdicts(r *Report) map[string]string {
	out := map[string]string{}
	for _, row := range r.Rows {
		out[row.Group.Key()+" "+row.Metric.Name] = row.Verdict
	}
	return out
}

func TestIdenticalIsOK(t *testing.T) {
	a, b := group("w", "fifo", 1, 100), group("w", "fair", 2, 100)
	r, err := Compare(summary(a, b), summary(a, b), Options{Threshold: 0.05, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if r.Regressions != 0 || len(r.Rows) != 2*len(Metrics) {
		t.Fatalf("%d regressions, %d rows", r.Regressions, len(r.Rows))
	}
	for _, row := range r.Rows {
		if row.Verdict != OK || row.Change.Est != 0 || row.Change.Lo != 0 || row.Change.Hi != 0 || !row.Paired {
			t.Errorf("%s %s: %+v %s", row.Group.Key(), row.Metric.Name, row.Change, row.Verdict)
		}
	}
}

func TestWorseCandidateRegresses(t *testing.T) {
	a, b := group("w", "fifo", 1, 100), group("w", "fair", 2, 100)
	worse := scaled(b, 1.3)
	r, err := Compare(summary(a, b), summary(a, worse), Options{Threshold: 0.05, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	v := verdicts(r)
	for _, m := range []string{"mean", "median", "p95", "slowdown"} {
		if v["w fair "+m] != Regressed || v["w fifo "+m] != OK {
			t.Errorf("%s: fair %s, fifo %s", m, v["w fair "+m], v["w fifo "+m])
		}
	}
	if v["w fair local"] != OK || r.Regressions != 4 {
		t.Errorf("local %s, %d regressions", v["w fair local"], r.Regressions)
	}
	// 3% worse everywhere: the interval excludes 0 but the change is
	// within the threshold.
	r, _ = Compare(summary(b), summary(scaled(b, 1.03)), Options{Threshold: 0.05, Seed: 1})
	if r.Regressions != 0 {
		t.Errorf("3%% worse with a 5%% threshold: %d regressions", r.Regressions)
	}
	r, _ = Compare(summary(b), summary(scaled(b, 1.03)), Options{Threshold: 0.01, Seed: 1})
	if r.Regressions != 4 {
		t.Errorf("3%% worse with a 1%% threshold: %d regressions, want 4", r.Regressions)
	}
	// Faster is an improvement, not a regression.
	r, _ = Compare(summary(b), summary(scaled(b, 0.5)), Options{Threshold: 0.05, Seed: 1})
	if v := verdicts(r); r.Regressions != 0 || v["w fair mean"] != Improved {
		t.Errorf("twice as fast: %d regressions, mean %s", r.Regressions, v["w fair mean"])
	}
}

func TestLocalityDropRegresses(t *testing.T) {
	b := group("w", "hfsp", 3, 50)
	c := *b
	c.PerJob.NodeLocalMaps = make([]float64, 50)
	for i := range c.PerJob.NodeLocalMaps {
		c.PerJob.NodeLocalMaps[i] = 7 // 90% -> 70%
	}
	r, _ := Compare(summary(b), summary(&c), Options{Threshold: 0.05, Seed: 1})
	if v := verdicts(r); v["w hfsp local"] != Regressed || r.Regressions != 1 {
		t.Errorf("node-local 90%% -> 70%%: %v", v)
	}
}

// Unpaired: a candidate whose traces differ is compared job-agnostically,
// and a large sample difference in noise alone is not a regression.
func TestUnpaired(t *testing.T) {
	a := group("w", "fifo", 1, 200)
	b := group("w", "fifo", 9, 200)
	b.Traces = []string{"other"}
	r, _ := Compare(summary(a), summary(b), Options{Threshold: 0.05, Seed: 1, Metrics: []string{"mean"}})
	if len(r.Rows) != 1 || r.Rows[0].Paired {
		t.Fatalf("rows %+v", r.Rows)
	}
	if iv := r.Rows[0].Change; !(iv.Lo < iv.Est && iv.Est < iv.Hi) {
		t.Errorf("unpaired interval %+v", iv)
	}
}

// TestUnpairedReasons: each reason a group cannot be paired is named, and
// every row of such a group is counted.
func TestUnpairedReasons(t *testing.T) {
	base := group("w", "fifo", 1, 20)
	for _, c := range []struct {
		name string
		edit func(g *sweep.Group)
		want string
	}{
		{"same", func(*sweep.Group) {}, ""},
		{"trace", func(g *sweep.Group) { g.Traces = []string{"0123456789abcdef"} }, "seed 1: trace_sha256 t-w in the baseline, 01234567… in the candidate"},
		{"seed", func(g *sweep.Group) { g.Seeds = []uint64{2} }, "seed 1 in the baseline, 2 in the candidate"},
		{"seeds", func(g *sweep.Group) { g.Seeds, g.Traces = []uint64{1, 2}, []string{"t-w", "t-w2"} }, "1 seeds in the baseline, 2 in the candidate"},
		{"jobs", func(g *sweep.Group) { g.PerJob.SojournS = g.PerJob.SojournS[:19] }, "20 jobs in the baseline, 19 in the candidate"},
	} {
		t.Run(c.name, func(t *testing.T) {
			cand := scaled(base, 1)
			c.edit(cand)
			r, err := Compare(summary(base), summary(cand), Options{Threshold: 0.05, Seed: 1, Metrics: []string{"mean", "p95"}, Resamples: 10})
			if err != nil {
				t.Fatal(err)
			}
			if c.want == "" {
				if r.UnpairedRows != 0 || len(r.Unpaired) != 0 {
					t.Errorf("unpaired %d rows: %v", r.UnpairedRows, r.Unpaired)
				}
				return
			}
			if r.UnpairedRows != 2 || len(r.Unpaired) != 1 || r.Unpaired[0] != (Unpaired{"w fifo", c.want}) {
				t.Errorf("%d rows unpaired: %+v, want 2 and %q", r.UnpairedRows, r.Unpaired, c.want)
			}
			var md bytes.Buffer
			r.Markdown(&md, "b", "c")
			if want := "**2 of 2 rows unpaired** (their intervals measure the spread between jobs, not the change job by job): w fifo: " + c.want + ".\n"; !strings.Contains(md.String(), want) {
				t.Errorf("Markdown lacks %q:\n%s", want, md.String())
			}
		})
	}
}

// TestFixedChanges: every fixed setting that differs is listed in name
// order, a missing one as "not set"; a side that did not record its
// settings makes them unknown rather than different.
func TestFixedChanges(t *testing.T) {
	g := group("w", "fifo", 1, 10)
	with := func(fixed map[string]sweep.Value) *sweep.Summary {
		s := summary(g)
		s.Fixed = fixed
		return s
	}
	r, _ := Compare(with(map[string]sweep.Value{"nodes": "100", "mtbf": "3600"}), with(map[string]sweep.Value{"nodes": "90", "heartbeat": "3", "mtbf": "3600"}), Options{Resamples: 10})
	want := []FixedChange{{"heartbeat", "", "3"}, {"nodes", "100", "90"}}
	if len(r.FixedChanges) != 2 || r.FixedChanges[0] != want[0] || r.FixedChanges[1] != want[1] || r.FixedUnknown {
		t.Fatalf("changes %+v (unknown %v), want %+v", r.FixedChanges, r.FixedUnknown, want)
	}
	if s := r.FixedChanges[0].String() + "; " + r.FixedChanges[1].String(); s != "heartbeat not set in the baseline, 3 in the candidate; nodes 100 in the baseline, 90 in the candidate" {
		t.Errorf("text %q", s)
	}
	var md bytes.Buffer
	r.Markdown(&md, "b", "c")
	if !strings.Contains(md.String(), "**Fixed settings differ**: heartbeat not set in the baseline, 3 in the candidate; nodes 100 in the baseline, 90 in the candidate.\n") {
		t.Errorf("Markdown:\n%s", md.String())
	}
	if r, _ := Compare(with(map[string]sweep.Value{}), with(map[string]sweep.Value{}), Options{Resamples: 10}); len(r.FixedChanges) != 0 || r.FixedUnknown {
		t.Errorf("none on either side: %+v, unknown %v", r.FixedChanges, r.FixedUnknown)
	}
	if r, _ := Compare(with(nil), with(map[string]sweep.Value{"nodes": "90"}), Options{Resamples: 10}); len(r.FixedChanges) != 0 || !r.FixedUnknown {
		t.Errorf("unrecorded baseline: %+v, unknown %v", r.FixedChanges, r.FixedUnknown)
	}
}

func TestMissingAndAdded(t *testing.T) {
	a, b, c := group("w", "fifo", 1, 10), group("w", "fair", 2, 10), group("w", "hfsp", 3, 10)
	r, _ := Compare(summary(a, b), summary(a, c), Options{Threshold: 0.05, Seed: 1})
	if r.Regressions != 1 || len(r.Missing) != 1 || r.Missing[0] != "w fair" || len(r.Added) != 1 || r.Added[0] != "w hfsp" {
		t.Errorf("missing %v, added %v, %d regressions", r.Missing, r.Added, r.Regressions)
	}
	var md bytes.Buffer
	r.Markdown(&md, "base.json", "cand.json")
	for _, want := range []string{"Missing from the candidate (counted as regressions): w fair.", "Only in the candidate (not compared): w hfsp.", "**1 regression** beyond 5%."} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("Markdown lacks %q:\n%s", want, md.String())
		}
	}
}

func TestMarkdownAndDeterminism(t *testing.T) {
	a := group("fb2009", "hfsp", 1, 100)
	a.Params = map[string]string{"nodes": "50"}
	w := scaled(a, 1.2)
	render := func() string {
		r, err := Compare(summary(a), summary(w), Options{Threshold: 0.05, Seed: 7})
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		r.Markdown(&b, "base", "cand")
		return b.String()
	}
	out := render()
	if out != render() {
		t.Error("two comparisons with the same seed differ")
	}
	for _, want := range []string{
		"| workload | policy | parameters | metric | baseline | candidate | change | 95% interval | verdict |",
		"| fb2009 | hfsp | nodes=50 | mean sojourn (s) |",
		"| +20.0% | [+20.0%, +20.0%] | **regressed** |",
		"| node-local maps | 90.0% | 90.0% | +0.0% | [+0.0%, +0.0%] | ok |",
		"**4 regressions** beyond 5%: fb2009 hfsp nodes=50: mean sojourn (s) +20.0%;",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("Markdown lacks %q:\n%s", want, out)
		}
	}
}

func TestOptionErrors(t *testing.T) {
	s := summary(group("w", "fifo", 1, 5))
	for _, c := range []struct {
		o    Options
		want string
	}{
		{Options{Threshold: -1}, "threshold -1: want a relative change >= 0"},
		{Options{Level: 1.5}, "level 1.5: want a confidence level between 0 and 1"},
		{Options{Resamples: -3}, "resamples -3: want 1 to 2000000"},
		{Options{Metrics: []string{"mean", "p99"}}, `metric "p99": want one of mean, median, p95, slowdown, local`},
	} {
		if _, err := Compare(s, s, c.o); err == nil || err.Error() != c.want {
			t.Errorf("%+v: %v, want %q", c.o, err, c.want)
		}
	}
}

// TestMarkdownCodeVersions: the header names each side's code version
// when it is known (go test and go run builds have none).
func TestMarkdownCodeVersions(t *testing.T) {
	g := group("w", "fifo", 1, 10)
	base, cand := summary(g), summary(g)
	base.CodeVersion, cand.CodeVersion = "0123abc", "unknown"
	r, _ := Compare(base, cand, Options{Resamples: 10})
	var md bytes.Buffer
	r.Markdown(&md, "b", "c")
	if want := "Baseline `b` (code 0123abc), candidate `c`.\n"; !strings.Contains(md.String(), want) {
		t.Errorf("Markdown lacks %q:\n%s", want, md.String())
	}
}
