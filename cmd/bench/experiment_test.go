package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// bench experiment writes the results and a report that references every
// figure it drew; bench report redraws it from the results alone.
func TestExperimentAndReport(t *testing.T) {
	dir := t.TempDir()
	res, rep := filepath.Join(dir, "results"), filepath.Join(dir, "reports")
	out, _, err := bench(t, "experiment", "--results", res, "--reports", rep, "fig7", "fig8")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "fig7") || !strings.Contains(out, "claims:") || !strings.Contains(out, "index.html") {
		t.Errorf("summary lacks the experiments or the report:\n%s", out)
	}
	for _, f := range []string{"results/fig7/manifest.json", "results/fig7/section.json", "results/fig7/hfsp-eager/jobs.arrow",
		"results/fig7/hfsp-eager/occupancy.arrow", "results/fig8/footprint-2.0GB/tasks.arrow",
		"reports/index.html", "reports/claims.md", "reports/tables.md",
		"reports/figures/fig7.png", "reports/figures/fig7.svg", "reports/figures/fig8.png", "reports/figures/fig8.svg"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("missing %s", f)
		}
	}
	html, _ := os.ReadFile(filepath.Join(rep, "index.html"))
	for _, want := range []string{"figures/fig7.png", "figures/fig8.svg", "Eager preemption"} {
		if !strings.Contains(string(html), want) {
			t.Errorf("index.html lacks %q", want)
		}
	}
	os.RemoveAll(rep)
	if _, _, err := bench(t, "report", "--results", res, "--reports", rep); err != nil {
		t.Fatal(err)
	}
	again, _ := os.ReadFile(filepath.Join(rep, "index.html"))
	if string(again) != string(html) {
		t.Error("bench report does not redraw the same index.html")
	}
}

func TestExperimentErrors(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"experiment"}, "name the experiments to run"},
		{[]string{"experiment", "--results", dir, "fig9"}, `unknown experiment "fig9": want one of fig3,`},
		{[]string{"experiment", "--parallel", "0", "fig8"}, "--parallel 0: want at least 1"},
		{[]string{"report", "--results", filepath.Join(dir, "none")}, "no experiment results under"},
	} {
		_, _, err := bench(t, c.args...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: error %v; want %q", c.args, err, c.want)
		}
	}
}

// Without --results and --reports, the outputs go to out/ (which git
// ignores), never into the source folders results/ and reports/.
func TestExperimentWritesUnderOut(t *testing.T) {
	t.Chdir(t.TempDir())
	if _, _, err := bench(t, "experiment", "fig8"); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"out/results/fig8/section.json", "out/reports/index.html", "out/reports/claims.md"} {
		if _, err := os.Stat(f); err != nil {
			t.Error(err)
		}
	}
	for _, d := range []string{"results", "reports"} {
		if _, err := os.Stat(d); !os.IsNotExist(err) {
			t.Errorf("%s/ was created", d)
		}
	}
	if out, _, err := bench(t, "report"); err != nil || !strings.Contains(out, filepath.Join("out", "reports", "index.html")) {
		t.Errorf("bench report: %q, %v", out, err)
	}
}
