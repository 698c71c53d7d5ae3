package disco

import (
	"strings"
	"testing"

	"sojourn/replay"
	"sojourn/replay/replaytest"
)

// Tests of Disco's preemptive fair scheduler (disco.go, assign.go),
// tied to Souza and Garcia's Section 3.

// TestDiscoKillsForNewJob: 2 nodes of 2 map slots, heartbeats every second
// (node 0 at whole seconds, node 1 half a second later), out-of-band
// heartbeats, every block on both nodes. j0 (0 s) has 8 maps of 100 s, j1
// (10 s) 4 maps of 5 s; both map-only. victim = youngest.
//
//	t=0, 0.5  j0's maps 0, 1 on node 0 and 2, 3 on node 1 (0–100, 0.5–100.5)
//	t=10      j1 arrives; max-min shares of 4 slots: 2 and 2. No slot is
//	          free, so 2 of j0's tasks die: the youngest, 3 then 2, on node 1
//	t=10.5    node 1's heartbeat kills them; j1 has never had a slot: its
//	          maps 0, 1 run 10.5–15.5
//	t=15.5    j1 (0 running < 2) gets both slots again: 15.5–20.5
//	t=20.5    j0 re-runs maps 3, 2 on node 1: 20.5–120.5
//	t=100     node 0: maps 4, 5 (100–200); t=120.5 node 1: 6, 7 (–220.5)
func TestDiscoKillsForNewJob(t *testing.T) {
	tr := replaytest.Trace(t, replaytest.Job(0).Maps(8, 100), replaytest.Job(10).Maps(4, 5))
	cfg := replay.Config{Nodes: 2, NodesPerRack: 2, MapSlots: 2, ReduceSlots: 1, Replication: 2, Heartbeat: 1, OutOfBandHeartbeat: true}
	r := replaytest.Run(t, tr, replaytest.Build(t, Policy.Build, map[string]string{"victim": "youngest"}), cfg)
	replaytest.CheckFinish(t, r, 220.5, 20.5)
	if r.Jobs[0].Kills != 2 || r.Jobs[1].Kills != 0 {
		t.Errorf("kills %d and %d, want 2 and 0", r.Jobs[0].Kills, r.Jobs[1].Kills)
	}
	// (The plain fair scheduler lets j1 wait for j0's first tasks to end:
	// see TestPreemptionMatters in package schedulers.)
	// Random victims: same kill count, seeded (two runs agree).
	a := replaytest.Run(t, tr, replaytest.Build(t, Policy.Build, map[string]string{"seed": "3"}), cfg)
	b := replaytest.Run(t, tr, replaytest.Build(t, Policy.Build, map[string]string{"seed": "3"}), cfg)
	if a.Jobs[0].Kills != 2 || a.Jobs[0].Finish != b.Jobs[0].Finish || a.Jobs[1].Finish.Sec() != 20.5 {
		t.Errorf("random victims: kills %d, finishes %v/%v and %v", a.Jobs[0].Kills, a.Jobs[0].Finish, b.Jobs[0].Finish, a.Jobs[1].Finish)
	}
}

// TestDiscoHoldsBetweenPhases: one node with 2 map slots and 1 reduce
// slot. j0 (0 s) has maps of 10 and 20 s and one reduce of 5 s that
// shuffles 100 MB (1 s at the node's 100 MB/s); j1 (0 s) has 5 maps of
// 10 s and no reduce.
//
//	t=0   shares 1 and 1; neither job has had a slot: j0's map 0 (0–10),
//	      j1's map 0 (0–10)
//	t=10  j0 map 1 (10–30), j1 map 1 (10–20); j0 (all maps launched) is
//	      between phases: its reduce takes the reduce slot (it waits for
//	      the maps)
//	t=20  j1 map 2 (20–30)
//	t=30  j0's maps are done; its shuffle runs 30–31, its reduce 31–36.
//	      The map slot j0 freed is held until 31; j1 gets the other one:
//	      map 3 (30–40)
//	t=31  the hold ends: j1 map 4 (31–41). j1 ends at 41.
//
// Without holding, j1 runs maps 3 and 4 at 30–40 and ends at 40.
func TestDiscoHoldsBetweenPhases(t *testing.T) {
	j0 := replaytest.Job(0).MapDurations(10, 20).ReduceDurations(5).Shuffle(100e6)
	tr := replaytest.Trace(t, j0, replaytest.Job(0).Maps(5, 10))
	cfg := replaytest.OneNode(2, 1)
	replaytest.CheckFinish(t, replaytest.Run(t, tr, replaytest.Build(t, Policy.Build, nil), cfg), 36, 41)
	replaytest.CheckFinish(t, replaytest.Run(t, tr, replaytest.Build(t, Policy.Build, map[string]string{"hold": "false"}), cfg), 36, 40)
}

func TestDiscoOptions(t *testing.T) {
	for opt, val := range map[string]string{"hold": "sometimes", "victim": "oldest", "seed": "x"} {
		if _, err := Policy.Build(map[string]string{opt: val}); err == nil || !strings.Contains(err.Error(), "disco."+opt) {
			t.Errorf("%s = %s: error %v, want one naming disco.%s", opt, val, err, opt)
		}
	}
}
