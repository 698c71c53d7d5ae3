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

// legend is drawn by the panel itself, last, in the corner of the data
// area that covers the least of what is drawn, on a white box. gonum's own
// legend has a fixed corner and no background, so it would hide curves.
type legend struct {
	entries []legendEntry
	text    text.Style

	// What to keep clear, in data coordinates.
	lines  []plotter.XYs
	bands  []*band
	hlines []float64
	marks  *marks
}

type legendEntry struct {
	label  string
	thumbs []plot.Thumbnailer
}

const (
	legendInset = vg.Length(4)  // from the data area's edge
	legendPad   = vg.Length(3)  // inside the box
	thumbWidth  = vg.Length(16) // line sample
	thumbGap    = vg.Length(4)  // between sample and label
	gridCells   = 48            // columns and rows of the coverage grid

	weightFill = 1  // a cell inside a stacked band
	weightInk  = 4  // a cell crossed by a line
	weightText = 16 // a cell under a mark's label: hiding words is worst
)

// add records a legend entry; a label already present keeps its first
// entry, and empty labels stay out of the legend.
func (l *legend) add(label string, thumbs ...plot.Thumbnailer) {
	if label == "" {
		return
	}
	for _, e := range l.entries {
		if e.label == label {
			return
		}
	}
	l.entries = append(l.entries, legendEntry{label: label, thumbs: thumbs})
}

func (l *legend) size() (w, h vg.Length) {
	for _, e := range l.entries {
		w = max(w, l.text.Width(e.label))
	}
	w += 2*legendPad + thumbWidth + thumbGap
	h = 2*legendPad + vg.Length(len(l.entries))*l.lineHeight()
	return w, h
}

func (l *legend) lineHeight() vg.Length { return l.text.FontExtents().Height }

func (l *legend) Plot(c draw.Canvas, p *plot.Plot) {
	if len(l.entries) == 0 {
		return
	}
	w, h := l.size()
	box := l.corner(c, p, w, h)
	c.FillPolygon(color.White, []vg.Point{box.Min, {X: box.Max.X, Y: box.Min.Y}, box.Max, {X: box.Min.X, Y: box.Max.Y}})
	edge := draw.LineStyle{Color: color.Gray{Y: 0xBB}, Width: vg.Points(0.5)}
	c.StrokeLines(edge, []vg.Point{box.Min, {X: box.Max.X, Y: box.Min.Y}, box.Max, {X: box.Min.X, Y: box.Max.Y}, box.Min})

	sty := l.text
	sty.XAlign, sty.YAlign = draw.XLeft, draw.YCenter
	lh := l.lineHeight()
	for i, e := range l.entries {
		top := box.Max.Y - legendPad - vg.Length(i)*lh
		thumb := draw.Canvas{Canvas: c.Canvas, Rectangle: vg.Rectangle{
			Min: vg.Point{X: box.Min.X + legendPad, Y: top - lh + 2},
			Max: vg.Point{X: box.Min.X + legendPad + thumbWidth, Y: top - 2},
		}}
		for _, t := range e.thumbs {
			t.Thumbnail(&thumb)
		}
		c.FillText(sty, vg.Point{X: thumb.Max.X + thumbGap, Y: top - lh/2}, e.label)
	}
}

// corner picks, among the four corners in the order top right, top left,
// bottom right, bottom left, the first one whose box hides the least of
// what the panel draws, by a coarse grid of weighted cells: covering part
// of a filled band costs little, covering a line or a label costs more.
func (l *legend) corner(c draw.Canvas, p *plot.Plot, w, h vg.Length) vg.Rectangle {
	g := l.coverage(c, p)
	var best vg.Rectangle
	bestCount := math.MaxInt
	for _, top := range []bool{true, false} {
		for _, right := range []bool{true, false} {
			r := vg.Rectangle{Min: vg.Point{X: c.Min.X + legendInset, Y: c.Min.Y + legendInset}}
			if right {
				r.Min.X = c.Max.X - legendInset - w
			}
			if top {
				r.Min.Y = c.Max.Y - legendInset - h
			}
			r.Max = vg.Point{X: r.Min.X + w, Y: r.Min.Y + h}
			if n := g.count(r); n < bestCount {
				best, bestCount = r, n
			}
		}
	}
	return best
}

