package easy

import (
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"

	"sojourn/replay"
	"sojourn/replay/replaytest"
	"sojourn/replay/scenario"
	"sojourn/traces"
	"sojourn/traces/formats"
)

// Tests of the backfilling variants (plan.go): reservations,
// node-granular, end-at-shadow and decision-interval, checked against
// Slurm's src/plugins/sched/backfill/backfill.c (_attempt_backfill, as
// read at commit 008acfac of SchedMD/slurm).

// rigid is an SWF-like job submitted at 0: w maps of d seconds, rigid
// (width w), without input, with the exact estimate (run time d).
func rigid(w int, d float64) traces.Job {
	return replaytest.Job(0).Maps(w, d).Rigid().Input(0).Obj()
}

// run replays the jobs on one node of 16 map slots with heartbeats every
// second and out of band, and returns each job's start and finish.
func runRigid(t *testing.T, opts map[string]string, jobs ...traces.Job) (start, finish []float64) {
	t.Helper()
	r := replaytest.Run(t, replaytest.TraceOf(t, jobs...), replaytest.Build(t, Policy.Build, opts), replaytest.OneNode(16, 1))
	for _, j := range r.Jobs {
		start = append(start, j.FirstLaunch.Sec())
		finish = append(finish, j.Finish.Sec())
	}
	return start, finish
}

func checkStarts(t *testing.T, what string, got, want []float64) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s: starts %v, want %v", what, got, want)
	}
}

// TestReservations: one node of 16 slots, six rigid jobs at t = 0 in
// queue order, exact estimates:
//
//	A: width 12, 10 s   B: width 8, 10 s    C: width 14, 10 s
//	D: width 16, 10 s   Y: width 4, 25 s    Z: width 2, 35 s
//
// A starts at 0 (4 slots free until 10). Slurm gives the first jobs
// that cannot start a reservation, up to bf_job_part_count_reserve of
// them ("if (_check_bf_usage(...resv_usage, bf_job_part_count_reserve,
// ...)) job_no_reserve = TEST_NOW_ONLY;" and "resv_usage->count++"
// before _add_reservation); the others may only start now without
// overlapping one.
//
// reservations=all (conservative backfilling, Slurm's default), at 0:
// B at 10 (free 8 on 10–20); C needs 14: not at 10 (8), at 20 (free 2
// on 20–30); D at 30 (free 0 on 30–40); Y (4 for 25 s) not now (2 on
// 20–25), nor at 10, 20, 30 (D), so at 40 (free 12 on 40–65); Z (2 for
// 35 s) not now (0 on 30–35), so at 40 too. Estimates are exact, so
// every later pass finds the same plan: B 10, C 20, D 30, Y 40, Z 40.
//
// reservations=2: at 0, B at 10 and C at 20 hold reservations; D and Y
// cannot start now (Y would hold 4 of the 2 slots C leaves on 20–25);
// Z can: 4, 8, 2 free on 0–10, 10–20, 20–30 and D holds nothing on
// 30–35, so Z runs 0–35. At 10, 14 free: B starts; C gets 20 (14 free
// once B ends, Z still holding 2). At 20 C starts; D, now the first job
// that cannot start, gets 35 (Z's end), Y 45 (after D). D runs 35–45,
// Y 45–70.
//
// reservations=1 (EASY): at 0 only B holds one, at the shadow time 10
// with 16 − 8 = 8 extra slots: Y fits now and uses 4 of them (0–25). At
// 10, 12 free: B starts; head C's shadow is 25 (Y's end: 16 free), 2
// extra: Z fits in the 4 free now and uses them, 10–45. C runs 25–35;
// D, needing all 16, waits for Z: 45–55.
func TestReservations(t *testing.T) {
	jobs := []traces.Job{rigid(12, 10), rigid(8, 10), rigid(14, 10), rigid(16, 10), rigid(4, 25), rigid(2, 35)}
	for _, c := range []struct {
		n    string
		want []float64
	}{
		{"all", []float64{0, 10, 20, 30, 40, 40}},
		{"2", []float64{0, 10, 20, 35, 45, 0}},
		{"1", []float64{0, 10, 25, 45, 0, 10}},
	} {
		for _, order := range []string{"fcfs", "sjf"} {
			start, _ := runRigid(t, map[string]string{"reservations": c.n, "backfill-order": order}, jobs...)
			checkStarts(t, "reservations="+c.n+" "+order, start, c.want)
		}
	}
	// A reservation count past the queue is conservative backfilling.
	start, _ := runRigid(t, map[string]string{"reservations": "6"}, jobs...)
	checkStarts(t, "reservations=6", start, []float64{0, 10, 20, 30, 40, 40})
}

