package experiments

import (
	"fmt"

	"sojourn/analysis"
	"sojourn/replay"
	"sojourn/replay/scenario"
	"sojourn/reports"
	"sojourn/run"
	"sojourn/traces"
)

// The experiments of the other seed papers: the two-level scheduler with
// EASY backfilling (three cases) and Disco's preemptive fair scheduler
// (research and production jobs).

// backfillCases are the backfilling paper's Tables 1–3, with its finish
// times in seconds without and with backfilling, job by job.
var backfillCases = []struct {
	name, title string
	build       func() (*traces.Trace, replay.Config)
	paper       [][2]float64
}{
	{"equal", "Case 1: equal jobs", scenario.BackfillEqual, [][2]float64{{5.07, 5.11}, {5.01, 5.09}, {5.07, 5.09}, {6.50, 6.61}}},
	{"medium", "Case 2: medium jobs", scenario.BackfillMedium, [][2]float64{{2.50, 2.52}, {2.57, 3.01}, {2.57, 3.51}, {3.34, 3.08}}},
	{"small", "Case 3: more small jobs", scenario.BackfillSmall, [][2]float64{{2.49, 2.15}, {2.57, 2.26}, {2.49, 2.26}, {6.15, 5.37}, {6.23, 5.36}}},
}

func backfill(x *Ctx) (reports.Section, error) {
	x.Param("workload", "the backfilling paper's three cases; task counts and durations as in replay/scenario")
	var cells []*run.Cell
	for _, c := range backfillCases {
		tr, cfg := c.build()
		cells = append(cells,
			&run.Cell{Tasks: true, Dir: c.name + "/fair", Trace: tr, TraceFile: c.name + ".arrow", Policy: "fair", Cluster: cfg},
			&run.Cell{Tasks: true, Dir: c.name + "/easy", Trace: tr, TraceFile: c.name + ".arrow", Policy: "easy", Cluster: cfg,
				Options: map[string]string{"job-share": "1"}})
	}
	runs, err := x.Replay(cells)
	if err != nil {
		return reports.Section{}, err
	}
	sec := reports.Section{Title: "Fair scheduling with EASY backfilling (the two-level scheduler's three cases)",
		Summary: "The backfilling paper's three cases on a 5-slot pool: FAIR alone (\"without\") and FAIR beneath an EASY " +
			"backfilling admission (policy easy with job-share = 1, \"with\"). The paper gives input sizes but no task times; " +
			"ours are one map per MB at 1 s per MB and a 1-s reduce, so only orders and differences can be compared."}
	for i, c := range backfillCases {
		fair, easy := runs[2*i].Jobs, runs[2*i+1].Jobs
		tab := reports.Table{Name: "backfill-" + c.name, Title: c.title + ": finish times (s)",
			Columns: []string{"job", "input", "submit", "without (FAIR)", "with (easy)", "paper without", "paper with"}}
		for j := 0; j < fair.Len(); j++ {
			tab.Rows = append(tab.Rows, []string{fmt.Sprintf("j%d", j+1), runs[2*i].Cell.Trace.Jobs[j].Name, secs(fair.Submit[j]),
				fmt.Sprintf("%.2f", fair.Finish[j]), fmt.Sprintf("%.2f", easy.Finish[j]),
				fmt.Sprintf("%.2f", c.paper[j][0]), fmt.Sprintf("%.2f", c.paper[j][1])})
		}
		tab.Note = fmt.Sprintf("Mean sojourn: FAIR %.2f s, easy %.2f s.", analysis.Mean(fair.Sojourn), analysis.Mean(easy.Sojourn))
		sec.Tables = append(sec.Tables, tab)
	}
	sec.Claims = judgeOnce(backfillChecks, runs)
	return sec, nil
}

// backfillChecks are the backfilling paper's claims on its three cases
// (runs: FAIR then easy for each case), which have no randomness.
var backfillChecks = []check[[]*Run]{
	{statement: "Case 1 (equal jobs): backfilling leaves the finish times about unchanged (mean sojourn with / without)",
		paper: "within 2%", tol: between(0.98, 1.02, "0.98× to 1.02×"), show: showRatio,
		value: func(r []*Run) float64 { return analysis.Mean(r[1].Jobs.Sojourn) / analysis.Mean(r[0].Jobs.Sojourn) },
		note:  "With job-share = 1 each admitted 3-map job reserves 3 of the 5 slots, so easy runs the four jobs one after another where FAIR shares the slots; the paper's pools are not described further."},
	{statement: "Case 2 (medium jobs): the later 2 MB job is backfilled and ends before the 2.5 MB job (finish of the 2.5 MB job less the 2 MB job's)",
		paper: "3.08 s < 3.51 s", tol: above(0, "> 0 s"), show: func(v float64) string { return fmt.Sprintf("%+.2f s", v) },
		value: func(r []*Run) float64 { return r[3].Jobs.Finish[2] - r[3].Jobs.Finish[3] }},
	{statement: "Case 3 (small jobs): the small jobs end before the large ones (first large finish less the last small one's)",
		paper: "2.15–2.26 s vs 5.37 s", tol: above(0, "> 0 s"), show: func(v float64) string { return fmt.Sprintf("%+.2f s", v) },
		value: func(r []*Run) float64 {
			small := r[5].Jobs
			return small.Finish[3] - max(small.Finish[0], small.Finish[1])
		}},
}

