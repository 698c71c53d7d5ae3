package main

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"regexp"
	"slices"
	"strconv"
	"time"
)

// slurmctld stamps each line with its local wall clock to the
// millisecond; these are the lines that time a job and a backfill pass.
var (
	stampRE  = regexp.MustCompile(`^\[(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3})\] (.*)$`)
	submitRE = regexp.MustCompile(`^_slurm_rpc_submit_batch_job: JobId=(\d+) `)
	startRE  = regexp.MustCompile(`^(?:sched: Allocate JobId=(\d+) |sched/backfill: _start_job: Started JobId=(\d+) )`)
	endRE    = regexp.MustCompile(`^_job_complete: JobId=(\d+) done$`)
	passRE   = regexp.MustCompile(`^sched/backfill: _attempt_backfill: beginning$`)
)

const stampLayout = "2006-01-02T15:04:05.000"

// LogTimes is what slurmctld's log says of a run: each job's submission,
// start and end (epoch seconds, to the millisecond; NaN if absent) and
// the instants at which the backfill passes began.
type LogTimes struct {
	Submit, Start, End []float64
	Passes             []float64
}

// ReadLog reads slurmctld's log for jobs 1..n (none: the passes alone) (JobIds; the script starts
// each run with an empty state directory, so JobId N is the Nth sbatch,
// the plan's job N). Its clock is the local time zone's.
func ReadLog(name string, n int) (*LogTimes, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	lt := &LogTimes{Submit: nans(n), Start: nans(n), End: nans(n)}
	s := bufio.NewScanner(f)
	s.Buffer(make([]byte, 64<<10), 1<<20)
	line := 0
	for s.Scan() {
		line++
		m := stampRE.FindStringSubmatch(s.Text())
		if m == nil {
			continue
		}
		tm, err := time.ParseInLocation(stampLayout, m[1], time.Local)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: time stamp %q: %v", name, line, m[1], err)
		}
		t := float64(tm.UnixMilli()) / 1000
		msg := m[2]
		if passRE.MatchString(msg) {
			lt.Passes = append(lt.Passes, t)
			continue
		}
		if n == 0 {
			continue
		}
		var dst []float64
		var id string
		if x := submitRE.FindStringSubmatch(msg); x != nil {
			dst, id = lt.Submit, x[1]
		} else if x := startRE.FindStringSubmatch(msg); x != nil {
			dst, id = lt.Start, x[1]+x[2]
		} else if x := endRE.FindStringSubmatch(msg); x != nil {
			dst, id = lt.End, x[1]
		} else {
			continue
		}
		j, err := strconv.Atoi(id)
		if err != nil || j < 1 || j > n {
			return nil, fmt.Errorf("%s:%d: JobId %s; want 1..%d", name, line, id, n)
		}
		if !math.IsNaN(dst[j-1]) {
			return nil, fmt.Errorf("%s:%d: JobId %d again", name, line, j)
		}
		dst[j-1] = t
	}
	if err := s.Err(); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	for i := range n {
		if math.IsNaN(lt.Submit[i]) || math.IsNaN(lt.Start[i]) || math.IsNaN(lt.End[i]) {
			return nil, fmt.Errorf("%s: JobId %d lacks its submission, start or end line", name, i+1)
		}
	}
	return lt, nil
}

func nans(n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = math.NaN()
	}
	return v
}

// Refine replaces Slurm's whole-second times (from scontrol, epoch
// seconds) with the log's milliseconds. scontrol truncates the same
// clock, and logs a moment after it reads it, so each log time must lie
// in [scontrol's second, one second later + 1): anything else means the
// log is of another run, or its JobIds are not the plan's jobs.
func Refine(ran []Ran, lt *LogTimes, t0 float64) ([]Ran, error) {
	out := make([]Ran, len(ran))
	for i, r := range ran {
		got := [3]float64{lt.Submit[i] - t0, lt.Start[i] - t0, lt.End[i] - t0}
		want := [3]float64{r.Submit, r.Start, r.End}
		for k, what := range []string{"submission", "start", "end"} {
			if got[k] < want[k] || got[k] >= want[k]+2 {
				return nil, fmt.Errorf("job %d: the log's %s at %.3f s is not in scontrol's second %g (or the next)", i+1, what, got[k], want[k])
			}
		}
		out[i] = Ran{Submit: got[0], Start: got[1], End: got[2]}
	}
	return out, nil
}

// Phase is the median fraction of a second (of time 0's clock) at which
// the backfill passes began: Slurm sleeps bf_interval after each pass, so
// the passes keep a phase that creeps by the length of a pass (about a
// millisecond) each second.
func Phase(passes []float64, t0 float64) (float64, error) {
	if len(passes) == 0 {
		return 0, fmt.Errorf("no backfill pass in the log (DebugFlags=Backfill logs them)")
	}
	fr := make([]float64, len(passes))
	for i, p := range passes {
		fr[i] = p - t0 - math.Floor(p-t0)
	}
	slices.Sort(fr)
	return fr[len(fr)/2], nil
}
