package fifo

import (
	"math"
	"strings"
	"testing"

	"sojourn/replay"
	"sojourn/replay/replaytest"
	"sojourn/traces"
)

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
	fourMaps := replaytest.Trace(t, replaytest.Job(0).Maps(4, 10).Reduces(2, 5))
	cases := []struct {
		name   string
		opts   map[string]string
		cfg    replay.Config
		tr     *traces.Trace
		want   []replaytest.Segment
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
		want: []replaytest.Segment{
			replaytest.Seg(0, m, 0, 0, 0, off, 20), replaytest.Seg(0, m, 1, 0.5, 1, node, 10.5), replaytest.Seg(0, m, 2, 0.5, 1, node, 10.5),
			replaytest.Seg(0, m, 3, 1, 0, off, 21), replaytest.Seg(0, rd, 0, 0, 0, 0, 26), replaytest.Seg(0, rd, 1, 0.5, 1, 0, 26)},
		finish: []float64{26},
	}, {
		// Without the load factor node 0 could take 4 maps at t=0, but the
		// off-rack one ends its map assignment; node 1 takes the other
		// three at 0.5. Still one reduce per heartbeat. Maps end at 20.
		name: "off-rack without load factor", opts: map[string]string{"load-factor": "false"}, cfg: twoRacks, tr: fourMaps,
		want: []replaytest.Segment{
			replaytest.Seg(0, m, 0, 0, 0, off, 20), replaytest.Seg(0, m, 1, 0.5, 1, node, 10.5), replaytest.Seg(0, m, 2, 0.5, 1, node, 10.5),
			replaytest.Seg(0, m, 3, 0.5, 1, node, 10.5), replaytest.Seg(0, rd, 0, 0, 0, 0, 25), replaytest.Seg(0, rd, 1, 0.5, 1, 0, 25)},
		finish: []float64{25},
	}, {
		// One node with 1 map and 3 reduce slots; one map of 1.5 s and three
		// 2 s reduces. One reduce per heartbeat: at 0, 1 and 2. The map ends
		// at 1.5: reduces 0 and 1 end at 3.5; reduce 2, launched after the
		// maps, runs 2..4.
		name: "one reduce per heartbeat",
		cfg:  replay.Config{Nodes: 1, MapSlots: 1, ReduceSlots: 3, Heartbeat: 1, SlowStart: -1, Seed: 1},
		tr:   replaytest.Trace(t, replaytest.Job(0).MapDurations(1.5).Reduces(3, 2)),
		want: []replaytest.Segment{
			replaytest.Seg(0, m, 0, 0, 0, node, 1.5), replaytest.Seg(0, rd, 0, 0, 0, 0, 3.5), replaytest.Seg(0, rd, 1, 1, 0, 0, 3.5), replaytest.Seg(0, rd, 2, 2, 0, 0, 4)},
		finish: []float64{4},
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := replaytest.Run(t, c.tr, replaytest.Build(t, Policy.Build, c.opts), c.cfg)
			replaytest.CheckSegments(t, r, c.want)
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
	tr := replaytest.Trace(t, replaytest.Job(0).Maps(8, 100).ReduceDurations(1), replaytest.Job(0).Maps(200, 100))
	cfg := replay.Config{Nodes: 5, MapSlots: 2, ReduceSlots: 1, Heartbeat: 1, Seed: 1}
	count := func(opts map[string]string) int {
		r := replaytest.Run(t, tr, replaytest.Build(t, Policy.Build, opts), cfg)
		return replaytest.RunningAt(r, replay.Map, 0.9, func(int32) bool { return true })
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
		if _, err := Policy.Build(c.opts); err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%v: error %v, want one naming %s", c.opts, err, c.err)
		}
	}
	if _, err := Policy.Build(nil); err != nil {
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
			tr := replaytest.Profile(t, prof)
			r := replaytest.Run(t, tr, replaytest.Build(t, Policy.Build, nil), replay.Config{Seed: 1})
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