// TestEndAtShadow: A (width 12, 10 s) runs; B (16, 10 s) is the head,
// shadow time 10, no extra slot; C (4, 10 s) fits now and would end at
// 10, exactly the shadow time. EASY backfills it (it ends by the shadow
// time): C 0–10, B 10–20. Slurm refuses it: the reservation's
// node_space record begins at C's end, and the candidate's nodes are
// intersected with every record that is not over before it starts and
// begins no later than it ends ("if (node_space[j].end_time <=
// start_res) ; else if (node_space[j].begin_time <= end_time)
// bit_and(avail_bitmap, node_space[j].avail_bitmap);"), so C waits: B
// 10–20, C 20–30. A job ending one second earlier is backfilled either
// way.
func TestEndAtShadow(t *testing.T) {
	jobs := []traces.Job{rigid(12, 10), rigid(16, 10), rigid(4, 10)}
	start, _ := runRigid(t, nil, jobs...)
	checkStarts(t, "allow", start, []float64{0, 10, 0})
	start, _ = runRigid(t, map[string]string{"end-at-shadow": "refuse"}, jobs...)
	checkStarts(t, "refuse", start, []float64{0, 10, 20})
	start, _ = runRigid(t, map[string]string{"end-at-shadow": "refuse", "reservations": "all"}, jobs...)
	checkStarts(t, "refuse, conservative", start, []float64{0, 10, 20})
	jobs[2] = rigid(4, 9)
	start, _ = runRigid(t, map[string]string{"end-at-shadow": "refuse"}, jobs...)
	checkStarts(t, "refuse, ends at 9", start, []float64{0, 10, 0})
}

// TestNodeGranular: A (width 12, 10 s) runs; B (8, 10 s), the head, has
// its shadow time at 10 with 8 extra slots; C (4, 20 s) fits in the 4
// free now. Counting slots, C uses extra slots and runs 0–20 beside B
// (10–20). Slurm's reservation takes B's node out of node_space from 10
// to 20, all of it ("bit_and_not(node_space[j].avail_bitmap,
// res_bitmap)" in _add_reservation): C, which would still run at 10,
// cannot start. At 10 B starts (its 8 slots) and C, now alone in the
// queue, starts beside it in the 8 slots left: running jobs hold only
// their CPUs (a job that is not whole-node stays out of node_space:
// "if (!whole && !licenses) return" in _bf_reserve_running). C 10–30.
func TestNodeGranular(t *testing.T) {
	jobs := []traces.Job{rigid(12, 10), rigid(8, 10), rigid(4, 20)}
	start, _ := runRigid(t, nil, jobs...)
	checkStarts(t, "slots", start, []float64{0, 10, 0})
	start, _ = runRigid(t, map[string]string{"node-granular": "true"}, jobs...)
	checkStarts(t, "node-granular", start, []float64{0, 10, 10})
	// On two nodes of 8 slots B's reservation is one whole node: C fits
	// in the other's 4 free slots and is admitted at 0 again (it
	// launches at that node's first heartbeat, at 0.5).
	tr := replaytest.TraceOf(t, jobs...)
	cfg := replay.Config{Nodes: 2, NodesPerRack: 2, MapSlots: 8, ReduceSlots: 1, Heartbeat: 1, OutOfBandHeartbeat: true}
	r := replaytest.Run(t, tr, replaytest.Build(t, Policy.Build, map[string]string{"node-granular": "true"}), cfg)
	if s := r.Jobs[2].FirstLaunch.Sec(); s != 0.5 {
		t.Errorf("two nodes, node-granular: C starts at %v, want 0.5", s)
	}
}

// TestDecisionInterval: two jobs of width 16, 10 s, at 0. Deciding at
// every instant, they run 0–10 and 10–20. With decision-interval 1, the
// arrivals at 0 are decided at 1 and the end at 11 at 12: 1–11, 12–22,
// Slurm's lag of a pass after each change (backfill_agent passes at most
// every bf_interval: "if ((wait_time < backfill_interval) || ...
// !_more_work(last_backfill_time))"). With 5: 5–15, 20–30.
func TestDecisionInterval(t *testing.T) {
	jobs := []traces.Job{rigid(16, 10), rigid(16, 10)}
	for _, c := range []struct {
		d    string
		want []float64
	}{{"0", []float64{0, 10}}, {"1", []float64{1, 12}}, {"5", []float64{5, 20}}} {
		start, _ := runRigid(t, map[string]string{"decision-interval": c.d}, jobs...)
		checkStarts(t, "decision-interval="+c.d, start, c.want)
	}
	// decision-phase 0.6: passes at 0.6, 1.6, …, as Slurm's fall at a
	// fixed fraction of the second; heartbeats every 0.1 s launch at the
	// pass. The arrivals at 0 are decided at 0.6 (0.6–10.6); the end at
	// 10.6, on a pass's instant, is a change at 10.6, decided by the next
	// pass, 11.6.
	cfg := replay.Config{Nodes: 1, NodesPerRack: 1, MapSlots: 16, ReduceSlots: 1, Heartbeat: 0.1}
	opts := map[string]string{"decision-interval": "1", "decision-phase": "0.6"}
	r := replaytest.Run(t, replaytest.TraceOf(t, jobs...), replaytest.Build(t, Policy.Build, opts), cfg)
	checkStarts(t, "decision-interval=1, decision-phase=0.6", []float64{r.Jobs[0].FirstLaunch.Sec(), r.Jobs[1].FirstLaunch.Sec()}, []float64{0.6, 11.6})
}

