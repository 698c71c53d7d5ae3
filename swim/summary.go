package swim

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strings"

	"sojourn/traces"
)

// maxSummaryTasks bounds the task durations Summarize keeps for quantiles;
// beyond it, it keeps every k-th task.
const maxSummaryTasks = 4 << 20

// Summary describes a trace: what bench inspect prints.
type Summary struct {
	Jobs, Maps, Reduces int
	Span                float64 // s from the first submit to the last
	MapWork, ReduceWork float64 // task-seconds at reference speed
	// Estimated is the number of jobs with a user estimate, Estimate
	// their estimates' sum and EstimatedWork their true work (slot-s).
	Estimated               int
	Estimate, EstimatedWork float64
	// NoInput is the number of jobs with maps but no input data
	// (map_input_bytes 0): their maps have no locality in a replay.
	NoInput, NoInputMaps int
	Classes              []ClassCount
	Rows                 []QuantileRow
	Params               [][2]string // the trace's parameters, sorted by key
}

// ClassCount is the number of jobs of one class.
type ClassCount struct {
	Name   string
	Jobs   int
	Share  float64 // of all jobs, 0-1
	Bounds string  // its jobs' task counts, "1–2 maps, 0 reduces"
}

// QuantileRow holds nearest-rank quantiles of one quantity.
type QuantileRow struct {
	Name, Unit              string
	P10, P50, P90, P99, Max float64
	Note                    string
}

// Summarize computes t's summary: counts, classes (smallest jobs first,
// with their jobs' task counts), and
// quantiles per job of maps, reduces and bytes, per task of durations,
// and of the gaps between consecutive submits.
func Summarize(t *traces.Trace) *Summary {
	s := &Summary{Jobs: len(t.Jobs)}
	s.Maps, s.Reduces = t.TotalTasks()
	n := len(t.Jobs)
	var maps, reduces, in, sh, out, gaps []float64
	stride := max(1, (s.Maps+s.Reduces+maxSummaryTasks-1)/maxSummaryTasks)
	var mapD, redD []float64
	k := 0
	for i := range t.Jobs {
		j := &t.Jobs[i]
		if j.HasEstimate {
			s.Estimated++
			s.Estimate += j.Estimate
			for _, ds := range [][]float64{j.MapDurations, j.ReduceDurations} {
				for _, d := range ds {
					s.EstimatedWork += d
				}
			}
		}
		if j.MapInputBytes == 0 && j.Maps() > 0 {
			s.NoInput++
			s.NoInputMaps += j.Maps()
		}
		maps = append(maps, float64(j.Maps()))
		reduces = append(reduces, float64(j.Reduces()))
		in = append(in, float64(j.MapInputBytes))
		sh = append(sh, float64(j.ShuffleBytes))
		out = append(out, float64(j.OutputBytes))
		if i > 0 {
			gaps = append(gaps, j.Submit-t.Jobs[i-1].Submit)
		}
		for _, d := range j.MapDurations {
			s.MapWork += d
			if k++; k%stride == 0 {
				mapD = append(mapD, d)
			}
		}
		for _, d := range j.ReduceDurations {
			s.ReduceWork += d
			if k++; k%stride == 0 {
				redD = append(redD, d)
			}
		}
	}
	if n > 0 {
		s.Span = t.Jobs[n-1].Submit - t.Jobs[0].Submit
	}
	for _, c := range traces.Classes(t) {
		s.Classes = append(s.Classes, ClassCount{c.Name, c.Jobs, float64(c.Jobs) / float64(n), c.Bounds()})
	}
	note := ""
	if stride > 1 {
		note = fmt.Sprintf("every %dth task", stride)
	}
	s.Rows = []QuantileRow{
		row("maps", "tasks/job", maps, ""),
		row("reduces", "tasks/job", reduces, ""),
		row("input", "bytes/job", in, ""),
		row("shuffle", "bytes/job", sh, ""),
		row("output", "bytes/job", out, ""),
		row("map task", "s", mapD, note),
		row("reduce task", "s", redD, note),
		row("gap", "s", gaps, ""),
	}
	for _, key := range t.SortedParamKeys() {
		s.Params = append(s.Params, [2]string{key, t.Params[key]})
	}
	return s
}

