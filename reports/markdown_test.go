package reports

import (
	"regexp"
	"strings"
	"testing"
)

// cells splits a Markdown table row at its unescaped pipes.
func cells(row string) []string {
	parts := regexp.MustCompile(`(^|[^\\])\|`).FindAllStringIndex(row, -1)
	var out []string
	for i := 0; i+1 < len(parts); i++ {
		out = append(out, strings.TrimSpace(row[parts[i][1]:parts[i+1][1]-1]))
	}
	return out
}

func TestClaimsMarkdown(t *testing.T) {
	s1, s2 := sampleSection(), sampleSection()
	s2.Name = "fig4"
	s2.Claims = s2.Claims[:1]
	s2.Claims[0].Experiment = ""
	md := ClaimsMarkdown([]Section{s1, s2})
	lines := strings.Split(strings.TrimSuffix(md, "\n"), "\n")
	if want := 2 + len(s1.Claims) + len(s2.Claims); len(lines) != want {
		t.Fatalf("%d lines, want header, rule and one row per claim (%d):\n%s", len(lines), want, md)
	}
	for i, l := range lines {
		if n := len(cells(l)); n != 8 {
			t.Errorf("line %d has %d cells, want 8: %s", i+1, n, l)
		}
	}
	if !strings.Contains(md, `| a \| b |`) {
		t.Errorf("pipe in a cell not escaped:\n%s", md)
	}
	if !strings.Contains(md, `big jobs \<script>alert(1)\</script>`) {
		t.Errorf("tag-like text not escaped:\n%s", md)
	}
	if got := cells(lines[len(lines)-1])[0]; got != "fig4" {
		t.Errorf("claim without experiment shows %q, want its section's name", got)
	}
}

func TestTableMarkdown(t *testing.T) {
	tb := sampleSection().Tables[0]
	tb.Rows = append(tb.Rows, []string{"FAIR", "multi\nline"})
	md := TableMarkdown(tb)
	want := "**Mean sojourn times**\n\n" +
		"| policy | small | big \\| huge |\n" +
		"|---|---|---|\n" +
		"| FIFO | 120 s | 3000 s |\n" +
		"| HFSP | 20 s | 2500 s |\n" +
		"| FAIR | multi line |  |\n" +
		"\n*Means over 10 runs.*\n"
	if md != want {
		t.Errorf("got\n%s\nwant\n%s", md, want)
	}
}

func TestTablesMarkdown(t *testing.T) {
	s := sampleSection()
	empty := Section{Name: "empty", Title: "No tables"}
	md := tablesMarkdown([]Section{s, empty})
	if !strings.Contains(md, "## FB2009: sojourn \\<times> & classes\n\n**Mean sojourn times**") {
		t.Errorf("table not under its section's title:\n%s", md)
	}
	if strings.Contains(md, "No tables") {
		t.Error("section without tables listed")
	}
}
