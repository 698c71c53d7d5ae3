package schedulers

import (
	"os"
	"strings"
	"testing"

	"sojourn/replay/replaytest"
)

// The README's option tables are generated from the policies' Option
// lists; this test fails when they differ (go test ./schedulers -rewrite,
// the flag replaytest registers, or make readme-options, rewrites them).
func TestReadmeOptionTables(t *testing.T) {
	const path = "../README.md"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	got, missing := UpdateReadme(string(data))
	if len(missing) > 0 {
		t.Errorf("README has no option table for %s", strings.Join(missing, ", "))
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
	t.Errorf("README's option tables differ from the code's Option lists; run make readme-options")
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
