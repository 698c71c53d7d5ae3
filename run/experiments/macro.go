package experiments

import (
	"fmt"
	"math"

	"sojourn/analysis"
	"sojourn/replay"
	"sojourn/reports"
	"sojourn/run"
	"sojourn/traces"
)

// macroRuns replays a paper workload under every compared policy on the
// paper's cluster. keep lists the policies whose segments are kept.
func macroRuns(x *Ctx, profile string, keep ...string) (*traces.Trace, map[string]*Run, error) {
	tr, err := profileTrace(profile, x.Env.Seed)
	if err != nil {
		return nil, nil, err
	}
	x.Param("workload", profile)
	x.Param("nodes", 100)
	var cells []*run.Cell
	for _, p := range comparedPolicies() {
		c := &run.Cell{Tasks: true, Dir: p, Trace: tr, TraceFile: profile + ".arrow", Policy: p, Cluster: paperCluster(x.Env.Seed)}
		for _, k := range keep {
			c.Keep = c.Keep || k == p
		}
		cells = append(cells, c)
	}
	runs, err := x.Replay(cells)
	if err != nil {
		return nil, nil, err
	}
	return tr, byPolicy(runs), nil
}

// ecdfSeries is the ECDF of xs as a step series, starting at 0: a first
// point (min xs, 0) makes the staircase rise from the axis at the
// smallest sample instead of floating at 1/n.
func ecdfSeries(name string, xs []float64, scale float64) reports.Series {
	x, y := analysis.ECDF(xs)
	if len(x) > 0 {
		x = append([]float64{x[0]}, x...)
		y = append([]float64{0}, y...)
	}
	for i := range x {
		x[i] /= scale
	}
	return reports.Series{Label: name, Kind: reports.Step, X: x, Y: y}
}

// figurePolicies are the two policies the paper's figures compare.
var figurePolicies = []string{"fair", "hfsp"}

// fb2009Classes are the paper's Table 1 bins, as labelled by the
// generator, with the figure's panel titles.
var fb2009Classes = []struct{ class, title string }{
	{"small", "Small jobs"}, {"medium", "Medium jobs"}, {"big", "Large jobs"},
}

func classSojourns(r *Run, class string) []float64 {
	var out []float64
	for i, c := range r.Jobs.Class {
		if c == class {
			out = append(out, r.Jobs.Sojourn[i])
		}
	}
	return out
}

func fig3(x *Ctx) (reports.Section, error) {
	_, runs, err := macroRuns(x, "fb2009")
	if err != nil {
		return reports.Section{}, err
	}
	fig := reports.Figure{Name: "fig3", Title: "Figure 3: ECDFs of sojourn times for FB2009, per job class",
		Caption: "FB2009 on 100 nodes: empirical CDF of job sojourn times for FAIR and HFSP, one panel per job class of the paper's Table 1."}
	tab := reports.Table{Name: "fig3-classes", Title: "FB2009 sojourn times per job class (s)",
		Columns: []string{"class", "jobs", "policy", "mean", "median", "p95", "max"}}
	for _, cl := range fb2009Classes {
		p := reports.Panel{Title: cl.title, XLabel: "sojourn time (s)", YLabel: "fraction of jobs", XLog: true,
			Y: &reports.Range{Min: 0, Max: 1}}
		for _, pol := range figurePolicies {
			p.Series = append(p.Series, ecdfSeries(label(pol), classSojourns(runs[pol], cl.class), 1))
		}
		fig.Panels = append(fig.Panels, p)
		for _, pol := range comparedPolicies() {
			s := analysis.Summarize(classSojourns(runs[pol], cl.class))
			tab.Rows = append(tab.Rows, []string{cl.class, fmt.Sprint(s.N), label(pol), secs(s.Mean), secs(s.Median), secs(s.P95), secs(s.Max)})
		}
	}
	sec := reports.Section{Title: "FB2009: sojourn times per job class (Figure 3)",
		Summary: "The FB2009-like workload (100 jobs, mostly small) replayed on the paper's 100-node cluster. " +
			"Small jobs fit in their fair share under both schedulers; medium and large jobs are where size-based " +
			"scheduling focuses the cluster on the smallest job instead of splitting it.",
		Figures: []reports.Figure{fig}, Tables: []reports.Table{tab}}
	mean := func(pol, class string) float64 { return analysis.Mean(classSojourns(runs[pol], class)) }
	small := [2]float64{mean("fair", "small"), mean("hfsp", "small")}
	sec.Claims = append(sec.Claims, reports.Claim{
		Statement: "Small jobs: HFSP slightly better than FAIR (mean sojourn)",
		Paper:     "HFSP slightly better", Ours: fmt.Sprintf("FAIR %.1f s, HFSP %.1f s", small[0], small[1]),
		Verdict: verdict(small[1] <= small[0], small[1] <= 1.05*small[0])})
	for _, cl := range []string{"medium", "big"} {
		f, h := mean("fair", cl), mean("hfsp", cl)
		c := reports.Claim{Statement: fmt.Sprintf("%s jobs: HFSP's sojourn times significantly shorter than FAIR's", map[string]string{"medium": "Medium", "big": "Large"}[cl]),
			Paper: "significantly shorter", Ours: fmt.Sprintf("mean FAIR %.0f s, HFSP %.0f s (−%.0f%%)", f, h, 100*(1-h/f)),
			Verdict: verdict(h <= 0.8*f, h < f)}
		if math.IsNaN(f) {
			c.Verdict, c.Ours = reports.NotShown, "no job of this class in the workload"
		}
		sec.Claims = append(sec.Claims, c)
	}
	return sec, nil
}

