package reports

import (
	"testing"

	"sojourn/schedulers"
)

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

// TestPaletteTable: every registered policy has one entry of the palette
// table, no two entries share a colour or a colour and pattern, and a
// policy's series takes its entry's colour and pattern whatever else the
// figure holds and in whichever order.
func TestPaletteTable(t *testing.T) {
	colours := map[[4]uint8]string{}
	for _, p := range policyLooks {
		c := [4]uint8{p.color.R, p.color.G, p.color.B, p.color.A}
		if other, ok := colours[c]; ok {
			t.Errorf("%s and %s share the colour %v", p.name, other, p.color)
		}
		colours[c] = p.name
	}
	for _, p := range schedulers.Policies() {
		if policyLook(p.Name) < 0 {
			t.Errorf("policy %s has no entry in the palette table (policyLooks)", p.Name)
		}
	}
	line := func(label, policy string) Series {
		return Series{Label: label, Policy: policy, Kind: Line, X: []float64{1}, Y: []float64{1}}
	}
	for _, order := range [][]Series{
		{line("other", ""), line("YARN Fair", "yarn-fair"), line("hfsp", ""), line("FIFO, containers", "fifo")},
		{line("FIFO, containers", "fifo"), line("hfsp", ""), line("YARN Fair", "yarn-fair"), line("other", "")},
	} {
		looks := figureLooks(Figure{Name: "f", Panels: []Panel{{Series: order}}})[0]
		for j, s := range order {
			pol := seriesPolicy(s)
			if s.Label == "other" {
				if pol >= 0 {
					t.Errorf("%q read as policy %s", s.Label, policyLooks[pol].name)
				}
				for _, p := range policyLooks[:3] {
					if looks[j].color == p.color {
						t.Errorf("%q took %s's colour", s.Label, p.name)
					}
				}
				continue
			}
			want := policyLooks[pol]
			if looks[j].color != want.color || looks[j].dash != want.dash {
				t.Errorf("%q: colour %v pattern %d, want %s's %v and %d", s.Label, looks[j].color, looks[j].dash, want.name, want.color, want.dash)
			}
		}
	}
}

// TestPolicyVariants: a second label of one policy keeps its colour and
// takes another pattern.
func TestPolicyVariants(t *testing.T) {
	line := func(label string) Series { return Series{Label: label, Kind: Line, X: []float64{1}, Y: []float64{1}} }
	looks := figureLooks(Figure{Name: "f", Panels: []Panel{{Series: []Series{line("HFSP (95% CI)"), line("HFSP, α = 0"), line("fair")}}}})[0]
	hfsp, fair := policyLooks[policyLook("hfsp")], policyLooks[policyLook("fair")]
	if looks[0].color != hfsp.color || looks[1].color != hfsp.color || looks[0].dash == looks[1].dash || looks[2].color != fair.color {
		t.Errorf("looks %v; want HFSP's colour twice with two patterns, then FAIR's", looks)
	}
}

// TestUnlabelledAndManySeries: unlabelled series each get their own
// colour, the paper's policies' colours last, and more series than colours cycle instead of failing.
func TestUnlabelledAndManySeries(t *testing.T) {
	var ss []Series
	for range len(palette) + 3 {
		ss = append(ss, Series{Kind: Line, X: []float64{1}, Y: []float64{1}})
	}
	looks := figureLooks(Figure{Name: "f", Panels: []Panel{{Series: ss}}})[0]
	for i := range palette {
		want := (i + 3) % len(palette)
		if looks[i].color != palette[want] {
			t.Errorf("series %d: colour %v, want palette[%d]", i, looks[i].color, want)
		}
	}
	if looks[len(palette)].color != palette[3] {
		t.Errorf("after the palette: %v, want it to start again", looks[len(palette)].color)
	}
}
