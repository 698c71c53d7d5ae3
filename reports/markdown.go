package reports

import (
	"regexp"
	"strings"
)

// ClaimsMarkdown returns one GitHub table with a row for every claim of
// every section, in order.
func ClaimsMarkdown(sections []Section) string {
	var b strings.Builder
	mdRow(&b, []string{"Experiment", "Claim", "Paper", "Tolerance", "Ours: mean [95% interval]", "Holds in", "Verdict", "Note"})
	mdRule(&b, 8)
	for _, s := range sections {
		for _, c := range s.Claims {
			mdRow(&b, []string{claimExperiment(s, c), c.Statement, c.Paper, c.Tolerance, c.Ours, c.SeedsCell(), string(c.Verdict), c.Note})
		}
	}
	return b.String()
}

// TableMarkdown returns t as a GitHub table, preceded by its title in bold
// and followed by its note in italics when they are set. Short rows are
// padded with empty cells.
func TableMarkdown(t Table) string {
	var b strings.Builder
	if t.Title != "" {
		b.WriteString("**" + mdCell(t.Title) + "**\n\n")
	}
	n := len(t.Columns)
	for _, r := range t.Rows {
		n = max(n, len(r))
	}
	mdRow(&b, pad(t.Columns, n))
	mdRule(&b, n)
	for _, r := range t.Rows {
		mdRow(&b, pad(r, n))
	}
	if t.Note != "" {
		b.WriteString("\n*" + mdCell(t.Note) + "*\n")
	}
	return b.String()
}

// tablesMarkdown is tables.md: every table under its section's title.
func tablesMarkdown(sections []Section) string {
	var b strings.Builder
	b.WriteString("# Tables\n")
	for _, s := range sections {
		if len(s.Tables) == 0 {
			continue
		}
		b.WriteString("\n## " + mdCell(sectionTitle(s)) + "\n")
		for _, t := range s.Tables {
			b.WriteString("\n" + TableMarkdown(t))
		}
	}
	return b.String()
}

func pad(cells []string, n int) []string {
	out := make([]string, n)
	copy(out, cells)
	return out
}

func mdRow(b *strings.Builder, cells []string) {
	b.WriteString("|")
	for _, c := range cells {
		b.WriteString(" " + mdCell(c) + " |")
	}
	b.WriteString("\n")
}

func mdRule(b *strings.Builder, n int) {
	b.WriteString("|" + strings.Repeat("---|", n) + "\n")
}

// tagStart is a '<' that Markdown would take for the start of an HTML tag.
var tagStart = regexp.MustCompile(`<([A-Za-z/!?])`)

// mdCell keeps a cell on one line, its pipes out of the table syntax and
// its "<word" from being read as HTML (a backslash escape renders as '<').
func mdCell(s string) string {
	s = strings.ReplaceAll(s, "\r\n", " ")
	s = strings.ReplaceAll(s, "\n", " ")
	s = strings.ReplaceAll(s, "|", `\|`)
	return tagStart.ReplaceAllString(s, `\<$1`)
}

// claimExperiment is the claim's experiment, or its section's name when
// the claim leaves it empty.
func claimExperiment(s Section, c Claim) string {
	if c.Experiment != "" {
		return c.Experiment
	}
	return s.Name
}

func sectionTitle(s Section) string {
	if s.Title != "" {
		return s.Title
	}
	return s.Name
}
