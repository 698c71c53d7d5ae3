package reports

import (
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// The plotters gonum lacks: a filled band between two staircases, error
// bars from absolute bounds, a reference line across the panel and
// labelled marks. Each also implements plot.DataRanger so fitted ranges
// include it.

// stairs expands the points of a right-continuous step function into the
// corners of its staircase, so that clipping acts on the drawn shape and
// not on the diagonal between two points.
func stairs(x, y []float64) plotter.XYs {
	out := make(plotter.XYs, 0, 2*len(x))
	for i := range x {
		if i > 0 {
			out = append(out, plotter.XY{X: x[i], Y: y[i-1]})
		}
		out = append(out, plotter.XY{X: x[i], Y: y[i]})
	}
	return out
}

// band fills between two step functions sharing x: a stacked series and
// the one below it (zero for the first).
type band struct {
	x, lo, hi []float64
	color     color.Color
}

func (b *band) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	up, down := stairs(b.x, b.hi), stairs(b.x, b.lo)
	pts := make([]vg.Point, 0, len(up)+len(down))
	for _, q := range up {
		pts = append(pts, vg.Point{X: trX(q.X), Y: trY(q.Y)})
	}
	for i := len(down) - 1; i >= 0; i-- {
		pts = append(pts, vg.Point{X: trX(down[i].X), Y: trY(down[i].Y)})
	}
	if poly := c.ClipPolygonXY(pts); len(poly) > 2 {
		c.FillPolygon(b.color, poly)
	}
}

func (b *band) DataRange() (xmin, xmax, ymin, ymax float64) {
	ymin, ymax = math.Inf(1), math.Inf(-1)
	for i := range b.x {
		ymin = math.Min(ymin, b.lo[i])
		ymax = math.Max(ymax, b.hi[i])
	}
	return b.x[0], b.x[len(b.x)-1], ymin, ymax
}

func (b *band) Thumbnail(c *draw.Canvas) {
	r := c.Rectangle
	c.FillPolygon(b.color, []vg.Point{r.Min, {X: r.Max.X, Y: r.Min.Y}, r.Max, {X: r.Min.X, Y: r.Max.Y}})
}

// errBars draws a vertical bar with caps from lo to hi at each x.
type errBars struct {
	x, lo, hi []float64
	style     draw.LineStyle
}

const capWidth = 4 // points

func (e *errBars) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	for i := range e.x {
		x := trX(e.x[i])
		if x < c.Min.X || x > c.Max.X {
			continue
		}
		lo, hi := trY(e.lo[i]), trY(e.hi[i])
		c.StrokeLines(e.style, c.ClipLinesY([]vg.Point{{X: x, Y: lo}, {X: x, Y: hi}})...)
		for _, y := range []vg.Length{lo, hi} {
			if y >= c.Min.Y && y <= c.Max.Y {
				c.StrokeLine2(e.style, x-capWidth/2, y, x+capWidth/2, y)
			}
		}
	}
}

func (e *errBars) DataRange() (xmin, xmax, ymin, ymax float64) {
	return intervalsRange(e.x, e.lo, e.hi)
}

// intervalsRange is the range of intervals lo[i]–hi[i] at x[i].
func intervalsRange(x, lo, hi []float64) (xmin, xmax, ymin, ymax float64) {
	xmin, ymin = math.Inf(1), math.Inf(1)
	xmax, ymax = math.Inf(-1), math.Inf(-1)
	for i := range x {
		xmin, xmax = math.Min(xmin, x[i]), math.Max(xmax, x[i])
		ymin, ymax = math.Min(ymin, lo[i]), math.Max(ymax, hi[i])
	}
	return xmin, xmax, ymin, ymax
}

// hline is a horizontal reference line across the whole panel.
type hline struct {
	y     float64
	style draw.LineStyle
}

func (h *hline) Plot(c draw.Canvas, p *plot.Plot) {
	_, trY := p.Transforms(&c)
	if y := trY(h.y); y >= c.Min.Y && y <= c.Max.Y {
		c.StrokeLine2(h.style, c.Min.X, y, c.Max.X, y)
	}
}

// DataRange leaves x to the other series: the line spans whatever they need.
func (h *hline) DataRange() (xmin, xmax, ymin, ymax float64) {
	return math.Inf(1), math.Inf(-1), h.y, h.y
}

func (h *hline) Thumbnail(c *draw.Canvas) {
	y := c.Center().Y
	c.StrokeLine2(h.style, c.Min.X, y, c.Max.X, y)
}

// ciBand fills the interval lo–hi of a line, joining its points by
// straight segments, in a translucent version of the line's colour.
type ciBand struct {
	x, lo, hi []float64
	color     color.Color
}

func (b *ciBand) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	pts := make([]vg.Point, 0, 2*len(b.x))
	for i := range b.x {
		pts = append(pts, vg.Point{X: trX(b.x[i]), Y: trY(b.hi[i])})
	}
	for i := len(b.x) - 1; i >= 0; i-- {
		pts = append(pts, vg.Point{X: trX(b.x[i]), Y: trY(b.lo[i])})
	}
	if poly := c.ClipPolygonXY(pts); len(poly) > 2 {
		c.FillPolygon(b.color, poly)
	}
}

func (b *ciBand) DataRange() (xmin, xmax, ymin, ymax float64) {
	return intervalsRange(b.x, b.lo, b.hi)
}

// Thumbnail is a band across the middle of the legend's sample.
func (b *ciBand) Thumbnail(c *draw.Canvas) {
	r := c.Rectangle
	mid, h := (r.Min.Y+r.Max.Y)/2, (r.Max.Y-r.Min.Y)/3
	c.FillPolygon(b.color, []vg.Point{{X: r.Min.X, Y: mid - h}, {X: r.Max.X, Y: mid - h}, {X: r.Max.X, Y: mid + h}, {X: r.Min.X, Y: mid + h}})
}

// premultiply returns c, translucent by its alpha, as image/color wants
// it: every channel scaled by the alpha.
func premultiply(c color.RGBA) color.RGBA {
	a := uint32(c.A)
	return color.RGBA{R: uint8(uint32(c.R) * a / 0xFF), G: uint8(uint32(c.G) * a / 0xFF), B: uint8(uint32(c.B) * a / 0xFF), A: c.A}
}
