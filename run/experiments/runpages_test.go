package experiments

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sojourn/reports"
)

// TestWriteRunPages: a page per run of fig7 (every run has its tasks), in
// the manifest's order, each linking its run and holding its chart.
func TestWriteRunPages(t *testing.T) {
	dir, _ := runAll(t)
	m, err := ReadManifest(filepath.Join(dir, "fig7", ManifestFile))
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	links, err := WriteRunPages(out, filepath.Join(dir, "fig7"), "fig7", &m)
	if err != nil {
		t.Fatal(err)
	}
	if len(links) != len(m.Runs) {
		t.Fatalf("%d pages for %d runs", len(links), len(m.Runs))
	}
	for i, l := range links {
		if l.Label != m.Runs[i].Dir || l.Href != reports.RunPagePath("fig7", m.Runs[i].Dir) {
			t.Errorf("link %d: %+v for run %s", i, l, m.Runs[i].Dir)
		}
		data, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(l.Href)))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(data), `id="gantt"`) {
			t.Errorf("%s has no chart", l.Href)
		}
	}
}
