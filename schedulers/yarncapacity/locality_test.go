package yarncapacity

import (
	"testing"

	"sojourn/replay"
	"sojourn/replay/replaytest"
)

// Delay scheduling, counted in missed scheduling opportunities. Four
// nodes heartbeat at 0, 0.25, 0.5 and 0.75 past each second. Node 0
// holds the job's blocks (one replica each, the seed chosen so) and has
// 2 GiB: the job's AM takes 1 GiB of it at 0 and its 2 GiB maps never fit
// there, so node 0's heartbeats are no opportunity. The 1 GiB nodes are
// too small for a map: no opportunity either. Maps run 10 s node-local,
// 12 s rack-local, 20 s off-rack.

// Node 1 is on node 0's rack, node 2 on another; node 3 (1 GiB) too.
// node-locality-delay 2, rack-locality-additional-delay 5 (off-switch
// after min(4 nodes, 7) = 4): the job declines node 1 at 0.25 (1 missed)
// and node 2 at 0.5 (2 missed), and takes node 1 at 1.25, rack-local,
// after exactly 2 missed opportunities; it ends at 13.25. With
// node-locality-delay 3 it declines node 1 at 1.25 (3 missed) and node 2
// at 1.5 (4: off-switch needs 4 before the offer), and takes node 1, its
// next rack-local offer, at 2.25.
func TestNodeLocalityDelay(t *testing.T) {
	tr := replaytest.Trace(t, replaytest.Job(0).Maps(1, 10).Memory(2*gib))
	cfg := nodes(0, [2]int64{2048, 0}, [2]int64{4096, 0}, [2]int64{4096, 1}, [2]int64{1024, 1})
	cfg.Seed = replaytest.SeedPlacing(t, tr, cfg, 0, []int32{0})
	for _, c := range []struct {
		delay  string
		launch string
		finish float64
	}{
		{"2", "1.25 node 1 launch job 0 map 0", 13.25},
		{"3", "2.25 node 1 launch job 0 map 0", 14.25},
	} {
		r, log := run(t, tr, cfg, map[string]string{"node-locality-delay": c.delay, "rack-locality-additional-delay": "5"})
		replaytest.CheckFinish(t, r, c.finish)
		wantLog(t, log, false, c.launch)
	}
}

// No node on node 0's rack can take a map: node 1 (4 GiB) is on rack 1
// with the 1 GiB nodes 2 and 3. node-locality-delay 1 and
// rack-locality-additional-delay 2: off-switch after min(4, 3) = 3
// missed opportunities, node 1's at 0.25, 1.25 and 2.25: the map runs on
// node 1 from 3.25, off-rack, and the job ends at 23.25. With the
// defaults (40, -1) and two maps on node 0, YARN's locality wait factor
// decides: the job's maps ask for node 0, its rack and "any" (L = 3), so
// with P maps pending a map goes off-switch once missed + 1 > min(4, P ×
// min(1, 2/4)). P = 2: declined at 0.25 (1 > 1 is false), taken at 1.25
// (2 > 1); an off-switch container ends the heartbeat
// (maximum-offswitch-assignments 1), so the second map (P = 1, 3 > 0.5)
// waits for node 1's next heartbeat, 2.25. They end at 21.25 and 22.25.
func TestOffSwitchDelay(t *testing.T) {
	tr := replaytest.Trace(t, replaytest.Job(0).Maps(1, 10).Memory(2*gib))
	cfg := nodes(0, [2]int64{2048, 0}, [2]int64{4096, 1}, [2]int64{1024, 1}, [2]int64{1024, 1})
	cfg.Seed = replaytest.SeedPlacing(t, tr, cfg, 0, []int32{0})
	r, log := run(t, tr, cfg, map[string]string{"node-locality-delay": "1", "rack-locality-additional-delay": "2"})
	replaytest.CheckFinish(t, r, 23.25)
	wantLog(t, log, false, "3.25 node 1 launch job 0 map 0")

	tr = replaytest.Trace(t, replaytest.Job(0).Maps(2, 10).Memory(2*gib))
	cfg.Cluster[1].MemoryMB = 8192
	cfg.Seed = replaytest.SeedPlacing(t, tr, cfg, 0, []int32{0, 0})
	r, log = run(t, tr, cfg, nil)
	replaytest.CheckFinish(t, r, 22.25)
	wantLog(t, log, false, "1.25 node 1 launch job 0 map 0", "2.25 node 1 launch job 0 map 1")
	s := &r.Segments
	for i := range s.Len() {
		if s.Locality[i] != replay.OffRack {
			t.Errorf("map %d ran %v, want off-rack", s.Task[i], s.Locality[i])
		}
	}
}