func row(name, unit string, v []float64, note string) QuantileRow {
	sort.Float64s(v)
	q := func(p float64) float64 {
		if len(v) == 0 {
			return math.NaN()
		}
		return v[max(0, int(math.Ceil(p*float64(len(v))))-1)]
	}
	return QuantileRow{name, unit, q(0.1), q(0.5), q(0.9), q(0.99), q(1), note}
}

// Write prints the summary as aligned text.
func (s *Summary) Write(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "jobs      %d, submitted over %s\n", s.Jobs, fmtSeconds(s.Span))
	fmt.Fprintf(&b, "tasks     %d maps, %d reduces\n", s.Maps, s.Reduces)
	fmt.Fprintf(&b, "work      %.1f map task-hours, %.1f reduce task-hours (after the shuffle, at reference speed)\n", s.MapWork/3600, s.ReduceWork/3600)
	if s.Estimated > 0 {
		fmt.Fprintf(&b, "estimates %d jobs with a user estimate: %.1f task-hours estimated for %.1f task-hours of work\n", s.Estimated, s.Estimate/3600, s.EstimatedWork/3600)
	}
	switch {
	case s.NoInput > 0 && s.NoInput == s.Jobs:
		fmt.Fprintf(&b, "input     no input data (map_input_bytes 0): maps have no locality, so a replay gives them no HDFS wait or penalty, and no node-local fraction\n")
	case s.NoInput > 0:
		fmt.Fprintf(&b, "input     %s (%s) with no input data: their maps have no locality (no HDFS wait or penalty, not in node-local fractions)\n",
			plural(s.NoInput, "job"), plural(s.NoInputMaps, "map"))
	}
	b.WriteString("classes   (smallest jobs first)")
	width := 0
	for _, c := range s.Classes {
		width = max(width, len(c.Name), len("(none)"))
	}
	for _, c := range s.Classes {
		name := c.Name
		if name == "" {
			name = "(none)"
		}
		fmt.Fprintf(&b, "\n  %-*s %d (%.1f%%)  %s", width, name, c.Jobs, 100*c.Share, c.Bounds)
	}
	fmt.Fprintf(&b, "\n\n%-12s %-10s %10s %10s %10s %10s %10s\n", "", "unit", "p10", "p50", "p90", "p99", "max")
	for _, r := range s.Rows {
		f := fmtNumber
		if strings.HasPrefix(r.Unit, "bytes") {
			f = fmtBytes
		}
		fmt.Fprintf(&b, "%-12s %-10s %10s %10s %10s %10s %10s", r.Name, r.Unit, f(r.P10), f(r.P50), f(r.P90), f(r.P99), f(r.Max))
		if r.Note != "" {
			fmt.Fprintf(&b, "  (%s)", r.Note)
		}
		b.WriteString("\n")
	}
	if len(s.Params) > 0 {
		b.WriteString("\nparameters\n")
		width := 0
		for _, p := range s.Params {
			width = max(width, len(p[0]))
		}
		for _, p := range s.Params {
			fmt.Fprintf(&b, "  %-*s  %s\n", width, p[0], p[1])
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func fmtNumber(x float64) string {
	switch {
	case math.IsNaN(x):
		return "-"
	case x == math.Trunc(x) && math.Abs(x) < 1e9:
		return fmt.Sprintf("%.0f", x)
	case math.Abs(x) >= 100:
		return fmt.Sprintf("%.0f", x)
	}
	return fmt.Sprintf("%.1f", x)
}

// fmtBytes prints bytes with binary units and 3 significant digits.
func fmtBytes(x float64) string {
	if math.IsNaN(x) {
		return "-"
	}
	units := []string{"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	u := 0
	for math.Abs(x) >= 1024 && u < len(units)-1 {
		x /= 1024
		u++
	}
	switch {
	case u == 0:
		return fmt.Sprintf("%.0f B", x)
	case x >= 100:
		return fmt.Sprintf("%.0f %s", x, units[u])
	case x >= 10:
		return fmt.Sprintf("%.1f %s", x, units[u])
	}
	return fmt.Sprintf("%.2f %s", x, units[u])
}

func fmtSeconds(s float64) string {
	if s < 120 {
		return fmt.Sprintf("%.1f s", s)
	}
	if s < 7200 {
		return fmt.Sprintf("%.1f s (%.1f min)", s, s/60)
	}
	return fmt.Sprintf("%.0f s (%.1f h)", s, s/3600)
}

// plural is "1 job" or "n jobs".
func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
