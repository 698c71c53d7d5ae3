package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sojourn/results"
	"sojourn/run/experiments"
	"sojourn/traces"
)

// TestKillNineLeavesNoMixedResults kills bench replay, generate,
// experiment and sweep with SIGKILL at random moments (seeded) and checks
// what is left under a final name: every result file complete, readable
// and of the run that was killed (replays alternate policies into one
// directory with --force), a run.json only with the whole set; a
// generated trace absent or whole; an experiment's directory one whole
// run, old or new (runs alternate seeds); a sweep's cells each whole.
// SIGKILL runs no cleanup, so hidden temporary files may stay; none
// carries a final name.
func TestKillNineLeavesNoMixedResults(t *testing.T) {
	if testing.Short() {
		t.Skip("kills replays at random moments")
	}
	dir := t.TempDir()
	trace := filepath.Join(dir, "t.arrow")
	if _, _, err := bench(t, "generate", "--profile", "fb2010", "--jobs", "600", "--out", trace); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(9, 9))
	out := filepath.Join(dir, "run")
	policies := []string{"fifo", "fair", "hfsp"}
	completed := 0
	for i := range 12 {
		policy := policies[i%len(policies)]
		killAfter := time.Duration(rng.IntN(1500)) * time.Millisecond
		if runKilled(t, killAfter, "replay", "--trace", trace, "--out", out, "--force", "--scheduler", policy) {
			completed++
		}
		checkReplayDir(t, out, policy)
	}
	gen := filepath.Join(dir, "gen.arrow")
	for i := range 6 {
		os.Remove(gen)
		killAfter := time.Duration(rng.IntN(400)) * time.Millisecond
		runKilled(t, killAfter, "generate", "--profile", "fb2010", "--jobs", "3000", "--seed", "1", "--out", gen)
		if _, err := os.Stat(gen); err == nil {
			tr, err := traces.Read(gen)
			if err != nil || len(tr.Jobs) != 3000 {
				t.Fatalf("generate killed (%d): %s left unreadable or short: %v", i, gen, err)
			}
		}
	}
	t.Logf("%d of 12 replays completed before their kill", completed)

	exp := filepath.Join(dir, "exp")
	for i := range 6 {
		killAfter := time.Duration(200+rng.IntN(2500)) * time.Millisecond
		runKilled(t, killAfter, "experiment", "--no-report", "--seeds", "2", "--seed", fmt.Sprint(1+i%2), "--out", exp, "fig3")
		checkExperimentDir(t, filepath.Join(exp, "fig3"))
	}

	spec := filepath.Join(dir, "sweep.json")
	if err := os.WriteFile(spec, []byte(`{"name": "k", "workloads": [{"name": "w", "profile": "fb2010", "jobs": 60}],
		"policies": ["fifo", "fair", "hfsp"], "seeds": {"from": 1, "to": 4}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	sw := filepath.Join(dir, "sweep")
	for range 4 {
		killAfter := time.Duration(rng.IntN(1500)) * time.Millisecond
		runKilled(t, killAfter, "sweep", "--out", sw, spec)
		cells, _ := os.ReadDir(filepath.Join(sw, "cells"))
		for _, c := range cells {
			if strings.HasPrefix(c.Name(), ".") {
				continue
			}
			d := filepath.Join(sw, "cells", c.Name())
			if _, err := os.ReadFile(filepath.Join(d, "cell.json")); err != nil {
				t.Fatalf("sweep killed: %s has no cell.json: %v", d, err)
			}
			if _, err := results.ReadJobs(filepath.Join(d, results.JobsFile)); err != nil {
				t.Fatalf("sweep killed: %v", err)
			}
		}
	}
}

// checkExperimentDir: an experiment's directory, if there, is one run:
// its manifest's seed is every replay's.
func checkExperimentDir(t *testing.T, d string) {
	t.Helper()
	if _, err := os.Stat(d); os.IsNotExist(err) {
		return
	}
	m, err := experiments.ReadManifest(filepath.Join(d, experiments.ManifestFile))
	if err != nil {
		t.Fatalf("experiment killed: %v", err)
	}
	if _, err := os.Stat(filepath.Join(d, experiments.SectionFile)); err != nil {
		t.Fatalf("experiment killed: %v", err)
	}
	for _, r := range m.Runs {
		j, err := results.ReadJobs(filepath.Join(d, filepath.FromSlash(r.Dir), results.JobsFile))
		if err != nil {
			t.Fatalf("experiment killed: %v", err)
		}
		if j.Meta["replay.seed"] != m.Parameters["seed"] {
			t.Fatalf("experiment killed: %s is of seed %s in a seed %s run", r.Dir, j.Meta["replay.seed"], m.Parameters["seed"])
		}
	}
}

// runKilled runs bench with args and kills it after d, unless it ends
// first; it reports whether the command completed.
func runKilled(t *testing.T, d time.Duration, args ...string) bool {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "BENCH_TEST_MAIN=1")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("bench %s: %v", strings.Join(args, " "), err)
		}
		return true
	case <-time.After(d):
		cmd.Process.Kill()
		<-done
		return false
	}
}

// checkReplayDir: under a final name, only complete result files of the
// policy's run, and run.json only with every file it lists at its size.
func checkReplayDir(t *testing.T, out, policy string) {
	t.Helper()
	ents, _ := os.ReadDir(out)
	for _, e := range ents {
		name := e.Name()
		p := filepath.Join(out, name)
		switch name {
		case results.JobsFile:
			j, err := results.ReadJobs(p)
			if err != nil {
				t.Fatalf("%s after a kill: %v", p, err)
			}
			if got := j.Meta["scheduler"]; got != policy {
				t.Fatalf("%s after killing a %s run is from a %s run", p, policy, got)
			}
		case results.TasksFile:
			if _, err := results.ReadTasks(p); err != nil {
				t.Fatalf("%s after a kill: %v", p, err)
			}
		case results.OccupancyFile:
			// Written by the same stream as tasks.arrow; an Arrow file the
			// library opens whole is complete.
			if err := results.ToCSV(p, filepath.Join(t.TempDir(), "occupancy.csv")); err != nil {
				t.Fatalf("%s after a kill: %v", p, err)
			}
		case RunManifest:
			var m runManifest
			data, err := os.ReadFile(p)
			if err != nil || json.Unmarshal(data, &m) != nil || m.Policy != policy {
				t.Fatalf("%s after killing a %s run: %v %q", p, policy, err, data)
			}
			for _, f := range m.Files {
				fi, err := os.Stat(filepath.Join(out, f.Name))
				if err != nil || fi.Size() != f.Bytes {
					t.Fatalf("%s lists %s of %d bytes: %v", p, f.Name, f.Bytes, err)
				}
			}
		default:
			if !strings.HasPrefix(name, ".") {
				t.Fatalf("%s: unexpected file under a final name after a kill", p)
			}
		}
	}
}