func (l *legend) coverage(c draw.Canvas, p *plot.Plot) *grid {
	trX, trY := p.Transforms(&c)
	g := newGrid(c.Rectangle)
	g.polylines(l.lines, trX, trY)
	for _, b := range l.bands {
		for i := 0; i+1 < len(b.x); i++ {
			g.fill(vg.Rectangle{
				Min: vg.Point{X: trX(b.x[i]), Y: trY(b.lo[i])},
				Max: vg.Point{X: trX(b.x[i+1]), Y: trY(b.hi[i])},
			}, weightFill)
		}
	}
	for _, y := range l.hlines {
		g.segment(vg.Point{X: c.Min.X, Y: trY(y)}, vg.Point{X: c.Max.X, Y: trY(y)})
	}
	if l.marks != nil {
		for k := range l.marks.marks {
			if a, b, label, ok := l.marks.place(c, p, k); ok {
				g.segment(a, b)
				g.fill(label, weightText)
			}
		}
	}
	return g
}

// grid is a coarse occupancy map of a data area.
type grid struct {
	area vg.Rectangle
	cell [gridCells][gridCells]int // weight, [column][row]
}

func newGrid(area vg.Rectangle) *grid { return &grid{area: area} }

// index returns the cell holding pt, clamped to the grid.
func (g *grid) index(pt vg.Point) (int, int) {
	s := g.area.Size()
	i := int(float64((pt.X - g.area.Min.X) / s.X * gridCells))
	j := int(float64((pt.Y - g.area.Min.Y) / s.Y * gridCells))
	return min(max(i, 0), gridCells-1), min(max(j, 0), gridCells-1)
}

func (g *grid) inside(pt vg.Point) bool {
	return pt.X >= g.area.Min.X && pt.X <= g.area.Max.X && pt.Y >= g.area.Min.Y && pt.Y <= g.area.Max.Y
}

// segment marks the cells along a to b, sampled at a quarter cell.
func (g *grid) segment(a, b vg.Point) {
	s := g.area.Size()
	dx := float64((b.X - a.X) / s.X * gridCells)
	dy := float64((b.Y - a.Y) / s.Y * gridCells)
	n := int(math.Ceil(4*math.Hypot(dx, dy))) + 1
	for k := 0; k <= n; k++ {
		t := vg.Length(k) / vg.Length(n)
		pt := vg.Point{X: a.X + t*(b.X-a.X), Y: a.Y + t*(b.Y-a.Y)}
		if g.inside(pt) {
			i, j := g.index(pt)
			g.cell[i][j] = max(g.cell[i][j], weightInk)
		}
	}
}

// fill marks every cell that r overlaps with weight w; r may be given in
// any corner order.
// polylines marks the cells the lines cross, their points mapped to the
// canvas by trX and trY.
func (g *grid) polylines(lines []plotter.XYs, trX, trY func(float64) vg.Length) {
	for _, xys := range lines {
		for i := range xys {
			a := vg.Point{X: trX(xys[i].X), Y: trY(xys[i].Y)}
			b := a
			if i > 0 {
				b = vg.Point{X: trX(xys[i-1].X), Y: trY(xys[i-1].Y)}
			}
			g.segment(a, b)
		}
	}
}

func (g *grid) fill(r vg.Rectangle, w int) {
	lo := vg.Point{X: min(r.Min.X, r.Max.X), Y: min(r.Min.Y, r.Max.Y)}
	hi := vg.Point{X: max(r.Min.X, r.Max.X), Y: max(r.Min.Y, r.Max.Y)}
	if hi.X < g.area.Min.X || lo.X > g.area.Max.X || hi.Y < g.area.Min.Y || lo.Y > g.area.Max.Y {
		return
	}
	i0, j0 := g.index(lo)
	i1, j1 := g.index(hi)
	for i := i0; i <= i1; i++ {
		for j := j0; j <= j1; j++ {
			g.cell[i][j] = max(g.cell[i][j], w)
		}
	}
}

// count returns the weight of the cells r overlaps.
func (g *grid) count(r vg.Rectangle) int {
	i0, j0 := g.index(r.Min)
	i1, j1 := g.index(r.Max)
	n := 0
	for i := i0; i <= i1; i++ {
		for j := j0; j <= j1; j++ {
			n += g.cell[i][j]
		}
	}
	return n
}
