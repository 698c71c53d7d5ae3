package main

import (
	"encoding/json"
	"os"
	osexec "os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/ipc"

	"sojourn/results"
)

// needPython skips a test that runs the Python client's examples where
// python3 is missing, and runs it with PYTHONPATH unset: the examples
// find the client themselves.
func needPython(t *testing.T) {
	t.Helper()
	if _, err := osexec.LookPath("python3"); err != nil {
		t.Skip("python3 is not installed: the Python client's examples are not run")
	}
	t.Setenv("PYTHONPATH", "")
	os.Unsetenv("PYTHONPATH")
}

// examples is clients/python/examples from this package's directory.
var examples = filepath.Join("..", "..", "clients", "python", "examples")

// tinyTrace generates a trace of 10 jobs for a cluster of 5 nodes.
func tinyTrace(t *testing.T) string {
	t.Helper()
	trace := filepath.Join(t.TempDir(), "tiny.arrow")
	if _, _, err := bench(t, "generate", "--profile", "fb2009", "--seed", "1", "--jobs", "10", "--nodes", "5", "-o", trace); err != nil {
		t.Fatal(err)
	}
	return trace
}

// arrowPolicy is the scheduler metadata of an Arrow result file and the
// policy column's first value, if it has one.
func arrowPolicy(t *testing.T, path string) (meta, column string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := ipc.NewFileReader(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	defer r.Close()
	md := r.Schema().Metadata()
	if i := md.FindKey("scheduler"); i >= 0 {
		meta = md.Values()[i]
	}
	idx := r.Schema().FieldIndices("policy")
	if len(idx) == 0 || r.NumRecords() == 0 {
		return meta, ""
	}
	rec, err := r.Record(0)
	if err != nil {
		t.Fatal(err)
	}
	col := rec.Column(idx[0]).(*array.Dictionary)
	return meta, col.Dictionary().(*array.String).Value(col.GetValueIndex(0))
}

// TestReplayExternalPolicies: bench replay runs two external policies
// beside a built-in, from the repository's root as docs/policies.md says,
// with PYTHONPATH unset: one named by the name it declares (sjf.py
// declares sjf, a built-in's, so exec-sjf), one named on the command
// line; the summary's columns, the result directories, the files'
// metadata and policy column and run.json carry the names; sjf.py's
// results are sjf's.
func TestReplayExternalPolicies(t *testing.T) {
	needPython(t)
	trace, _ := filepath.Abs(tinyTrace(t))
	out := filepath.Join(t.TempDir(), "r")
	t.Chdir(filepath.Join("..", ".."))
	stdout, _, err := bench(t, "replay", "--trace", trace, "--nodes", "5", "--scheduler", "sjf",
		"--exec", "python3 clients/python/examples/sjf.py", "--exec", "fifo-py=python3 clients/python/examples/fifo.py", "--out", out)
	if err != nil {
		t.Fatal(err)
	}
	first, _, _ := strings.Cut(stdout, "\n")
	if got := strings.Fields(first); !reflect.DeepEqual(got, []string{"scheduler", "sjf", "exec-sjf", "fifo-py"}) {
		t.Errorf("columns %q, want sjf, exec-sjf, fifo-py", first)
	}
	for _, name := range []string{"sjf", "exec-sjf", "fifo-py"} {
		dir := filepath.Join(out, name)
		for _, f := range []string{results.JobsFile, results.TasksFile, results.OccupancyFile} {
			meta, col := arrowPolicy(t, filepath.Join(dir, f))
			if meta != name || (f == results.JobsFile && col != name) {
				t.Errorf("%s/%s: scheduler %q, policy column %q; want %s", name, f, meta, col, name)
			}
		}
		var m runManifest
		data, err := os.ReadFile(filepath.Join(dir, RunManifest))
		if err != nil || json.Unmarshal(data, &m) != nil || m.Policy != name {
			t.Errorf("%s/%s: policy %q (%v), want %s", name, RunManifest, m.Policy, err, name)
		}
	}
	builtin, err := results.ReadJobs(filepath.Join(out, "sjf", results.JobsFile))
	if err != nil {
		t.Fatal(err)
	}
	py, err := results.ReadJobs(filepath.Join(out, "exec-sjf", results.JobsFile))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(builtin.Sojourn, py.Sojourn) {
		t.Errorf("sjf.py's sojourns differ from sjf's")
	}
}

// TestReplayExternalFromAnyDirectory: an example runs as it is from any
// directory, PYTHONPATH unset, and --exec alone selects it.
func TestReplayExternalFromAnyDirectory(t *testing.T) {
	needPython(t)
	trace, _ := filepath.Abs(tinyTrace(t))
	sjf, _ := filepath.Abs(filepath.Join(examples, "sjf.py"))
	t.Chdir(t.TempDir())
	stdout, _, err := bench(t, "replay", "--trace", trace, "--nodes", "5", "--exec", "python3 "+sjf, "--exec.args", "size=tasks")
	if err != nil {
		t.Fatal(err)
	}
	if first, _, _ := strings.Cut(stdout, "\n"); strings.Join(strings.Fields(first), " ") != "scheduler exec-sjf" {
		t.Errorf("columns %q, want exec-sjf alone", first)
	}
}

// TestReplayExternalNames: names that would mix results are refused, in
// one line that says how to name the policies apart.
func TestReplayExternalNames(t *testing.T) {
	needPython(t)
	trace := tinyTrace(t)
	sjf := "python3 " + filepath.Join(examples, "sjf.py")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--exec", sjf, "--exec", sjf}, ") are both named exec-sjf; name external policies apart with --exec NAME=COMMAND"},
		{[]string{"--exec", "a=" + sjf, "--exec", "a=" + sjf}, "--exec: two policies named a"},
		{[]string{"--exec", "fair=" + sjf}, `the name: "fair" is a built-in policy's name; choose another`},
		{[]string{"--exec", "a.b.=" + sjf, "--exec", "-x=" + sjf}, `the name: "-x" is not a name`},
		{[]string{"--exec", "a=" + sjf, "--exec.command", sjf}, "--exec.command: give the command once"},
	} {
		_, _, err := bench(t, append([]string{"replay", "--trace", trace, "--nodes", "5"}, c.args...)...)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: error %v, want one line with %q", c.args, err, c.want)
		}
	}
}

