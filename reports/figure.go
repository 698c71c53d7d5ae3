package reports

import (
	"bytes"
	"fmt"
	"image/color"
	"path/filepath"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"sojourn/internal/atomicfile"
)

const (
	panelWidth  = 4.5 * vg.Inch
	panelHeight = 3.5 * vg.Inch
	pngDPI      = 120
)

// WriteFigure draws f, its panels side by side, into dir/<name>.png and
// dir/<name>.svg, each written atomically. Invalid data is an error
// naming figure, panel and series (see Figure.Validate); nothing is
// written then.
func WriteFigure(dir string, f Figure) error {
	pngData, svgData, err := renderFigure(f)
	if err != nil {
		return err
	}
	for _, out := range []struct {
		ext  string
		data []byte
	}{{".png", pngData}, {".svg", svgData}} {
		path := filepath.Join(dir, f.Name+out.ext)
		if err := atomicfile.WriteBytes(path, out.data); err != nil {
			return fmt.Errorf("reports: write %s: %w", path, err)
		}
	}
	return nil
}

// renderFigure returns the PNG and SVG encodings of f. The same figure
// gives the same bytes: nothing depends on time, maps or scheduling.
func renderFigure(f Figure) (pngData, svgData []byte, err error) {
	if err := f.Validate(); err != nil {
		return nil, nil, fmt.Errorf("reports: %w", err)
	}
	// Validation should leave gonum nothing to panic about; if it still
	// does, the report run gets an error naming the figure, not a crash.
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("reports: figure %q: drawing failed: %v", f.Name, r)
		}
	}()
	looks := figureLooks(f)
	rows, cols := f.grid()
	w, h := panelWidth*vg.Length(cols), panelHeight*vg.Length(rows)

	img := vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(pngDPI))
	drawFigure(draw.New(img), f, looks)
	var pngBuf bytes.Buffer
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(&pngBuf); err != nil {
		return nil, nil, fmt.Errorf("reports: figure %q: png: %w", f.Name, err)
	}

	svg := vgsvg.New(w, h)
	drawFigure(draw.New(svg), f, looks)
	var svgBuf bytes.Buffer
	if _, err := svg.WriteTo(&svgBuf); err != nil {
		return nil, nil, fmt.Errorf("reports: figure %q: svg: %w", f.Name, err)
	}
	return pngBuf.Bytes(), fontFallback(svgBuf.Bytes()), nil
}

// grid is the figure's rows and columns of panels.
func (f Figure) grid() (rows, cols int) {
	cols = len(f.Panels)
	if f.Columns > 0 && f.Columns < cols {
		cols = f.Columns
	}
	return (len(f.Panels) + cols - 1) / cols, cols
}

// drawFigure draws the panels row by row; plot.Align gives them data areas
// of equal size whatever the width of their tick labels.
func drawFigure(dc draw.Canvas, f Figure, looks [][]look) {
	dc.SetColor(color.White)
	dc.Fill(dc.Rectangle.Path())
	rows, cols := f.grid()
	plots := make([][]*plot.Plot, rows)
	for r := range plots {
		plots[r] = make([]*plot.Plot, cols)
	}
	for i, pn := range f.Panels {
		plots[i/cols][i%cols] = panelPlot(pn, looks[i])
	}
	tiles := draw.Tiles{
		Rows: rows, Cols: cols,
		PadX:   vg.Points(18),
		PadY:   vg.Points(10),
		PadTop: vg.Points(6), PadBottom: vg.Points(4),
		PadLeft: vg.Points(4), PadRight: vg.Points(10),
	}
	canvases := plot.Align(plots, tiles, dc)
	for r := range plots {
		for c, p := range plots[r] {
			if p != nil {
				p.Draw(canvases[r][c])
			}
		}
	}
}

// fontFallback lets browsers without Liberation Sans use the fonts it was
// designed to match (same metrics) instead of their default serif. The
// SVG stays small: gonum measured the text, so the font is not embedded.
func fontFallback(svg []byte) []byte {
	return bytes.ReplaceAll(svg,
		[]byte("font-family:Liberation Sans;"),
		[]byte("font-family:Liberation Sans,Arial,Helvetica,sans-serif;"))
}
