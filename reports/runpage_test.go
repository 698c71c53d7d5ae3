package reports

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func sampleRunPage() RunPage {
	return RunPage{
		Section: "fig5", Dir: "nodes-010/fair", Title: "fig5: nodes-010/fair <b>",
		Params: []Param{{Key: "policy", Value: "fair"}},
		Jobs: RunJobs{Index: []int32{0, 1}, Class: []string{"small", "big"}, Maps: []int32{1, 3}, Reduces: []int32{0, 1},
			Submit: []float64{0, 5}, Finish: []float64{10, 40}, Sojourn: []float64{10, 35}, NodeLocal: []int32{1, 2}},
		Segments: &RunSegments{Job: []int32{0, 1, 1, 1, 1}, Reduce: []bool{false, false, false, false, true},
			Start: []float64{0, 5, 5, 12, 20}, End: []float64{10, 12, 15, 20, 40}},
	}
}

// TestRunPage writes a run page and reads it back: at its path, linking
// back to the index, with the chart (a path per job and kind), every
// job's row, the sorting script, and text escaped.
func TestRunPage(t *testing.T) {
	dir := t.TempDir()
	p := sampleRunPage()
	if err := WriteRunPage(dir, p); err != nil {
		t.Fatal(err)
	}
	rel := RunPagePath(p.Section, p.Dir)
	if rel != "runs/fig5/nodes-010--fair.html" {
		t.Errorf("RunPagePath = %q", rel)
	}
	data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	page := string(data)
	for _, w := range []string{`href="../../index.html"`, `<svg xmlns="http://www.w3.org/2000/svg" id="gantt"`,
		`<path class="m"`, `<path class="r"`, "<td>35.0</td>", "<td>big</td>", "aria-sort", "2 jobs, mean sojourn 22.5 s",
		"fig5: nodes-010/fair &lt;b&gt;", `<div class="scroll">`} {
		if !strings.Contains(page, w) {
			t.Errorf("run page lacks %q", w)
		}
	}
	if n := strings.Count(page, "<title>job "); n != 2 {
		t.Errorf("%d job tooltips, want 2", n)
	}
	for _, bad := range []string{"http://", "https://"} {
		if i := strings.Index(strings.ReplaceAll(page, `xmlns="http://www.w3.org/2000/svg"`, ""), bad); i >= 0 {
			t.Errorf("run page refers to the network: %q", page[i:min(len(page), i+60)])
		}
	}
	p.Segments = nil
	if err := WriteRunPage(dir, p); err != nil {
		t.Fatal(err)
	}
	data, _ = os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
	if strings.Contains(string(data), "<svg") || !strings.Contains(string(data), "did not record its task segments") {
		t.Error("a run without segments should say so instead of drawing a chart")
	}
}
