package experiments

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"sojourn/analysis"
	"sojourn/reports"
)

// tables: mean and median sojourn of every policy on both paper
// workloads, the FIFO/HFSP ratio and the node-local fraction of maps.
func tables(x *Ctx) (reports.Section, error) {
	sec := reports.Section{Title: "Summary tables: every policy on FB2009 and FB2010",
		Summary: "Both paper workloads on the paper's 100-node cluster under every registered policy. " +
			"Oracle policies (marked) know every task's true duration and are reference bounds, not contenders."}
	means := map[string]map[string]float64{}
	local := map[string]map[string]float64{}
	for _, w := range []string{"fb2009", "fb2010"} {
		sub := &Ctx{Env: x.Env, Name: x.Name, Dir: x.Dir + "/" + w, params: x.params}
		_, runs, err := macroRuns(sub, w)
		x.runs = append(x.runs, prefixRuns(sub.runs, w)...)
		if err != nil {
			return sec, err
		}
		means[w], local[w] = map[string]float64{}, map[string]float64{}
		tab := reports.Table{Name: "summary-" + w, Title: fmt.Sprintf("%s: sojourn times (s) and data locality", strings.ToUpper(w)),
			Columns: []string{"policy", "mean", "median", "p95", "mean / HFSP's", "node-local maps"}}
		h := analysis.Mean(runs["hfsp"].Jobs.Sojourn)
		for _, pol := range tableRows() {
			r := runs[pol]
			s := analysis.Summarize(r.Jobs.Sojourn)
			name := label(pol)
			if oracles[pol] {
				name += " (oracle)"
			}
			means[w][pol], local[w][pol] = s.Mean, nodeLocal(r.Jobs)
			tab.Rows = append(tab.Rows, []string{name, secs(s.Mean), secs(s.Median), secs(s.P95), ratio(s.Mean / h), pct(local[w][pol])})
		}
		sec.Tables = append(sec.Tables, tab)
	}
	x.Param("workload", "fb2009, fb2010")
	for _, w := range []string{"fb2009", "fb2010"} {
		r := means[w]["fifo"] / means[w]["hfsp"]
		sec.Claims = append(sec.Claims, reports.Claim{
			Statement: fmt.Sprintf("%s: FIFO's mean sojourn time 5 to 10 times HFSP's", strings.ToUpper(w)),
			Paper:     "5–10×", Ours: ratio(r), Verdict: verdict(r >= 5 && r <= 10, r > 1)})
	}
	lf, lh := local["fb2009"]["fair"], local["fb2009"]["hfsp"]
	sec.Claims = append(sec.Claims,
		reports.Claim{Statement: "FB2009: FAIR's maps 98% node-local", Paper: "98%", Ours: pct(lf),
			Verdict: verdict(math.Abs(lf-0.98) <= 0.02, lf >= 0.9)},
		reports.Claim{Statement: "FB2009: HFSP's maps 100% node-local", Paper: "100%", Ours: pct(lh),
			Verdict: verdict(lh >= 0.995, lh >= lf)})
	if _, ok := means["fb2009"]["srpt"]; ok {
		for _, w := range []string{"fb2009", "fb2010"} {
			s := means[w]["srpt"]
			var worse []string
			for _, pol := range comparedPolicies() {
				if !oracles[pol] && means[w][pol] < s {
					worse = append(worse, fmt.Sprintf("%s %.1f s", label(pol), means[w][pol]))
				}
			}
			c := reports.Claim{Statement: fmt.Sprintf("%s: SRPT's mean sojourn at or below every non-oracle policy's", strings.ToUpper(w)),
				Paper: "SRPT minimizes the mean (one server)", Ours: fmt.Sprintf("SRPT %.1f s", s), Verdict: reports.Holds}
			if len(worse) > 0 {
				c.Verdict, c.Ours = reports.Fails, c.Ours+"; below it: "+strings.Join(worse, ", ")
				c.Note = "SRPT is optimal for one server; on a slot cluster with non-preemptible maps, locality and slow-start it is only a heuristic."
			}
			sec.Claims = append(sec.Claims, c)
		}
	}
	return sec, nil
}

// tableRows are the compared policies in the order of the summary
// tables' rows: SJF, the size-based baseline without aging or preemption,
// right after HFSP, the size-based policy it is compared with.
func tableRows() []string {
	all := comparedPolicies()
	if !slices.Contains(all, "sjf") || !slices.Contains(all, "hfsp") {
		return all
	}
	var out []string
	for _, p := range all {
		if p != "sjf" {
			out = append(out, p)
		}
		if p == "hfsp" {
			out = append(out, "sjf")
		}
	}
	return out
}

// prefixRuns makes a sub-experiment's run directories relative to the
// experiment's own.
func prefixRuns(runs []*Run, prefix string) []*Run {
	for _, r := range runs {
		c := *r.Cell
		c.Dir = prefix + "/" + c.Dir
		c.TraceFile = prefix + "/" + c.TraceFile
		r.Cell = &c
	}
	return runs
}
