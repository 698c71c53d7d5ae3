package compare

import (
	"fmt"
	"io"
	"math"
	"strings"
)

// Markdown writes the report as a Markdown section for a CI job summary:
// a header naming both sides, one table row per group and metric, and a
// closing line with the regressions.
func (r *Report) Markdown(w io.Writer, baseName, candName string) {
	o := r.Options
	lvl := fmt.Sprintf("%g%%", 100*o.Level)
	fmt.Fprintf(w, "### bench compare\n\n")
	fmt.Fprintf(w, "Baseline `%s`%s, candidate `%s`%s.\n", baseName, code(r.BaseVersion), candName, code(r.CandVersion))
	fmt.Fprintf(w, "Change is candidate ÷ baseline − 1, with %s percentile bootstrap intervals (%d resamples, seed %d; "+
		"jobs resampled in pairs where both sides replayed the same traces). A metric regresses when it is more than %s "+
		"worse and its interval excludes no change. Slowdown is sojourn ÷ the job's ideal run time alone on the empty cluster.\n\n",
		lvl, o.Resamples, o.Seed, pct(o.Threshold, false))
	fmt.Fprintf(w, "| workload | policy | parameters | metric | baseline | candidate | change | %s interval | verdict |\n", lvl)
	fmt.Fprintf(w, "|---|---|---|---|---:|---:|---:|---|---|\n")
	var bad []string
	for _, row := range r.Rows {
		g := row.Group
		v := row.Verdict
		if v == Regressed {
			v = "**regressed**"
			bad = append(bad, fmt.Sprintf("%s: %s %s", g.Key(), row.Metric.Label, pct(row.Change.Est, true)))
		}
		iv := "–"
		if !math.IsNaN(row.Change.Lo) {
			iv = fmt.Sprintf("[%s, %s]", pct(row.Change.Lo, true), pct(row.Change.Hi, true))
		}
		if !row.Paired {
			iv += " (unpaired)"
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", g.Workload, g.Policy, g.ParamText(),
			row.Metric.Label, value(row.Metric, row.Base), value(row.Metric, row.Cand), pct(row.Change.Est, true), iv, v)
	}
	fmt.Fprintln(w)
	if r.UnpairedRows > 0 {
		var why []string
		for _, u := range r.Unpaired {
			why = append(why, u.Key+": "+u.Why)
		}
		fmt.Fprintf(w, "**%d of %d rows unpaired** (their intervals measure the spread between jobs, not the change job by job): %s.\n\n",
			r.UnpairedRows, len(r.Rows), strings.Join(why, "; "))
	}
	if len(r.FixedChanges) > 0 {
		var diffs []string
		for _, f := range r.FixedChanges {
			diffs = append(diffs, f.String())
		}
		fmt.Fprintf(w, "**Fixed settings differ**: %s.\n\n", strings.Join(diffs, "; "))
	}
	if r.FixedUnknown {
		fmt.Fprintf(w, "Fixed settings not checked: a summary does not record them.\n\n")
	}
	if len(r.Missing) > 0 {
		fmt.Fprintf(w, "Missing from the candidate (counted as regressions): %s.\n\n", strings.Join(r.Missing, "; "))
	}
	if len(r.Added) > 0 {
		fmt.Fprintf(w, "Only in the candidate (not compared): %s.\n\n", strings.Join(r.Added, "; "))
	}
	switch r.Regressions {
	case 0:
		fmt.Fprintf(w, "**No regression** beyond %s.\n", pct(o.Threshold, false))
	case 1:
		fmt.Fprintf(w, "**1 regression** beyond %s", pct(o.Threshold, false))
	default:
		fmt.Fprintf(w, "**%d regressions** beyond %s", r.Regressions, pct(o.Threshold, false))
	}
	if r.Regressions > 0 {
		if len(bad) > 0 {
			fmt.Fprintf(w, ": %s", strings.Join(bad, "; "))
		}
		fmt.Fprintln(w, ".")
	}
}

// code names a side's code version, when it is known.
func code(version string) string {
	if version == "" || version == "unknown" {
		return ""
	}
	return " (code " + version + ")"
}

// value formats a metric's figure: seconds to 0.1 s, slowdowns to 0.01,
// fractions in percent.
func value(m Metric, v float64) string {
	switch {
	case math.IsNaN(v):
		return "–"
	case m.Name == "local":
		return fmt.Sprintf("%.1f%%", 100*v)
	case m.Name == "slowdown":
		return fmt.Sprintf("%.2f", v)
	}
	return fmt.Sprintf("%.1f", v)
}

// pct formats a relative change in percent, signed if asked.
func pct(x float64, signed bool) string {
	if math.IsNaN(x) {
		return "–"
	}
	if math.IsInf(x, 0) {
		return fmt.Sprintf("%+v", x)
	}
	if signed {
		return fmt.Sprintf("%+.1f%%", 100*x)
	}
	return fmt.Sprintf("%g%%", 100*x)
}
