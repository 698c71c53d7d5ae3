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

// policyLooks is the one palette table of the figures: each policy's
// colour, line pattern (an index in dashPatterns) and marker, the same in
// every figure and both resource models. FIFO, FAIR and HFSP, the paper's
// three, take Okabe and Ito's blue, orange and bluish green; the others
// Okabe and Ito's remaining colours and Paul Tol's, each with its own
// pattern so that no two policies differ by colour alone. A test holds
// every registered policy to an entry.
var policyLooks = []struct {
	name  string
	color color.RGBA
	dash  int
	shape int // index in shapes
}{
	{"fifo", color.RGBA{0x00, 0x72, 0xB2, 0xFF}, 2, 0},          // blue, dotted
	{"fair", color.RGBA{0xE6, 0x9F, 0x00, 0xFF}, 0, 1},          // orange, solid
	{"hfsp", color.RGBA{0x00, 0x9E, 0x73, 0xFF}, 1, 2},          // bluish green, dashed
	{"fsp", color.RGBA{0xCC, 0x79, 0xA7, 0xFF}, 3, 3},           // reddish purple, dash-dot
	{"srpt", color.RGBA{0x56, 0xB4, 0xE9, 0xFF}, 4, 4},          // sky blue, long dash
	{"sjf", color.RGBA{0xD5, 0x5E, 0x00, 0xFF}, 5, 5},           // vermillion, short dash
	{"las", color.RGBA{0x88, 0x22, 0x55, 0xFF}, 2, 0},           // wine, dotted
	{"ps", color.RGBA{0x99, 0x99, 0x33, 0xFF}, 3, 1},            // olive, dash-dot
	{"disco", color.RGBA{0x33, 0x22, 0x88, 0xFF}, 4, 2},         // indigo, long dash
	{"easy", color.RGBA{0x44, 0xAA, 0x99, 0xFF}, 5, 3},          // teal, short dash
	{"capacity", color.RGBA{0xCC, 0x66, 0x77, 0xFF}, 0, 4},      // rose, solid
	{"fifo-minimal", color.RGBA{0x77, 0x77, 0x77, 0xFF}, 1, 5},  // grey, dashed
	{"yarn-fifo", color.RGBA{0x1F, 0x3F, 0x66, 0xFF}, 3, 0},     // navy, dash-dot
	{"yarn-fair", color.RGBA{0x8C, 0x51, 0x0A, 0xFF}, 4, 1},     // brown, long dash
	{"yarn-capacity", color.RGBA{0xAA, 0x33, 0x77, 0xFF}, 5, 2}, // magenta, short dash
	{"exec", color.RGBA{0x00, 0x00, 0x00, 0xFF}, 0, 3},          // black, solid
}

// policyLook returns the palette entry of a policy name, or -1.
func policyLook(name string) int {
	for i, p := range policyLooks {
		if p.name == name {
			return i
		}
	}
	return -1
}

// seriesPolicy is the policy a series draws: its Policy field, or else the
// first word of its label when that names a policy of the palette table
// ("HFSP", "hfsp" and "HFSP (95% CI)" are all HFSP). -1 for none.
func seriesPolicy(s Series) int {
	if s.Policy != "" {
		return policyLook(s.Policy)
	}
	words := strings.FieldsFunc(strings.ToLower(s.Label), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '-'
	})
	if len(words) == 0 {
		return -1
	}
	return policyLook(words[0])
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
// its own key. A series of a policy takes the policy's colour and marker
// from policyLooks, and its pattern; a second label of the same policy in
// the figure ("HFSP, α = 0" beside "HFSP (95% CI)") keeps the colour and
// takes the next pattern. Any other label takes, in order of first
// appearance, the first colour of palette that no series of the figure
// uses, FIFO's, FAIR's and HFSP's last, the palette starting over when it
// runs out, and the pattern of its
// position. The result depends on f alone.
func figureLooks(f Figure) [][]look {
	type key struct {
		label         string
		panel, series int
	}
	index := map[key]int{} // key -> position in order
	var order []key
	var policyOf []int // by position: the palette table's entry, or -1
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
				policyOf = append(policyOf, seriesPolicy(s))
			}
			keys[i][j] = n
		}
	}

	lookOf := make([]look, len(order))
	used := map[color.RGBA]bool{}
	variants := map[int]int{} // labels of a policy so far
	for n, pol := range policyOf {
		if pol < 0 {
			continue
		}
		pl := policyLooks[pol]
		lookOf[n] = look{color: pl.color, shape: shapes[pl.shape], dash: (pl.dash + variants[pol]) % len(dashPatterns)}
		variants[pol]++
		used[pl.color] = true
	}
	next := 3 // palette index to try first: FIFO's, FAIR's and HFSP's colours last
	for n, pol := range policyOf {
		if pol >= 0 {
			continue
		}
		c := -1
		for i := range palette {
			if j := (next + i) % len(palette); !used[palette[j]] {
				c = j
				break
			}
		}
		if c < 0 { // out of colours: start the cycle again
			used = map[color.RGBA]bool{}
			c = next % len(palette)
			if c < 3 {
				c = 3
			}
		}
		used[palette[c]] = true
		next = c + 1
		lookOf[n] = look{color: palette[c], shape: shapes[c%len(shapes)], dash: n % len(dashPatterns)}
	}

	looks := make([][]look, len(f.Panels))
	for i := range keys {
		looks[i] = make([]look, len(keys[i]))
		for j, n := range keys[i] {
			looks[i][j] = lookOf[n]
		}
	}
	return looks
}
