package reports

import (
	"image/color"
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

const lineWidth = vg.Length(1.5) // points

// sans is Liberation Sans, metric-compatible with Arial and Helvetica,
// which the SVGs name as fallbacks.
func sans(size vg.Length) font.Font {
	return font.From(font.Font{Typeface: "Liberation", Variant: "Sans"}, size)
}

// textStyle is sans text at size points, for the text drawn by this
// package rather than by gonum's axes.
func textStyle(size vg.Length, c color.Color) text.Style {
	return text.Style{Color: c, Font: sans(size), Handler: text.Plain{Fonts: font.DefaultCache}}
}

// lineStyle is a series' line: its look's pattern, or dashed when the
// series asks for it and its pattern is solid.
func lineStyle(lk look, dashed bool) draw.LineStyle {
	ls := draw.LineStyle{Color: lk.color, Width: lineWidth, Dashes: dashPatterns[lk.dash]}
	if dashed && len(ls.Dashes) == 0 {
		ls.Dashes = dashPatterns[1]
	}
	return ls
}

// panelPlot builds the gonum plot of one validated panel. Stacked bands go
// first so that lines stay visible over them, then the other series in
// order, the marks, and the legend on top.
func panelPlot(pn Panel, looks []look) *plot.Plot {
	p := plot.New()
	p.Title.Text = pn.Title
	p.Title.TextStyle.Font = sans(11)
	p.Title.Padding = vg.Points(4)
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font = sans(10)
		a.Tick.Label.Font = sans(9)
	}
	p.X.Label.Text, p.Y.Label.Text = pn.XLabel, pn.YLabel
	p.X.Tick.Marker, p.Y.Tick.Marker = linearTicks{}, linearTicks{}
	if pn.XLog {
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = logTicks{}
		p.X.Label.Text = logLabel(pn.XLabel)
	}

	gr := plotter.NewGrid()
	gr.Vertical = draw.LineStyle{Color: color.Gray{Y: 0xE4}, Width: vg.Points(0.5)}
	gr.Horizontal = gr.Vertical
	p.Add(gr)

	leg := &legend{text: textStyle(legendFontSize(pn), color.Black)}
	thumbs := make([][]plot.Thumbnailer, len(pn.Series))
	var below []float64
	for j, s := range pn.Series {
		if s.Kind != Stacked {
			continue
		}
		if below == nil {
			below = make([]float64, len(s.X))
		}
		b := &band{x: s.X, lo: below, hi: s.Y, color: looks[j].color}
		below = s.Y
		p.Add(b)
		leg.bands = append(leg.bands, b)
		thumbs[j] = []plot.Thumbnailer{b}
	}
	// Reference lines go under the data, which they must not hide.
	for j, s := range pn.Series {
		if s.Kind != HLine {
			continue
		}
		h := &hline{y: s.Y[0], style: lineStyle(looks[j], true)}
		p.Add(h)
		leg.hlines = append(leg.hlines, h.y)
		thumbs[j] = []plot.Thumbnailer{h}
	}
	// Intervals drawn as bands go under every line.
	for j, s := range pn.Series {
		if !s.Band || s.YLo == nil {
			continue
		}
		c := looks[j].color
		c.A = 0x40
		b := &ciBand{x: s.X, lo: s.YLo, hi: s.YHi, color: premultiply(c)}
		p.Add(b)
		leg.bands = append(leg.bands, &band{x: s.X, lo: s.YLo, hi: s.YHi})
		thumbs[j] = append(thumbs[j], b)
	}
	var drawn plotter.XYs // the points of the points series so far
	for j, s := range pn.Series {
		lk := looks[j]
		ls := lineStyle(lk, s.Dashed)
		switch s.Kind {
		case Line, Step:
			xys := xyPairs(s.X, s.Y)
			if s.Kind == Step {
				xys = stairs(s.X, s.Y)
			}
			l := &plotter.Line{XYs: xys, LineStyle: ls}
			p.Add(l)
			leg.lines = append(leg.lines, xys)
			thumbs[j] = append(thumbs[j], l)
		case Points:
			xys := xyPairs(s.X, s.Y)
			if s.YLo != nil && !s.Band {
				eb := &errBars{x: s.X, lo: s.YLo, hi: s.YHi, style: draw.LineStyle{Color: lk.color, Width: vg.Points(1)}}
				p.Add(eb)
				for i := range s.X {
					leg.lines = append(leg.lines, plotter.XYs{{X: s.X[i], Y: s.YLo[i]}, {X: s.X[i], Y: s.YHi[i]}})
				}
			}
			l := &plotter.Line{XYs: xys, LineStyle: ls}
			gs := draw.GlyphStyle{Color: lk.color, Radius: vg.Points(2.5), Shape: lk.shape}
			if coincides(xys, drawn) {
				// A point on one already drawn (the paper's value on the
				// model's line) is drawn as a wider hollow box around it.
				gs.Radius, gs.Shape = vg.Points(5), draw.SquareGlyph{}
			}
			drawn = append(drawn, xys...)
			sc := &plotter.Scatter{XYs: xys, GlyphStyle: gs}
			p.Add(l, sc)
			leg.lines = append(leg.lines, xys)
			if len(xys) == 1 {
				// A lone point has no line: its legend shows the marker alone.
				thumbs[j] = append(thumbs[j], sc)
			} else {
				thumbs[j] = append(thumbs[j], l, sc)
			}
		}
	}
	for j, s := range pn.Series {
		leg.add(s.Label, thumbs[j]...)
	}
	if len(pn.Marks) > 0 {
		leg.marks = newMarks(pn.Marks)
		leg.marks.lines = leg.lines
		p.Add(leg.marks)
	}
	p.Add(leg)
	setRange(&p.X, pn.X, pn.XLog)
	setRange(&p.Y, pn.Y, false)
	if drawn != nil { // markers at the edge of a fitted range would be cut in half
		padRange(&p.X, pn.X, pn.XLog)
		padRange(&p.Y, pn.Y, false)
	}
	if pn.Y == nil && minY(pn) >= 0 {
		// A fitted linear y axis of non-negative values starts at 0, so
		// that heights compare as ratios; a panel that wants otherwise
		// says so with its range.
		p.Y.Min = 0
	}
	if below != nil && pn.Y == nil && len(leg.entries) <= 8 {
		// Stacked bands fill the data area to its top corners, so no
		// corner is free for the legend: leave room above the bands.
		p.Y.Max += stackHeadroom(len(leg.entries)) * (p.Y.Max - p.Y.Min)
	}
	return p
}

