package easy

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"sojourn/replay"
	"sojourn/replay/replaytest"
	"sojourn/traces"
)

// TestDecisionTickThenHeartbeat: a job admitted at a decision tick
// launches at the node's first heartbeat at or after that tick. One node
// of 16 map slots, heartbeats every 2 s at 0, 2, 4, … (phase 0, no
// out-of-band heartbeats), decision-interval 0.5.
//
//	A: width 16, 3 s, submitted at 1: decided at the tick 1.5, launched
//	   at the heartbeat 2, ends at 5.
//	B: width 16, 2 s, submitted at 1.2: queued behind A at 1.5; A's end
//	   at 5 is decided at the tick 5.5, so B launches at the heartbeat
//	   6 (ends 8).
//	C: width 8, 1 s, submitted at 8.3: decided at 8.5, launches at 10.
//
// Every wait is a tick then a heartbeat, never a later coincidence of
// the two.
func TestDecisionTickThenHeartbeat(t *testing.T) {
	jobs := []traces.Job{
		swfJob(1, 16, 3, 3), swfJob(1.2, 16, 2, 2), swfJob(8.3, 8, 1, 1),
	}
	for _, c := range []struct {
		d, hb float64
		want  []float64
	}{
		{0.5, 2, []float64{2, 6, 10}},
		// Heartbeats every 0.1 s: launches at the tick itself.
		// A ends at 4.5, decided at the tick 5.
		{0.5, 0.1, []float64{1.5, 5, 8.5}},
		// No tick: at the first heartbeat after each change.
		{0, 2, []float64{2, 6, 10}},
		// Ticks of 0.75 s (1.5, 5.25, 8.25 is before 8.3 so 9): with 2 s
		// heartbeats 2, 6, 10.
		{0.75, 2, []float64{2, 6, 10}},
		// Ticks of 1 s: 2, 6 (A ends at 5, tick 6), 9: heartbeats 2, 6, 10.
		{1, 2, []float64{2, 6, 10}},
		// Heartbeats every 0.1 s, ticks of 1 s: 2, 6, 9.
		{1, 0.1, []float64{2, 6, 9}},
	} {
		cfg := replay.Config{Nodes: 1, NodesPerRack: 1, MapSlots: 16, ReduceSlots: 1, Heartbeat: c.hb}
		opts := map[string]string{"job-share": "1", "backfill-order": "fcfs", "node-granular": "true",
			"end-at-shadow": "refuse", "decision-interval": ftoa(c.d)}
		r := replaytest.Run(t, replaytest.TraceOf(t, jobs...), replaytest.Build(t, Policy.Build, opts), cfg)
		var got []float64
		for _, j := range r.Jobs {
			got = append(got, j.FirstLaunch.Sec())
		}
		checkStarts(t, "heartbeat "+ftoa(c.hb)+", decision-interval "+ftoa(c.d), got, c.want)
	}
}

