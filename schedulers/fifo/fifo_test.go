package fifo

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"sojourn/replay"
	"sojourn/swim"
	"sojourn/traces"
)

// Helpers shared by the FIFO and FAIR tests (prefixed ff to keep clear of
// the other policies' test helpers).

// ffJob builds a trace job of the given pool from task durations in
// seconds; its reduces shuffle nothing.
func ffJob(submit float64, pool string, maps, reduces []float64) traces.Job {
	return traces.Job{Submit: submit, Pool: pool, MapDurations: maps, ReduceDurations: reduces,
		ReduceShuffleBytes: make([]int64, len(reduces))}
}

// ffSame returns n copies of d.
func ffSame(n int, d float64) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = d
	}
	return s
}

// ffTrace numbers the jobs in order and validates the trace.
func ffTrace(t testing.TB, jobs ...traces.Job) *traces.Trace {
	t.Helper()
	tr := &traces.Trace{Params: map[string]string{}}
	for i, j := range jobs {
		j.ID, j.Name = int64(i), fmt.Sprintf("job%d", i)
		tr.Jobs = append(tr.Jobs, j)
	}
	if err := tr.Validate(); err != nil {
		t.Fatal(err)
	}
	return tr
}

// ffNew builds a registered policy with the given options.
func ffNew(t testing.TB, name string, opts map[string]string) replay.Scheduler {
	t.Helper()
	s, err := New(name, opts)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// ffRun replays tr with the invariant checker on, recording task segments.
func ffRun(t testing.TB, tr *traces.Trace, s replay.Scheduler, cfg replay.Config) *replay.Result {
	t.Helper()
	cfg.NoInvariantChecks = false
	cfg.RecordTasks = true
	r, err := replay.Run(tr, s, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// ffProfile generates one of the paper's workloads for 100 nodes, seed 1.
func ffProfile(t testing.TB, name string) *traces.Trace {
	t.Helper()
	tr, err := swim.Generate(swim.Config{Profile: name, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// ffRunningAt counts the segments of kind k running at time at (seconds)
// whose job satisfies keep.
func ffRunningAt(r *replay.Result, k replay.TaskKind, at float64, keep func(job int32) bool) int {
	s, n := &r.Segments, 0
	t := replay.Seconds(at)
	for i := range s.Len() {
		if s.Kind[i] == k && s.Start[i] <= t && t < s.End[i] && keep(s.Job[i]) {
			n++
		}
	}
	return n
}

// ffSegment is the part of a task segment the micro-traces check.
type ffSegment struct {
	job   int32
	kind  replay.TaskKind
	task  int32
	start float64
	node  int32
	loc   replay.Locality // maps only
	end   float64
}

func (s ffSegment) String() string {
	loc := ""
	if s.kind == replay.Map {
		loc = " " + s.loc.String()
	}
	return fmt.Sprintf("job %d %s %d on node %d%s: %g..%g", s.job, s.kind, s.task, s.node, loc, s.start, s.end)
}

// ffSegments lists a run's segments in the order they were recorded
// (by end time).
func ffSegments(r *replay.Result) []ffSegment {
	s := &r.Segments
	out := make([]ffSegment, s.Len())
	for i := range out {
		out[i] = ffSegment{job: s.Job[i], kind: s.Kind[i], task: s.Task[i], start: s.Start[i].Sec(),
			node: s.Node[i], end: s.End[i].Sec()}
		if s.Kind[i] == replay.Map {
			out[i].loc = s.Locality[i]
		}
	}
	return out
}

// ffCheckSegments compares a run's segments with the expected ones, in
// any order.
func ffCheckSegments(t *testing.T, r *replay.Result, want []ffSegment) {
	t.Helper()
	got := ffSegments(r)
	missing := map[ffSegment]int{}
	for _, w := range want {
		missing[w]++
	}
	for _, g := range got {
		missing[g]--
	}
	bad := false
	for s, n := range missing {
		if n != 0 {
			bad = true
			t.Errorf("segment %v: expected %d more times", s, n)
		}
	}
	if bad {
		var lines []string
		for _, g := range got {
			lines = append(lines, g.String())
		}
		t.Logf("got:\n%s", strings.Join(lines, "\n"))
	}
}

// TestFIFOHeartbeatRules replays hand-computed micro-traces in which
// JobQueueTaskScheduler's per-heartbeat rules decide the schedule.
func TestFIFOHeartbeatRules(t *testing.T) {
	m, rd := replay.Map, replay.Reduce
	node, off := replay.NodeLocal, replay.OffRack
	// Two nodes in two racks, one replica per block, 4 map and 2 reduce
	// slots per node, heartbeats every 1 s: node 0 at 0, 1, 2, …, node 1 at
	// 0.5, 1.5, …. With seed 4 the four blocks of job 0 all sit on node 1
	// (checked by the node-local maps below). Slow-start 0: reduces may
	// launch at once and wait for the maps; their shuffle is empty.
	twoRacks := replay.Config{Nodes: 2, NodesPerRack: 1, Replication: 1, MapSlots: 4, ReduceSlots: 2,
		Heartbeat: 1, SlowStart: -1, Seed: 4}
	fourMaps := ffTrace(t, ffJob(0, "default", ffSame(4, 10), ffSame(2, 5)))
	cases := []struct {
		name   string
		opts   map[string]string
		cfg    replay.Config
		tr     *traces.Trace
		want   []ffSegment
		finish []float64
	}{{
		// t=0    node 0: load factor 4 maps left / 8 slots = 0.5, so it may run
		//        ceil(0.5×4) = 2 maps. Job 0 has no local map: one off-rack
		//        map (20 s at factor 2) ends the heartbeat's maps. Reduces:
		//        2/4 → ceil(0.5×2) = 1: reduce 0.
		// t=0.5  node 1: 2 node-local maps (10 s) and reduce 1.
		// t=1    node 0: 1 of its 2 allowed maps runs: map 3, off-rack, 1..21.
		// t=21   last map: the reduces take 5 s more: 26.
		name: "off-rack and load factor", cfg: twoRacks, tr: fourMaps,
		want: []ffSegment{
			{0, m, 0, 0, 0, off, 20}, {0, m, 1, 0.5, 1, node, 10.5}, {0, m, 2, 0.5, 1, node, 10.5},
			{0, m, 3, 1, 0, off, 21}, {0, rd, 0, 0, 0, 0, 26}, {0, rd, 1, 0.5, 1, 0, 26}},
		finish: []float64{26},
	}, {
		// Without the load factor node 0 could take 4 maps at t=0, but the
		// off-rack one ends its map assignment; node 1 takes the other
		// three at 0.5. Still one reduce per heartbeat. Maps end at 20.
		name: "off-rack without load factor", opts: map[string]string{"load-factor": "false"}, cfg: twoRacks, tr: fourMaps,
		want: []ffSegment{
			{0, m, 0, 0, 0, off, 20}, {0, m, 1, 0.5, 1, node, 10.5}, {0, m, 2, 0.5, 1, node, 10.5},
			{0, m, 3, 0.5, 1, node, 10.5}, {0, rd, 0, 0, 0, 0, 25}, {0, rd, 1, 0.5, 1, 0, 25}},
		finish: []float64{25},
	}, {
		// One node with 1 map and 3 reduce slots; one map of 1.5 s and three
		// 2 s reduces. One reduce per heartbeat: at 0, 1 and 2. The map ends
		// at 1.5: reduces 0 and 1 end at 3.5; reduce 2, launched after the
		// maps, runs 2..4.
		name: "one reduce per heartbeat",
		cfg:  replay.Config{Nodes: 1, MapSlots: 1, ReduceSlots: 3, Heartbeat: 1, SlowStart: -1, Seed: 1},
		tr:   ffTrace(t, ffJob(0, "default", []float64{1.5}, ffSame(3, 2))),
		want: []ffSegment{
			{0, m, 0, 0, 0, node, 1.5}, {0, rd, 0, 0, 0, 0, 3.5}, {0, rd, 1, 1, 0, 0, 3.5}, {0, rd, 2, 2, 0, 0, 4}},
		finish: []float64{4},
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := ffRun(t, c.tr, ffNew(t, "fifo", c.opts), c.cfg)
			ffCheckSegments(t, r, c.want)
			for i, want := range c.finish {
				if got := r.Jobs[i].Finish.Sec(); math.Abs(got-want) > 1e-9 {
					t.Errorf("job %d finished at %v, want %v", i, got, want)
				}
			}
		})
	}
}

// TestFIFOPadding checks mapred.jobtracker.taskalloc.capacitypad: with the
// cluster nearly full, a heartbeat launches one map only.
func TestFIFOPadding(t *testing.T) {
	// Five nodes (padding needs more than 3), one rack, 2 map slots each;
	// job 0 has 8 long maps and a reduce, job 1 200 maps. Padding at a
	// heartbeat = min(2, ⌊0.5 × 208⌋) = 2 with capacity-pad 0.5: nodes
	// 0..3 see at most 6 running maps, 6+2 < 10, and fill both slots;
	// node 4, at 0.8 s, sees 8 running, 8+2 ≥ 10, and launches one map.
	tr := ffTrace(t, ffJob(0, "default", ffSame(8, 100), []float64{1}), ffJob(0, "default", ffSame(200, 100), nil))
	cfg := replay.Config{Nodes: 5, MapSlots: 2, ReduceSlots: 1, Heartbeat: 1, Seed: 1}
	count := func(opts map[string]string) int {
		r := ffRun(t, tr, ffNew(t, "fifo", opts), cfg)
		return ffRunningAt(r, replay.Map, 0.9, func(int32) bool { return true })
	}
	if got := count(map[string]string{"capacity-pad": "0.5"}); got != 9 {
		t.Errorf("with padding: %d maps running at 0.9 s, want 9", got)
	}
	if got := count(map[string]string{"capacity-pad": "0"}); got != 10 {
		t.Errorf("without padding: %d maps running at 0.9 s, want 10", got)
	}
}

// TestFIFOOptions checks option parsing.
func TestFIFOOptions(t *testing.T) {
	for _, c := range []struct {
		opts map[string]string
		err  string
	}{
		{map[string]string{"load-factor": "maybe"}, "fifo.load-factor"},
		{map[string]string{"capacity-pad": "2"}, "fifo.capacity-pad"},
		{map[string]string{"capacity-pad": "x"}, "fifo.capacity-pad"},
		{map[string]string{"padding": "1"}, `no option "padding"`},
	} {
		if _, err := New("fifo", c.opts); err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%v: error %v, want one naming %s", c.opts, err, c.err)
		}
	}
	if _, err := New("fifo", nil); err != nil {
		t.Errorf("defaults: %v", err)
	}
}

// TestFIFOOnPaperProfiles replays both paper workloads to completion on 100
// nodes with the invariant checker on. FIFO may keep a job waiting for
// all earlier ones, so only completion and sane results are checked.
func TestFIFOOnPaperProfiles(t *testing.T) {
	if testing.Short() {
		t.Skip("long")
	}
	for _, prof := range []string{"fb2009", "fb2010"} {
		t.Run(prof, func(t *testing.T) {
			tr := ffProfile(t, prof)
			r := ffRun(t, tr, ffNew(t, "fifo", nil), replay.Config{Seed: 1})
			for i := range r.Jobs {
				j := &r.Jobs[i]
				if j.Finish < j.Submit || j.FirstLaunch < j.Submit || j.Kills != 0 {
					t.Fatalf("job %d: submit %v, first launch %v, finish %v, kills %d", i, j.Submit, j.FirstLaunch, j.Finish, j.Kills)
				}
			}
			t.Logf("mean sojourn %.1f s, node-local %.1f%%", r.MeanSojourn(), 100*r.NodeLocalFraction())
		})
	}
}
