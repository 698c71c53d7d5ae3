package main

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"sojourn/traces"
)

const testSWF = `; Version: 2.2
; MaxProcs: 128
; MaxNodes: 64
1 0 5 100 4 -1 -1 4 200 1024 1 3 -1 -1 -1 -1 -1 -1
2 10 5 50 2 -1 2048 2 -1 -1 0 -1 -1 -1 -1 -1 -1 -1
`

func write(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestImportExportSWF: bench import swf reports the header on stderr and
// keeps it in the trace; every export format imports back.
func TestImportExportSWF(t *testing.T) {
	dir := t.TempDir()
	in := write(t, dir, "log.swf", testSWF)
	out := filepath.Join(dir, "t.arrow")
	stdout, stderr, err := bench(t, "import", "swf", in, "--out", out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout, "2 jobs, 6 maps, 0 reduces") || !strings.Contains(stderr, "MaxProcs 128, MaxNodes 64") {
		t.Errorf("stdout %q, stderr %q", stdout, stderr)
	}
	tr, err := traces.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Params["swf.max_procs"] != "128" || tr.Params["import.source"] != in || tr.Jobs[0].SourceLine != 4 || tr.Jobs[0].Estimate != 800 {
		t.Errorf("params %v, job 0 %+v", tr.Params, tr.Jobs[0])
	}
	for _, f := range []string{"csv", "swf", "sls"} {
		exp := filepath.Join(dir, "e."+f)
		if _, _, err := bench(t, "export", f, out, "-o", exp); err != nil {
			t.Fatalf("export %s: %v", f, err)
		}
		back := filepath.Join(dir, "back-"+f+".arrow")
		if _, _, err := bench(t, "import", f, exp, "--out", back); err != nil {
			t.Fatalf("import of the %s export: %v", f, err)
		}
		bt, err := traces.Read(back)
		if err != nil {
			t.Fatal(err)
		}
		for i := range tr.Jobs {
			a, b := tr.Jobs[i], bt.Jobs[i]
			if a.Submit != b.Submit || a.Pool != b.Pool || len(a.MapDurations) != len(b.MapDurations) || a.MapDurations[0] != b.MapDurations[0] {
				t.Errorf("%s round trip, job %d: %+v, want %+v", f, i, b, a)
			}
		}
	}
	if _, _, err := bench(t, "import", "swf", in, "--out", out, "--swf.status", "drop"); err != nil {
		t.Fatal(err)
	}
	if tr, _ := traces.Read(out); len(tr.Jobs) != 1 {
		t.Errorf("--swf.status drop kept %d jobs, want 1", len(tr.Jobs))
	}
}

// TestImportBadInput: for every format, a bad file, an empty file and a
// directory give one line naming the file (and the line and field), and
// leave nothing under --out.
func TestImportBadInput(t *testing.T) {
	dir := t.TempDir()
	bad := map[string]string{
		"csv":         "submit_s,maps,reduces,map_durations_s,reduce_durations_s\n0,1,0,5,\n1,1,0,x,\n",
		"swf":         "1 0 5 100 4 -1 -1 4 200 1024 1 3 -1 -1 -1 -1 -1 -1\n2 0 5 -7 4 -1 -1 4 200 1024 1 3 -1 -1 -1 -1 -1 -1\n",
		"sls":         "{\"job.start.ms\": 0, \"job.tasks\": [{\"duration.ms\": 1}]}\n{\"job.start.ms\": \"x\", \"job.tasks\": []}\n",
		"alibaba2018": "M1,1,j_1,1,Terminated,1,2,100,1\nM1,1,j_2,1,Terminated,1,x,100,1\n",
		"swim":        "job0\t0\t0\t100\t0\t10\njob1\t5\t5\t-100\t0\t10\n",
	}
	want := map[string]string{
		"csv": ":3: field map_durations_s", "swf": ":2: field 4 (run_time)", "sls": ":2: field job.start.ms",
		"alibaba2018": ":2: field 7 (end_time)", "swim": ":2: column 4",
	}
	for _, f := range importFormats {
		out := filepath.Join(dir, f, "t.arrow")
		in := write(t, dir, "bad."+f, bad[f])
		args := []string{"import", f, in, "--out", out}
		if f == "swim" {
			args = append(args, "--original-nodes", "100")
		}
		_, _, err := bench(t, args...)
		if err == nil || !strings.Contains(err.Error(), in+want[f]) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error %v, want one line with %q", f, err, in+want[f])
		}
		empty := write(t, dir, "nothing."+f, "")
		args[2] = empty
		_, _, err = bench(t, args...)
		if err == nil || !strings.Contains(err.Error(), "empty") && !strings.Contains(err.Error(), "no job to import") && !strings.Contains(err.Error(), "no jobs") {
			t.Errorf("%s: empty file: %v", f, err)
		}
		_, _, err = bench(t, "import", f, dir, "--out", out)
		if err == nil || !strings.Contains(err.Error(), "a directory") {
			t.Errorf("%s: a directory: %v", f, err)
		}
		if entries, _ := os.ReadDir(filepath.Join(dir, f)); len(entries) > 0 {
			t.Errorf("%s: left %v under the output's folder", f, entries[0].Name())
		}
	}
	if _, _, err := bench(t, "import", "xml", write(t, dir, "x.xml", "<a/>"), "--out", filepath.Join(dir, "x.arrow")); err == nil || !strings.Contains(err.Error(), "unknown format") {
		t.Errorf("unknown format: %v", err)
	}
	if _, _, err := bench(t, "import", "csv", write(t, dir, "x.csv", "a"), "--out", filepath.Join(dir, "x.arrow"), "--swf.status", "drop"); err == nil || !strings.Contains(err.Error(), "--swf.status: applies only to swf") {
		t.Errorf("--swf.status with csv: %v", err)
	}
}

