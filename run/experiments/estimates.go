package experiments

import (
	"fmt"
	"strings"

	"sojourn/analysis"
	"sojourn/replay/scenario"
	"sojourn/reports"
	"sojourn/run"
	"sojourn/traces"
)

// The estimate-source experiment: how much a size-based policy loses to
// the oracle (SRPT) with each source of job sizes, on a workload with the
// users' own estimates, over the claims' seeds.

// swfLike names the workload of the estimate-source experiment.
const swfLike = "swf-like"

// swfLikeJobs jobs per seed, at swfLikeLoad on the paper's 400 map slots.
const (
	swfLikeJobs = 500
	swfLikeLoad = 0.9
)

func swfLikeTrace(seed uint64) *traces.Trace {
	return scenario.SWFLike(seed, swfLikeJobs, 400, swfLikeLoad)
}

// estimateSigmas are the log-normal errors on HFSP's sampled estimates.
var estimateSigmas = []float64{0.5, 1, 2}

// estimateVariant is one source of sizes under one policy.
type estimateVariant struct {
	name, source, policy string
	options              map[string]string
}

func estimateVariants() []estimateVariant {
	out := []estimateVariant{
		{"srpt", "true remaining work (the oracle)", "srpt", nil},
		{"fsp", "exact sizes", "hfsp", map[string]string{"oracle": "maps"}},
		{"hfsp", "online sampling (the first tasks' times)", "hfsp", nil},
		{"hfsp-user", "the users' estimates until the samples report", "hfsp", map[string]string{"initial-size": "estimate"}},
	}
	for _, s := range estimateSigmas {
		out = append(out, estimateVariant{fmt.Sprintf("hfsp-lognormal-%g", s), fmt.Sprintf("sampling × log-normal error, σ = %g", s), "hfsp",
			map[string]string{"error": "lognormal", "sigma": fmt.Sprint(s)}})
	}
	return append(out,
		estimateVariant{"sjf", "exact sizes", "sjf", map[string]string{"size": "work"}},
		estimateVariant{"sjf-user", "the users' estimates", "sjf", map[string]string{"size": "estimate"}},
		estimateVariant{"easy-user", "the users' estimates", "easy", map[string]string{"user-estimate": "trace"}},
		estimateVariant{"easy-synthetic", "synthetic estimates (easy's α)", "easy", map[string]string{"user-estimate": "synthetic"}},
		estimateVariant{"fair", "none", "fair", nil},
		estimateVariant{"fifo", "none", "fifo", nil})
}

func (v estimateVariant) label() string {
	switch v.name {
	case "fsp":
		return "FSP"
	case "hfsp-user":
		return "HFSP, users' estimates"
	case "sjf-user":
		return "SJF, users' estimates"
	case "easy-user":
		return "FAIR+EASY, users' estimates"
	case "easy-synthetic":
		return "FAIR+EASY, synthetic"
	}
	if s, ok := strings.CutPrefix(v.name, "hfsp-lognormal-"); ok {
		return "HFSP, σ = " + s
	}
	return label(v.policy)
}

