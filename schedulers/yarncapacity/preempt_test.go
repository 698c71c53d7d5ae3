package yarncapacity

import (
	"fmt"
	"slices"
	"testing"

	"sojourn/replay"
	"sojourn/replay/replaytest"
)

// The ProportionalCapacityPreemptionPolicy with its defaults: rounds
// every 3 s, kills after 15 s, at most 0.1 of the cluster a round, 0.2 of
// a queue's excess. One 16 GiB node; queues a and b, 50% each (8 GiB),
// user-limit-factor 10. Tasks are 1 GiB.
const preemptQueues = "root.a.capacity = 50\nroot.a.user-limit-factor = 10\nroot.b.capacity = 50\nroot.b.user-limit-factor = 10\n"

// Job 0 in a, at 0: 12 maps of 100 s and 2 reduces of 10 s, eligible at
// once (slow-start 0). At 0 its AM, its 12 maps, then a reduce (an
// off-switch container, which ends the heartbeat); at 1 its other
// reduce: a holds 15 GiB, 7 beyond its guarantee. Job 1 in b at 5: its AM
// takes the last GiB, its 4 maps of 100 s wait.
//
// The first round runs at 5, the first heartbeat since 3 (the node was
// full and nobody waited). Ideal shares: a starts from its 8 GiB
// guarantee and b from its 1 GiB use, 7 GiB left; b, the least served
// (1/8), is offered half (its share of the guarantees of the two queues
// wanting more), 3.5 GiB, and takes them, then 0.5 (of 1.75) reaching
// its 5 GiB of use + pending; a then takes the last 3 GiB: ideal a 11
// GiB, b 5. a should give back 15 − 11 = 4 GiB, more than the round may
// take (1.6 GiB): scaled to 1.6384 GiB, of which 0.2 this round: 328
// MiB. So one container: job 0's youngest map, map 11 (its reduces are
// younger, but maps, MapReduce's lower request priority, go first),
// marked at 5 and selected again every 3 s, is killed at the round at 21,
// the first at least 15 s after its mark, and job 1's first map takes
// its place at once. The rounds from 24 find a's excess smaller each time
// (3 GiB at 24, scaled to 1.6384 again; 2 at 42, scaled to 1.6384; 1 at
// 60, 205 MiB): maps 10, 9 and 8 are killed at 39, 57 and 75 and job 1's
// maps start then. At 78 b wants nothing more: no further kill.
//
// Job 1 ends at 175. Job 0's first 8 maps end at 100, its 4 killed maps
// run again from 100 to 200, and its reduces then: it ends at 210.
func TestPreemptionTimingAndVictims(t *testing.T) {
	tr := replaytest.Trace(t,
		replaytest.Job(0).Pool("a").Maps(12, 100).Reduces(2, 10).Memory(1*gib),
		replaytest.Job(5).Pool("b").Maps(4, 100).Memory(1*gib))
	cfg := replaytest.OneNodeManager(16384, 16)
	cfg.SlowStart = -1
	r, log := run(t, tr, cfg, map[string]string{"queues": preemptQueues, "preemption": "true"})
	replaytest.CheckFinish(t, r, 210, 175)
	var want []string
	for i := range 12 {
		want = append(want, fmt.Sprintf("0 node 0 launch job 0 map %d", i))
	}
	want = append(want,
		"0 node 0 launch job 0 reduce 0",
		"1 node 0 launch job 0 reduce 1",
		"21 node 0 kill job 0 map 11",
		"21 node 0 launch job 1 map 0",
		"39 node 0 kill job 0 map 10",
		"39 node 0 launch job 1 map 1",
		"57 node 0 kill job 0 map 9",
		"57 node 0 launch job 1 map 2",
		"75 node 0 kill job 0 map 8",
		"75 node 0 launch job 1 map 3")
	wantLog(t, log, true, want...)
	if n := log.Count(replay.TaskKilled); n != 4 {
		t.Errorf("%d kills, want 4", n)
	}
	if at := actionsAt(log, 100); len(at) != 4 {
		t.Errorf("launches at 100: %v; want job 0's 4 killed maps", at)
	}
}

// Victims come from the apps last in the leaf's order. Jobs 0 (at 0, 9
// maps) and 1 (at 1, 4 maps) in a hold 15 GiB when job 2 (b) arrives at
// 5, as above: the round at 5 takes one container back, killed at 21.
// FIFO order: job 1, the later, gives its youngest map, map 3. Fair
// order: job 0, which uses more memory (10 GiB against 5), gives its
// youngest, map 8, though job 1's maps are younger.
func TestPreemptionVictimOrder(t *testing.T) {
	tr := replaytest.Trace(t,
		replaytest.Job(0).Pool("a").Maps(9, 100).Memory(1*gib),
		replaytest.Job(1).Pool("a").Maps(4, 100).Memory(1*gib),
		replaytest.Job(5).Pool("b").Maps(4, 100).Memory(1*gib))
	for policy, victim := range map[string]string{"fifo": "21 node 0 kill job 1 map 3", "fair": "21 node 0 kill job 0 map 8"} {
		_, log := run(t, tr, replaytest.OneNodeManager(16384, 16), map[string]string{"queues": preemptQueues, "preemption": "true", "ordering-policy": policy})
		if at := actionsAt(log, 21); !slices.Equal(at, []string{victim, "21 node 0 launch job 2 map 0"}) {
			t.Errorf("%s: actions at 21: %v; want %s, then job 2's map", policy, at, victim)
		}
	}
}
