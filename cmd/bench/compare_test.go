package main

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"

	"sojourn/run/sweep"
)

// TestMain lets a test run the bench binary itself: the test binary
// re-executed with BENCH_TEST_MAIN=1 is bench, so exit statuses are the
// real ones.
func TestMain(m *testing.M) {
	if os.Getenv("BENCH_TEST_MAIN") == "1" {
		main()
		os.Exit(0)
	}
	code := m.Run()
	removeSuites()
	os.Exit(code)
}

// benchExit runs bench as a process and returns its stdout, its stderr
// and its exit status.
func benchExit(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "BENCH_TEST_MAIN=1")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return string(out), stderr.String(), 0
	case errors.As(err, &ee):
		return string(out), stderr.String(), ee.ExitCode()
	}
	t.Fatal(err)
	return "", "", -1
}

// compareSweep is a small suite; "fixed" nodes are not part of a group's
// key, so a run on fewer nodes compares with one on more when
// --allow-fixed-change allows it.
const compareSweep = `{
  "name": "cmp",
  "workloads": [{"name": "w", "profile": "fb2009", "jobs": 40, "nodes": 10, "mean_gap": 4}],
  "policies": ["fifo", "fair"],
  "fixed": {"nodes": %NODES%},
  "seeds": [1, 2]
}`

