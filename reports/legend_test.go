package reports

import (
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// TestLegendCorner: a curve rising from bottom left to top right leaves
// the top-left corner free; one falling leaves the top right (the first
// choice) free; a full band is covered anywhere but a mark's label costs
// more than the band.
func TestLegendCorner(t *testing.T) {
	c := draw.Canvas{Rectangle: vg.Rectangle{Max: vg.Point{X: 300, Y: 200}}}
	p := plot.New()
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = 0, 1, 0, 1
	corner := func(l *legend) string {
		r := l.corner(c, p, 60, 40)
		v, h := "bottom", "left"
		if r.Max.Y > 100 {
			v = "top"
		}
		if r.Max.X > 150 {
			h = "right"
		}
		return v + " " + h
	}
	rising := &legend{lines: []plotter.XYs{{{X: 0, Y: 0}, {X: 1, Y: 1}}}}
	if got := corner(rising); got != "top left" {
		t.Errorf("rising curve: legend %s, want top left", got)
	}
	falling := &legend{lines: []plotter.XYs{{{X: 0, Y: 1}, {X: 1, Y: 0}}}}
	if got := corner(falling); got != "top right" {
		t.Errorf("falling curve: legend %s, want top right", got)
	}
	full := &legend{
		bands: []*band{{x: []float64{0, 1}, lo: []float64{0, 0}, hi: []float64{1, 1}}},
		marks: newMarks([]Mark{{Axis: "x", At: 0.9, Label: "a long label on the right"}}),
	}
	if got := corner(full); got != "top left" {
		t.Errorf("band and right-hand mark: legend %s, want top left", got)
	}
}
