package reports

import "testing"

func TestLooksFollowLabels(t *testing.T) {
	f := sampleFigure()
	looks := figureLooks(f)
	// FAIR and HFSP appear in panels 1 and 2, in different positions.
	if looks[0][1] != looks[1][0] {
		t.Error("FAIR has different looks in panels 1 and 2")
	}
	if looks[0][2] != looks[1][1] {
		t.Error("HFSP has different looks in panels 1 and 2")
	}
	seen := map[look]string{}
	for i, p := range f.Panels {
		for j, s := range p.Series {
			if other, ok := seen[looks[i][j]]; ok && other != s.Label {
				t.Errorf("%q and %q share a look", other, s.Label)
			}
			seen[looks[i][j]] = s.Label
		}
	}
}

// TestPolicyColoursFixed: the paper's policies keep their colours whatever
// comes first in the figure, and other labels avoid those colours.
func TestPolicyColoursFixed(t *testing.T) {
	f := Figure{Name: "f", Panels: []Panel{{Series: []Series{
		{Label: "other", Kind: Line, X: []float64{1}, Y: []float64{1}},
		{Label: "hfsp", Kind: Line, X: []float64{1}, Y: []float64{1}},
		{Label: "FIFO", Kind: Line, X: []float64{1}, Y: []float64{1}},
	}}}}
	looks := figureLooks(f)[0]
	if looks[1].color != palette[2] || looks[2].color != palette[0] {
		t.Errorf("hfsp %v, FIFO %v; want palette[2] and palette[0]", looks[1].color, looks[2].color)
	}
	if looks[0].color == palette[0] || looks[0].color == palette[2] {
		t.Errorf("other label took a policy's colour %v", looks[0].color)
	}
}

// TestPolicyPrefix: a label starting with a policy's name takes its colour
// unless the exact name is in the figure too.
func TestPolicyPrefix(t *testing.T) {
	line := func(label string) Series { return Series{Label: label, Kind: Line, X: []float64{1}, Y: []float64{1}} }
	looks := figureLooks(Figure{Name: "f", Panels: []Panel{{Series: []Series{line("HFSP (95% CI)"), line("fair")}}}})[0]
	if looks[0].color != palette[2] || looks[1].color != palette[1] {
		t.Errorf("\"HFSP (95%% CI)\" %v, \"fair\" %v; want HFSP's and FAIR's colours", looks[0].color, looks[1].color)
	}
	looks = figureLooks(Figure{Name: "f", Panels: []Panel{{Series: []Series{line("HFSP, α = 0"), line("HFSP")}}}})[0]
	if looks[1].color != palette[2] || looks[0].color == palette[2] {
		t.Errorf("\"HFSP, α = 0\" %v, \"HFSP\" %v; want HFSP's colour on the exact name only", looks[0].color, looks[1].color)
	}
}

// TestUnlabelledAndManySeries: unlabelled series each get their own
// colour, the policies' colours last, and more series than colours cycle
// instead of failing.
func TestUnlabelledAndManySeries(t *testing.T) {
	var ss []Series
	for range len(palette) + 3 {
		ss = append(ss, Series{Kind: Line, X: []float64{1}, Y: []float64{1}})
	}
	looks := figureLooks(Figure{Name: "f", Panels: []Panel{{Series: ss}}})[0]
	for i := range palette {
		want := (i + len(policies)) % len(palette)
		if looks[i].color != palette[want] {
			t.Errorf("series %d: colour %v, want palette[%d]", i, looks[i].color, want)
		}
	}
	if looks[len(palette)].color != palette[len(policies)] {
		t.Errorf("after the palette: %v, want it to start again", looks[len(palette)].color)
	}
}
