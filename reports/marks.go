package reports

import (
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// marks draws a panel's labelled reference lines: dotted, grey, with the
// label beside the line rather than in the legend.
type marks struct {
	marks []Mark
	line  draw.LineStyle
	text  text.Style
	// lines are the panel's series as drawn, which the labels of vertical
	// marks avoid.
	lines []plotter.XYs
}

func newMarks(ms []Mark) *marks {
	return &marks{
		marks: ms,
		line: draw.LineStyle{
			Color:  color.Gray{Y: 0x55},
			Width:  vg.Points(1),
			Dashes: []vg.Length{vg.Points(1.5), vg.Points(2)},
		},
		text: textStyle(8, color.Gray{Y: 0x33}),
	}
}

const markGap = vg.Length(3) // points between a mark and its label

// place returns where mark k is drawn: its line from a to b and the box of
// its label, or ok false when it lies outside the panel. Labels of
// vertical marks stack so that close marks stay legible, at the top, the
// middle or the bottom of the panel, right or left of their line: the
// first of these places that no series crosses, or else the one that
// fewest cross. Labels of horizontal marks sit above the line at the left.
func (m *marks) place(c draw.Canvas, p *plot.Plot, k int) (a, b vg.Point, label vg.Rectangle, ok bool) {
	trX, trY := p.Transforms(&c)
	mk := m.marks[k]
	w := m.text.Width(mk.Label)
	h := m.text.Height(mk.Label)
	if mk.Axis == "x" {
		x := trX(mk.At)
		if x < c.Min.X || x > c.Max.X {
			return a, b, label, false
		}
		n := 0 // vertical marks before this one
		for _, o := range m.marks[:k] {
			if o.Axis == "x" {
				n++
			}
		}
		off := vg.Length(n) * (h + markGap)
		tops := []vg.Length{c.Max.Y - markGap - off, c.Center().Y + h/2 - off, c.Min.Y + markGap + h + off}
		lefts := []vg.Length{x + markGap, x - markGap - w}
		g := m.coverage(c, p)
		best := -1
		for _, top := range tops {
			for _, left := range lefts {
				if left < c.Min.X || left+w > c.Max.X || top > c.Max.Y || top-h < c.Min.Y {
					continue
				}
				r := vg.Rectangle{Min: vg.Point{X: left, Y: top - h}, Max: vg.Point{X: left + w, Y: top}}
				if n := g.count(r); best < 0 || n < best {
					label, best = r, n
				}
			}
		}
		if best < 0 { // no room anywhere: at the top, right of the line
			label = vg.Rectangle{Min: vg.Point{X: lefts[0], Y: tops[0] - h}, Max: vg.Point{X: lefts[0] + w, Y: tops[0]}}
		}
		return vg.Point{X: x, Y: c.Min.Y}, vg.Point{X: x, Y: c.Max.Y}, label, true
	}
	y := trY(mk.At)
	if y < c.Min.Y || y > c.Max.Y {
		return a, b, label, false
	}
	bottom := y + markGap
	if bottom+h > c.Max.Y {
		bottom = y - markGap - h
	}
	left := c.Min.X + markGap
	return vg.Point{X: c.Min.X, Y: y}, vg.Point{X: c.Max.X, Y: y},
		vg.Rectangle{Min: vg.Point{X: left, Y: bottom}, Max: vg.Point{X: left + w, Y: bottom + h}}, true
}

// coverage is where the panel's series run.
func (m *marks) coverage(c draw.Canvas, p *plot.Plot) *grid {
	trX, trY := p.Transforms(&c)
	g := newGrid(c.Rectangle)
	g.polylines(m.lines, trX, trY)
	return g
}

func (m *marks) Plot(c draw.Canvas, p *plot.Plot) {
	sty := m.text
	sty.XAlign, sty.YAlign = draw.XLeft, draw.YBottom
	for k, mk := range m.marks {
		a, b, label, ok := m.place(c, p, k)
		if !ok {
			continue
		}
		c.StrokeLine2(m.line, a.X, a.Y, b.X, b.Y)
		c.FillText(sty, label.Min, mk.Label)
	}
}

func (m *marks) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, ymin = math.Inf(1), math.Inf(1)
	xmax, ymax = math.Inf(-1), math.Inf(-1)
	for _, mk := range m.marks {
		if mk.Axis == "x" {
			xmin, xmax = math.Min(xmin, mk.At), math.Max(xmax, mk.At)
		} else {
			ymin, ymax = math.Min(ymin, mk.At), math.Max(ymax, mk.At)
		}
	}
	return xmin, xmax, ymin, ymax
}
