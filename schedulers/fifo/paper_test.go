package fifo

import (
	"testing"

	"sojourn/replay"
	"sojourn/replay/replaytest"
)

// Tests of FIFO tied to the sentences that define it: the HFSP paper's
// Section 2.2 (Pastorelli et al., "Practical Size-based Scheduling for
// MapReduce Workloads"). Every replay runs with the engine's invariant
// checker on.

// "The default scheduler in Hadoop implements a FIFO policy: the whole
// cluster is dedicated to individual jobs in sequence" (Section 2.2; fair's
// TestPaperFairShares checks FAIR on this trace).
func TestPaperFIFODedicatesCluster(t *testing.T) {
	tr := replaytest.Trace(t, replaytest.Job(0).Maps(100, 10), replaytest.Job(5).Maps(100, 10))
	cfg := replay.Config{Nodes: 10, MapSlots: 3, ReduceSlots: 1, Heartbeat: 1, Seed: 1}
	lastStart := func(r *replay.Result, job int32) (last replay.Time) {
		for i := range r.Segments.Len() {
			if r.Segments.Job[i] == job {
				last = max(last, r.Segments.Start[i])
			}
		}
		return last
	}
	fifo := replaytest.Run(t, tr, replaytest.Build(t, Policy.Build, nil), cfg)
	if fifo.Jobs[1].FirstLaunch < lastStart(fifo, 0) {
		t.Errorf("fifo: job 1 launched at %v, before job 0's last map at %v", fifo.Jobs[1].FirstLaunch, lastStart(fifo, 0))
	}
}

// "for Map tasks, once the scheduler chooses a job, it will select
// greedily the more suitable task to achieve data locality" (Section 2.2).
// One job of 2000 maps on 100 nodes: every tracker finds a local block of
// the head job almost until the end.
func TestPaperFIFOGreedyLocality(t *testing.T) {
	tr := replaytest.Trace(t, replaytest.Job(0).Maps(2000, 30))
	r := replaytest.Run(t, tr, replaytest.Build(t, Policy.Build, nil), replay.Config{Nodes: 100, Seed: 1})
	if f := r.NodeLocalFraction(); f < 0.9 {
		t.Errorf("node-local fraction %.3f, want >= 0.9", f)
	}
}

// TestFIFOMicroTrace replays fair's TestFairMicroTrace under Hadoop's
// FIFO. One node (all maps node-local), 2 map slots, 1 reduce slot,
// heartbeats every 1 s, slow-start 5% (one finished map of job 0). Job 0
// (4 maps of 4 s, 1 reduce of 3 s) arrives at 0, job 1 (2 maps of 2 s) at
// 1.5. FIFO runs job 0's maps first: maps 0, 1 at 0..4, maps 2, 3 at 4..8
// with its reduce launched at 4 (past slow-start) ending 3 s after the
// last map, at 11; job 1's maps run 8..10.
func TestFIFOMicroTrace(t *testing.T) {
	m, rd, loc := replay.Map, replay.Reduce, replay.NodeLocal
	tr := replaytest.Trace(t,
		replaytest.Job(0).Maps(4, 4).ReduceDurations(3),
		replaytest.Job(1.5).Maps(2, 2))
	cfg := replay.Config{Nodes: 1, MapSlots: 2, ReduceSlots: 1, Heartbeat: 1, Seed: 1}
	r := replaytest.Run(t, tr, replaytest.Build(t, Policy.Build, nil), cfg)
	replaytest.CheckSegments(t, r, []replaytest.Segment{
		replaytest.Seg(0, m, 0, 0, 0, loc, 4), replaytest.Seg(0, m, 1, 0, 0, loc, 4), replaytest.Seg(0, m, 2, 4, 0, loc, 8),
		replaytest.Seg(0, m, 3, 4, 0, loc, 8), replaytest.Seg(0, rd, 0, 4, 0, 0, 11), replaytest.Seg(1, m, 0, 8, 0, loc, 10),
		replaytest.Seg(1, m, 1, 8, 0, loc, 10)})
	for i, want := range []float64{11, 10} {
		if got := r.Jobs[i].Finish.Sec(); got != want {
			t.Errorf("job %d finished at %v, want %v", i, got, want)
		}
	}
}