// logLabel marks a logarithmic axis in its label.
func logLabel(label string) string {
	if strings.Contains(label, "log") {
		return label
	}
	if label == "" {
		return "log scale"
	}
	return label + ", log scale"
}

// minY is the least y a panel's series draw, intervals included.
func minY(pn Panel) float64 {
	m := math.Inf(1)
	for _, s := range pn.Series {
		for _, v := range s.Y {
			m = math.Min(m, v)
		}
		for _, v := range s.YLo {
			m = math.Min(m, v)
		}
	}
	return m
}

// stackHeadroom is the fraction of a stacked panel's range added above
// its bands for a legend of n entries (one line each, about 6% of a
// panel's height at the figures' sizes).
func stackHeadroom(n int) float64 { return 0.06*float64(n) + 0.06 }

// coincides says whether a point of xys is one of drawn.
func coincides(xys, drawn plotter.XYs) bool {
	for _, a := range xys {
		for _, b := range drawn {
			if math.Abs(a.X-b.X) <= 1e-9*math.Max(1, math.Abs(b.X)) && math.Abs(a.Y-b.Y) <= 1e-9*math.Max(1, math.Abs(b.Y)) {
				return true
			}
		}
	}
	return false
}

// padRange widens a fitted range by 4% on each side (in log space on a log
// axis); a fixed range stays as given.
func padRange(a *plot.Axis, fixed *Range, log bool) {
	const pad = 0.04
	switch {
	case fixed != nil:
	case log:
		f := math.Pow(a.Max/a.Min, pad)
		a.Min, a.Max = a.Min/f, a.Max*f
	default:
		d := pad * (a.Max - a.Min)
		a.Min, a.Max = a.Min-d, a.Max+d
	}
}

// legendFontSize shrinks the legend of crowded panels (allocation graphs
// with a band per job) so that it still fits.
func legendFontSize(pn Panel) vg.Length {
	if len(pn.Series) > 8 {
		return 7
	}
	return 9
}

func xyPairs(x, y []float64) plotter.XYs {
	xys := make(plotter.XYs, len(x))
	for i := range x {
		xys[i] = plotter.XY{X: x[i], Y: y[i]}
	}
	return xys
}

// setRange applies a fixed range, or widens a fitted one that collapsed to
// a point (gonum would widen it by ±1, which a log axis cannot take).
func setRange(a *plot.Axis, fixed *Range, log bool) {
	switch {
	case fixed != nil:
		a.Min, a.Max = fixed.Min, fixed.Max
	case a.Min == a.Max && log:
		a.Min, a.Max = a.Min/2, a.Max*2
	case a.Min == a.Max:
		a.Min, a.Max = a.Min-1, a.Max+1
	}
}
