package experiments

import (
	"fmt"
	"math"

	"sojourn/analysis"
	"sojourn/reports"
	"sojourn/run"
)

// clusterSizes are Figure 5's cluster sizes.
var clusterSizes = []int{10, 20, 30, 40, 50, 60, 70, 80, 90, 100}

func fig5(x *Ctx) (reports.Section, error) {
	tr, err := profileTrace("fb2009", x.Env.Seed)
	if err != nil {
		return reports.Section{}, err
	}
	x.Param("workload", "fb2009")
	x.Param("nodes", fmt.Sprint(clusterSizes))
	policies := comparedPolicies()
	var cells []*run.Cell
	for _, n := range clusterSizes {
		for _, p := range policies {
			cfg := paperCluster(x.Env.Seed)
			cfg.Nodes = n
			cells = append(cells, &run.Cell{Tasks: true, Dir: fmt.Sprintf("nodes-%03d/%s", n, p), Trace: tr, TraceFile: "fb2009.arrow",
				Policy: p, Cluster: cfg, Labels: map[string]string{"nodes": fmt.Sprint(n)}})
		}
	}
	runs, err := x.Replay(cells)
	if err != nil {
		return reports.Section{}, err
	}
	mean := map[string][]float64{}
	for _, r := range runs {
		mean[r.Cell.Policy] = append(mean[r.Cell.Policy], analysis.Mean(r.Jobs.Sojourn))
	}
	// Every seed of the claims, each with its own workload and cluster:
	// the figure draws their mean with its 95% interval.
	per, err := overSeeds(x, func(seed uint64) (map[string][]float64, error) {
		out := map[string][]float64{}
		for _, n := range clusterSizes {
			for _, p := range figurePolicies {
				jobs, err := x.Env.jobs(seedReplay{profile: "fb2009", nodes: n, policy: p}, seed)
				if err != nil {
					return nil, err
				}
				out[p] = append(out[p], meanSojourn(jobs))
			}
		}
		return out, nil
	})
	if err != nil {
		return reports.Section{}, err
	}
	type band struct{ mean, lo, hi []float64 }
	bands := map[string]band{}
	for _, pol := range figurePolicies {
		var b band
		for i := range clusterSizes {
			vals := make([]float64, len(per))
			for k, m := range per {
				vals[k] = m[pol][i]
			}
			m, lo, hi := analysis.MeanCI(vals, 0.95)
			b.mean, b.lo, b.hi = append(b.mean, m), append(b.lo, lo), append(b.hi, hi)
		}
		bands[pol] = b
	}
	xs := make([]float64, len(clusterSizes))
	for i, n := range clusterSizes {
		xs[i] = float64(n)
	}
	// The second panel zooms on 40 to 100 nodes, where every value lies
	// below a tenth of the 10-node one; both start at 0.
	zoom := 3
	all := reports.Panel{Title: "FB2009, 10 to 100 nodes", XLabel: "cluster size (nodes)", YLabel: "mean sojourn time (s)"}
	near := reports.Panel{Title: "40 to 100 nodes", XLabel: "cluster size (nodes)", YLabel: "mean sojourn time (s)"}
	for _, pol := range figurePolicies {
		b := bands[pol]
		all.Series = append(all.Series, reports.Series{Label: label(pol) + " (95% CI)", Policy: pol, Kind: reports.Points,
			X: xs, Y: b.mean, YLo: b.lo, YHi: b.hi, Band: true})
		near.Series = append(near.Series, reports.Series{Label: label(pol) + " (95% CI)", Policy: pol, Kind: reports.Points,
			X: xs[zoom:], Y: b.mean[zoom:], YLo: b.lo[zoom:], YHi: b.hi[zoom:], Band: true})
	}
	seeds := x.Env.seeds()
	fig := reports.Figure{Name: "fig5", Title: "Figure 5: mean sojourn time against cluster size",
		Caption: fmt.Sprintf("FB2009 on 10 to 100 nodes (4 map and 2 reduce slots each): mean job sojourn time under FAIR and HFSP, "+
			"the mean over %d seeds (each its own workload and block placement) with its 95%% Student-t interval as a band. "+
			"Right: 40 to 100 nodes on their own scale.", len(seeds)),
		Panels: []reports.Panel{all, near}}
	tab := reports.Table{Name: "fig5-sizes", Title: fmt.Sprintf("FB2009 mean sojourn time (s) against cluster size, mean over %d seeds [95%% interval]", len(seeds)),
		Columns: []string{"nodes"}}
	for _, pol := range figurePolicies {
		tab.Columns = append(tab.Columns, label(pol))
	}
	for i, n := range clusterSizes {
		row := []string{fmt.Sprint(n)}
		for _, pol := range figurePolicies {
			b := bands[pol]
			row = append(row, fmt.Sprintf("%s [%s, %s]", secs(b.mean[i]), secs(b.lo[i]), secs(b.hi[i])))
		}
		tab.Rows = append(tab.Rows, row)
	}
	one := reports.Table{Name: "fig5-policies", Title: fmt.Sprintf("FB2009 mean sojourn time (s) against cluster size, seed %d, every policy", x.Env.Seed),
		Columns: []string{"nodes"}}
	for _, pol := range policies {
		one.Columns = append(one.Columns, label(pol))
	}
	for i, n := range clusterSizes {
		row := []string{fmt.Sprint(n)}
		for _, pol := range policies {
			row = append(row, secs(mean[pol][i]))
		}
		one.Rows = append(one.Rows, row)
	}
	sec := reports.Section{Title: "Cluster size (Figure 5)",
		Summary: "The FB2009 workload, generated for 100 nodes, replayed on smaller and smaller clusters: " +
			"when resources are scarce the scheduler's choices matter most.",
		Figures: []reports.Figure{fig}, Tables: []reports.Table{tab, one}}
	claims := claimsOf(fig5Checks, per)
	sec.Claims = claims
	return sec, nil
}

