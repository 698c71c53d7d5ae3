package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// benchProc runs bench as a process and returns its stdout, stderr and
// exit status.
func benchProc(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "BENCH_TEST_MAIN=1")
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return out.String(), errOut.String(), 0
	case errors.As(err, &ee):
		return out.String(), errOut.String(), ee.ExitCode()
	}
	t.Fatal(err)
	return "", "", -1
}

// wantOneLine asserts exit status 1 and one line on stderr containing
// want.
func wantOneLine(t *testing.T, args []string, want string) {
	t.Helper()
	_, stderr, code := benchProc(t, args...)
	// Progress lines ("replay fair: 3/10 jobs (2 s)", "…: done in 2.1 s")
	// come on stderr too once a run has lasted two seconds, which a
	// loaded machine may take: the error is the one line left.
	var lines []string
	for _, l := range strings.Split(strings.TrimSuffix(stderr, "\n"), "\n") {
		if !progressLine.MatchString(l) {
			lines = append(lines, l)
		}
	}
	if code != 1 || len(lines) != 1 || !strings.Contains(stderr, want) {
		t.Errorf("bench %s: exit %d, stderr %q; want exit 1 and one line containing %q", strings.Join(args, " "), code, stderr, want)
	}
}

// progressLine matches the progress lines of a long run (progress.go).
var progressLine = regexp.MustCompile(`^[a-z][^:]*: (.* \(\d+ s\)|done in [0-9.]+ s)$`)

