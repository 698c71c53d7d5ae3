package main

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const cliSweep = `{
  "name": "cli",
  "workloads": [{"name": "w", "profile": "fb2009", "jobs": 5, "nodes": 10}],
  "policies": ["fifo", "hfsp"],
  "parameters": {"nodes": [4, 8]},
  "seeds": {"from": 1, "to": 3}
}`

// files reads every file under dir by relative path.
func files(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		out[rel], err = os.ReadFile(p)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestSweepShardsFromEnvironment: the same sweep unsharded, as a
// Kubernetes Indexed Job (--shards 3 and JOB_COMPLETION_INDEX) and as a
// Slurm array numbered from 1 (SLURM_ARRAY_TASK_*), merged: the same bytes.
func TestSweepShardsFromEnvironment(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "s.json")
	os.WriteFile(file, []byte(cliSweep), 0o644)

	out, _, err := bench(t, "sweep", "--list", "--shard", "1/3", file)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "*      1  w fifo nodes=4 seed=2\n") || !strings.Contains(out, "       2  w fifo nodes=4 seed=3\n") ||
		!strings.Contains(out, "12 cells; * marks shard 1/3's") {
		t.Errorf("--list:\n%s", out)
	}

	whole := filepath.Join(dir, "whole")
	out, _, err = bench(t, "sweep", "--out", whole, file)
	if err != nil || !strings.Contains(out, "sweep cli: 12 cells; shard 0/1: 12 cells, 12 run, 0 already done") ||
		!strings.Contains(out, "summary: "+whole+"/summary.json") {
		t.Fatalf("sweep: %v\n%s", err, out)
	}
	want := files(t, whole)

	var k8s []string
	for i := 0; i < 3; i++ {
		t.Setenv("JOB_COMPLETION_INDEX", string(rune('0'+i)))
		d := filepath.Join(dir, "k8s", string(rune('a'+i)))
		out, _, err := bench(t, "sweep", "--shards", "3", "--out", d, file)
		if err != nil || !strings.Contains(out, "4 cells, 4 run") || !strings.Contains(out, "bench merge") {
			t.Fatalf("shard %d: %v\n%s", i, err, out)
		}
		k8s = append(k8s, d)
	}
	os.Unsetenv("JOB_COMPLETION_INDEX")
	merged := filepath.Join(dir, "merged-k8s")
	if out, _, err := bench(t, "merge", "--out", merged, k8s[2], k8s[1], k8s[0]); err != nil || !strings.Contains(out, "merged 12 cells (12 copied)") {
		t.Fatalf("merge: %v\n%s", err, out)
	}
	compareFiles(t, "kubernetes shards", want, files(t, merged))

	// A Slurm array --array=1-2 sharing one directory: the last task
	// writes the summary, no merge needed.
	shared := filepath.Join(dir, "slurm")
	t.Setenv("SLURM_ARRAY_TASK_MIN", "1")
	t.Setenv("SLURM_ARRAY_TASK_COUNT", "2")
	for _, id := range []string{"2", "1"} {
		t.Setenv("SLURM_ARRAY_TASK_ID", id)
		if _, _, err := bench(t, "sweep", "--out", shared, file); err != nil {
			t.Fatal(err)
		}
	}
	compareFiles(t, "slurm shards in one directory", want, files(t, shared))

	t.Setenv("SLURM_ARRAY_TASK_ID", "7")
	if _, _, err := bench(t, "sweep", "--out", shared, file); err == nil || !strings.Contains(err.Error(), "SLURM_ARRAY_TASK_ID gives shard 6; want 0 to 1") {
		t.Errorf("task id out of range: %v", err)
	}
}

func compareFiles(t *testing.T, what string, want, got map[string][]byte) {
	t.Helper()
	if len(want) != len(got) {
		t.Errorf("%s: %d files, want %d", what, len(got), len(want))
	}
	for k, v := range want {
		if !bytes.Equal(v, got[k]) {
			t.Errorf("%s: %s differs", what, k)
		}
	}
}

func TestSweepErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"name": "x", "workloads": [{"name": "w", "profile": "fb2009"}], "policies": ["fifo"], "parameters": {"nodes": ["many"]}}`), 0o644)
	good := filepath.Join(dir, "good.json")
	os.WriteFile(good, []byte(cliSweep), 0o644)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"sweep", "--out", dir}, "sweep: give one sweep file (got 0 arguments)"},
		{[]string{"sweep", "--out", dir, bad}, bad + `: parameters.nodes[0]: "many" is not an integer`},
		{[]string{"sweep", "--out", dir, "--shard", "3/3", good}, `--shard "3/3": want i/n with 0 <= i < n`},
		{[]string{"sweep", "--out", dir, "--format", "tsv", good}, `--format "tsv": want arrow, parquet or csv`},
		{[]string{"sweep", "--out", dir, "--parallel", "0", good}, "--parallel 0: want at least 1"},
		{[]string{"merge", "--out", dir}, "merge: give the shards' output directories"},
		{[]string{"merge", "--out", filepath.Join(dir, "m"), dir}, "sweep.json: no such file"},
	} {
		_, _, err := bench(t, c.args...)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%v: %v, want one line with %q", c.args, err, c.want)
		}
	}
}

// TestParquetOutputs: --format parquet on replay and experiment writes
// Parquet result tables and no Arrow ones (traces stay Arrow).
func TestParquetOutputs(t *testing.T) {
	dir := t.TempDir()
	trace := filepath.Join(dir, "t.arrow")
	if _, _, err := bench(t, "generate", "--profile", "fb2009", "--jobs", "10", "--out", trace); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "replay")
	if _, _, err := bench(t, "replay", "--trace", trace, "--scheduler", "fair", "--format", "parquet", "--out", out); err != nil {
		t.Fatal(err)
	}
	got := files(t, out)
	for _, f := range []string{"jobs.parquet", "tasks.parquet", "occupancy.parquet"} {
		if _, ok := got[f]; !ok {
			t.Errorf("replay --format parquet wrote no %s (%d files)", f, len(got))
		}
	}
	if _, ok := got[RunManifest]; !ok || len(got) != 4 {
		t.Errorf("replay --format parquet wrote %d files; want the 3 tables and %s", len(got), RunManifest)
	}
	res := filepath.Join(dir, "results")
	if _, _, err := bench(t, "experiment", "--no-report", "--format", "parquet", "--results", res, "fig8"); err != nil {
		t.Fatal(err)
	}
	var arrow, parquet int
	for f := range files(t, filepath.Join(res, "fig8")) {
		switch base := filepath.Base(f); {
		case base == "jobs.arrow" || base == "tasks.arrow" || base == "occupancy.arrow":
			arrow++
		case strings.HasSuffix(base, ".parquet"):
			parquet++
		}
	}
	if arrow != 0 || parquet == 0 {
		t.Errorf("experiment --format parquet: %d Arrow and %d Parquet result files", arrow, parquet)
	}
}
