package reports

import (
	"bytes"
	_ "embed"
	"fmt"
	"html/template"
	"path/filepath"
	"slices"
	"strings"

	"sojourn/internal/atomicfile"
)

// DefaultTitle heads the report when Info.Title is empty.
const DefaultTitle = "sojourn — HFSP paper experiments"

// Info describes the run a report comes from. Every field is optional and
// shown as given; nothing is read from the clock, so the same run gives
// the same index.html.
type Info struct {
	Title       string  // page heading; DefaultTitle when empty
	Seed        string  // random seed of the experiments
	Version     string  // code version, e.g. a git commit
	Command     string  // command line that produced the report
	GeneratedBy string  // free note, e.g. "make report, 2024-05-01"
	Params      []Param // run parameters, shown sorted by key
}

// Param is one named parameter of a run.
type Param struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

//go:embed index.html.tmpl
var indexSource string

// indexPage is what the template sees.
type indexPage struct {
	Title    string
	Info     Info
	Params   []Param
	Sections []pageSection
	Claims   []pageClaim
	Counts   []verdictCount
	Answer   []Table
	// Unheld are the claims that do not hold, linked from the first screen.
	Unheld []pageClaim
}

type pageSection struct {
	Section
	Anchor     string
	Paragraphs []string
}

type pageClaim struct {
	Claim
	Experiment string
	Anchor     string // of the section that holds the claim
	ID         string // of its row in the claims table
}

type verdictCount struct {
	Verdict Verdict
	N       int
}

// WriteIndex writes dir/index.html: a header with info, a table of
// contents, each section with its figures (figures/<name>.png, linking to
// the SVG), tables and claims, and every claim in one colour-coded table.
// The page needs no network, script or server: links are relative and the
// style is inline.
func WriteIndex(dir string, info Info, sections []Section) error {
	if err := validateAll(sections); err != nil {
		return err
	}
	tmpl, err := template.New("index").Funcs(template.FuncMap{
		"verdictClass": verdictClass,
		"numeric":      numeric,
	}).Parse(indexSource)
	if err != nil {
		return fmt.Errorf("reports: index template: %w", err) // a bug, caught by the tests
	}
	var buf bytes.Buffer
	if err := tmpl.Execute(&buf, newIndexPage(info, sections)); err != nil {
		return fmt.Errorf("reports: index: %w", err)
	}
	path := filepath.Join(dir, "index.html")
	if err := atomicfile.WriteBytes(path, buf.Bytes()); err != nil {
		return fmt.Errorf("reports: write %s: %w", path, err)
	}
	return nil
}

func newIndexPage(info Info, sections []Section) indexPage {
	pg := indexPage{Title: info.Title, Info: info, Params: slices.Clone(info.Params)}
	if pg.Title == "" {
		pg.Title = DefaultTitle
	}
	slices.SortStableFunc(pg.Params, func(a, b Param) int { return strings.Compare(a.Key, b.Key) })
	anchors := map[string]bool{}
	counts := map[Verdict]int{}
	for i, s := range sections {
		a := anchor(s.Name, i, anchors)
		pg.Sections = append(pg.Sections, pageSection{Section: s, Anchor: a, Paragraphs: paragraphs(s.Summary)})
		for _, c := range s.Claims {
			pc := pageClaim{Claim: c, Experiment: claimExperiment(s, c), Anchor: a, ID: fmt.Sprintf("claim-%d", len(pg.Claims)+1)}
			pg.Claims = append(pg.Claims, pc)
			if c.Verdict != Holds {
				pg.Unheld = append(pg.Unheld, pc)
			}
			counts[c.Verdict]++
		}
		pg.Answer = append(pg.Answer, s.Answer...)
	}
	for _, v := range []Verdict{Holds, Partly, Fails, NotReproduced, NotShown} {
		if counts[v] > 0 {
			pg.Counts = append(pg.Counts, verdictCount{Verdict: v, N: counts[v]})
		}
	}
	return pg
}

// anchor makes an id from a section name: "sec-" and the name's letters,
// digits, '-' and '_', other runes becoming '-'; the index is appended
// when two names collapse to the same id.
func anchor(name string, i int, taken map[string]bool) string {
	a := "sec-" + strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' {
			return r
		}
		return '-'
	}, name)
	if taken[a] {
		a = fmt.Sprintf("%s-%d", a, i+1)
	}
	taken[a] = true
	return a
}

// paragraphs splits plain text at blank lines.
func paragraphs(s string) []string {
	var out []string
	for _, p := range strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n\n") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func verdictClass(v Verdict) string {
	switch v {
	case Holds:
		return "v-holds"
	case Partly:
		return "v-partly"
	case Fails:
		return "v-fails"
	case NotReproduced:
		return "v-bound"
	}
	return "v-none"
}

// numeric reports whether a cell starts like a number ("12.5 s", "-3%",
// "5x"), so that tables align it right.
func numeric(cell string) bool {
	cell = strings.TrimLeft(strings.TrimSpace(cell), "+-−")
	cell = strings.TrimPrefix(cell, ".")
	return cell != "" && cell[0] >= '0' && cell[0] <= '9'
}