const hour = 3600.0

func fig4(x *Ctx) (reports.Section, error) {
	_, runs, err := macroRuns(x, "fb2010", "hfsp")
	if err != nil {
		return reports.Section{}, err
	}
	phases := []struct {
		title string
		get   func(r *Run) []float64
	}{
		{"(a) Map phase", func(r *Run) []float64 { return analysis.Finite(r.Jobs.MapSojourn) }},
		{"(b) Reduce phase", func(r *Run) []float64 { return analysis.Finite(r.Jobs.ReduceSojourn) }},
		{"(c) Aggregate", func(r *Run) []float64 { return r.Jobs.Sojourn }},
	}
	fig := reports.Figure{Name: "fig4", Title: "Figure 4: ECDFs of sojourn times for FB2010",
		Caption: "FB2010 on 100 nodes: empirical CDFs of the map-phase (submit to last map), reduce-phase " +
			"(slow-start to last reduce) and whole-job sojourn times, FAIR vs HFSP; the vertical line is at 60 minutes."}
	for _, ph := range phases {
		p := reports.Panel{Title: ph.title, XLabel: "sojourn time (min)", YLabel: "fraction of jobs",
			Y: &reports.Range{Min: 0, Max: 1}, Marks: []reports.Mark{{Axis: "x", At: 60, Label: "60 min"}}}
		for _, pol := range figurePolicies {
			p.Series = append(p.Series, ecdfSeries(label(pol), ph.get(runs[pol]), 60))
		}
		fig.Panels = append(fig.Panels, p)
	}
	tab := reports.Table{Name: "fig4-phases", Title: "FB2010 sojourn times per phase (minutes) and jobs done within 60 minutes",
		Columns: []string{"policy", "median map phase", "median reduce phase", "median job", "max job", "jobs ≤ 60 min"}}
	for _, pol := range comparedPolicies() {
		r := runs[pol]
		tab.Rows = append(tab.Rows, []string{label(pol),
			secs(analysis.Median(phases[0].get(r)) / 60), secs(analysis.Median(phases[1].get(r)) / 60),
			secs(analysis.Median(r.Jobs.Sojourn) / 60), secs(analysis.Summarize(r.Jobs.Sojourn).Max / 60),
			pct(analysis.FractionAtMost(r.Jobs.Sojourn, hour))})
	}
	sec := reports.Section{Title: "FB2010: map, reduce and job sojourn times (Figure 4)",
		Summary: "The FB2010-like workload (93 large multi-wave jobs arriving over about an hour) on 100 nodes. " +
			"The map phase of a job ends when its last map does; its reduce phase runs from slow-start to its last reduce.",
		Figures: []reports.Figure{fig}, Tables: []reports.Table{tab}}
	fair, hfsp := runs["fair"], runs["hfsp"]
	medMap := [2]float64{analysis.Median(phases[0].get(fair)), analysis.Median(phases[0].get(hfsp))}
	medRed := [2]float64{analysis.Median(phases[1].get(fair)), analysis.Median(phases[1].get(hfsp))}
	at60 := [2]float64{analysis.FractionAtMost(fair.Jobs.Sojourn, hour), analysis.FractionAtMost(hfsp.Jobs.Sojourn, hour)}
	fairAtHFSP80 := analysis.FractionAtMost(fair.Jobs.Sojourn, analysis.Quantile(hfsp.Jobs.Sojourn, 0.8))
	sf, sh := analysis.Summarize(fair.Jobs.Sojourn), analysis.Summarize(hfsp.Jobs.Sojourn)
	diff := (medRed[0] - medRed[1]) / 60
	sec.Claims = append(sec.Claims,
		reports.Claim{Statement: "Map phase: HFSP's median sojourn time more than halved", Paper: "< 50% of FAIR's",
			Ours:    fmt.Sprintf("FAIR %.1f min, HFSP %.1f min (%.0f%%)", medMap[0]/60, medMap[1]/60, 100*medMap[1]/medMap[0]),
			Verdict: verdict(medMap[1] <= 0.5*medMap[0], medMap[1] < medMap[0])},
		reports.Claim{Statement: "Reduce phase: median shorter with HFSP by roughly 30 minutes", Paper: "≈ 30 min",
			Ours:    fmt.Sprintf("%.1f min (FAIR %.1f, HFSP %.1f)", diff, medRed[0]/60, medRed[1]/60),
			Verdict: verdict(diff >= 20 && diff <= 40, diff > 0)},
		reports.Claim{Statement: "Jobs done within 60 minutes: HFSP more than 20%", Paper: "> 20%",
			Ours: pct(at60[1]), Verdict: verdict(at60[1] >= 0.2, at60[1] >= 0.1)},
		reports.Claim{Statement: "Jobs done within 60 minutes: FAIR about 1% (one job)", Paper: "≈ 1%",
			Ours: pct(at60[0]), Verdict: verdict(at60[0] <= 0.05, at60[0] < at60[1])},
		reports.Claim{Statement: "When 80% of jobs are served by HFSP, roughly 15% are served by FAIR", Paper: "≈ 15%",
			Ours: pct(fairAtHFSP80), Verdict: verdict(fairAtHFSP80 >= 0.05 && fairAtHFSP80 <= 0.25, fairAtHFSP80 < 0.8)},
		reports.Claim{Statement: "Median and worst-case job sojourn times better with HFSP", Paper: "both better",
			Ours:    fmt.Sprintf("median %.0f vs %.0f min, max %.0f vs %.0f min (FAIR vs HFSP)", sf.Median/60, sh.Median/60, sf.Max/60, sh.Max/60),
			Verdict: verdict(sh.Median < sf.Median && sh.Max < sf.Max, sh.Median < sf.Median || sh.Max < sf.Max)},
		suspendedClaim(hfsp))
	return sec, nil
}

// suspendedClaim checks the paper's remark on its FB2010 run (Section
// 4.4, swap times): at most 10% of running tasks were suspended and
// resumed, and they belonged to 10 jobs.
func suspendedClaim(r *Run) reports.Claim {
	s := &r.Result.Segments
	type key struct{ job, kind, task int32 }
	suspended := map[key]bool{}
	jobs := map[int32]bool{}
	tasks := map[key]bool{}
	for i := 0; i < s.Len(); i++ {
		k := key{s.Job[i], int32(s.Kind[i]), s.Task[i]}
		tasks[k] = true
		if s.Outcome[i] == replay.OutcomeSuspended {
			suspended[k], jobs[s.Job[i]] = true, true
		}
	}
	frac := float64(len(suspended)) / float64(max(1, len(tasks)))
	return reports.Claim{Statement: "FB2010 under HFSP: at most 10% of tasks suspended and resumed, in about 10 jobs",
		Paper: "≤ 10% of tasks, 10 jobs", Ours: fmt.Sprintf("%.2f%% of tasks (%d), in %d jobs", 100*frac, len(suspended), len(jobs)),
		Verdict: verdict(frac <= 0.1 && len(jobs) <= 20, frac <= 0.1)}
}