// TestImportCSVTasks: a job table with a task table.
func TestImportCSVTasks(t *testing.T) {
	dir := t.TempDir()
	jobs := write(t, dir, "jobs.csv", "job_id,submit_s,pool\n1,0,a\n2,5,b\n")
	tasks := write(t, dir, "tasks.csv", "job_id,kind,duration_s\n1,map,3\n1,reduce,9\n2,map,1.5\n")
	out := filepath.Join(dir, "t.arrow")
	if _, _, err := bench(t, "import", "csv", jobs, "--tasks", tasks, "--out", out); err != nil {
		t.Fatal(err)
	}
	tr, err := traces.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Jobs) != 2 || tr.Jobs[0].Reduces() != 1 || tr.Jobs[1].MapDurations[0] != 1.5 || tr.Params["import.tasks"] != tasks {
		t.Errorf("trace %+v", tr)
	}
}

// TestImportSWIM: bench import swim takes a SWIM file whole, like bench
// generate --swim --whole; on the public sample when it is there.
func TestImportSWIM(t *testing.T) {
	dir := t.TempDir()
	in := write(t, dir, "w.tsv", "job0\t0\t0\t268435456\t0\t10\n\njob1\t5\t5\t134217728\t134217728\t10\n")
	out := filepath.Join(dir, "t.arrow")
	if _, _, err := bench(t, "import", "swim", in, "--original-nodes", "100", "--out", out); err != nil {
		t.Fatal(err)
	}
	tr, err := traces.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Jobs) != 2 || tr.Params["import.format"] != "swim" || tr.Params["import.source"] != in {
		t.Fatalf("trace %+v", tr)
	}
	for i, want := range []struct {
		line                int64
		submit              float64
		maps, reduces       int
		input, shuffle, out int64
	}{{1, 0, 2, 0, 256 << 20, 0, 10}, {3, 5, 1, 1, 128 << 20, 128 << 20, 10}} {
		j := tr.Jobs[i]
		if j.SourceLine != want.line || j.Name != fmt.Sprint("job", i) || j.Submit != want.submit || j.Maps() != want.maps || j.Reduces() != want.reduces ||
			j.MapInputBytes != want.input || j.ShuffleBytes != want.shuffle || j.OutputBytes != want.out || j.HasEstimate {
			t.Errorf("job %d: %+v, want %+v", i, j, want)
		}
	}
	gen := filepath.Join(dir, "g.arrow")
	if _, _, err := bench(t, "generate", "--swim", in, "--whole", "--original-nodes", "100", "--out", gen); err != nil {
		t.Fatal(err)
	}
	g, _ := traces.Read(gen)
	for i := range g.Jobs {
		if g.Jobs[i].Submit != tr.Jobs[i].Submit || g.Jobs[i].Maps() != tr.Jobs[i].Maps() || g.Jobs[i].MapDurations[0] != tr.Jobs[i].MapDurations[0] {
			t.Errorf("job %d differs from bench generate --swim --whole", i)
		}
	}
	sample := "../../../shared/data/swim/FB-2009_samples_24_times_1hr_0.tsv"
	if _, err := os.Stat(sample); err != nil {
		t.Skipf("the SWIM sample %s is absent (%v); the import of a real SWIM file is not checked", sample, err)
	}
	if _, _, err := bench(t, "import", "swim", sample, "--out", out); err != nil {
		t.Fatal(err)
	}
}

