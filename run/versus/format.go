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
	how := "seeds resampled (whole workloads, the same seeds for both policies)"
	switch {
	case schemes[ResampleSeeds] && schemes[ResampleJobs]:
		how = "seeds resampled where there are several (the same seeds for both policies), jobs paired within the seed otherwise"
	case schemes[ResampleJobs]:
		how = "jobs resampled in pairs (the same jobs for both policies; one seed)"
	}
	return fmt.Sprintf("%s (candidate) against %s (baseline), replayed on the same workloads and clusters: "+
		"change is %s ÷ %s − 1 of each figure over the jobs of every seed pooled, with %.0f%% percentile bootstrap "+
		"intervals, %s; %d resamples, bootstrap seed %d. Median: mean of the two middle values; p95: nearest rank; "+
		"slowdown: sojourn ÷ the job's run time alone on the empty cluster.",
		DisplayName(r.Candidate), DisplayName(r.Baseline), DisplayName(r.Candidate), DisplayName(r.Baseline),
		r.Level*100, how, r.Resamples, r.Seed)
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
	s := fmt.Sprintf("%s, %d seeds, %d jobs per policy", rows[0].Workload, rows[0].Seeds, rows[0].Jobs)
	if rows[0].Params != "–" {
		s += " (" + rows[0].Params + ")"
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
	}
	return nil
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
