package main

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"os"
	"regexp"
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
	// A pass that tested the whole queue logs its end before its count.
	queueEndRE = regexp.MustCompile(`^sched/backfill: _attempt_backfill: BACKFILL: reached end of job queue$`)
	testedRE   = regexp.MustCompile(`^sched/backfill: _attempt_backfill: completed testing (\d+)\(\d+\) jobs`)
	// The main scheduler's runs are logged at SlurmctldDebug=debug, and
	// the end of a job's completing state with DebugFlags=TraceJobs.
	mainRE    = regexp.MustCompile(`^debug:\s+sched: Running job scheduler `)
	cleanupRE = regexp.MustCompile(`^TRACE_JOBS: cleanup_completing: JobId=(\d+)$`)
)

const stampLayout = "2006-01-02T15:04:05.000"

// LogTimes is what slurmctld's log says of a run: each job's submission,
// start and end (epoch seconds, to the millisecond; NaN if absent) and
// the runs of the backfill agent and of the main scheduler.
type LogTimes struct {
	Submit, Start, End []float64
	// Held is the instant of the run that started each job.
	Held []float64
	Runs []Run
	// Cleanups counts the ends of completing states (TraceJobs lines).
	Cleanups int
}

// A Run is one run of Slurm's backfill agent (a pass) or of its main
// scheduler, and whether a job was completing then: from its end
// ("_job_complete: ... done") until slurmd answers the terminate
// request ("cleanup_completing"), its node is in cg_node_bitmap, where
// neither scheduler starts a job (node_scheduler.c, _pick_best_nodes:
// "bit_and_not(node_set_ptr[i].my_bitmap, cg_node_bitmap)"; backfill.c:
// "bit_overlap_any(avail_bitmap, cg_node_bitmap)"). The log's order of
// lines decides, not their milliseconds.
type Run struct {
	At         float64
	Main       bool // the main scheduler's, else a backfill pass
	Completing bool
	// Before: a submission or a job's end in the same millisecond is
	// logged after the run (which did not see it); After: one is logged
	// before it.
	Before, After bool
	// Tested is how many jobs a backfill pass tested if it stopped
	// before the end of the queue (bf_max_time, on time(2)'s whole
	// seconds); -1 if it tested them all or had none to test.
	Tested int
	whole  bool // "reached end of job queue" logged
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
	lt := &LogTimes{Submit: nans(n), Start: nans(n), End: nans(n), Held: nans(n)}
	lastEvent := math.Inf(-1)       // the last submission's or end's time
	completing := map[string]bool{} // JobIds ended and not cleaned up
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
		if main := mainRE.MatchString(msg); main || passRE.MatchString(msg) {
			lt.Runs = append(lt.Runs, Run{At: t, Main: main, Completing: len(completing) > 0, After: lastEvent == t, Tested: -1})
			continue
		}
		if r := lastPass(lt.Runs); r != nil {
			if queueEndRE.MatchString(msg) {
				r.whole = true
				continue
			}
			if x := testedRE.FindStringSubmatch(msg); x != nil {
				if !r.whole {
					if r.Tested, err = strconv.Atoi(x[1]); err != nil {
						return nil, fmt.Errorf("%s:%d: jobs tested %q: %v", name, line, x[1], err)
					}
				}
				continue
			}
		}
		if x := cleanupRE.FindStringSubmatch(msg); x != nil {
			lt.Cleanups++
			delete(completing, x[1])
			continue
		}
		end := endRE.FindStringSubmatch(msg)
		if end != nil {
			completing[end[1]] = true
		}
		if end != nil || submitRE.MatchString(msg) {
			lastEvent = t
			for i := len(lt.Runs) - 1; i >= 0 && lt.Runs[i].At == t; i-- {
				lt.Runs[i].Before = true
			}
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
			if j, err := strconv.Atoi(id); err == nil && j >= 1 && j <= n && len(lt.Runs) > 0 {
				lt.Held[j-1] = lt.Runs[len(lt.Runs)-1].At
			}
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

// lastPass is the last backfill pass of runs, nil if none.
func lastPass(runs []Run) *Run {
	for i := len(runs) - 1; i >= 0; i-- {
		if !runs[i].Main {
			return &runs[i]
		}
	}
	return nil
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
		held := lt.Held[i] - t0
		if math.IsNaN(held) || held > got[1] || held < got[1]-1 {
			held = got[1] // no run logged within the second before its start
		}
		out[i] = Ran{Submit: got[0], Start: got[1], End: got[2], Held: held}
	}
	return out, nil
}

// WritePasses writes the runs of both schedulers from time 0 on, for
// easy's pass-times: "SECONDS backfill" or "SECONDS main" per line, in
// the log's order, seconds from t0 to the millisecond, and "SECONDS
// backfill JOBS" for a pass that tested only the first JOBS jobs. A run while a job
// was completing could start nothing on the one node and is left out,
// counted in a comment.
func WritePasses(out io.Writer, lt *LogTimes, t0 float64) error {
	var passes, mains, idle, cut int
	for _, r := range lt.Runs {
		if r.Main {
			mains++
		} else {
			passes++
		}
	}
	switch {
	case passes == 0:
		return fmt.Errorf("no backfill pass in the log (DebugFlags=Backfill logs them)")
	case mains == 0:
		return fmt.Errorf("no run of the main scheduler in the log (SlurmctldDebug=debug logs them)")
	case lt.Cleanups == 0:
		return fmt.Errorf("no end of a completing job in the log (DebugFlags=TraceJobs logs them)")
	}
	w := bufio.NewWriter(out)
	for _, r := range lt.Runs {
		if r.At < t0 {
			continue
		}
		if r.Completing {
			idle++
			continue
		}
		kind := "backfill"
		if r.Main {
			kind = "main"
		} else if r.Tested >= 0 {
			kind = fmt.Sprintf("backfill %d", r.Tested)
			cut++
		}
		// A run that did not see a submission or an end of its own
		// millisecond goes half a millisecond before them, as the replay
		// lets a pass see everything at its instant.
		if r.Before && !r.After {
			fmt.Fprintf(w, "%.4f %s\n", r.At-t0-0.0005, kind)
		} else {
			fmt.Fprintf(w, "%.3f %s\n", r.At-t0, kind)
		}
	}
	fmt.Fprintf(w, "# %d runs while a job was completing left out; %d passes cut short\n", idle, cut)
	return w.Flush()
}