func disco(x *Ctx) (reports.Section, error) {
	x.Param("workload", "Disco's research (25 long maps) and production (25 short maps, 20 s later) jobs on 5 nodes")
	seeds := x.Env.seeds()
	x.Param("seeds", len(seeds))
	var cells []*run.Cell
	for _, seed := range seeds {
		tr, cfg := scenario.DiscoResearchProduction(seed)
		cfg.Seed = seed
		file := fmt.Sprintf("research-production-seed-%02d.arrow", seed)
		for _, p := range []string{"fair", "disco"} {
			cells = append(cells, &run.Cell{Tasks: true, Dir: fmt.Sprintf("seed-%02d/%s", seed, p), Trace: tr, TraceFile: file, Policy: p,
				Cluster: cfg, Labels: map[string]string{"seed": fmt.Sprint(seed)}})
		}
	}
	runs, err := x.Replay(cells)
	if err != nil {
		return reports.Section{}, err
	}
	tab := reports.Table{Name: "disco-seeds", Title: "Research and production jobs: sojourn times (s), FAIR vs Disco's preemptive fair",
		Columns: []string{"seed", "production FAIR", "production Disco", "speed-up", "research FAIR", "research Disco", "research slow-down", "kills"}}
	var speedups, slowdowns []float64
	for i := 0; i < len(runs); i += 2 {
		f, d := runs[i].Jobs, runs[i+1].Jobs
		sp, sl := f.Sojourn[1]/d.Sojourn[1], d.Sojourn[0]/f.Sojourn[0]-1
		speedups, slowdowns = append(speedups, sp), append(slowdowns, sl)
		var kills int32
		for _, j := range runs[i+1].Result.Jobs {
			kills += j.Kills
		}
		tab.Rows = append(tab.Rows, []string{fmt.Sprint(seeds[i/2]), secs(f.Sojourn[1]), secs(d.Sojourn[1]), ratio(sp),
			secs(f.Sojourn[0]), secs(d.Sojourn[0]), fmt.Sprintf("%+.1f%%", 100*sl), fmt.Sprint(kills)})
	}
	sp, spLo, spHi := analysis.MeanCI(speedups, 0.95)
	sl, slLo, slHi := analysis.MeanCI(slowdowns, 0.95)
	tab.Note = fmt.Sprintf("Mean over %d seeds: production %.2f× faster (95%% CI %.2f–%.2f), research %+.1f%% (95%% CI %+.1f%% to %+.1f%%).",
		len(seeds), sp, spLo, spHi, 100*sl, 100*slLo, 100*slHi)
	sec := reports.Section{Title: "Disco's preemptive fair scheduler: research and production jobs",
		Summary: "A long research job is running when a short production job arrives 20 s later. Disco's policy kills " +
			"research tasks at once to give the production job its fair share and holds slots for jobs between phases; " +
			"plain FAIR waits for research tasks to end. Each seed draws different task times (±20%).",
		Tables: []reports.Table{tab}}
	var per [][2]float64
	for i := range speedups {
		per = append(per, [2]float64{speedups[i], slowdowns[i]})
	}
	for _, c := range discoChecks {
		values := make([]float64, len(per))
		for i, p := range per {
			values[i] = c.value(p)
		}
		sec.Claims = append(sec.Claims, claimFrom(c, values, nil, false))
	}
	return sec, nil
}

// discoChecks are Disco's claims on one seed's speed-up of the production
// job and slow-down of the research job.
var discoChecks = []check[[2]float64]{
	{statement: "Disco: the production job runs 8.4 times faster than under plain fair", paper: "8.4×",
		tol: between(8.4*0.8, 8.4*1.2, "8.4× ± 20%"), show: showRatio, value: func(p [2]float64) float64 { return p[0] },
		note: "Most of the paper's gain is a one-minute wait between the production job's map and shuffle phases under its fair policy; Hadoop's separate reduce slots have no such wait."},
	{statement: "Disco: the research job is slowed down by about 4%", paper: "+4%", tol: between(0, 0.08, "+4% ± 4 points"),
		show: showChange, value: func(p [2]float64) float64 { return p[1] }},
}
