package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"sojourn/traces"
)

// TestOutIsNotAnInput: --out naming an input, directly or through a
// link, is refused before anything is read or written, and the input is
// left as it was.
func TestOutIsNotAnInput(t *testing.T) {
	dir := t.TempDir()
	trace := smallTrace(t, dir)
	swf := filepath.Join(dir, "log.swf")
	data := "1 0 5 100 4 -1 -1 4 200 1024 1 3 7 -1 -1 -1 -1 -1\n"
	if err := os.WriteFile(swf, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.swf")
	if err := os.Symlink(swf, link); err != nil {
		t.Fatal(err)
	}
	tlink := filepath.Join(dir, "t-link.arrow")
	if err := os.Link(trace, tlink); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(trace)
	wantOneLine(t, []string{"import", "swf", swf, "--out", swf}, "--out: "+swf+" is the FILE input")
	wantOneLine(t, []string{"import", "swf", swf, "--out", link}, "--out: "+link+" is the FILE input")
	wantOneLine(t, []string{"export", "csv", trace, "--out", trace}, "--out: "+trace+" is the TRACE input")
	wantOneLine(t, []string{"export", "sls", trace, "--out", tlink}, "is the TRACE input")
	if after, _ := os.ReadFile(swf); string(after) != data {
		t.Errorf("%s changed", swf)
	}
	if after, _ := os.ReadFile(trace); !bytes.Equal(after, before) {
		t.Errorf("%s changed", trace)
	}
}

// TestImportFlagRules: a flag the chosen format does not use, and an
// explicit 0 that would silently become a default, are refused naming
// the flag.
func TestImportFlagRules(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "o.arrow")
	swf := filepath.Join(dir, "log.swf")
	csv := filepath.Join(dir, "jobs.csv")
	tsv := filepath.Join(dir, "w-2009.tsv")
	late := filepath.Join(dir, "late-2009.tsv")
	for p, d := range map[string]string{
		swf:  "1 0 5 100 4 -1 -1 4 200 1024 1 3 7 -1 -1 -1 -1 -1\n",
		csv:  "submit_s,maps,reduces,map_durations_s,reduce_durations_s\n0,1,0,5,\n",
		tsv:  "j\t0\t0\t1\t1\t1\n",
		late: "j\t0\t0\t1\t1\t1\nk\t5e9\t0\t1\t1\t1\n",
	} {
		if err := os.WriteFile(p, []byte(d), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"swf", swf, "--seed", "3"}, "--seed: applies only to csv"},
		{[]string{"sls", swf, "--seed", "3"}, "--seed: applies only to csv"},
		{[]string{"csv", csv, "--seed", "3"}, "--seed: " + csv + " has no map_mean_s column"},
		{[]string{"swf", swf, "--map-memory", "0"}, "--map-memory: 0; want a byte count > 0"},
		{[]string{"csv", csv, "--reduce-memory", "0"}, "--reduce-memory: 0; want a byte count > 0"},
		{[]string{"swim", tsv, "--nodes", "0"}, "--nodes: 0; want 1 or more"},
		{[]string{"swim", tsv, "--map-memory", "1GiB"}, "--map-memory: applies to csv, swf, sls and alibaba2018, not swim"},
		{[]string{"swim", late}, late + ":2: column 2 (submit_s): 5e+09 s is too large; want a submit time <= 1e+09 s"},
	} {
		wantOneLine(t, append(append([]string{"import"}, c.args...), "--out", out), c.want)
		if _, err := os.Stat(out); err == nil {
			t.Fatalf("import %v: %s was written", c.args, out)
		}
	}
}

// TestExportRefusesWhatItCannotCarry: a trace value no importer reads
// back is one line naming the trace and the row, and nothing is written.
func TestExportRefusesWhatItCannotCarry(t *testing.T) {
	dir := t.TempDir()
	tr, err := traces.Read(smallTrace(t, dir))
	if err != nil {
		t.Fatal(err)
	}
	tr.Jobs[3].ID = 1 << 62
	in := filepath.Join(dir, "big-id.arrow")
	if err := traces.Write(in, tr); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "o.swf")
	wantOneLine(t, []string{"export", "swf", in, "--out", out}, in+": row 3 (job 4611686018427387904): job id 4611686018427387904; SWF's importer reads job numbers up to 1e+15")
	if _, err := os.Stat(out); err == nil {
		t.Fatalf("%s was written", out)
	}
}

// TestBootstrapLimits: resamples and seeds are bounded, and 0 is not a
// default.
func TestBootstrapLimits(t *testing.T) {
	vs := []string{"versus", "--baseline", "fifo", "--candidate", "fair", "--workload", "fb2009"}
	wantOneLine(t, append(vs, "--seeds", "1-100000"), `--seeds "1-100000": 100000 seeds; want at most 1000`)
	wantOneLine(t, append(vs, "--seeds", "1"+strings.Repeat(",1", 1000)), "--seeds: 1001 seeds; want at most 1000")
	wantOneLine(t, append(vs, "--seeds", "1", "--resamples", "1000000000"), "--resamples 1000000000: want 1 to 2000000")
	wantOneLine(t, []string{"compare", "--resamples", "0", "x", "y"}, "--resamples 0: want 1 to 2000000")
}

// TestVersusSIGTERMDuringBootstrap: SIGTERM while bench versus
// bootstraps ends it within seconds, exit status 1 and one line, and the
// temporary sweep is removed.
func TestVersusSIGTERMDuringBootstrap(t *testing.T) {
	if testing.Short() {
		t.Skip("runs replays")
	}
	dir := t.TempDir()
	trace := filepath.Join(dir, "small.arrow")
	if _, _, err := bench(t, "generate", "--profile", "fb2009", "--seed", "2", "--jobs", "20", "--nodes", "10", "-o", trace); err != nil {
		t.Fatal(err)
	}
	tmp := filepath.Join(dir, "tmp")
	if err := os.Mkdir(tmp, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "versus", "--baseline", "fifo", "--candidate", "hfsp", "--trace", trace, "--nodes", "10",
		"--seeds", "1-2", "--resamples", "2000000")
	cmd.Env = append(os.Environ(), "BENCH_TEST_MAIN=1", "TMPDIR="+tmp)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// The replays of 20 jobs take well under 5 s; 2,000,000 resamples of
	// every row take minutes.
	time.Sleep(5 * time.Second)
	sent := time.Now()
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	if d := time.Since(sent); d > 5*time.Second {
		t.Errorf("ended %v after SIGTERM", d)
	}
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 || !strings.Contains(stderr.String(), "interrupted") {
		t.Errorf("exit %v, stderr %q; want exit 1 and interrupted", err, stderr.String())
	}
	if ents, _ := os.ReadDir(tmp); len(ents) > 0 {
		t.Errorf("left %s in TMPDIR", ents[0].Name())
	}
}