// TestVersusExternalPolicies: bench versus compares two external policies,
// each named on the command line, and an external policy named by the
// name it declares against a built-in, with --exec as bench replay takes
// it; the report names them.
func TestVersusExternalPolicies(t *testing.T) {
	needPython(t)
	trace := tinyTrace(t)
	fifo, sjf := "python3 "+filepath.Join(examples, "fifo.py"), "python3 "+filepath.Join(examples, "sjf.py")
	common := []string{"--trace", trace, "--nodes", "5", "--seeds", "1-2", "--resamples", "100"}
	text, _, err := bench(t, append([]string{"versus", "--baseline", "fifo-py", "--candidate", "sjf-py",
		"--exec", "fifo-py=" + fifo, "--exec", "sjf-py=" + sjf}, common...)...)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text, "SJF-PY (candidate) against FIFO-PY (baseline)") || !strings.Contains(text, "tiny, one trace of 10 jobs, 2 seeds (20 job results per policy)") {
		t.Errorf("two external policies:\n%s", text)
	}
	text, _, err = bench(t, append([]string{"versus", "--baseline", "fifo-minimal", "--candidate", "exec", "--exec", fifo}, common...)...)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text, "EXEC-FIFO-MINIMAL (candidate) against FIFO-MINIMAL (baseline)") {
		t.Errorf("an external policy against the built-in it mirrors:\n%s", text)
	}
	for _, line := range strings.Split(text, "\n") {
		if strings.Contains(line, " all ") && !strings.Contains(line, "+0%") {
			t.Errorf("fifo.py and fifo-minimal differ: %s", line)
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--baseline", "fifo", "--candidate", "exec", "--exec", fifo, "--exec", sjf}, "--candidate exec: 2 --exec policies (exec, exec); name them"},
		{[]string{"--baseline", "fifo", "--candidate", "a", "--exec", "a=" + fifo, "--exec", "b=" + sjf}, "--exec b: neither --baseline nor --candidate"},
		{[]string{"--baseline", "fifo", "--candidate", "mine"}, `--candidate: unknown scheduler "mine"`},
	} {
		if _, _, err := bench(t, append(append([]string{"versus"}, c.args...), common...)...); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.args, err, c.want)
		}
	}
}