// smallTrace writes a 10-job fb2009 trace.
func smallTrace(t *testing.T, dir string) string {
	t.Helper()
	path := filepath.Join(dir, "t.arrow")
	if _, _, err := bench(t, "generate", "--profile", "fb2009", "--jobs", "10", "--out", path); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestReplayFlagRanges: an explicit 0 where 0 would silently become the
// default, NaN, infinities, negatives, values beyond the microsecond
// clock and integers that would exhaust memory are each one line naming
// the flag and the allowed range, exit status 1, and no output written.
func TestReplayFlagRanges(t *testing.T) {
	dir := t.TempDir()
	trace := smallTrace(t, dir)
	out := filepath.Join(dir, "out")
	for _, c := range []struct{ flag, value, want string }{
		{"nodes", "0", "--nodes: 0; want an integer from 1 to 1000000"},
		{"nodes", "2147483648", "--nodes: 2147483648; want an integer from 1 to 1000000"},
		{"nodes-per-rack", "0", "--nodes-per-rack: 0; want an integer from 1"},
		{"map-slots", "0", "--map-slots: 0; want an integer from 1 to 1024"},
		{"map-slots", "9223372036854775807", "--map-slots: 9223372036854775807; want an integer from 1 to 1024"},
		{"reduce-slots", "0", "--reduce-slots: 0; want an integer from 1 to 1024"},
		{"replication", "0", "--replication: 0; want an integer from 1 to 64"},
		{"max-suspended", "0", "--max-suspended: 0; want an integer from 1"},
		{"rack-local-factor", "0", "--rack-local-factor: 0; want a number > 0"},
		{"off-rack-factor", "NaN", "--off-rack-factor: NaN; want a number > 0"},
		{"shuffle-bandwidth", "0", "--shuffle-bandwidth: 0; want a number > 0"},
		{"disk-bandwidth", "-1", "--disk-bandwidth: -1; want a number > 0"},
		{"mttr", "0", "--mttr: 0; want a number > 0"},
		{"mtbf", "1e13", "--mtbf: 1e+13; want a number > 0 and <= 1e+12 s"},
		{"mtbf", "-5", "--mtbf: -5"},
		{"heartbeat", "1e13", "--heartbeat: 1e+13; want a number from 1e-06 to 1e+12 s"},
		{"slowstart", "NaN", "--slowstart: NaN; want a number from 0"},
		{"slowstart", "1.5", "--slowstart: 1.5; want a number from 0"},
		{"speed-sigma", "Inf", "--speed-sigma: +Inf; want a number from 0"},
		{"hfsp.alpha", "NaN", "hfsp.alpha: NaN; want a finite number"},
		{"hfsp.xi", "Inf", "hfsp.xi: Inf; want a finite number"},
		{"hfsp.initial-task", "-1", "hfsp.initial-task: -1; want > 0"},
		{"hfsp.virtual-speed", "1e400", "hfsp.virtual-speed: 1e400; want a finite number"},
		{"hfsp.locality-delay", "NaN", "hfsp.locality-delay: NaN; want a finite number"},
		{"hfsp.samples", "99999999999", "hfsp.samples: 99999999999; want an integer from"},
	} {
		args := []string{"replay", "--trace", trace, "--out", out, "--" + c.flag + "=" + c.value}
		if strings.HasPrefix(c.flag, "hfsp.") {
			args = append(args, "--scheduler", "hfsp")
		}
		wantOneLine(t, args, c.want)
		if _, err := os.Stat(out); err == nil {
			t.Fatalf("--%s %s: %s was written", c.flag, c.value, out)
		}
	}
}

// TestVersusFlagRanges: bench versus checks its cluster flags against the
// same ranges, naming the flag (not the sweep field it becomes).
func TestVersusFlagRanges(t *testing.T) {
	wantOneLine(t, []string{"versus", "--baseline", "fifo", "--candidate", "fair", "--workload", "fb2009", "--seeds", "1", "--nodes", "0"},
		"bench: --nodes: 0; want an integer from 1 to 1000000")
	wantOneLine(t, []string{"versus", "--baseline", "fifo", "--candidate", "fair", "--workload", "fb2009", "--seeds", "1", "--mtbf", "NaN"},
		"bench: --mtbf: NaN; want a number > 0")
}

// TestGenerateFlagRanges: the generator's counts and times, likewise.
func TestGenerateFlagRanges(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "g.arrow")
	empty := filepath.Join(dir, "empty.tsv")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	one := filepath.Join(dir, "one-2009.tsv")
	if err := os.WriteFile(one, []byte("j\t0\t0\t1\t1\t1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--profile", "fb2009", "--jobs", "2147483648"}, "--jobs: 2147483648; want 1 to 10000000"},
		{[]string{"--profile", "fb2009", "--jobs", "0"}, "--jobs: 0; want 1 to 10000000"},
		{[]string{"--profile", "fb2009", "--nodes", "0"}, "--nodes: 0"},
		{[]string{"--profile", "fb2009", "--mean-gap", "NaN"}, "--mean-gap: NaN s"},
		{[]string{"--profile", "fb2009", "--mean-gap", "1e300"}, "--mean-gap: 1e+300 s"},
		{[]string{"--profile", "fb2009", "--task-skew", "NaN"}, "--task-skew: NaN"},
		{[]string{"--profile", "fb2009", "--shuffle-skew", "-1"}, "--shuffle-skew: -1"},
		{[]string{"--profile", "fb2009", "--map-startup", "Inf"}, "--map-startup: +Inf"},
		{[]string{"--swim", one, "--samples", "1000000"}, "--samples: 1000000; want 1 to 10000"},
		{[]string{"--swim", empty}, empty + ": no jobs"},
		{[]string{"--swim", dir}, dir + ": is a directory"},
	} {
		wantOneLine(t, append(append([]string{"generate"}, c.args...), "--out", out), c.want)
		if _, err := os.Stat(out); err == nil {
			t.Fatalf("generate %v: %s was written", c.args, out)
		}
	}
}