func ftoa(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// TestWillRunWindow: the head's reservation where Slurm's will-run test
// puts it (src/plugins/select/cons_common/job_test.c, _will_run_test,
// 22.05): running jobs released in batches by expected end, "delta =
// tmp_job_ptr->end_time % time_window; end_time = tmp_job_ptr->end_time
// + (time_window - delta)" for the first, the batch up to
// "next_job_ptr->end_time > (end_time + time_window)", and the start
// "job_ptr->start_time = last_job_ptr->end_time". One node of 16 slots:
//
//	A: width 8, runs 30 s, requested 40 s, at 0 (expected end 40)
//	B: width 6, runs 30 s, requested 100 s, at 0 (expected end 100)
//	H: width 8, runs 5 s, requested 10 s, at 1 (2 slots free: waits)
//	X: width 2, runs 3 s, requested 45 s, at 2 (would end at 47)
//
// H fits once A ends: at 40 at the earliest. With time 0 on a whole 30 s
// of the wall clock, the first window ends at 60 and the batch takes the
// ends up to 60 + 30: only A, so H is reserved at 40, and X, ending at
// 47 past it (the whole node is reserved), waits until H starts when A
// and B end at 30; X then fits beside it (30). With time 0 at 20 s past
// a whole 30 s, A's end is at 0 mod 30: the window ends at 70 and the
// batch takes the ends up to 100, A and B: H is reserved at B's end,
// 100, and X, ending at 47, is backfilled at 2. Without the window H is
// reserved at 40, as with the aligned clock.
func TestWillRunWindow(t *testing.T) {
	jobs := []traces.Job{swfJob(0, 8, 30, 40), swfJob(0, 6, 30, 100), swfJob(1, 8, 5, 10), swfJob(2, 2, 3, 45)}
	for _, c := range []struct {
		window, epoch string
		want          []float64
	}{
		{"0", "0", []float64{0, 0, 30, 30}},
		{"30", "1800000000", []float64{0, 0, 30, 30}},
		{"30", "1800000020", []float64{0, 0, 30, 2}},
	} {
		opts := map[string]string{"backfill-order": "fcfs", "node-granular": "true", "end-at-shadow": "refuse",
			"will-run-window": c.window, "window-epoch": c.epoch}
		start, _ := runRigid(t, opts, jobs...)
		checkStarts(t, "will-run-window "+c.window+", epoch "+c.epoch, start, c.want)
	}
}

// TestMainScheduler: main-scheduler starts, at the instant of a job end,
// the jobs at the head of the queue while they fit and stops at the
// first that does not, as Slurm's main scheduler does when a job's
// epilog completes (src/slurmctld/proc_req.c, 22.05,
// _slurm_rpc_epilog_complete: "schedule(false)"). In schedule()
// (src/slurmctld/job_scheduler.c, _schedule) the queue is walked in
// priority order; a job that does not fit, "if (error_code ==
// ESLURM_NODES_BUSY) { ... fail_by_part = true;", puts its partition in
// failed_parts, "failed_parts[failed_part_cnt++] = job_ptr->part_ptr;",
// and every later job of that partition is passed over, "else if
// (_failed_partition(job_ptr->part_ptr, failed_parts, failed_part_cnt))
// { ... continue;": no backfilling there. One node of 16 slots,
// decision-interval 1, heartbeats every 0.1 s, fcfs, node-granular:
//
//	A: width 16, runs 5 s, requested 5 s, at 0
//	B: width 8, runs 4 s, requested 10 s, at 0.2
//	C: width 12, runs 3 s, requested 3 s, at 0.3
//	D: width 4, runs 2 s, requested 2 s, at 0.4
//
// The arrivals wait for the tick at 1 (an arrival is no job end): A
// starts at 1 and ends at 6. Without the main scheduler the tick at 7
// starts B, the head, gives C the reservation at B's requested end 17
// and backfills D (ends 9); B ends at 11 and C starts at the tick 12.
// With it, A's end at 6 starts B at once; C does not fit in the 8 slots
// left, so the walk stops there and D, which would fit, waits for the
// tick at 7 (reservation at 16, D ends at 9: backfilled). D's end at 9
// frees 4 slots, not enough for C (12 > 8): nothing starts; B's end at
// 10 starts C at once.
func TestMainScheduler(t *testing.T) {
	jobs := []traces.Job{swfJob(0, 16, 5, 5), swfJob(0.2, 8, 4, 10), swfJob(0.3, 12, 3, 3), swfJob(0.4, 4, 2, 2)}
	for _, c := range []struct {
		main string
		want []float64
	}{
		{"false", []float64{1, 7, 12, 7}},
		{"true", []float64{1, 6, 10, 7}},
	} {
		cfg := replay.Config{Nodes: 1, NodesPerRack: 1, MapSlots: 16, ReduceSlots: 1, Heartbeat: 0.1}
		opts := map[string]string{"job-share": "1", "backfill-order": "fcfs", "node-granular": "true",
			"end-at-shadow": "refuse", "decision-interval": "1", "main-scheduler": c.main}
		r := replaytest.Run(t, replaytest.TraceOf(t, jobs...), replaytest.Build(t, Policy.Build, opts), cfg)
		var got []float64
		for _, j := range r.Jobs {
			got = append(got, j.FirstLaunch.Sec())
		}
		checkStarts(t, "main-scheduler "+c.main, got, c.want)
	}
}

// TestPassTimes: with pass-times the passes run at the listed instants,
// each seeing the arrivals and ends up to and including its own; a
// backfill pass starts the head of the queue and backfills, a main pass
// (Slurm's main scheduler, job_scheduler.c _schedule: the queue in
// priority order, stopping the partition at the first job that does not
// fit, as TestMainScheduler quotes) starts the head alone. The jobs of
// TestMainScheduler and E (width 16, 1 s, at 20), heartbeats every
// 0.1 s, decision-interval 1 after the list:
//
//	0.5 backfill: A starts (B, then C, D wait: no slot free).
//	6.0 main: A ended at 5.5; B starts; C (12) does not fit the 8 left,
//	    and D, which would, is not tried.
//	7.5 backfill: C reserved at B's requested end 16 (the whole node);
//	    D, ending at 9.5, is backfilled.
//	9.7 main: D ended at 9.5, 8 slots free: C still does not fit.
//	10.0 main: B's end at 10.0, the pass's own instant, frees the node:
//	    C starts.
//
// The list ends there: E, arriving at 20, waits for decision-interval's
// pass after it, 21.
func TestPassTimes(t *testing.T) {
	jobs := []traces.Job{swfJob(0, 16, 5, 5), swfJob(0.2, 8, 4, 10), swfJob(0.3, 12, 3, 3), swfJob(0.4, 4, 2, 2), swfJob(20, 16, 1, 1)}
	list := "# slurmref passes\n0.5 backfill\n6.0 main\n7.5 backfill\n9.7 main\n10.0 main\n"
	checkStarts(t, "pass-times", passTimesStarts(t, jobs, list), []float64{0.5, 6, 10, 7.5, 21})
}

// passTimesStarts replays jobs on one node of 16 slots, heartbeats every
// 0.1 s, under easy in Slurm's settings with the passes of list, and
// returns the jobs' starts.
func passTimesStarts(t *testing.T, jobs []traces.Job, list string) []float64 {
	t.Helper()
	passes := filepath.Join(t.TempDir(), "passes.txt")
	if err := os.WriteFile(passes, []byte(list), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := replay.Config{Nodes: 1, NodesPerRack: 1, MapSlots: 16, ReduceSlots: 1, Heartbeat: 0.1}
	opts := map[string]string{"job-share": "1", "backfill-order": "fcfs", "node-granular": "true",
		"end-at-shadow": "refuse", "decision-interval": "1", "pass-times": passes}
	r := replaytest.Run(t, replaytest.TraceOf(t, jobs...), replaytest.Build(t, Policy.Build, opts), cfg)
	var got []float64
	for _, j := range r.Jobs {
		got = append(got, j.FirstLaunch.Sec())
	}
	return got
}

// TestPassTimesCutShort: a pass listed as "backfill N" tests only the
// first N jobs of the queue, as a Slurm pass that reached bf_max_time
// (backfill.c, _attempt_backfill: "if (slurmctld_config.shutdown_time
// || (difftime(time(NULL),orig_sched_start) >= bf_max_time)) break;"),
// and the jobs it did not test wait for the next pass. One node of 16
// slots, Slurm's settings, heartbeats every 0.1 s:
//
//	A: width 8, 5 s (requested 5) at 0
//	B: width 16, 2 s (requested 2) at 0.1
//	C: width 4, 1 s (requested 1) at 0.2
//
//	0.5 backfill 1: A starts; B and C are not tested (a whole pass
//	    would reserve the node for B at 5 and backfill C, which ends at
//	    1.5, at once).
//	1.0 backfill: B reserved at 5; C, ending at 2, is backfilled.
//
// After the list, decision-interval 1: A ends at 5, B starts on the
// tick after, 6.
func TestPassTimesCutShort(t *testing.T) {
	jobs := []traces.Job{swfJob(0, 8, 5, 5), swfJob(0.1, 16, 2, 2), swfJob(0.2, 4, 1, 1)}
	for _, c := range []struct {
		list string
		want []float64
	}{
		{"0.5 backfill 1\n1.0 backfill\n", []float64{0.5, 6, 1}},
		{"0.5 backfill\n1.0 backfill\n", []float64{0.5, 6, 0.5}},
		// 0.5 tests nothing; 1.0 starts A (ending at 6) and reserves the
		// node for B at 6; 2.0 backfills C, ending at 3. B starts at 7.
		{"0.5 backfill 0\n1.0 backfill 2\n2.0 backfill\n", []float64{1, 7, 2}},
		// The list ends with a pass cut short at 1.0: the jobs it left
		// wait for decision-interval's next pass, 2.0, not one at 1.0.
		{"1.0 backfill 1\n", []float64{1, 7, 2}},
	} {
		checkStarts(t, c.list, passTimesStarts(t, jobs, c.list), c.want)
	}
}

// TestPassTimesBad: a pass-times file that cannot be read is refused,
// naming the file and line.
func TestPassTimesBad(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ text, want string }{
		{"1 backfill\n2\n", "p:2: \"2\"; want \"SECONDS backfill\", \"SECONDS backfill JOBS\" or \"SECONDS main\""},
		{"1 main 3\n", "p:1: \"1 main 3\"; want"},
		{"1 backfill x\n", "p:1: jobs tested \"x\"; want an integer >= 0"},
		{"1 backfill -2\n", "p:1: jobs tested \"-2\""},
		{"x main\n", "p:1: time \"x\"; want seconds >= 0"},
		{"-1 main\n", "p:1: time \"-1\""},
		{"1 both\n", "p:1: pass \"both\"; want backfill or main"},
		{"2 main\n1 main\n", "p:2: time 1 before the line above's"},
		{"# nothing\n", "p: no pass"},
	} {
		p := filepath.Join(dir, "p")
		if err := os.WriteFile(p, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Policy.Build(map[string]string{"pass-times": p})
		if err == nil || !strings.Contains(err.Error(), "easy.pass-times: "+filepath.Join(dir, c.want)) {
			t.Errorf("%q: error %v; want one containing %q", c.text, err, c.want)
		}
	}
	if _, err := Policy.Build(map[string]string{"pass-times": filepath.Join(dir, "none")}); err == nil || !strings.Contains(err.Error(), "none") {
		t.Errorf("a missing file: error %v", err)
	}
}