func sweepDir(t *testing.T, nodes string) string {
	t.Helper()
	dir := t.TempDir()
	file := filepath.Join(dir, "cmp.json")
	if err := os.WriteFile(file, []byte(strings.Replace(compareSweep, "%NODES%", nodes, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	if _, _, err := bench(t, "sweep", "--out", out, file); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestCompareExitStatus: an identical candidate exits 0, a deliberately
// worse one (the same jobs on half the nodes, allowed by
// --allow-fixed-change) exits 2 with the regressions in the table, and a
// broken input exits 1.
func TestCompareExitStatus(t *testing.T) {
	base, same, worse := sweepDir(t, "10"), sweepDir(t, "10"), sweepDir(t, "5")

	out, _, code := benchExit(t, "compare", base, same)
	if code != 0 || !strings.Contains(out, "**No regression** beyond 5%.") || strings.Contains(out, "regressed") || strings.Contains(out, "unpaired") {
		t.Errorf("identical candidate: exit %d\n%s", code, out)
	}
	out, _, code = benchExit(t, "compare", "--allow-fixed-change", base, filepath.Join(worse, "summary.json"))
	if code != exitRegressed || !strings.Contains(out, "| w | fifo | – | mean sojourn (s) |") || !strings.Contains(out, "**regressed**") {
		t.Errorf("worse candidate: exit %d\n%s", code, out)
	}
	// The better side as candidate improves its sojourns rather than
	// regressing (its maps are less often node-local, though: more nodes
	// spread the blocks).
	if out, _, code = benchExit(t, "compare", "--allow-fixed-change", "--metrics", "mean,p95", worse, base); code != 0 || !strings.Contains(out, "| improved |") {
		t.Errorf("better candidate: exit %d\n%s", code, out)
	}
	if _, _, code = benchExit(t, "compare", base, filepath.Join(base, "sweep.json")); code != 1 {
		t.Errorf("a sweep.json as candidate: exit %d, want 1", code)
	}

	// In process, the regression is an ExitCoder with status 2, and a
	// generous threshold lets the worse candidate pass.
	_, _, err := bench(t, "compare", "--allow-fixed-change", base, worse)
	var ec cli.ExitCoder
	if !errors.As(err, &ec) || ec.ExitCode() != exitRegressed || !strings.Contains(err.Error(), "regressions beyond 5%") {
		t.Errorf("worse candidate in process: %v", err)
	}
	if _, _, err := bench(t, "compare", "--allow-fixed-change", "--threshold", "1000", base, worse); err != nil {
		t.Errorf("threshold 1000%%: %v", err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"compare", base}, "compare: give BASELINE and CANDIDATE (got 1 arguments)"},
		{[]string{"compare", "--metrics", "mean,p99", base, same}, `compare: --metric "p99": want one of`},
		{[]string{"compare", "--level", "2", base, same}, "compare: --level 2: want a confidence level"},
		{[]string{"compare", base, filepath.Join(base, "none.json")}, "none.json: no such file"},
	} {
		if _, _, err := bench(t, c.args...); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want %q", c.args, err, c.want)
		}
	}
}

// TestCompareRefusesFixedChange: sweeps whose fixed settings differ are
// refused in one line naming the setting and both values, before any
// table; --allow-fixed-change compares them with a warning.
func TestCompareRefusesFixedChange(t *testing.T) {
	base, worse := sweepDir(t, "10"), sweepDir(t, "5")
	out, stderr, code := benchExit(t, "compare", base, worse)
	want := "bench: compare: the sweeps' fixed settings differ: nodes 10 in the baseline, 5 in the candidate; --allow-fixed-change compares them anyway\n"
	if code != 1 || out != "" || stderr != want {
		t.Errorf("exit %d, stderr %q, want 1 and %q alone; stdout:\n%s", code, stderr, want, out)
	}
	out, stderr, code = benchExit(t, "compare", "--allow-fixed-change", base, worse)
	if code != exitRegressed || !strings.Contains(stderr, "bench compare: the sweeps' fixed settings differ (allowed by --allow-fixed-change): nodes 10 in the baseline, 5 in the candidate\n") ||
		!strings.Contains(out, "**Fixed settings differ**: nodes 10 in the baseline, 5 in the candidate.") {
		t.Errorf("allowed: exit %d, stderr %q\n%s", code, stderr, out)
	}
}

// TestCompareUnpaired: a candidate whose traces differ from the
// baseline's (as a baseline committed before a change of the trace format
// does) is not paired: the table says so, stderr gives the count and the
// reason, and the command fails with 1 unless --allow-unpaired, even when
// nothing regressed.
func TestCompareUnpaired(t *testing.T) {
	base := sweepDir(t, "10")
	s, err := sweep.ReadSummary(base)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range s.Groups {
		g.Traces[1] = strings.Repeat("0", 64)
	}
	other := filepath.Join(t.TempDir(), "summary.json")
	data, _ := json.Marshal(s)
	if err := os.WriteFile(other, data, 0o644); err != nil {
		t.Fatal(err)
	}
	out, stderr, code := benchExit(t, "compare", base, other)
	want := "bench: compare: 10 of 10 rows unpaired, their intervals measuring the spread between jobs rather than the change: " +
		"w fifo: seed 2: trace_sha256 "
	if code != 1 || !strings.HasPrefix(stderr, want) || !strings.Contains(stderr, "00000000… in the candidate (and 1 more group); regenerate a stale baseline (make baseline) or pass --allow-unpaired\n") ||
		strings.Count(stderr, "\n") != 1 {
		t.Errorf("exit %d, stderr %q, want 1 and %q…", code, stderr, want)
	}
	if !strings.Contains(out, "(unpaired) | ok |") || !strings.Contains(out, "**10 of 10 rows unpaired**") || !strings.Contains(out, "**No regression**") {
		t.Errorf("table:\n%s", out)
	}
	out, stderr, code = benchExit(t, "compare", "--allow-unpaired", base, other)
	if code != 0 || !strings.HasPrefix(stderr, "bench compare: 10 of 10 rows unpaired") || !strings.HasSuffix(stderr, "(allowed by --allow-unpaired)\n") {
		t.Errorf("allowed: exit %d, stderr %q\n%s", code, stderr, out)
	}
}

// TestCommittedBaseline: the committed baseline summary reads and covers
// the standard suite (fb2009 and fb2010 under fifo, fair and hfsp); its
// figures are left to make compare.
func TestCommittedBaseline(t *testing.T) {
	out, _, err := bench(t, "compare", "--metrics", "mean", "../../results/baseline", "../../results/baseline/summary.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| fb2009 | fifo |", "| fb2009 | hfsp |", "| fb2010 | fair |", "| fb2010 | hfsp |", "**No regression**"} {
		if !strings.Contains(out, want) {
			t.Errorf("baseline comparison lacks %q:\n%s", want, out)
		}
	}
}
