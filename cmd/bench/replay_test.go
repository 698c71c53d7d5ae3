package main

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"sojourn/results"
)

// TestReplaySummary: bench replay streams the trace, prints its figures
// with the total time and (on Unix) the peak memory, and with
// --tasks=false writes the job results only.
func TestReplaySummary(t *testing.T) {
	dir := t.TempDir()
	trace := filepath.Join(dir, "fb2009.arrow")
	if _, _, err := bench(t, "generate", "--profile", "fb2009", "--seed", "1", "--jobs", "30", "--out", trace); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "r")
	stdout, _, err := bench(t, "replay", "--trace", trace, "--scheduler", "hfsp", "--out", out, "--tasks=false", "--occupancy=false")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"jobs                        30", "mean sojourn", "wall time", "task events/s", "total time"}
	if runtime.GOOS == "linux" || runtime.GOOS == "darwin" {
		want = append(want, "peak memory")
	}
	for _, w := range want {
		if !strings.Contains(stdout, w) {
			t.Errorf("summary lacks %q:\n%s", w, stdout)
		}
	}
	jobs, err := results.ReadJobs(filepath.Join(out, results.JobsFile))
	if err != nil {
		t.Fatalf("jobs.arrow: %v", err)
	}
	if jobs.Len() != 30 {
		t.Fatalf("jobs.arrow: %d rows; want 30", jobs.Len())
	}
	for _, f := range []string{results.TasksFile, results.OccupancyFile} {
		if _, err := os.Stat(filepath.Join(out, f)); !os.IsNotExist(err) {
			t.Errorf("%s written with --tasks=false --occupancy=false", f)
		}
	}
}
