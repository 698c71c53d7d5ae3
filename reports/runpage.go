package reports

import (
	"bytes"
	_ "embed"
	"fmt"
	"html/template"
	"math"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"sojourn/internal/atomicfile"
)

// RunPage is one replay's own page of the report: its parameters, the
// slots each job held over time (when its task segments were recorded)
// and its per-job table, sortable by any column. Like index.html it opens
// from the file system: the style, the figure (inline SVG) and the few
// lines of script that sort the table are in the page.
type RunPage struct {
	Section string  // the experiment, e.g. "fig3"
	Dir     string  // the run's directory in it, e.g. "hfsp" or "nodes-010/fair"
	Title   string  // one line, e.g. "fig3: hfsp"
	Params  []Param // shown in the given order
	Jobs    RunJobs
	// Segments are the run's task segments; nil when not recorded.
	Segments *RunSegments
}

// RunJobs are a run's jobs in columns, one entry per job.
type RunJobs struct {
	Index                   []int32
	Class                   []string
	Maps, Reduces           []int32
	Submit, Finish, Sojourn []float64 // s
	NodeLocal               []int32   // maps that read their block on their node
}

// RunSegments are a run's task segments in columns: the job (its Index),
// whether a reduce, and the span in seconds.
type RunSegments struct {
	Job        []int32
	Reduce     []bool
	Start, End []float64
}

// RunLink is a section's link to one of its run pages.
type RunLink struct {
	Label string `json:"label"`
	Href  string `json:"href"` // relative to index.html
}

// RunPagePath is the page of run dir of section, relative to the
// report's directory: "runs/fig5/nodes-010--fair.html".
func RunPagePath(section, dir string) string {
	return path.Join("runs", section, strings.ReplaceAll(path.Clean(dir), "/", "--")+".html")
}

//go:embed run.html.tmpl
var runSource string

var runTemplate = template.Must(template.New("run").Parse(runSource))

// WriteRunPage writes the page of run p into the report's directory dir,
// at RunPagePath.
func WriteRunPage(dir string, p RunPage) error {
	n := len(p.Jobs.Index)
	j := p.Jobs
	for name, l := range map[string]int{"class": len(j.Class), "maps": len(j.Maps), "reduces": len(j.Reduces),
		"submit": len(j.Submit), "finish": len(j.Finish), "sojourn": len(j.Sojourn), "node-local": len(j.NodeLocal)} {
		if l != n {
			panic(fmt.Sprintf("reports: run %s/%s: %d %s values for %d jobs", p.Section, p.Dir, l, name, n))
		}
	}
	rel := RunPagePath(p.Section, p.Dir)
	page := struct {
		RunPage
		Index string
		SVG   template.HTML
		Rows  [][]string
		Mean  string
	}{RunPage: p, Index: strings.Repeat("../", strings.Count(rel, "/")) + "index.html"}
	if p.Segments != nil && n > 0 {
		page.SVG = template.HTML(ganttSVG(p.Jobs, p.Segments))
	}
	var sum float64
	for i := 0; i < n; i++ {
		sum += j.Sojourn[i]
		page.Rows = append(page.Rows, []string{
			strconv.Itoa(int(j.Index[i])), j.Class[i], strconv.Itoa(int(j.Maps[i])), strconv.Itoa(int(j.Reduces[i])),
			fmt.Sprintf("%.1f", j.Submit[i]), fmt.Sprintf("%.1f", j.Finish[i]), fmt.Sprintf("%.1f", j.Sojourn[i]),
			strconv.Itoa(int(j.NodeLocal[i])),
		})
	}
	if n > 0 {
		page.Mean = fmt.Sprintf("%.1f s", sum/float64(n))
	}
	var buf bytes.Buffer
	if err := runTemplate.Execute(&buf, page); err != nil {
		return fmt.Errorf("reports: run page %s: %w", rel, err)
	}
	out := filepath.Join(dir, filepath.FromSlash(rel))
	if err := atomicfile.WriteBytes(out, buf.Bytes()); err != nil {
		return fmt.Errorf("reports: write %s: %w", out, err)
	}
	return nil
}

// The Gantt chart's geometry, in SVG pixels.
const (
	ganttLeft   = 56  // room for the job labels
	ganttWidth  = 880 // the time axis
	ganttRight  = 16
	ganttTop    = 8
	ganttBottom = 40 // the time axis and its label
	ganttCols   = ganttWidth
)