// TestSweepExternalPolicies: a sweep file holds two external policies,
// each named in its exec, one with a swept option; the cells' records and
// the summary's groups carry the names, and bench versus --sweep compares
// them. An external policy without a name in exec may not declare the
// name of another policy of the sweep.
func TestSweepExternalPolicies(t *testing.T) {
	needPython(t)
	dir := t.TempDir()
	trace := tinyTrace(t)
	fifo, _ := filepath.Abs(filepath.Join(examples, "fifo.py"))
	sjf, _ := filepath.Abs(filepath.Join(examples, "sjf.py"))
	spec, _ := json.Marshal(map[string]any{
		"name": "externals", "workloads": []map[string]string{{"name": "tiny", "trace": trace}},
		"policies":   []string{"fifo-py", "sjf-py"},
		"exec":       map[string]string{"fifo-py": "python3 " + fifo, "sjf-py": "python3 " + sjf},
		"parameters": map[string][]string{"sjf-py.args": {"size=work", "size=tasks"}},
		"fixed":      map[string]int{"nodes": 5},
	})
	file := filepath.Join(dir, "sweep.json")
	if err := os.WriteFile(file, spec, 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	if _, _, err := bench(t, "sweep", "--out", out, file); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(out, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var sum struct {
		Groups []struct {
			Policy string
			Params map[string]string `json:"parameters"`
		}
	}
	if err := json.Unmarshal(data, &sum); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, g := range sum.Groups {
		got = append(got, g.Policy+" "+g.Params["sjf-py.args"])
	}
	if want := []string{"fifo-py ", "sjf-py size=work", "sjf-py size=tasks"}; !reflect.DeepEqual(got, want) {
		t.Errorf("groups %q, want %q", got, want)
	}
	meta, _ := arrowPolicy(t, filepath.Join(out, "cells", "000001", results.JobsFile))
	if meta != "sjf-py" {
		t.Errorf("cell 1: scheduler %q, want sjf-py", meta)
	}
	text, _, err := bench(t, "versus", "--sweep", out, "--baseline", "fifo-py", "--candidate", "sjf-py", "--resamples", "100")
	if err != nil || !strings.Contains(text, "SJF-PY (candidate) against FIFO-PY (baseline)") {
		t.Errorf("versus --sweep (%v):\n%s", err, text)
	}
	// exec, with no name of its own, declares one another policy has.
	spec, _ = json.Marshal(map[string]any{
		"name": "clash", "workloads": []map[string]string{{"name": "tiny", "trace": trace}},
		"policies": []string{"exec-sjf", "exec"},
		"exec":     map[string]string{"exec-sjf": "python3 " + fifo},
		"fixed":    map[string]any{"nodes": 5, "exec.command": "python3 " + sjf},
	})
	if err := os.WriteFile(file, spec, 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err = bench(t, "sweep", "--out", filepath.Join(dir, "clash"), file)
	if want := "the external policy declares the name exec-sjf, another policy's of the sweep; name it in exec"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("a declared name another policy has: error %v, want %q", err, want)
	}
}