// fig5's figures: each policy's mean sojourn at each cluster size.
var fig5Checks = []check[map[string][]float64]{
	{statement: "HFSP's mean sojourn below FAIR's at every cluster size from 10 to 100 nodes (largest HFSP / FAIR over sizes)",
		paper: "all sizes", tol: atMost(1, "≤ 1.00× at every size"), show: showRatio,
		value: func(m map[string][]float64) float64 {
			worst := 0.0
			for i := range clusterSizes {
				worst = max(worst, m["hfsp"][i]/m["fair"][i])
			}
			return worst
		}},
	{statement: "The gap in HFSP's favour is largest when resources are scarce (FAIR − HFSP at 10 nodes less FAIR − HFSP at 100)",
		paper: "larger on small clusters", tol: above(0, "> 0 s"), show: showSecDiff,
		value: func(m map[string][]float64) float64 {
			last := len(clusterSizes) - 1
			return (m["fair"][0] - m["hfsp"][0]) - (m["fair"][last] - m["hfsp"][last])
		}},
}

// Figure 6's sweep.
var (
	alphas      = []float64{0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0}
	repetitions = 20
)

func fig6(x *Ctx) (reports.Section, error) {
	full, err := profileTrace("fb2009", x.Env.Seed)
	if err != nil {
		return reports.Section{}, err
	}
	tr, err := mapOnly(full)
	if err != nil {
		return reports.Section{}, err
	}
	x.Param("workload", "fb2009, map only")
	x.Param("alpha", fmt.Sprint(alphas))
	x.Param("repetitions", repetitions)
	x.Param("error", "uniform in [θ(1−α), θ(1+α)] on map-phase estimates; repetition r uses error seed r")
	cfg := paperCluster(x.Env.Seed)
	cells := []*run.Cell{
		{Tasks: true, Dir: "fair", Trace: tr, TraceFile: "fb2009-map-only.arrow", Policy: "fair", Cluster: cfg},
		{Tasks: true, Dir: "hfsp-alpha-0.00", Trace: tr, TraceFile: "fb2009-map-only.arrow", Policy: "hfsp", Cluster: cfg,
			Labels: map[string]string{"alpha": "0"}},
	}
	for _, a := range alphas {
		for rep := 1; rep <= repetitions; rep++ {
			cells = append(cells, &run.Cell{Tasks: rep <= 1, Dir: fmt.Sprintf("hfsp-alpha-%.2f/rep-%02d", a, rep), Trace: tr,
				TraceFile: "fb2009-map-only.arrow", Policy: "hfsp", Cluster: cfg,
				Options: map[string]string{"error": "uniform", "alpha": fmt.Sprint(a), "error-seed": fmt.Sprint(rep)},
				Labels:  map[string]string{"alpha": fmt.Sprint(a), "repetition": fmt.Sprint(rep)}})
		}
	}
	runs, err := x.Replay(cells)
	if err != nil {
		return reports.Section{}, err
	}
	fair, exact := analysis.Mean(runs[0].Jobs.Sojourn), analysis.Mean(runs[1].Jobs.Sojourn)
	means := make([]float64, len(alphas))
	lo, hi := make([]float64, len(alphas)), make([]float64, len(alphas))
	tab := reports.Table{Name: "fig6-alpha", Title: "Map-only FB2009: HFSP's mean sojourn time (s) against the estimation error α",
		Columns: []string{"α", "repetitions", "mean", "95% CI", "min", "max"},
		Note:    fmt.Sprintf("References: FAIR %.1f s, HFSP with exact estimates (α = 0) %.1f s.", fair, exact)}
	for i, a := range alphas {
		var per []float64
		for _, r := range runs[2+i*repetitions : 2+(i+1)*repetitions] {
			per = append(per, analysis.Mean(r.Jobs.Sojourn))
		}
		means[i], lo[i], hi[i] = analysis.MeanCI(per, 0.95)
		s := analysis.Summarize(per)
		tab.Rows = append(tab.Rows, []string{fmt.Sprintf("%.1f", a), fmt.Sprint(len(per)), secs(means[i]),
			fmt.Sprintf("[%.1f, %.1f]", lo[i], hi[i]), secs(s.Min), secs(s.Max)})
	}
	p := reports.Panel{Title: "Map-only FB2009", XLabel: "estimation error α", YLabel: "mean sojourn time (s)",
		Series: []reports.Series{
			{Label: "HFSP (95% CI)", Kind: reports.Points, X: alphas, Y: means, YLo: lo, YHi: hi},
			{Label: "FAIR", Kind: reports.HLine, Y: []float64{fair}, Dashed: true},
			{Label: "HFSP, α = 0", Kind: reports.HLine, Y: []float64{exact}, Dashed: true},
		}}
	fig := reports.Figure{Name: "fig6", Title: "Figure 6: impact of estimation errors",
		Caption: fmt.Sprintf("Map-only FB2009 on 100 nodes: HFSP's mean sojourn time when each map-phase size estimate θ is replaced by a uniform draw in [θ(1−α), θ(1+α)]; %d repetitions per α with a 95%% Student-t interval. FAIR and exact HFSP for reference.", repetitions),
		Panels:  []reports.Panel{p}}
	sec := reports.Section{Title: "Robustness to estimation errors (Figure 6)",
		Summary: "Artificial errors on the map-size estimates of HFSP's training module, on the map-only FB2009 workload.",
		Figures: []reports.Figure{fig}, Tables: []reports.Table{tab}}
	claims, err := judge(x, fig6Checks, func(seed uint64) (map[string]float64, error) {
		out := map[string]float64{}
		runs := map[string]seedReplay{"fair": {policy: "fair"}, "exact": {policy: "hfsp"}}
		for _, a := range alphas {
			runs[fmt.Sprint(a)] = seedReplay{policy: "hfsp",
				options: map[string]string{"error": "uniform", "alpha": fmt.Sprint(a), "error-seed": fmt.Sprint(seed)}}
		}
		for name, r := range runs {
			r.profile, r.mapOnly = "fb2009", true
			jobs, err := x.Env.jobs(r, seed)
			if err != nil {
				return nil, err
			}
			out[name] = meanSojourn(jobs)
		}
		return out, nil
	})
	sec.Claims = claims
	return sec, err
}

// fig6's figures on one seed: the mean sojourn of FAIR ("fair"), exact
// HFSP ("exact") and HFSP at each α (fmt.Sprint(α)), one error draw each
// (error seed = the seed).
var fig6Checks = []check[map[string]float64]{
	{statement: "HFSP with estimation errors up to α = 1 stays better than FAIR (largest HFSP(α) / FAIR over α)",
		paper: "below FAIR for every α", tol: atMost(1, "≤ 1.00× for every α"), show: showRatio,
		value: func(m map[string]float64) float64 {
			worst := 0.0
			for _, a := range alphas {
				worst = max(worst, m[fmt.Sprint(a)]/m["fair"])
			}
			return worst
		}},
	{statement: "Only extremely large errors affect HFSP: α ≤ 0.5 within 10% of exact estimates (largest HFSP(α) / HFSP(0) − 1)",
		paper: "slightly affected", tol: atMost(0.1, "≤ +10%"), show: showChange,
		value: func(m map[string]float64) float64 {
			worst := math.Inf(-1)
			for _, a := range alphas {
				if a <= 0.5 {
					worst = max(worst, m[fmt.Sprint(a)]/m["exact"]-1)
				}
			}
			return worst
		}},
}