// TestExportCSVRoundTripGenerated: a generated trace (fb2009: reduces,
// skewed durations, shuffle bytes, classes) exported as CSV and imported
// again has every field of every job but source_line, exactly.
func TestExportCSVRoundTripGenerated(t *testing.T) {
	dir := t.TempDir()
	gen, csv, back := filepath.Join(dir, "g.arrow"), filepath.Join(dir, "g.csv"), filepath.Join(dir, "b.arrow")
	if _, _, err := bench(t, "generate", "--profile", "fb2009", "--out", gen); err != nil {
		t.Fatal(err)
	}
	if _, _, err := bench(t, "export", "csv", gen, "--out", csv); err != nil {
		t.Fatal(err)
	}
	if _, _, err := bench(t, "import", "csv", csv, "--out", back); err != nil {
		t.Fatal(err)
	}
	a, err := traces.Read(gen)
	if err != nil {
		t.Fatal(err)
	}
	b, err := traces.Read(back)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Jobs) != len(b.Jobs) {
		t.Fatalf("%d jobs back, want %d", len(b.Jobs), len(a.Jobs))
	}
	for i := range a.Jobs {
		if b.Jobs[i].SourceLine != int64(i+2) {
			t.Errorf("job %d from line %d, want %d", i, b.Jobs[i].SourceLine, i+2)
		}
		b.Jobs[i].SourceLine = 0
		if !reflect.DeepEqual(a.Jobs[i], b.Jobs[i]) {
			t.Fatalf("job %d:\n got %+v\nwant %+v", i, b.Jobs[i], a.Jobs[i])
		}
	}
	for _, f := range []string{"swf", "sls"} {
		if _, _, err := bench(t, "export", f, gen, "--out", filepath.Join(dir, "g."+f)); err != nil {
			t.Fatalf("export %s: %v", f, err)
		}
		if _, _, err := bench(t, "import", f, filepath.Join(dir, "g."+f), "--out", filepath.Join(dir, f+".arrow")); err != nil {
			t.Fatalf("import of the %s export: %v", f, err)
		}
	}
}

// TestInspectEstimates: bench inspect counts the jobs with a user
// estimate, and says nothing of estimates for a trace without any.
func TestInspectEstimates(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "t.arrow")
	if _, _, err := bench(t, "import", "swf", write(t, dir, "l.swf", testSWF), "--out", out); err != nil {
		t.Fatal(err)
	}
	s, _, err := bench(t, "inspect", out)
	if err != nil || !strings.Contains(s, "estimates 1 jobs with a user estimate: 0.2 task-hours estimated for 0.1 task-hours of work") {
		t.Errorf("inspect: %v\n%s", err, s)
	}
}

// TestExportBadInput: an unknown format or a file that is not a trace is
// one line of error, and nothing is written under --out.
func TestExportBadInput(t *testing.T) {
	dir := t.TempDir()
	notTrace := write(t, dir, "x.arrow", "not arrow")
	out := filepath.Join(dir, "out", "e.csv")
	if _, _, err := bench(t, "export", "csv", notTrace, "--out", out); err == nil || !strings.Contains(err.Error(), notTrace) {
		t.Errorf("export of a non-trace: %v", err)
	}
	if _, _, err := bench(t, "export", "xml", notTrace, "--out", out); err == nil || !strings.Contains(err.Error(), `unknown format "xml"`) {
		t.Errorf("export to xml: %v", err)
	}
	if _, err := os.Stat(filepath.Dir(out)); err == nil {
		if entries, _ := os.ReadDir(filepath.Dir(out)); len(entries) > 0 {
			t.Errorf("left %s", entries[0].Name())
		}
	}
}
