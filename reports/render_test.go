package reports

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func sampleSections() []Section {
	s1 := sampleSection()
	s2 := Section{
		Name:  "fig4",
		Title: "Second experiment",
		Figures: []Figure{{
			Name: "fig4-load", Title: "Load", Caption: "Cluster load.",
			Panels: []Panel{{Title: "load", Series: []Series{{Label: "FIFO", Kind: Line, X: []float64{0, 1}, Y: []float64{0, 1}}}}},
		}},
		Claims: []Claim{{Statement: "load is high", Paper: "90%", Ours: "85%", Verdict: Holds}},
	}
	return []Section{s1, s2}
}

func sampleInfo() Info {
	return Info{
		Seed: "1", Version: "0dfa7a9", Command: "bench report --out out/report",
		GeneratedBy: "make report",
		Params:      []Param{{Key: "workload", Value: "fb2009"}, {Key: "nodes", Value: "100"}},
	}
}

// TestRenderIndex renders two sections and reads index.html back: every
// figure, table cell and claim is there, text is escaped, and every link
// is relative and points at a file that exists.
func TestRenderIndex(t *testing.T) {
	dir := t.TempDir()
	sections := sampleSections()
	if err := Render(dir, sampleInfo(), sections); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	page := string(data)
	for _, s := range sections {
		for _, f := range s.Figures {
			for _, w := range []string{`<img src="figures/` + f.Name + `.png"`, `href="figures/` + f.Name + `.svg"`, f.Caption} {
				if !strings.Contains(page, w) {
					t.Errorf("index lacks %q", w)
				}
			}
		}
		for _, tb := range s.Tables {
			for _, row := range tb.Rows {
				for _, cell := range row {
					if !strings.Contains(page, ">"+cell+"</td>") {
						t.Errorf("index lacks table cell %q", cell)
					}
				}
			}
		}
		for _, c := range s.Claims {
			// Once in the section, once in the table of all claims.
			esc := strings.NewReplacer("<", "&lt;", ">", "&gt;").Replace(c.Statement)
			if n := strings.Count(page, "<td>"+esc+"</td>"); n != 2 {
				t.Errorf("claim %q appears %d times, want 2", c.Statement, n)
			}
		}
	}
	if strings.Contains(page, "<script") {
		t.Error("a <script> from a claim reached the page unescaped")
	}
	// Every table scrolls in its own box on a narrow screen rather than
	// widening the page.
	if n, m := strings.Count(page, "<table"), strings.Count(page, "<div class=\"scroll\">\n<table"); n == 0 || n != m {
		t.Errorf("%d tables, %d of them in a scrolling box", n, m)
	}
	for _, w := range []string{"&lt;times&gt; &amp; classes", "sojourn — HFSP paper experiments", "0dfa7a9",
		`class="verdict v-holds"`, `class="verdict v-partly"`, `class="verdict v-fails"`, `class="verdict v-none"`} {
		if !strings.Contains(page, w) {
			t.Errorf("index lacks %q", w)
		}
	}
	if i, j := strings.Index(page, "nodes"), strings.Index(page, "workload"); i < 0 || j < 0 || i > j {
		t.Error("parameters not shown sorted by key")
	}
	for _, m := range regexp.MustCompile(`(?:href|src)="([^"]*)"`).FindAllStringSubmatch(page, -1) {
		link := m[1]
		switch {
		case strings.HasPrefix(link, "#"):
			if !strings.Contains(page, `id="`+link[1:]+`"`) {
				t.Errorf("link %s has no target", link)
			}
		case strings.Contains(link, ":") || strings.HasPrefix(link, "/"):
			t.Errorf("link %q is not relative", link)
		default:
			if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(link))); err != nil {
				t.Errorf("link %q: %v", link, err)
			}
		}
	}
	for _, name := range []string{"claims.md", "tables.md"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Error(err)
		}
	}
}

// TestRenderDeterministic renders twice into two directories and wants
// identical files: figure drawing is parallel, output must not show it.
func TestRenderDeterministic(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	for _, dir := range []string{a, b} {
		if err := Render(dir, sampleInfo(), sampleSections()); err != nil {
			t.Fatal(err)
		}
	}
	n := 0
	err := filepath.WalkDir(a, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(a, path)
		x, _ := os.ReadFile(path)
		y, err := os.ReadFile(filepath.Join(b, rel))
		if err != nil {
			return err
		}
		if !bytes.Equal(x, y) {
			t.Errorf("%s differs between two renderings", rel)
		}
		n++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n != 7 { // 2 figures × 2 formats, index.html, claims.md, tables.md
		t.Errorf("%d files, want 7", n)
	}
}

func TestRenderRejects(t *testing.T) {
	dup := sampleSections()
	dup[1].Figures[0].Name = "sample"
	twice := sampleSections()
	twice[1].Name = "fig3"
	bad := sampleSections()
	bad[1].Figures[0].Panels[0].Series[0].X = []float64{1}
	for name, c := range map[string]struct {
		sections []Section
		want     string
	}{
		"figure name used twice":  {dup, `figure "sample": name already used by section "fig3"`},
		"section name used twice": {twice, `section "fig3": two sections of that name`},
		"bad series":              {bad, `figure "fig4-load", panel 1 "load", series 1 "FIFO": x has 1 values, y has 2`},
	} {
		dir := t.TempDir()
		err := Render(dir, Info{}, c.sections)
		if err == nil || !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Render = %v, want ErrInvalid mentioning %q", name, err, c.want)
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 0 {
			t.Errorf("%s: files written despite invalid input", name)
		}
	}
}
