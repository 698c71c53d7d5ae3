package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
)

// TestMain lets a test run the bench binary itself: the test binary
// re-executed with BENCH_TEST_MAIN=1 is bench, so exit statuses are the
// real ones.
func TestMain(m *testing.M) {
	if os.Getenv("BENCH_TEST_MAIN") == "1" {
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// benchExit runs bench as a process and returns its stdout and exit status.
func benchExit(t *testing.T, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "BENCH_TEST_MAIN=1")
	out, err := cmd.Output()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return string(out), 0
	case errors.As(err, &ee):
		return string(out), ee.ExitCode()
	}
	t.Fatal(err)
	return "", -1
}

// compareSweep is a small suite; "fixed" nodes are not part of a group's
// key, so a run on fewer nodes compares with one on more.
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
// worse one (the same jobs on half the nodes) exits 2 with the regressions
// in the table, and a broken input exits 1.
func TestCompareExitStatus(t *testing.T) {
	base, same, worse := sweepDir(t, "10"), sweepDir(t, "10"), sweepDir(t, "5")

	out, code := benchExit(t, "compare", base, same)
	if code != 0 || !strings.Contains(out, "**No regression** beyond 5%.") || strings.Contains(out, "regressed") {
		t.Errorf("identical candidate: exit %d\n%s", code, out)
	}
	out, code = benchExit(t, "compare", base, filepath.Join(worse, "summary.json"))
	if code != exitRegressed || !strings.Contains(out, "| w | fifo | – | mean sojourn (s) |") || !strings.Contains(out, "**regressed**") {
		t.Errorf("worse candidate: exit %d\n%s", code, out)
	}
	// The better side as candidate improves its sojourns rather than
	// regressing (its maps are less often node-local, though: more nodes
	// spread the blocks).
	if out, code = benchExit(t, "compare", "--metrics", "mean,p95", worse, base); code != 0 || !strings.Contains(out, "| improved |") {
		t.Errorf("better candidate: exit %d\n%s", code, out)
	}
	if _, code = benchExit(t, "compare", base, filepath.Join(base, "sweep.json")); code != 1 {
		t.Errorf("a sweep.json as candidate: exit %d, want 1", code)
	}

	// In process, the regression is an ExitCoder with status 2, and a
	// generous threshold lets the worse candidate pass.
	_, _, err := bench(t, "compare", base, worse)
	var ec cli.ExitCoder
	if !errors.As(err, &ec) || ec.ExitCode() != exitRegressed || !strings.Contains(err.Error(), "regressions beyond 5%") {
		t.Errorf("worse candidate in process: %v", err)
	}
	if _, _, err := bench(t, "compare", "--threshold", "1000", base, worse); err != nil {
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
