package reports

import (
	"errors"
	"math"
	"os"
	"strings"
	"testing"
)

// TestValidateNamesTheCulprit breaks sampleFigure one way at a time; each
// error must match ErrInvalid, name the figure, panel and series (or
// mark), say what is wrong, and leave no file behind.
func TestValidateNamesTheCulprit(t *testing.T) {
	cases := []struct {
		name   string
		mutate func(f *Figure)
		want   []string
	}{
		{"length mismatch", func(f *Figure) { f.Panels[0].Series[1].Y = f.Panels[0].Series[1].Y[:3] },
			[]string{`figure "sample"`, `panel 1 "Sojourn time ECDF"`, `series 2 "FAIR"`, "x has 5 values, y has 3"}},
		{"NaN", func(f *Figure) { f.Panels[1].Series[0].Y[1] = math.NaN() },
			[]string{`panel 2`, `series 1 "FAIR"`, "y[1] = NaN"}},
		{"Inf x", func(f *Figure) { f.Panels[1].Series[2].X[0] = math.Inf(1) },
			[]string{`series 3 "model"`, "x[0] = +Inf"}},
		{"empty panel", func(f *Figure) { f.Panels[2].Series = nil },
			[]string{`panel 3 "Allocation"`, "empty panel"}},
		{"no points", func(f *Figure) { f.Panels[1].Series[2].X, f.Panels[1].Series[2].Y = nil, nil },
			[]string{`series 3 "model"`, "no points"}},
		{"y_lo length", func(f *Figure) { f.Panels[1].Series[1].YLo = f.Panels[1].Series[1].YLo[:2] },
			[]string{`series 2 "HFSP"`, "y_lo 2"}},
		{"y_hi without y_lo", func(f *Figure) { f.Panels[1].Series[1].YLo = nil },
			[]string{`series 2 "HFSP"`, "y_lo 0"}},
		{"y_lo above y_hi", func(f *Figure) { f.Panels[1].Series[1].YLo[0] = 99 },
			[]string{`series 2 "HFSP"`, "y_lo[0] = 99 above y_hi[0]"}},
		{"bounds on a line", func(f *Figure) {
			s := &f.Panels[1].Series[2]
			s.YLo, s.YHi = []float64{1, 2}, []float64{3, 4}
		}, []string{`series 3 "model"`, "only for points"}},
		{"stacked x differ", func(f *Figure) { f.Panels[2].Series[2].X = []float64{0, 10, 25, 40, 60} },
			[]string{`series 3 "job 3"`, `x values of the stacked series before it ("job 2")`}},
		{"stacked below", func(f *Figure) { f.Panels[2].Series[1].Y[0] = 1 },
			[]string{`series 2 "job 2"`, "below the stacked series before it"}},
		{"step x decreasing", func(f *Figure) { f.Panels[0].Series[2].X[3] = 20 },
			[]string{`series 3 "HFSP"`, "x must not decrease"}},
		{"log x not positive", func(f *Figure) { f.Panels[0].Series[0].X[0] = 0 },
			[]string{`series 1 "FIFO"`, "not positive on a logarithmic x axis"}},
		{"unknown kind", func(f *Figure) { f.Panels[1].Series[0].Kind = "bar" },
			[]string{`series 1 "FAIR"`, `unknown kind "bar"`}},
		{"hline with two values", func(f *Figure) { f.Panels[1].Series[3].Y = []float64{1, 2} },
			[]string{`series 4 "paper HFSP at 0.8"`, "exactly one y value"}},
		{"only hlines", func(f *Figure) { f.Panels[1].Series = f.Panels[1].Series[3:] },
			[]string{`panel 2`, "give an x range"}},
		{"bad mark axis", func(f *Figure) { f.Panels[0].Marks[0].Axis = "z" },
			[]string{`mark 1 "1 min"`, `axis "z"`}},
		{"empty range", func(f *Figure) { f.Panels[0].Y = &Range{Min: 1, Max: 1} },
			[]string{`panel 1`, "y range [1, 1] is empty"}},
		{"unsafe name", func(f *Figure) { f.Name = "../x" }, []string{`figure "../x"`, "name must be"}},
		{"no panels", func(f *Figure) { f.Panels = nil }, []string{`figure "sample"`, "no panels"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := sampleFigure()
			c.mutate(&f)
			dir := t.TempDir()
			err := WriteFigure(dir, f)
			if err == nil {
				t.Fatal("no error")
			}
			if !errors.Is(err, ErrInvalid) {
				t.Errorf("error %v does not match ErrInvalid", err)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
			if entries, _ := os.ReadDir(dir); len(entries) != 0 {
				t.Errorf("%d files written despite the error", len(entries))
			}
		})
	}
}

func TestSectionValidate(t *testing.T) {
	cases := []struct {
		name   string
		mutate func(s *Section)
		want   string
	}{
		{"no name", func(s *Section) { s.Name = "" }, "no name"},
		{"short row", func(s *Section) { s.Tables[0].Rows[1] = []string{"HFSP"} }, `table 1 "means": row 2 has 1 cells for 3 columns`},
		{"verdict", func(s *Section) { s.Claims[2].Verdict = "maybe" }, `claim 3 "FAIR starves nothing": unknown verdict "maybe"`},
		{"duplicate figure", func(s *Section) { s.Figures = append(s.Figures, sampleFigure()) }, `two figures named "sample"`},
		{"bad figure", func(s *Section) { s.Figures[0].Panels[0].Series[0].Kind = "" }, `section "fig3": figure "sample", panel 1 "Sojourn time ECDF", series 1 "FIFO": unknown kind ""`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := sampleSection()
			c.mutate(&s)
			err := s.Validate()
			if err == nil || !strings.Contains(err.Error(), c.want) || !errors.Is(err, ErrInvalid) {
				t.Errorf("Validate = %v, want an ErrInvalid mentioning %q", err, c.want)
			}
		})
	}
	if err := sampleSection().Validate(); err != nil {
		t.Errorf("sample section: %v", err)
	}
}