// TestPlanMatchesEASY: with one reservation, slots and ends allowed at
// the shadow time, the profile's pass (plan) and EASY's constant-time
// pass give byte-identical results on an SWF-like workload (rigid jobs,
// the users' requested times, coincident whole-second events). They
// differ only where admitted jobs tie at the shadow time: EASY as
// published accumulates the running jobs' processors in order of
// expected end until the head fits, and its extra processors are those
// accumulated then, while the profile frees every job of that end (and
// every job past its end) at once; the FB-2009 day has such ties.
func TestPlanMatchesEASY(t *testing.T) {
	swf := scenario.SWFLike(3, 300, 64, 0.95)
	cases := []struct {
		tr  *traces.Trace
		cfg replay.Config
	}{
		{swf, replay.Config{Nodes: 4, NodesPerRack: 4, MapSlots: 16, ReduceSlots: 1, Heartbeat: 1, OutOfBandHeartbeat: true, RecordTasks: true}},
	}
	for i, c := range cases {
		for _, order := range []string{"sjf", "fcfs"} {
			fast := replaytest.Build(t, Policy.Build, map[string]string{"backfill-order": order}).(*Easy)
			planned := replaytest.Build(t, Policy.Build, map[string]string{"backfill-order": order}).(*Easy)
			planned.o.profiled = true
			a := replaytest.Run(t, c.tr, fast, c.cfg)
			b := replaytest.Run(t, c.tr, planned, c.cfg)
			if !reflect.DeepEqual(a.Jobs, b.Jobs) || !reflect.DeepEqual(a.Segments, b.Segments) {
				t.Errorf("case %d, %s: the planned pass differs from EASY's", i, order)
			}
		}
	}
}

// TestVariantOptions: bad values name the option.
func TestVariantOptions(t *testing.T) {
	for opt, val := range map[string]string{"reservations": "0", "node-granular": "maybe",
		"end-at-shadow": "sometimes", "decision-interval": "-1"} {
		if _, err := Policy.Build(map[string]string{opt: val}); err == nil || !strings.Contains(err.Error(), "easy."+opt) {
			t.Errorf("%s = %s: error %v, want one naming easy.%s", opt, val, err, opt)
		}
	}
	for _, val := range []string{"-3", "x"} {
		if _, err := Policy.Build(map[string]string{"reservations": val}); err == nil {
			t.Errorf("reservations = %s accepted", val)
		}
	}
}

// TestSWFJobsAreRigid: an SWF log's jobs replay as rigid jobs with no
// flag: the importer marks them (the trace's rigid column), and easy
// gives each the width of all its processors, as EASY does.
func TestSWFJobsAreRigid(t *testing.T) {
	swf := "; SWF\n1 0 0 10 4 -1 -1 4 20 -1 1 1 1 -1 1 -1 -1 -1\n2 0 0 10 8 -1 -1 8 20 -1 1 1 1 -1 1 -1 -1 -1\n"
	tr, err := swfRead(t, swf)
	if err != nil {
		t.Fatal(err)
	}
	for i, j := range tr.Jobs {
		if !j.Rigid {
			t.Errorf("SWF job %d is not rigid", i)
		}
	}
	e := replaytest.Build(t, Policy.Build, nil).(*Easy)
	replaytest.Run(t, tr, e, replaytest.OneNode(16, 1))
	if w := e.jobs[1].width[0]; w != 8 {
		t.Errorf("SWF job of 8 processors has width %d, want 8", w)
	}
}

// swfRead imports an SWF log as bench import does.
func swfRead(t *testing.T, text string) (*traces.Trace, error) {
	t.Helper()
	src, err := formats.NewSWF(strings.NewReader(text), formats.Options{})
	if err != nil {
		return nil, err
	}
	tr := &traces.Trace{Params: src.Params()}
	for {
		var j traces.Job
		err := src.Next(&j)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		j.ID = int64(len(tr.Jobs))
		tr.Jobs = append(tr.Jobs, j)
	}
	return tr, tr.Validate()
}
