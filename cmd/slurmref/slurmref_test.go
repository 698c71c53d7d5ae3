package main

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"sojourn/traces"
	"sojourn/traces/formats"
)

func TestTauB(t *testing.T) {
	ran := func(s ...float64) []Ran {
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

// TestCSV writes a plan and what Slurm did (to the millisecond) as CSV
// and imports it: each job is rigid, of its CPUs as maps lasting Slurm's
// end − start, submitted at Slurm's submit time, with the time limit ×
// CPUs as its estimate.
func TestCSV(t *testing.T) {
	plan := []Job{{1, 0, 5, 4, 1}, {2, 1, 20, 16, 2}}
	ran := []Ran{{0.017, 0.920, 6.982, 0.920}, {2.25, 7.5, 28.125, 7.5}}
	var buf bytes.Buffer
	if err := WriteCSV(&buf, plan, ran); err != nil {
		t.Fatal(err)
	}
	imp, err := formats.NewCSV(strings.NewReader(buf.String()), formats.Options{Name: "w.csv", MapMemory: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		submit, run, est float64
		maps             int
	}{{0.017, 6.062, 60 * 4, 4}, {2.25, 20.625, 120 * 16, 16}}
	for i, w := range want {
		var j traces.Job
		if err := imp.Next(&j); err != nil {
			t.Fatal(err)
		}
		if !j.Rigid || j.Submit != w.submit || len(j.MapDurations) != w.maps || math.Abs(j.MapDurations[0]-w.run) > 1e-9 || !j.HasEstimate || j.Estimate != w.est {
			t.Errorf("job %d: rigid %v submit %v maps %d run %v estimate %v; want true %v %d %v %v",
				i+1, j.Rigid, j.Submit, len(j.MapDurations), j.MapDurations[0], j.Estimate, w.submit, w.maps, w.run, w.est)
		}
	}
}

// TestLog reads slurmctld's lines for two jobs and its backfill passes:
// the times replace scontrol's seconds, and a log time outside
// scontrol's second (or the next) is refused.
func TestLog(t *testing.T) {
	dir := t.TempDir()
	stamp := func(s float64) string {
		return time.Unix(0, int64(math.Round(s*1000))*1e6).Format("[" + stampLayout + "]")
	}
	const t0 = 1795843657
	lines := []string{
		stamp(t0-1.081) + " sched/backfill: _attempt_backfill: beginning",
		stamp(t0+0.017) + " _slurm_rpc_submit_batch_job: JobId=1 InitPrio=4294901759 usec=816",
		stamp(t0+0.037) + " _slurm_rpc_submit_batch_job: JobId=2 InitPrio=4294901758 usec=758",
		stamp(t0+0.920) + " sched/backfill: _attempt_backfill: beginning",
		stamp(t0+0.920) + " sched/backfill: _start_job: Started JobId=1 in check on vm",
		stamp(t0+0.920) + " sched/backfill: _attempt_backfill: BACKFILL: reached end of job queue",
		stamp(t0+0.920) + " sched/backfill: _attempt_backfill: completed testing 2(2) jobs, usec=714",
		stamp(t0+0.934) + " debug:  sched: Running job scheduler for full queue.",
		stamp(t0+1.921) + " sched/backfill: _attempt_backfill: beginning",
		stamp(t0+1.921) + " debug:  sched/backfill: _attempt_backfill: 1 jobs to backfill",
		stamp(t0+1.921) + " sched/backfill: _attempt_backfill: completed testing 0(0) jobs, usec=212",
		stamp(t0+6.982) + " sched/backfill: _attempt_backfill: beginning",
		stamp(t0+6.982) + " _job_complete: JobId=1 WEXITSTATUS 0",
		stamp(t0+6.982) + " _job_complete: JobId=1 done",
		stamp(t0+6.985) + " sched/backfill: _attempt_backfill: beginning",
		stamp(t0+6.986) + " TRACE_JOBS: cleanup_completing: JobId=1",
		stamp(t0+7.009) + " debug:  sched: Running job scheduler for full queue.",
		stamp(t0+7.010) + " sched: Allocate JobId=2 NodeList=vm #CPUs=16 Partition=check",
		stamp(t0+28.125) + " _job_complete: JobId=2 done",
	}
	log := filepath.Join(dir, "slurmctld.log")
	if err := os.WriteFile(log, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	lt, err := ReadLog(log, 2)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Refine([]Ran{{0, 0, 6, 0}, {0, 7, 28, 7}}, lt, t0)
	if err != nil {
		t.Fatal(err)
	}
	// Job 2's CPUs are held from the main scheduler's run at 7.009 that
	// allocated them, logged a millisecond before its start line.
	want := []Ran{{0.017, 0.920, 6.982, 0.920}, {0.037, 7.010, 28.125, 7.009}}
	for i := range want {
		for k, pair := range [][2]float64{{got[i].Submit, want[i].Submit}, {got[i].Start, want[i].Start}, {got[i].End, want[i].End}, {got[i].Held, want[i].Held}} {
			if math.Abs(pair[0]-pair[1]) > 5e-4 {
				t.Errorf("job %d time %d: %.3f, want %.3f", i+1, k, pair[0], pair[1])
			}
		}
	}
	// The runs from time 0 on, the backfill passes and the main
	// scheduler's in the log's order, but the pass at 6.985, while job 1
	// was completing; the pass at 6.982, logged before job 1's end of the
	// same millisecond, half a millisecond before it. The pass at 1.921
	// stopped before testing job 2 (no "reached end of job queue").
	var passes strings.Builder
	if err := WritePasses(&passes, lt, t0); err != nil {
		t.Fatal(err)
	}
	if want := "0.920 backfill\n0.934 main\n1.921 backfill 0\n6.9815 backfill\n7.009 main\n# 1 runs while a job was completing left out; 1 passes cut short\n"; passes.String() != want {
		t.Errorf("passes:\n%s\nwant\n%s", passes.String(), want)
	}
	// scontrol says job 2 started in second 5: the log's 7.010 is not in it.
	if _, err := Refine([]Ran{{0, 0, 6, 0}, {0, 5, 28, 5}}, lt, t0); err == nil || !strings.Contains(err.Error(), "job 2: the log's start at 7.010 s") {
		t.Errorf("Refine with job 2's start in second 5: %v; want an error naming job 2's start", err)
	}
	if _, err := ReadLog(log, 3); err == nil || !strings.Contains(err.Error(), "JobId 3 lacks") {
		t.Errorf("ReadLog for 3 jobs: %v; want JobId 3 missing", err)
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
		err := run([]string{"csv", "-plan", plan, "-slurm", write("slurm", c.slurm), "-t0", "100"}, &bytes.Buffer{})
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
