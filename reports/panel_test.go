package reports

import (
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// TestPointsPanelPadded: a panel with markers widens its fitted ranges so
// that no marker sits on the edge (half of it cut off); a fixed range
// stays as given.
func TestPointsPanelPadded(t *testing.T) {
	pn := Panel{Series: []Series{{Label: "FAIR", Kind: Points, X: []float64{10, 100}, Y: []float64{2750, 150}}}}
	f := Figure{Name: "f", Panels: []Panel{pn}}
	p := panelPlot(pn, figureLooks(f)[0])
	if !(p.X.Min < 10 && p.X.Max > 100 && p.Y.Min < 150 && p.Y.Max > 2750) {
		t.Errorf("fitted ranges x [%g, %g], y [%g, %g] leave the end points on the edge", p.X.Min, p.X.Max, p.Y.Min, p.Y.Max)
	}
	pn.X = &Range{Min: 10, Max: 100}
	if p := panelPlot(pn, figureLooks(f)[0]); p.X.Min != 10 || p.X.Max != 100 {
		t.Errorf("fixed x range became [%g, %g]", p.X.Min, p.X.Max)
	}
}

// TestCoincides: a point on one already drawn is found, to be drawn as a
// box around it rather than hidden.
func TestCoincides(t *testing.T) {
	model := plotter.XYs{{X: 1, Y: 20}, {X: 2, Y: 40}}
	if !coincides(plotter.XYs{{X: 2, Y: 40}}, model) || coincides(plotter.XYs{{X: 2, Y: 41}}, model) {
		t.Error("coincides")
	}
}

// TestSeriesDashesDiffer: the series of a figure differ by dash pattern as
// well as by colour, and a label keeps its pattern in every panel.
func TestSeriesDashesDiffer(t *testing.T) {
	line := func(l string) Series { return Series{Label: l, Kind: Line, X: []float64{0, 1}, Y: []float64{0, 1}} }
	f := Figure{Name: "f", Panels: []Panel{
		{Series: []Series{line("HFSP (95% CI)"), line("FAIR"), line("HFSP, α = 0")}},
		{Series: []Series{line("FAIR")}},
	}}
	looks := figureLooks(f)
	seen := map[int]bool{}
	for _, lk := range looks[0] {
		if seen[lk.dash] {
			t.Errorf("two series share dash pattern %d", lk.dash)
		}
		seen[lk.dash] = true
	}
	if looks[1][0] != looks[0][1] {
		t.Error("FAIR changed its look between panels")
	}
}

// TestMarkLabelAvoidsCurve: a curve through the top right of a vertical
// mark sends its label elsewhere.
func TestMarkLabelAvoidsCurve(t *testing.T) {
	c := draw.Canvas{Rectangle: vg.Rectangle{Max: vg.Point{X: 300, Y: 200}}}
	p := plot.New()
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = 0, 100, 0, 1
	m := newMarks([]Mark{{Axis: "x", At: 50, Label: "60 min"}})
	m.lines = []plotter.XYs{{{X: 40, Y: 0.97}, {X: 100, Y: 0.97}}} // along the top, right of the mark
	_, _, label, ok := m.place(c, p, 0)
	if !ok {
		t.Fatal("mark not placed")
	}
	curveY := vg.Length(0.97 * 200)
	if label.Min.Y <= curveY && label.Max.Y >= curveY {
		t.Errorf("label %v lies across the curve at y = %v", label, curveY)
	}
}
