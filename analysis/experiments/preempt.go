package experiments

import (
	"fmt"
	"math"
	"sort"

	"sojourn/analysis"
	"sojourn/replay"
	"sojourn/replay/scenario"
	"sojourn/reports"
)

// preemptionModes are Figure 7's variants of HFSP's reduce preemption.
var preemptionModes = []struct{ mode, title string }{
	{"eager", "(a) HFSP with eager preemption"},
	{"wait", "(b) HFSP with Wait"},
	{"kill", "(c) HFSP with Kill"},
}

func fig7(x *Ctx) (reports.Section, error) {
	tr, cfg := scenario.Preemption()
	x.Param("workload", "HFSP Section 4.4: j1 with 11 reduces of ~500 s at 2:20, j2–j5 at 2:30")
	var cells []*Cell
	for _, m := range preemptionModes {
		cells = append(cells, &Cell{Dir: "hfsp-" + m.mode, Trace: tr, TraceFile: "preemption.arrow", Policy: "hfsp",
			Options: map[string]string{"preemption": m.mode}, Cluster: cfg, Keep: true, Occupancy: true,
			Labels: map[string]string{"preemption": m.mode}})
	}
	runs, err := x.Replay(cells)
	if err != nil {
		return reports.Section{}, err
	}
	fig := reports.Figure{Name: "fig7", Title: "Figure 7: resource allocation with and without eager preemption",
		Caption: "The five-job workload of Section 4.4 on 4 nodes with 2 reduce slots each: reduce slots held by each job over time, stacked, under HFSP with eager preemption (suspend/resume), Wait and Kill."}
	tab := reports.Table{Name: "fig7-preemption", Title: "Section 4.4 workload: sojourn times per preemption primitive",
		Columns: []string{"primitive", "mean sojourn (min)", "j1 sojourn (min)", "j2–j5 mean (min)", "suspensions", "kills", "lost work (s)"}}
	mean := map[string]float64{}
	j1 := map[string]float64{}
	kills := map[string]int32{}
	for i, m := range preemptionModes {
		r := runs[i]
		p := allocationPanel(m.title, r.Result, len(tr.Jobs))
		p.Title = fmt.Sprintf("%s: mean %.1f min", m.title, analysis.Mean(r.Jobs.Sojourn)/60)
		fig.Panels = append(fig.Panels, p)
		var susp, kill int32
		for _, j := range r.Result.Jobs {
			susp += j.Suspensions
			kill += j.Kills
		}
		mean[m.mode], j1[m.mode], kills[m.mode] = analysis.Mean(r.Jobs.Sojourn), r.Jobs.Sojourn[0], kill
		tab.Rows = append(tab.Rows, []string{m.mode, secs(mean[m.mode] / 60), secs(j1[m.mode] / 60),
			secs(analysis.Mean(r.Jobs.Sojourn[1:]) / 60), fmt.Sprint(susp), fmt.Sprint(kill), secs(r.Result.LostWork.Sec())})
	}
	sec := reports.Section{Title: "Job preemption (Figure 7)",
		Summary: "Reduce preemption primitives on the paper's five-job workload. The paper gives j1's task times " +
			"(about 500 s) but not those of j2–j5, only that they are shorter; ours are 310, 360, 410 and 460 s, " +
			"chosen so that the Wait variant, which hardly depends on the scheduler model, matches the paper's 15 minutes. " +
			"The eager and Kill figures are then predictions.",
		Figures: []reports.Figure{fig}, Tables: []reports.Table{tab}}
	sec.Claims = append(sec.Claims,
		reports.Claim{Statement: "Eager preemption: mean sojourn about 9 minutes", Paper: "≈ 9 min",
			Ours: fmt.Sprintf("%.1f min", mean["eager"]/60), Verdict: verdict(within(mean["eager"]/60, 9, 0.15), mean["eager"] < mean["wait"])},
		reports.Claim{Statement: "Wait: mean sojourn about 15 minutes", Paper: "≈ 15 min",
			Ours: fmt.Sprintf("%.1f min", mean["wait"]/60), Verdict: verdict(within(mean["wait"]/60, 15, 0.15), mean["wait"] > mean["eager"]),
			Note: "j2–j5's task times are not in the paper; ours were chosen to match this figure (see the section)."},
		reports.Claim{Statement: "Wait's mean sojourn clearly above eager preemption's (\"roughly 40%\")", Paper: "+40% (9 → 15 min is +67%)",
			Ours: fmt.Sprintf("+%.0f%%", 100*(mean["wait"]/mean["eager"]-1)), Verdict: verdict(mean["wait"] >= 1.3*mean["eager"], mean["wait"] > mean["eager"])},
		reports.Claim{Statement: "Kill: j1 completes later than with eager preemption, its killed tasks run again", Paper: "6 tasks killed",
			Ours:    fmt.Sprintf("%d killed; j1 %.1f vs %.1f min", kills["kill"], j1["kill"]/60, j1["eager"]/60),
			Verdict: verdict(j1["kill"] > j1["eager"] && kills["kill"] == 6, j1["kill"] > j1["eager"] && kills["kill"] > 0),
			Note:    killNote(j1["kill"], j1["eager"], runs[2].Result.LostWork.Sec())})
	return sec, nil
}

