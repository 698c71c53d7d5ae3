package versus

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"
	"unicode/utf8"
)

// Header says what the figures are, in one paragraph.
func (r *Report) Header() string {
	schemes := map[string]bool{}
	for _, row := range r.Rows {
		schemes[row.Resampling] = true
	}
	var how []string
	if schemes[ResampleSeeds] {
		how = append(how, "where each seed generated a workload, seeds resampled (whole workloads, the same seeds for both policies)")
	}
	if schemes[ResampleWindows] {
		how = append(how, "where every seed replayed one trace, a block bootstrap over submit-time windows: the trace's jobs, "+
			"in submit order, drawn in blocks of the jobs submitted within a window from a job drawn at random (wrapping "+
			"past the end), the same jobs for both policies, each job with its results on every seed pooled so that "+
			"placement noise is averaged; the interval estimates how the change would vary across workloads like this "+
			"trace, from its job-to-job and time-to-time variation (window width under each heading)")
	}
	if schemes[ResampleClusterSeeds] {
		how = append(how, "where every seed replayed one trace, cluster seeds resampled (the same jobs on every seed: the "+
			"interval reflects HDFS block placement only, not how the change varies across workloads)")
	}
	return fmt.Sprintf("%s (candidate) against %s (baseline), replayed on the same jobs and clusters: "+
		"change is %s ÷ %s − 1 of each figure over the jobs of every seed pooled, with %.0f%% percentile bootstrap "+
		"intervals, %s; %d resamples, bootstrap seed %d. Median: mean of the two middle values; p95: nearest rank; "+
		"slowdown: sojourn ÷ the job's run time alone on the empty cluster.",
		DisplayName(r.Candidate), DisplayName(r.Baseline), DisplayName(r.Candidate), DisplayName(r.Baseline),
		r.Level*100, strings.Join(how, "; "), r.Resamples, r.Seed)
}

func figure(x float64, unit string) string {
	if math.IsNaN(x) {
		return "–"
	}
	if unit == "" {
		return fmt.Sprintf("%.2f", x)
	}
	return fmt.Sprintf("%.1f %s", x, unit)
}

func interval(r *Row) string {
	if math.IsNaN(r.Change.Lo) {
		return "–"
	}
	return fmt.Sprintf("[%s, %s]", signedPct(r.Change.Lo), signedPct(r.Change.Hi))
}

func change(r *Row) string {
	if math.IsNaN(r.Change.Est) {
		return "–"
	}
	return signedPct(r.Change.Est)
}

// sections groups the rows by workload and parameters, in order.
func (r *Report) sections() [][]Row {
	var out [][]Row
	for i, row := range r.Rows {
		if i == 0 || row.Workload != r.Rows[i-1].Workload || row.Params != r.Rows[i-1].Params {
			out = append(out, nil)
		}
		out[len(out)-1] = append(out[len(out)-1], row)
	}
	return out
}

func title(rows []Row) string {
	r := &rows[0]
	var s string
	switch r.Resampling {
	case ResampleWindows:
		s = fmt.Sprintf("%s, one trace of %d jobs, %s (%d job results per policy); windows of %s of submissions (%.1f jobs on average)",
			r.Workload, r.Jobs/r.Seeds, plural(r.Seeds, "seed"), r.Jobs, seconds(r.WindowS), r.WindowJobs)
	case ResampleClusterSeeds:
		s = fmt.Sprintf("%s, one trace of %d jobs, %s (%d job results per policy)", r.Workload, r.Jobs/r.Seeds, plural(r.Seeds, "cluster seed"), r.Jobs)
	default:
		s = fmt.Sprintf("%s, %d seeds, %d jobs per policy", r.Workload, r.Seeds, r.Jobs)
	}
	if r.Params != "–" {
		s += " (" + r.Params + ")"
	}
	return s
}

// Text writes the comparison as aligned columns, then the verdicts.
func (r *Report) Text(w io.Writer) error {
	fmt.Fprintln(w, wrap(r.Header(), 100))
	for _, sec := range r.sections() {
		fmt.Fprintf(w, "\n%s\n", title(sec))
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintf(tw, "  metric\tclass\t%s\t%s\tchange\t%.0f%% interval\n", DisplayName(r.Baseline), DisplayName(r.Candidate), r.Level*100)
		for i := range sec {
			row := &sec[i]
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\t%s\n", row.Label, row.Class, figure(row.Base, row.Unit), figure(row.Cand, row.Unit), change(row), interval(row))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		fmt.Fprintln(w)
		for _, row := range sec {
			fmt.Fprintf(w, "  %s.\n", row.Verdict)
		}
		if legend := classLegend(sec); legend != "" {
			fmt.Fprintf(w, "\n%s\n", wrap(legend, 100))
		}
	}
	return nil
}

// classLegend says what the section's classes hold, smallest first:
// "Classes: small: 1–2 maps, 0 reduces; medium: …."
func classLegend(sec []Row) string {
	var parts []string
	seen := map[string]bool{}
	for _, row := range sec {
		if row.Bounds != "" && !seen[row.Class] {
			seen[row.Class] = true
			parts = append(parts, row.Class+": "+row.Bounds)
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "  Classes, smallest jobs first, with their jobs' task counts: " + strings.Join(parts, "; ") + "."
}

// wrap breaks text into lines of at most width runes.
func wrap(text string, width int) string {
	var b strings.Builder
	n := 0
	for _, word := range strings.Fields(text) {
		l := utf8.RuneCountInString(word)
		if n > 0 && n+1+l > width {
			b.WriteByte('\n')
			n = 0
		} else if n > 0 {
			b.WriteByte(' ')
			n++
		}
		b.WriteString(word)
		n += l
	}
	return b.String()
}

// Markdown writes the comparison as a table per workload.
func (r *Report) Markdown(w io.Writer) error {
	fmt.Fprintf(w, "%s\n", r.Header())
	for _, sec := range r.sections() {
		fmt.Fprintf(w, "\n### %s\n\n", title(sec))
		fmt.Fprintf(w, "| metric | class | %s | %s | change | %.0f%% interval | verdict |\n|---|---|---|---|---|---|---|\n",
			DisplayName(r.Baseline), DisplayName(r.Candidate), r.Level*100)
		for i := range sec {
			row := &sec[i]
			fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s |\n", row.Label, row.Class, figure(row.Base, row.Unit),
				figure(row.Cand, row.Unit), change(row), interval(row), row.Verdict)
		}
		if legend := classLegend(sec); legend != "" {
			fmt.Fprintf(w, "\n%s\n", strings.TrimSpace(legend))
		}
	}
	return nil
}

// jsonRow is a row with its change, NaN written as null.
type jsonRow struct {
	Row
	Change *float64 `json:"change"`
	Lo     *float64 `json:"change_lo"`
	Hi     *float64 `json:"change_hi"`
}

func finite(x float64) *float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil
	}
	return &x
}

// JSON writes the report as one JSON object; changes are fractions
// (−0.1 for 10% shorter), null when undefined.
func (r *Report) JSON(w io.Writer) error {
	out := struct {
		*Report
		Header string    `json:"description"`
		Rows   []jsonRow `json:"rows"`
	}{Report: r, Header: r.Header()}
	for _, row := range r.Rows {
		if math.IsNaN(row.Base) || math.IsNaN(row.Cand) {
			row.Base, row.Cand = 0, 0 // never NaN: the groups have jobs
		}
		out.Rows = append(out.Rows, jsonRow{row, finite(row.Change.Est), finite(row.Change.Lo), finite(row.Change.Hi)})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	return enc.Encode(out)
}
