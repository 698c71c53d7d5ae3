package schedulers

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"sojourn/replay/replaytest"
)

// The option tables of docs/policies.md are generated from the policies'
// Option lists; this test fails when they differ (go test ./schedulers
// -rewrite, the flag replaytest registers, or make readme-options, rewrites
// them).
func TestDocOptionTables(t *testing.T) {
	const path = "../docs/policies.md"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	got, added := UpdateReadme(string(data))
	if len(added) > 0 && !replaytest.Rewriting() {
		t.Errorf("%s has no option table for %s; run make readme-options", path, strings.Join(added, ", "))
	}
	if got == string(data) {
		return
	}
	if replaytest.Rewriting() {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("the option tables of %s differ from the code's Option lists; run make readme-options", path)
}

func TestOptionsMarkdown(t *testing.T) {
	var b strings.Builder
	p, _ := Lookup("fifo")
	if err := WriteOptionsMarkdown(&b, p); err != nil {
		t.Fatal(err)
	}
	want := "| option | default | meaning |\n|---|---|---|\n| `fifo.load-factor` | `true` |"
	if !strings.HasPrefix(b.String(), want) || strings.Count(b.String(), "\n") != 2+len(p.Options) {
		t.Errorf("table:\n%s", b.String())
	}
	b.Reset()
	p, _ = Lookup("fifo-minimal")
	WriteOptionsMarkdown(&b, p)
	if b.String() != "`fifo-minimal` has no options.\n" {
		t.Errorf("no-option policy: %q", b.String())
	}
}

// TestReadmeAddsMissingTables: a policy without markers gets a section
// after the last table, and a second update changes nothing.
func TestReadmeAddsMissingTables(t *testing.T) {
	p, _ := Lookup("fifo")
	var table strings.Builder
	WriteOptionsMarkdown(&table, p)
	text := "# Policies\n\n" + fmt.Sprintf(readmeBegin, "fifo") + "\nstale\n" + fmt.Sprintf(readmeEnd, "fifo") + "\n\n## Next\n"
	got, added := UpdateReadme(text)
	if len(added) != len(Policies())-1 || slices.Contains(added, "fifo") {
		t.Errorf("added %v, want every policy but fifo", added)
	}
	if !strings.Contains(got, fmt.Sprintf(readmeBegin, "fifo")+"\n"+table.String()+fmt.Sprintf(readmeEnd, "fifo")) {
		t.Errorf("fifo's table not rewritten:\n%s", got)
	}
	hfsp, _ := Lookup("hfsp")
	head := fmt.Sprintf("**hfsp** — %s\n\n%s\n| option |", hfsp.Summary, fmt.Sprintf(readmeBegin, "hfsp"))
	if i, j := strings.Index(got, head), strings.Index(got, "## Next"); i < 0 || j < i || !strings.HasPrefix(got, "# Policies\n\n") {
		t.Errorf("hfsp's section missing or after the next heading:\n%s", got)
	}
	again, added := UpdateReadme(got)
	if again != got || len(added) != 0 {
		t.Errorf("second update added %v or changed the text", added)
	}
}