// killNote explains the Kill variant's outcome on j1.
func killNote(kill, eager, lost float64) string {
	n := "j2–j5 need 5 reduce slots, so 5 of j1's tasks make room; the paper's 6 is one more than the workload needs."
	if kill <= eager {
		n += fmt.Sprintf(" The %.0f s of killed work is re-run while j1 still waits for its last tasks, which start only after j2–j5, so j1 ends no later.", lost)
	}
	return n
}

func within(v, want, tol float64) bool { return v >= want*(1-tol) && v <= want*(1+tol) }

// allocationPanel turns a run's occupancy series into one stacked step
// series per job: reduce slots held over time, in minutes. The workload's
// maps last a second each, so reduce slots are the whole picture.
func allocationPanel(title string, r *replay.Result, jobs int) reports.Panel {
	o := &r.Occupancy
	var times []replay.Time
	for i := 0; i < o.Len(); i++ {
		times = append(times, o.Time[i])
	}
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	times = dedup(times)
	x := make([]float64, len(times))
	for i, t := range times {
		x[i] = t.Sec() / 60
	}
	held := make([][]float64, jobs)
	for j := range held {
		held[j] = make([]float64, len(times))
	}
	// Rows are in time order; each sets its job's count from its time on.
	k := 0
	for i := 0; i < o.Len(); i++ {
		for times[k] < o.Time[i] {
			k++
		}
		for t := k; t < len(times); t++ {
			held[o.Job[i]][t] = float64(o.RunningReduces[i])
		}
	}
	// Stacked series carry the top of their band: the running sum.
	for j := 1; j < jobs; j++ {
		for t := range held[j] {
			held[j][t] += held[j-1][t]
		}
	}
	p := reports.Panel{Title: title, XLabel: "time (min)", YLabel: "reduce slots held (stacked)"}
	for j := range held {
		p.Series = append(p.Series, reports.Series{Label: fmt.Sprintf("j%d", j+1), Kind: reports.Stacked, X: x, Y: held[j]})
	}
	return p
}

func dedup(ts []replay.Time) []replay.Time {
	out := ts[:0]
	for i, t := range ts {
		if i == 0 || t != ts[i-1] {
			out = append(out, t)
		}
	}
	return out
}

// Figure 8's memory footprints of the preempting task, in GB (10⁹ bytes).
var footprintsGB = []float64{0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4, 4.5, 5, 5.5, 6}