func estimates(x *Ctx) (reports.Section, error) {
	tr := swfLikeTrace(x.Env.Seed)
	x.Param("workload", fmt.Sprintf("%d SWF-like map-only jobs (scenario.SWFLike) at load %.1f on the paper's 400 map slots", swfLikeJobs, swfLikeLoad))
	variants := estimateVariants()
	var cells []*run.Cell
	for _, v := range variants {
		cells = append(cells, &run.Cell{Tasks: true, Dir: v.name, Trace: tr, TraceFile: "swf-like.arrow", Policy: v.policy,
			Options: v.options, Cluster: paperCluster(x.Env.Seed), Labels: map[string]string{"sizes": v.source}})
	}
	if _, err := x.Replay(cells); err != nil {
		return reports.Section{}, err
	}
	// Every variant on every seed, in memory: its mean sojourn over SRPT's.
	perSeed, err := overSeeds(x, func(seed uint64) ([]float64, error) {
		means := make([]float64, len(variants))
		for i, v := range variants {
			jobs, err := x.Env.jobs(seedReplay{profile: swfLike, policy: v.policy, options: v.options}, seed)
			if err != nil {
				return nil, err
			}
			means[i] = meanSojourn(jobs)
		}
		srpt := means[0] // variants[0]
		for i := range means {
			means[i] = means[i]/srpt - 1 // regret
		}
		return means, nil
	})
	if err != nil {
		return reports.Section{}, err
	}
	seeds := x.Env.seeds()
	regret := make([][]float64, len(variants)) // [variant][seed]
	for i := range regret {
		for _, m := range perSeed {
			regret[i] = append(regret[i], m[i])
		}
	}
	tab := reports.Table{Name: "estimates-regret", Title: "SWF-like workload: mean sojourn time over SRPT's, per source of job sizes",
		Columns: []string{"policy", "sizes from", "regret: mean [95% interval]", "seeds", "worst seed"},
		Note:    fmt.Sprintf("Regret: a policy's mean sojourn time over SRPT's on the same seed's workload, less 1; mean over %d seeds with its 95%% Student-t interval.", len(seeds))}
	ci := func(xs []float64) (m, lo, hi float64) { return meanInterval(xs) }
	for i, v := range variants[1:] {
		m, lo, hi := ci(regret[i+1])
		tab.Rows = append(tab.Rows, []string{v.label(), v.source, fmt.Sprintf("%s [%s, %s]", showChange(m), showChange(lo), showChange(hi)),
			fmt.Sprint(len(seeds)), showChange(analysis.Summarize(regret[i+1]).Max)})
	}
	index := map[string]int{}
	for i, v := range variants {
		index[v.name] = i
	}
	xs := []float64{0}
	ys, los, his := make([]float64, 0, len(estimateSigmas)+1), []float64{}, []float64{}
	add := func(name string) {
		m, lo, hi := ci(regret[index[name]])
		ys, los, his = append(ys, 100*m), append(los, 100*lo), append(his, 100*hi)
	}
	add("hfsp")
	for _, s := range estimateSigmas {
		xs = append(xs, s)
		add(fmt.Sprintf("hfsp-lognormal-%g", s))
	}
	p := reports.Panel{Title: "SWF-like workload", XLabel: "log-normal error σ on HFSP's sampled sizes", YLabel: "regret against SRPT (%)",
		Series: []reports.Series{{Label: "HFSP (95% CI)", Kind: reports.Points, X: xs, Y: ys, YLo: los, YHi: his}}}
	for _, ref := range []struct{ name, label string }{
		{"fsp", "FSP (exact sizes)"}, {"hfsp-user", "HFSP, users' estimates"}, {"fair", "FAIR (no sizes)"},
	} {
		m, _, _ := ci(regret[index[ref.name]])
		p.Series = append(p.Series, reports.Series{Label: ref.label, Kind: reports.HLine, Y: []float64{100 * m}, Dashed: true})
	}
	top := 0.0
	for _, sr := range p.Series {
		for _, y := range append(append([]float64(nil), sr.Y...), sr.YHi...) {
			top = max(top, y)
		}
	}
	p.Y = &reports.Range{Min: 0, Max: 1.15 * top} // regret from 0, headroom for the legend
	fig := reports.Figure{Name: "estimates", Title: "Sources of job sizes: regret against the oracle",
		Caption: fmt.Sprintf("%d SWF-like map-only jobs per seed at load %.1f on 100 nodes, users' estimates from round requested times: "+
			"mean sojourn over SRPT's, less 1, mean over %d seeds (HFSP with 95%% intervals; the lines are means; SJF, far above, is in the table).", swfLikeJobs, swfLikeLoad, len(seeds)),
		Panels: []reports.Panel{p}}
	return reports.Section{Title: "Sources of job sizes: exact, the users' estimates, errors, online sampling",
		Summary: "A workload as bench import swf makes of a parallel workload log: each job a gang of equal tasks, with the user's " +
			"requested time (a round limit above the run time) as its estimate. Size-based policies get their sizes from the oracle, " +
			"from the users' estimates, from HFSP's sampling of a job's first tasks, or from that sampling with a log-normal error; " +
			"each is judged by its mean sojourn time against SRPT's, which knows every remaining size.",
		Figures: []reports.Figure{fig}, Tables: []reports.Table{tab}}, nil
}
