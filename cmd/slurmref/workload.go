package main

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
)

// Job is one job of the plan: a sleep of Run seconds on CPUs CPUs,
// submitted at Submit seconds, with a time limit of Limit minutes.
type Job struct {
	ID     int
	Submit int
	Run    int
	CPUs   int
	Limit  int
}

// Plan draws n jobs for a node of cpus CPUs from seed alone. Arrivals are
// whole seconds with exponential gaps of mean 2 s, so that about 45 jobs
// arrive in 90 s; run times are log-uniform on [2, 25] s, whole seconds;
// widths are narrow (1-3 CPUs, 60%), medium (4-8, 28%) or wide (9 to
// cpus, 12%), so that a wide job at the head of the queue leaves room for
// narrow ones to backfill. The offered load is about 1.4 times the node,
// so a queue forms. Time limits are what users give: the run time padded
// by a factor uniform on [1.5, 8], rounded up to whole minutes (Slurm's
// unit), so limits of 1, 2 and 3 minutes give backfilling something to
// choose by.
func Plan(seed uint64, n, cpus int) []Job {
	rng := rand.New(rand.NewPCG(seed, 0x51_77_72_6d)) // "Slrm"
	jobs := make([]Job, n)
	t := 0.0
	for i := range jobs {
		if i > 0 {
			t += rng.ExpFloat64() * 2
		}
		run := int(math.Round(math.Exp(math.Log(2) + rng.Float64()*math.Log(12.5))))
		var w int
		switch u := rng.Float64(); {
		case u < 0.60:
			w = 1 + rng.IntN(3)
		case u < 0.88:
			w = 4 + rng.IntN(5)
		default:
			w = 9 + rng.IntN(8)
		}
		w = max(1, min(w, cpus))
		pad := 1.5 + 6.5*rng.Float64()
		limit := max(1, int(math.Ceil(float64(run)*pad/60)))
		jobs[i] = Job{ID: i + 1, Submit: int(t), Run: run, CPUs: w, Limit: limit}
	}
	return jobs
}

func writePlan(out io.Writer, jobs []Job) error {
	w := bufio.NewWriter(out)
	for _, j := range jobs {
		fmt.Fprintf(w, "%d %d %d %d %d\n", j.ID, j.Submit, j.Run, j.CPUs, j.Limit)
	}
	return w.Flush()
}

// records reads a file of whitespace-separated fields, n a line (blank
// lines skipped), calling row with each line's fields; an error of row is
// prefixed with the file and line. want names the fields for the error of
// a line with another count.
func records(name string, n int, want string, row func(t []string) error) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	line := 0
	for s.Scan() {
		line++
		t := strings.Fields(s.Text())
		if len(t) == 0 {
			continue
		}
		if len(t) != n {
			return fmt.Errorf("%s:%d: %d fields; want %s", name, line, len(t), want)
		}
		if err := row(t); err != nil {
			return fmt.Errorf("%s:%d: %v", name, line, err)
		}
	}
	return s.Err()
}

// integers parses t's fields as integers.
func integers(t []string) ([]int64, error) {
	v := make([]int64, len(t))
	for i, x := range t {
		var err error
		if v[i], err = strconv.ParseInt(x, 10, 64); err != nil {
			return nil, fmt.Errorf("field %d: %q is not an integer", i+1, x)
		}
	}
	return v, nil
}

// fields reads a file of whitespace-separated integer fields, n a line.
func fields(name string, n int, row func(v []int64) error) error {
	return records(name, n, strconv.Itoa(n), func(t []string) error {
		v, err := integers(t)
		if err != nil {
			return err
		}
		return row(v)
	})
}

func readPlan(name string) ([]Job, error) {
	var jobs []Job
	err := fields(name, 5, func(v []int64) error {
		j := Job{ID: int(v[0]), Submit: int(v[1]), Run: int(v[2]), CPUs: int(v[3]), Limit: int(v[4])}
		switch {
		case j.ID != len(jobs)+1:
			return fmt.Errorf("job %d; want job %d (jobs numbered from 1 in order)", j.ID, len(jobs)+1)
		case j.Submit < 0 || len(jobs) > 0 && j.Submit < jobs[len(jobs)-1].Submit:
			return fmt.Errorf("submit %d: want >= 0 and in submit order", j.Submit)
		case j.Run < 0 || j.CPUs < 1 || j.Limit < 1:
			return fmt.Errorf("run %d, cpus %d, limit %d: want run >= 0, cpus and limit >= 1", j.Run, j.CPUs, j.Limit)
		}
		jobs = append(jobs, j)
		return nil
	})
	if err == nil && len(jobs) == 0 {
		err = fmt.Errorf("%s: no jobs", name)
	}
	return jobs, err
}

// Ran is what Slurm recorded of a job, in seconds from time 0.
type Ran struct {
	Submit, Start, End float64
	// Held is when the job's CPUs were taken: the instant of the
	// scheduler run that started it (the log's start line comes a moment
	// later, in that run), or Start without a log.
	Held float64
}

// readSlurm reads "job submit start end state" lines (epoch seconds,
// Slurm's state name) for jobs 1..n; every job must be there once and
// COMPLETED.
func readSlurm(name string, t0 int64, n int) ([]Ran, error) {
	ran := make([]Ran, n)
	seen := make([]bool, n)
	err := records(name, 5, "job submit start end state", func(t []string) error {
		v, err := integers(t[:4])
		if err != nil {
			return err
		}
		j := v[0]
		switch {
		case j < 1 || j > int64(n):
			return fmt.Errorf("job %d; want 1..%d", j, n)
		case seen[j-1]:
			return fmt.Errorf("job %d again", j)
		case t[4] != "COMPLETED":
			return fmt.Errorf("job %d is %s; want COMPLETED", j, t[4])
		case v[1] < t0 || v[2] < v[1] || v[3] < v[2]:
			return fmt.Errorf("job %d: submit %d, start %d, end %d: want t0 (%d) <= submit <= start <= end", j, v[1], v[2], v[3], t0)
		}
		seen[j-1] = true
		ran[j-1] = Ran{Submit: float64(v[1] - t0), Start: float64(v[2] - t0), End: float64(v[3] - t0), Held: float64(v[2] - t0)}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for i, ok := range seen {
		if !ok {
			return nil, fmt.Errorf("%s: no line for job %d", name, i+1)
		}
	}
	return ran, nil
}

// WriteCSV writes the workload as Slurm ran it, for bench import csv:
// each job submitted when Slurm recorded its submission, a rigid job of
// its CPUs as maps, each running for the time Slurm held the CPUs (end −
// Held, which includes the launch and the end of the sleep, some tens
// of ms more than the sleep itself), with its time limit × CPUs as the
// user's estimate (slot-seconds). Times keep their milliseconds. A replay
// of this file starts from what Slurm saw, so that the start times differ
// only by the scheduling.
func WriteCSV(out io.Writer, jobs []Job, ran []Ran) error {
	w := bufio.NewWriter(out)
	fmt.Fprintf(w, "job_id,submit_s,maps,reduces,map_durations_s,estimate_s,rigid\n")
	for i, j := range jobs {
		r := ran[i]
		run := strconv.FormatFloat(r.End-r.Held, 'f', 3, 64)
		d := strings.TrimSpace(strings.Repeat(run+" ", j.CPUs))
		fmt.Fprintf(w, "%d,%.3f,%d,0,%s,%d,true\n", j.ID, r.Submit, j.CPUs, d, 60*j.Limit*j.CPUs)
	}
	return w.Flush()
}