func fig8(x *Ctx) (reports.Section, error) {
	x.Param("workload", "HFSP Section 4.4 swap test: one reduce slot, j1 holding 6 GB, j2 preempting with a variable footprint")
	var cells []*Cell
	for _, gb := range footprintsGB {
		tr, cfg := scenario.Swap(int64(gb * 1e9))
		cells = append(cells, &Cell{Dir: fmt.Sprintf("footprint-%.1fGB", gb), Trace: tr,
			TraceFile: fmt.Sprintf("swap-%.1fGB.arrow", gb), Policy: "hfsp",
			Options: map[string]string{"preemption": "eager", "oracle": "both"}, Cluster: cfg,
			Labels: map[string]string{"footprint_gb": fmt.Sprint(gb)}})
	}
	runs, err := x.Replay(cells)
	if err != nil {
		return reports.Section{}, err
	}
	swap := make([]float64, len(runs))
	tab := reports.Table{Name: "fig8-swap", Title: "Swap time (suspend + resume) against the preempting task's footprint",
		Columns: []string{"footprint (GB)", "swap time (s)", "j1 suspensions", "throughput (MB/s)"}}
	for i, r := range runs {
		swap[i] = r.Result.SwapTime.Sec()
		tab.Rows = append(tab.Rows, []string{fmt.Sprint(footprintsGB[i]), secs(swap[i]), fmt.Sprint(r.Result.Jobs[0].Suspensions),
			fmt.Sprintf("%.0f", 2*footprintsGB[i]*1e3/swap[i])})
	}
	p := reports.Panel{Title: "Suspend and resume of a 6 GB reduce task", XLabel: "memory footprint of the preempting task (GB)",
		YLabel: "swap time (s)", Series: []reports.Series{
			{Label: "model (disk at 100 MB/s)", Kind: reports.Points, X: footprintsGB, Y: swap},
			{Label: "paper: 2 GB in about 40 s", Kind: reports.Points, X: []float64{2}, Y: []float64{40}, Dashed: true},
		}}
	fig := reports.Figure{Name: "fig8", Title: "Figure 8: swap times", Panels: []reports.Panel{p},
		Caption: "One TaskTracker with one reduce slot: a 6 GB reduce task is suspended by a preempting task whose footprint is on the x axis, then resumed; the model swaps out what the new task needs and reads it back at the disk bandwidth."}
	sec := reports.Section{Title: "Swap times (Figure 8)",
		Summary: "The cost model of suspend/resume: the operating system writes out as much of the suspended task's memory as the preempting task needs, and reads it back on resume, at the disk's raw speed.",
		Figures: []reports.Figure{fig}, Tables: []reports.Table{tab}}
	at := func(gb float64) float64 {
		for i, g := range footprintsGB {
			if g == gb {
				return swap[i]
			}
		}
		return 0
	}
	lin := linearUpTo(footprintsGB, swap, 5)
	sec.Claims = append(sec.Claims,
		reports.Claim{Statement: "Swap time roughly linear in the footprint up to 5 GB", Paper: "linear",
			Ours: fmt.Sprintf("largest deviation from a line through the origin: %.1f%%", 100*lin), Verdict: verdict(lin <= 0.05, lin <= 0.2)},
		reports.Claim{Statement: "2 GB written and read back in roughly 40 s (about 100 MB/s)", Paper: "≈ 40 s",
			Ours: fmt.Sprintf("%.1f s", at(2)), Verdict: verdict(within(at(2), 40, 0.15), at(2) > 0),
			Note: "By construction: the model's disk bandwidth is the paper's measured 100 MB/s."},
		reports.Claim{Statement: "A 1 GB reduce heap (the FB2010 runs) costs a swap time around 20 s", Paper: "≈ 20 s",
			Ours: fmt.Sprintf("%.1f s", at(1)), Verdict: verdict(within(at(1), 20, 0.15), at(1) > 0)},
		reports.Claim{Statement: "Swap performance degrades slightly beyond 5 GB (OS cache balancing)", Paper: "slower above 5 GB",
			Ours: "linear throughout", Verdict: reports.NotShown,
			Note: "The model has no page cache; its swap is always at the disk bandwidth."})
	return sec, nil
}

// linearUpTo is the largest relative deviation of y from the line through
// the origin fitted (least squares) to the points with x ≤ limit.
func linearUpTo(x, y []float64, limit float64) float64 {
	var sxy, sxx float64
	for i := range x {
		if x[i] <= limit {
			sxy += x[i] * y[i]
			sxx += x[i] * x[i]
		}
	}
	if sxx == 0 {
		return 0
	}
	slope := sxy / sxx
	var worst float64
	for i := range x {
		if x[i] <= limit && slope*x[i] != 0 {
			worst = max(worst, math.Abs(y[i]/(slope*x[i])-1))
		}
	}
	return worst
}
