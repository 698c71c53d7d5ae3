package reports

import (
	"bytes"
	"flag"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
)

var regen = flag.Bool("regen", false, "rewrite the golden figures in testdata/")

// TestGoldenSVG draws sampleFigure (every series kind, error bars, marks,
// a log axis, fixed ranges) and compares its SVG with the reviewed golden
// file. Coordinates are compared to 0.05 pt, as float rounding in the
// fifth digit may differ between architectures (gonum keeps per-arch
// goldens for the same reason); all other text must match exactly. After
// a deliberate change: go test ./reports -run Golden -regen, then look at
// the new testdata/sample.golden.svg before committing it.
func TestGoldenSVG(t *testing.T) {
	dir := t.TempDir()
	if err := WriteFigure(dir, sampleFigure()); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(dir, "sample.svg"))
	if err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "sample.golden.svg")
	if *regen {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("rewrote %s", golden)
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -regen to create it)", err)
	}
	if err := svgClose(got, want, 0.05); err != nil {
		t.Errorf("SVG differs from %s: %v\n(if the change is intended: go test ./reports -run Golden -regen)", golden, err)
	}
}

var svgNumber = regexp.MustCompile(`-?[0-9]+(\.[0-9]+)?(e[-+]?[0-9]+)?`)

// svgClose compares two SVG texts: the text between numbers exactly, the
// numbers within tol.
func svgClose(got, want []byte, tol float64) error {
	gs, ws := svgNumber.FindAllIndex(got, -1), svgNumber.FindAllIndex(want, -1)
	if len(gs) != len(ws) {
		return fmt.Errorf("%d numbers, want %d", len(gs), len(ws))
	}
	gPrev, wPrev := 0, 0
	for i := range gs {
		g, w := got[gs[i][0]:gs[i][1]], want[ws[i][0]:ws[i][1]]
		if !bytes.Equal(got[gPrev:gs[i][0]], want[wPrev:ws[i][0]]) {
			return fmt.Errorf("text before number %d: got %q, want %q", i, around(got, gs[i][0]), around(want, ws[i][0]))
		}
		gv, _ := strconv.ParseFloat(string(g), 64)
		wv, _ := strconv.ParseFloat(string(w), 64)
		if d := gv - wv; d > tol || d < -tol {
			return fmt.Errorf("number %d: got %s, want %s, near %q", i, g, w, around(want, ws[i][0]))
		}
		gPrev, wPrev = gs[i][1], ws[i][1]
	}
	if !bytes.Equal(got[gPrev:], want[wPrev:]) {
		return fmt.Errorf("trailing text differs")
	}
	return nil
}

func around(b []byte, at int) string {
	return string(b[max(0, at-60):min(len(b), at+20)])
}

func TestSVGCloseDetectsChanges(t *testing.T) {
	base := []byte(`<path d="M1.5,2L3,4" style="fill:#FF0000"/>`)
	for _, c := range []struct {
		name string
		svg  string
		ok   bool
	}{
		{"same", `<path d="M1.5,2L3,4" style="fill:#FF0000"/>`, true},
		{"within tolerance", `<path d="M1.52,2L3,4" style="fill:#FF0000"/>`, true},
		{"moved", `<path d="M1.7,2L3,4" style="fill:#FF0000"/>`, false},
		{"colour", `<path d="M1.5,2L3,4" style="fill:#00FF00"/>`, false},
		{"extra point", `<path d="M1.5,2L3,4L5,6" style="fill:#FF0000"/>`, false},
	} {
		if err := svgClose([]byte(c.svg), base, 0.05); (err == nil) != c.ok {
			t.Errorf("%s: svgClose = %v, want ok %v", c.name, err, c.ok)
		}
	}
}

// TestFigureDeterministic draws the same figure twice and wants the same
// bytes, and a PNG of one 4.5 × 3.5 in panel per column at 120 dpi.
func TestFigureDeterministic(t *testing.T) {
	f := sampleFigure()
	png1, svg1, err := renderFigure(f)
	if err != nil {
		t.Fatal(err)
	}
	png2, svg2, err := renderFigure(sampleFigure())
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(png1, png2) {
		t.Error("two renderings give different PNG bytes")
	}
	if !bytes.Equal(svg1, svg2) {
		t.Error("two renderings give different SVG bytes")
	}
	img, err := png.Decode(bytes.NewReader(png1))
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 3*540 || b.Dy() != 420 {
		t.Errorf("PNG is %d×%d, want %d×420", b.Dx(), b.Dy(), 3*540)
	}
	if bytes.Contains(svg1, []byte("@font-face")) {
		t.Error("SVG embeds a font")
	}
	if !bytes.Contains(svg1, []byte("font-family:Liberation Sans,Arial,Helvetica,sans-serif;")) {
		t.Error("SVG text has no fallback fonts")
	}
}

func TestWriteFigureFiles(t *testing.T) {
	dir := t.TempDir()
	if err := WriteFigure(dir, sampleFigure()); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if fmt.Sprint(names) != "[sample.png sample.svg]" {
		t.Errorf("files %v, want sample.png and sample.svg only", names)
	}
}
