package reports

import (
	"image/color"
	"strings"
	"unicode"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// palette is the colour cycle of every figure: Okabe and Ito's
// colour-blind-safe colours first, then a few of Paul Tol's. It is never
// written.
var palette = [...]color.RGBA{
	{0x00, 0x72, 0xB2, 0xFF}, // blue: FIFO
	{0xE6, 0x9F, 0x00, 0xFF}, // orange: FAIR
	{0x00, 0x9E, 0x73, 0xFF}, // bluish green: HFSP
	{0xCC, 0x79, 0xA7, 0xFF}, // reddish purple
	{0x56, 0xB4, 0xE9, 0xFF}, // sky blue
	{0xD5, 0x5E, 0x00, 0xFF}, // vermillion (after the others: it is close to FAIR's orange)
	{0x88, 0x22, 0x55, 0xFF}, // wine
	{0x99, 0x99, 0x33, 0xFF}, // olive
	{0x33, 0x22, 0x88, 0xFF}, // indigo
	{0xDD, 0xCC, 0x77, 0xFF}, // sand
}

// shapes are the markers of points series, chosen by colour index so that
// a colour always comes with the same marker.
var shapes = [...]draw.GlyphDrawer{
	draw.CircleGlyph{}, draw.BoxGlyph{}, draw.PyramidGlyph{},
	draw.RingGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{},
}

// policies are the paper's policies, by the palette index of their
// colour: blue, orange and green mean FIFO, FAIR and HFSP in every figure.
// Other labels take these colours only when the rest of the palette is
// used up.
var policies = [...]string{"fifo", "fair", "hfsp"}

// policyColor returns the colour of the policy a label names by its first
// word, ignoring case ("HFSP", "hfsp" and "HFSP (95% CI)" are all HFSP),
// and whether the label is that name alone.
func policyColor(label string) (c int, exact, ok bool) {
	words := strings.FieldsFunc(strings.ToLower(label), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '-'
	})
	if len(words) == 0 {
		return 0, false, false
	}
	for c, name := range policies {
		if words[0] == name {
			return c, strings.EqualFold(strings.TrimSpace(label), name), true
		}
	}
	return 0, false, false
}

// dashPatterns are the line patterns of a figure's series, in order of
// first appearance (solid, dashed, dotted, dash-dot, long dash, short
// dash), so that two series never differ by colour alone.
var dashPatterns = [...][]vg.Length{
	nil,
	{vg.Points(6), vg.Points(3)},
	{vg.Points(1.5), vg.Points(2)},
	{vg.Points(7), vg.Points(2.5), vg.Points(1.5), vg.Points(2.5)},
	{vg.Points(12), vg.Points(3)},
	{vg.Points(3), vg.Points(2)},
}

// look is how one series is drawn.
type look struct {
	color color.RGBA
	shape draw.GlyphDrawer
	dash  int // index in dashPatterns; 0 is solid
}

// figureLooks returns the look of every series of f, indexed by panel and
// series. A label keeps its look in every panel; each unlabelled series is
// its own key. A policy's colour goes to the label that is exactly the
// policy's name, or else to the first label starting with it; every other
// label takes, in order of first appearance, the first colour not yet used
// in the figure, the policies' colours last, and the palette starts over
// when it runs out. The n-th label takes the n-th dash pattern. The result
// depends on f alone.
func figureLooks(f Figure) [][]look {
	type key struct {
		label         string
		panel, series int
	}
	index := map[key]int{} // key -> position in order
	var order []key
	keys := make([][]int, len(f.Panels))
	for i, p := range f.Panels {
		keys[i] = make([]int, len(p.Series))
		for j, s := range p.Series {
			k := key{label: s.Label, panel: -1, series: -1}
			if s.Label == "" {
				k = key{panel: i, series: j}
			}
			n, ok := index[k]
			if !ok {
				n = len(order)
				index[k] = n
				order = append(order, k)
			}
			keys[i][j] = n
		}
	}

	colour := make([]int, len(order))
	var used [len(palette)]bool
	for n := range colour {
		colour[n] = -1
	}
	for _, wantExact := range []bool{true, false} {
		for n, k := range order {
			c, exact, ok := policyColor(k.label)
			if !ok || used[c] || colour[n] >= 0 || wantExact && !exact {
				continue
			}
			colour[n] = c
			used[c] = true
		}
	}
	for n := range order {
		if colour[n] >= 0 {
			continue
		}
		c := -1
		for i := range palette {
			if j := (i + len(policies)) % len(palette); !used[j] {
				c = j
				break
			}
		}
		if c < 0 { // out of colours: start the cycle again
			used = [len(palette)]bool{}
			c = len(policies)
		}
		colour[n] = c
		used[c] = true
	}

	looks := make([][]look, len(f.Panels))
	for i := range keys {
		looks[i] = make([]look, len(keys[i]))
		for j, n := range keys[i] {
			c := colour[n]
			looks[i][j] = look{color: palette[c], shape: shapes[c%len(shapes)], dash: n % len(dashPatterns)}
		}
	}
	return looks
}