// ganttSVG draws one row per job: a grey bar from its submission to its
// end, and over it the map slots (blue) and reduce slots (orange) it held,
// averaged over each pixel column and scaled to the job's own peak, so a
// one-slot job is as visible as a 400-slot one; the peak is in the row's
// tooltip.
func ganttSVG(j RunJobs, s *RunSegments) string {
	n := len(j.Index)
	row := math.Min(14, math.Max(4, 640/float64(n)))
	height := ganttTop + row*float64(n) + ganttBottom
	tmax := 0.0
	for i := 0; i < n; i++ {
		tmax = math.Max(tmax, j.Finish[i])
	}
	for i := range s.End {
		tmax = math.Max(tmax, s.End[i])
	}
	if tmax <= 0 {
		tmax = 1
	}
	colW := tmax / ganttCols
	rowOf := make(map[int32]int, n)
	for i, ix := range j.Index {
		rowOf[ix] = i
	}
	// held[k][r][c]: slot-seconds of kind k (0 maps, 1 reduces) of row r in column c.
	held := [2][][]float64{make([][]float64, n), make([][]float64, n)}
	for i := range s.Job {
		r, ok := rowOf[s.Job[i]]
		if !ok || !(s.End[i] > s.Start[i]) {
			continue
		}
		k := 0
		if s.Reduce[i] {
			k = 1
		}
		if held[k][r] == nil {
			held[k][r] = make([]float64, ganttCols)
		}
		c0 := int(math.Min(s.Start[i]/colW, ganttCols-1))
		c1 := int(math.Min(s.End[i]/colW, ganttCols-1))
		for c := c0; c <= c1; c++ {
			lo, hi := math.Max(s.Start[i], float64(c)*colW), math.Min(s.End[i], float64(c+1)*colW)
			if hi > lo {
				held[k][r][c] += hi - lo
			}
		}
	}
	var b strings.Builder
	w := ganttLeft + ganttWidth + ganttRight
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" id="gantt" viewBox="0 0 %d %.0f" width="%d" height="%.0f" role="img" aria-label="slots held by each job over time">`, w, height, w, height)
	b.WriteString(`<style>text{font:10px Helvetica,Arial,sans-serif;fill:#333}.wait{fill:#e4e4e4}.m{fill:#0072B2}.r{fill:#E69F00;fill-opacity:.9}.ax{stroke:#888;stroke-width:1}.g{stroke:#eee;stroke-width:1}</style>`)
	x := func(t float64) float64 { return ganttLeft + t/tmax*ganttWidth }
	bottom := ganttTop + row*float64(n)
	for _, tk := range (linearTicks{}).Ticks(0, tmax) {
		if tk.Label == "" {
			continue
		}
		fmt.Fprintf(&b, `<line class="g" x1="%.1f" y1="%d" x2="%.1f" y2="%.1f"/>`, x(tk.Value), ganttTop, x(tk.Value), bottom)
		fmt.Fprintf(&b, `<line class="ax" x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f"/><text x="%.1f" y="%.1f" text-anchor="middle">%s</text>`,
			x(tk.Value), bottom, x(tk.Value), bottom+4, x(tk.Value), bottom+15, template.HTMLEscapeString(tk.Label))
	}
	fmt.Fprintf(&b, `<line class="ax" x1="%d" y1="%.1f" x2="%d" y2="%.1f"/>`, ganttLeft, bottom, ganttLeft+ganttWidth, bottom)
	fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle">time (s)</text>`, float64(ganttLeft)+ganttWidth/2, bottom+32)
	labelEvery := int(math.Ceil(10 / row))
	for r := 0; r < n; r++ {
		top := ganttTop + row*float64(r)
		peak := 0.0
		for c := 0; c < ganttCols; c++ {
			v := 0.0
			for k := 0; k < 2; k++ {
				if held[k][r] != nil {
					v += held[k][r][c]
				}
			}
			peak = math.Max(peak, v)
		}
		fmt.Fprintf(&b, `<g><title>job %d (%s): %d maps, %d reduces; submitted %.1f s, finished %.1f s, sojourn %.1f s; at most %.0f slots on average over %.3g s</title>`,
			j.Index[r], template.HTMLEscapeString(j.Class[r]), j.Maps[r], j.Reduces[r], j.Submit[r], j.Finish[r], j.Sojourn[r], peak/colW, colW)
		fmt.Fprintf(&b, `<rect class="wait" x="%.1f" y="%.1f" width="%.1f" height="%.1f"/>`, x(j.Submit[r]), top+row*0.1,
			math.Max(0.5, x(j.Finish[r])-x(j.Submit[r])), row*0.8)
		if peak > 0 {
			base := top + row*0.9
			scale := row * 0.8 / peak
			var below []float64
			for k, class := range []string{"m", "r"} {
				if held[k][r] == nil {
					continue
				}
				if below == nil {
					below = make([]float64, ganttCols)
				}
				b.WriteString(stepPath(class, held[k][r], below, base, scale))
				for c := range below {
					below[c] += held[k][r][c]
				}
			}
		}
		b.WriteString(`</g>`)
		if r%labelEvery == 0 {
			fmt.Fprintf(&b, `<text x="%d" y="%.1f" text-anchor="end">job %d</text>`, ganttLeft-4, top+row/2+3.5, j.Index[r])
		}
	}
	b.WriteString(`</svg>`)
	return b.String()
}

// stepPath is the filled staircase of v stacked on below, in the columns
// where v is not zero, as one SVG path of class class.
func stepPath(class string, v, below []float64, base, scale float64) string {
	var b strings.Builder
	fmt.Fprintf(&b, `<path class="%s" d="`, class)
	for c := 0; c < len(v); {
		if v[c] == 0 {
			c++
			continue
		}
		start := c
		for c < len(v) && v[c] != 0 {
			c++
		}
		x0 := float64(ganttLeft + start)
		fmt.Fprintf(&b, "M%.0f %.1f", x0, base-below[start]*scale)
		for k := start; k < c; k++ {
			fmt.Fprintf(&b, "V%.1fH%d", base-(below[k]+v[k])*scale, ganttLeft+k+1)
		}
		for k := c - 1; k >= start; k-- {
			fmt.Fprintf(&b, "V%.1fH%d", base-below[k]*scale, ganttLeft+k)
		}
		b.WriteString("Z")
	}
	b.WriteString(`"/>`)
	return b.String()
}
