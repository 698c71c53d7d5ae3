package main

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"sojourn/traces"
	"sojourn/traces/formats"
)

func TestTauB(t *testing.T) {
	ran := func(s ...int64) []Ran {
		r := make([]Ran, len(s))
		for i, x := range s {
			r[i] = Ran{Start: x}
		}
		return r
	}
	for _, c := range []struct {
		name  string
		slurm []Ran
		rep   []float64
		tau   float64
	}{
		{"same order", ran(0, 1, 2, 3), []float64{0.5, 1.5, 2.5, 9}, 1},
		{"reversed", ran(0, 1, 2, 3), []float64{3, 2, 1, 0}, -1},
		// pairs (1,2) discordant, 5 concordant: (5 - 1) / 6
		{"one swap", ran(0, 1, 2, 3), []float64{1, 0, 2, 3}, 4.0 / 6},
		// Slurm ties jobs 1 and 2 (one second); the replay does not: the
		// pair counts in neither C nor D, and tau-b = 5 / sqrt(5 × 6).
		{"tie in Slurm", ran(0, 0, 2, 3), []float64{0.1, 0.4, 2, 3}, 5 / math.Sqrt(30)},
		// Tied in both: C = 5 of P − T = 5 pairs each way.
		{"tie in both", ran(0, 0, 2, 3), []float64{0.3, 0.3, 2, 3}, 1},
	} {
		a := Compare(c.slurm, c.rep, 3)
		if math.Abs(a.Tau-c.tau) > 1e-12 {
			t.Errorf("%s: tau-b %v, want %v", c.name, a.Tau, c.tau)
		}
	}
}

func TestWithin(t *testing.T) {
	// |Δ| = 0, 3, 3.5, 1: three of four within 3 s, the bound included.
	a := Compare([]Ran{{Start: 0}, {Start: 10}, {Start: 20}, {Start: 30}}, []float64{0, 13, 16.5, 31}, 3)
	if a.Within != 0.75 || a.Max != 3.5 || a.Mean != 7.5/4 || a.Bias != 0.5/4 {
		t.Errorf("within %v max %v mean %v bias %v; want 0.75, 3.5, 1.875, 0.125", a.Within, a.Max, a.Mean, a.Bias)
	}
}

func TestPlan(t *testing.T) {
	a, b := Plan(7, 60, 16), Plan(7, 60, 16)
	if !slices.Equal(a, b) {
		t.Fatal("Plan(7) differs between two calls")
	}
	if slices.Equal(a, Plan(8, 60, 16)) {
		t.Fatal("Plan(7) and Plan(8) are equal")
	}
	work := 0
	wide := 0
	for i, j := range a {
		if j.Run < 2 || j.Run > 25 || j.CPUs < 1 || j.CPUs > 16 || j.Limit < 1 || 60*j.Limit < j.Run {
			t.Errorf("job %+v out of range", j)
		}
		if i > 0 && j.Submit < a[i-1].Submit || a[0].Submit != 0 {
			t.Errorf("job %+v out of submit order", j)
		}
		if j.CPUs >= 9 {
			wide++
		}
		work += j.Run * j.CPUs
	}
	if wide == 0 {
		t.Error("no job of 9 CPUs or more: nothing to hold a reservation")
	}
	// The load offered to 16 CPUs over the arrivals exceeds 1: a queue.
	if load := float64(work) / float64(16*a[len(a)-1].Submit); load <= 1 {
		t.Errorf("offered load %.2f; want > 1", load)
	}
}

// TestSWF writes a plan and what Slurm did as SWF and imports it: each job
// is rigid, of its CPUs as maps lasting Slurm's end − start, submitted at
// Slurm's submit time, with the time limit × CPUs as its estimate.
func TestSWF(t *testing.T) {
	plan := []Job{{1, 0, 5, 4, 1}, {2, 1, 20, 16, 2}}
	ran := []Ran{{0, 1, 7}, {2, 7, 28}}
	var buf bytes.Buffer
	if err := WriteSWF(&buf, plan, ran, 16); err != nil {
		t.Fatal(err)
	}
	imp, err := formats.NewSWF(strings.NewReader(buf.String()), formats.Options{Name: "w.swf", MapMemory: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		submit, run, est float64
		maps             int
	}{{0, 6, 60 * 4, 4}, {2, 21, 120 * 16, 16}}
	for i, w := range want {
		var j traces.Job
		if err := imp.Next(&j); err != nil {
			t.Fatal(err)
		}
		if !j.Rigid || j.Submit != w.submit || len(j.MapDurations) != w.maps || j.MapDurations[0] != w.run || !j.HasEstimate || j.Estimate != w.est {
			t.Errorf("job %d: rigid %v submit %v maps %d run %v estimate %v; want true %v %d %v %v",
				i+1, j.Rigid, j.Submit, len(j.MapDurations), j.MapDurations[0], j.Estimate, w.submit, w.maps, w.run, w.est)
		}
	}
	if got := imp.Params()["swf.max_procs"]; got != "16" {
		t.Errorf("swf.max_procs %q, want 16", got)
	}
}

func TestBadInput(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	plan := write("plan", "1 0 5 4 1\n2 1 20 16 2\n")
	for _, c := range []struct{ slurm, want string }{
		{"1 100 101 107 COMPLETED\n", "no line for job 2"},
		{"1 100 101 107 COMPLETED\n2 102 107 128 TIMEOUT\n", ":2: job 2 is TIMEOUT; want COMPLETED"},
		{"1 100 101 107 COMPLETED\n2 102 107 x COMPLETED\n", `:2: field 4: "x" is not an integer`},
		{"1 100 101 107 COMPLETED\n1 102 107 128 COMPLETED\n", ":2: job 1 again"},
	} {
		err := run([]string{"swf", "-plan", plan, "-slurm", write("slurm", c.slurm), "-t0", "100"}, &bytes.Buffer{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v; want one containing %q", c.slurm, err, c.want)
		}
	}
	slurm := write("slurm", "1 100 101 107 COMPLETED\n2 102 107 128 COMPLETED\n")
	rep := write("jobs.csv", "policy,job_id,first_launch_s\r\neasy,1,1.2\r\neasy,2,9.9\r\n")
	var out bytes.Buffer
	// Job 2 starts 2.9 s apart: within 3 s; the order agrees.
	if err := run([]string{"compare", "-plan", plan, "-slurm", slurm, "-t0", "100", "-replay", rep}, &out); err != nil {
		t.Fatalf("compare: %v\n%s", err, out.String())
	}
	rep = write("jobs.csv", "policy,job_id,first_launch_s\r\neasy,1,1.2\r\neasy,2,10.1\r\n")
	err := run([]string{"compare", "-plan", plan, "-slurm", slurm, "-t0", "100", "-replay", rep}, &out)
	if err == nil || !strings.Contains(err.Error(), "50.0% of starts within 3 s < 95%") {
		t.Errorf("compare with job 2 3.1 s apart: %v; want a failure on the starts within 3 s", err)
	}
}
