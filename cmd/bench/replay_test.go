package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"sojourn/analysis"
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

// TestReplaySeveralPolicies: --scheduler a,b prints one column per policy,
// writes each policy's results under --out DIR/POLICY, and its median and
// p95 are analysis.Summarize's of the written sojourns; the event counts
// add up.
func TestReplaySeveralPolicies(t *testing.T) {
	dir := t.TempDir()
	trace := filepath.Join(dir, "fb2009.arrow")
	if _, _, err := bench(t, "generate", "--profile", "fb2009", "--seed", "1", "--jobs", "30", "--out", trace); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "r")
	stdout, _, err := bench(t, "replay", "--trace", trace, "--scheduler", "fifo,hfsp", "--out", out)
	if err != nil {
		t.Fatal(err)
	}
	fields := map[string][]string{}
	for _, line := range strings.Split(stdout, "\n") {
		for _, label := range []string{"scheduler", "median sojourn", "p95 sojourn", "events", "  heartbeats", "  task ends", "  job arrivals", "  node failures, repairs"} {
			if rest, ok := strings.CutPrefix(line, label+"  "); ok {
				fields[label] = strings.Fields(strings.ReplaceAll(rest, " s", ""))
			}
		}
	}
	if got := strings.Join(fields["scheduler"], " "); got != "fifo hfsp" {
		t.Fatalf("scheduler columns %q, want fifo hfsp:\n%s", got, stdout)
	}
	for i, pol := range []string{"fifo", "hfsp"} {
		jobs, err := results.ReadJobs(filepath.Join(out, pol, results.JobsFile))
		if err != nil {
			t.Fatal(err)
		}
		s := analysis.Summarize(jobs.Sojourn)
		if want := fmt.Sprintf("%.1f", s.Median); fields["median sojourn"][i] != want {
			t.Errorf("%s: median %s, want %s", pol, fields["median sojourn"][i], want)
		}
		if want := fmt.Sprintf("%.1f", s.P95); fields["p95 sojourn"][i] != want {
			t.Errorf("%s: p95 %s, want %s", pol, fields["p95 sojourn"][i], want)
		}
		n := func(label string) int {
			v, err := strconv.Atoi(fields[label][i])
			if err != nil {
				t.Fatalf("%s: %q: %v", label, fields[label], err)
			}
			return v
		}
		if n("events") != n("  heartbeats")+n("  task ends")+n("  job arrivals")+n("  node failures, repairs") {
			t.Errorf("%s: events do not add up:\n%s", pol, stdout)
		}
	}
	if !strings.Contains(stdout, "cluster: 100 nodes in 5 racks of 20, 4 map and 2 reduce slots per node") {
		t.Errorf("summary lacks the cluster:\n%s", stdout)
	}
}