// TestConfigFileErrors: a policy configuration file's errors name the
// file and the line.
func TestConfigFileErrors(t *testing.T) {
	dir := t.TempDir()
	trace := smallTrace(t, dir)
	for _, c := range []struct{ text, want string }{
		{"fair.preemption = true\nfair.preemption = false\n", "p.conf:2: fair.preemption given again (first on line 1)"},
		{"# ok\nfair.nope = 1\n", "p.conf:2: fair has no option \"nope\""},
		{"fair.locality-delay = 1\n" + strings.Repeat("x", 70<<10) + "\n", "p.conf:2: line longer than 64 KiB"},
		{"fair.locality-delay = NaN\n", "fair.locality-delay: NaN"},
	} {
		conf := filepath.Join(dir, "p.conf")
		if err := os.WriteFile(conf, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		wantOneLine(t, []string{"replay", "--trace", trace, "--scheduler", "fair", "--config", conf}, c.want)
	}
	wantOneLine(t, []string{"replay", "--trace", trace, "--scheduler", "fair", "--config", dir}, dir+": is a directory")
}

// TestNoProgress: a run that can never finish stops at once with one line
// naming the policy and the jobs, and writes nothing: a FAIR pool that
// may run no job, disco on one node of 1+1 slots.
func TestNoProgress(t *testing.T) {
	dir := t.TempDir()
	trace := smallTrace(t, dir)
	pools := filepath.Join(dir, "pools.xml")
	if err := os.WriteFile(pools, []byte(`<allocations><poolMaxJobsDefault>0</poolMaxJobsDefault></allocations>`), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	wantOneLine(t, []string{"replay", "--trace", trace, "--scheduler", "fair", "--fair.pools", pools, "--out", out},
		"no progress: policy fair has launched, resumed or stopped no task from")
	wantOneLine(t, []string{"replay", "--trace", trace, "--scheduler", "disco", "--nodes", "1", "--map-slots", "1", "--reduce-slots", "1", "--out", out},
		"no progress: policy disco")
	if _, err := os.Stat(out); err == nil {
		t.Fatalf("a failed run left %s", out)
	}
}

// TestBadClusters: a bad cluster file, a cluster given twice, a
// container parameter without the container model, and a container no
// node can hold are each one line and exit status 1, with no output
// written.
func TestBadClusters(t *testing.T) {
	dir := t.TempDir()
	trace := smallTrace(t, dir)
	bad := filepath.Join(dir, "cluster.txt")
	if err := os.WriteFile(bad, []byte("nodes count=3 memory=15GiB\nnode memory=15XB\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{"nored.txt": "nodes count=3 map-slots=2 reduce-slots=0\n", "nomap.txt": "nodes count=3 map-slots=0 reduce-slots=2\n",
		"slow.txt": "nodes count=3\nnode speed=1e-300\n"}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(dir, "out")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--cluster", filepath.Join(dir, "nored.txt")}, "nored.txt: no node has a reduce slot; job 0 (row 0) of " + trace + " has"},
		{[]string{"--cluster", filepath.Join(dir, "nomap.txt")}, "nomap.txt: no node has a map slot"},
		{[]string{"--cluster", filepath.Join(dir, "slow.txt")}, `slow.txt:2: speed="1e-300": want a number from 0.001 to 1000`},
		{[]string{"--cluster", bad}, bad + `:2: memory="15XB": want a size in MiB, or with a MiB/GiB/TiB suffix`},
		{[]string{"--cluster", filepath.Join(dir, "none.txt")}, "none.txt"},
		{[]string{"--cluster", "../../replay/clusterfile/testdata/hetero.txt", "--nodes", "5"}, "--nodes: the cluster file --cluster"},
		{[]string{"--node-vcores", "4"}, "--node-vcores: a parameter of the container model; add --model yarn"},
		{[]string{"--model", "mesos"}, `--model "mesos"; want slots (Hadoop 1.x typed slots) or yarn (containers)`},
		{[]string{"--model", "yarn", "--node-memory-mb", "1024"}, `can never run: its ApplicationMaster asks for memory-mb 2048, vcores 1, more than any node offers`},
		{[]string{"--model", "yarn", "--mtbf", "1000"}, "node failures (MTBF) are not modelled in the container model"},
	} {
		wantOneLine(t, append([]string{"replay", "--trace", trace, "--out", out}, c.args...), c.want)
		if _, err := os.Stat(out); err == nil {
			t.Fatalf("%v: a failed run left %s", c.args, out)
		}
	}
	// versus, before any replay: on a trace, naming the flag as replay
	// does; on a generated workload, naming the cell.
	versus := []string{"versus", "--baseline", "fifo", "--candidate", "fair", "--seeds", "1-2", "--out", out}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--trace", trace, "--cluster", filepath.Join(dir, "nored.txt")}, "--cluster " + filepath.Join(dir, "nored.txt") + ": no node has a reduce slot; job 0 (row 0) of " + trace + " has"},
		{[]string{"--trace", trace, "--cluster", filepath.Join(dir, "nomap.txt")}, "nomap.txt: no node has a map slot"},
		{[]string{"--workload", "fb2009", "--cluster", filepath.Join(dir, "nored.txt")}, "cell 0 (fb2009 fifo seed=1): cluster " + filepath.Join(dir, "nored.txt") + ": no node has a reduce slot; job "},
		{[]string{"--workload", "fb2010", "--cluster", filepath.Join(dir, "nomap.txt")}, "cell 0 (fb2010 fifo seed=1): cluster " + filepath.Join(dir, "nomap.txt") + ": no node has a map slot"},
	} {
		wantOneLine(t, append(versus, c.args...), c.want)
		if _, err := os.Stat(out); err == nil {
			t.Fatalf("versus %v: a refused run left %s", c.args, out)
		}
	}
}
