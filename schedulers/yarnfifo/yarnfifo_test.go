package yarnfifo

import (
	"strings"
	"testing"

	"sojourn/replay"
	"sojourn/replay/replaytest"
	"sojourn/traces"
)

// Hand-computed micro-traces of the FifoScheduler. Unless a test says
// otherwise: one node, heartbeats every second at 0, 1, 2, …, the minimum
// allocation 1024 MiB and 1 vcore, each job's ApplicationMaster 1024 MiB
// and 1 vcore, no cap on the AMs' share, every block on the one node.

const gib = 1 << 30

func run(t *testing.T, tr *traces.Trace, cfg replay.Config) (*replay.Result, *replaytest.Log) {
	t.Helper()
	s, log := replaytest.Record(replaytest.Build(t, Policy.Build, nil))
	return replaytest.Run(t, tr, s, cfg), log
}

func wantLog(t *testing.T, log *replaytest.Log, want ...string) {
	t.Helper()
	var got []string
	for _, a := range log.Actions {
		got = append(got, a.String())
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("actions:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// Mixed container sizes on an 8 GiB node, three jobs at 0: job 0's maps
// ask for 3 GiB, job 1's for 1 GiB, job 2's for 2 GiB.
//
//   - 0: the three AMs take 3 GiB. Job 0 gets one 3 GiB map (5 GiB left
//     → 2; its second does not fit), job 1 two 1 GiB maps (→ 0), job 2
//     nothing.
//   - 5: job 1's maps end (2 GiB free). Job 0's 3 GiB map does not fit:
//     it is passed over, and job 1 gets its last two maps.
//   - 10: job 0's first map and job 1's last maps end; job 1 is done and
//     its AM leaves: 3 + 2 + 1 = 6 GiB. Job 0's second map (→ 3) and job
//     2's map (→ 1) start.
//
// Job 1 ends at 10, job 2 at 14, job 0 at 20.
func TestPackingMixedSizes(t *testing.T) {
	tr := replaytest.Trace(t,
		replaytest.Job(0).Maps(2, 10).Memory(3*gib),
		replaytest.Job(0).Maps(4, 5).Memory(1*gib),
		replaytest.Job(0).Maps(1, 4).Memory(2*gib))
	r, log := run(t, tr, replaytest.OneNodeManager(8192, 8))
	replaytest.CheckFinish(t, r, 20, 10, 14)
	wantLog(t, log,
		"0 node 0 launch job 0 map 0",
		"0 node 0 launch job 1 map 0",
		"0 node 0 launch job 1 map 1",
		"5 node 0 launch job 1 map 2",
		"5 node 0 launch job 1 map 3",
		"10 node 0 launch job 0 map 1",
		"10 node 0 launch job 2 map 0")
}

// DefaultResourceCalculator: memory alone is counted. A 16 GiB node with
// 2 vcores holds the AM and four maps of one vcore each (5 vcores on 2):
// all four run at 0, sharing the CPUs at 2/5 of their speed, and the job
// ends at 10 / (2/5) = 25.
func TestMemoryOnly(t *testing.T) {
	j := replaytest.Job(0).Maps(4, 10).Memory(1 * gib).Obj()
	j.MapCores = 1
	r, _ := run(t, replaytest.TraceOf(t, j), replaytest.OneNodeManager(16384, 2))
	replaytest.CheckFinish(t, r, 25)
}

// Requests in order: job 0's 5 GiB map never fits beside the two AMs on a
// 6 GiB node while job 1 runs, so its reduce (1 GiB, eligible at once with
// slow-start 0) is not given either, though it would fit: YARN does not
// serve an application's later request before the one that got nothing.
// Job 1's two 1 GiB maps run 0–10; job 1 ends and its AM leaves at 10,
// freeing 5 GiB: job 0's map runs 10–20, then its reduce 20–25. (Had the
// reduce taken 1 GiB at 0, the map would never have fit beside it.)
func TestRequestOrder(t *testing.T) {
	tr := replaytest.Trace(t,
		replaytest.Job(0).Maps(1, 10).MapMemory(5*gib).Reduces(1, 5).ReduceMemory(1*gib),
		replaytest.Job(0).Maps(2, 10).Memory(1*gib))
	cfg := replaytest.OneNodeManager(6144, 8)
	cfg.SlowStart = -1
	r, log := run(t, tr, cfg)
	replaytest.CheckFinish(t, r, 25, 10)
	wantLog(t, log,
		"0 node 0 launch job 1 map 0",
		"0 node 0 launch job 1 map 1",
		"10 node 0 launch job 0 map 0",
		"20 node 0 launch job 0 reduce 0")
}

// Priority before submit time: job 1 (HIGH) is served before job 0
// (NORMAL), both at 0, on a node that holds the two AMs and one map.
// Job 1's map runs 0–10, job 0's 10–20.
func TestPriority(t *testing.T) {
	tr := replaytest.Trace(t,
		replaytest.Job(0).Maps(1, 10).Memory(1*gib),
		replaytest.Job(0).Maps(1, 10).Memory(1*gib).Priority(traces.High))
	r, _ := run(t, tr, replaytest.OneNodeManager(3072, 8))
	replaytest.CheckFinish(t, r, 20, 10)
}

// No delay scheduling: two nodes on two racks, one replica per block.
// The seed puts map 0's block on node 1 and map 1's on node 0. Node 0
// heartbeats at 0 with room for the AM and one map: it takes map 1, the
// node-local one. Node 1 heartbeats at 0.5: map 0 is node-local there.
// Both end 10 s later: the job at 10.5. With 2 GiB maps, node 0 of 3 GiB
// and node 1 of 1 GiB, too small for any map, node 0 takes map 0
// off-rack at 10 when map 1 ends, without waiting: 2 × 10 s, and the job
// ends at 30.
func TestLocalityWithoutDelay(t *testing.T) {
	tr := replaytest.Trace(t, replaytest.Job(0).Maps(2, 10).Memory(1*gib))
	cfg := replay.Config{Model: replay.ContainerModel, Nodes: 2, NodesPerRack: 1, Replication: 1, Heartbeat: 1,
		NodeMemoryMB: 2048, NodeVcores: 8, AMMemoryMB: 1024, MaxAMShare: 1}
	cfg.Seed = replaytest.SeedPlacing(t, tr, cfg, 0, []int32{1, 0})
	r, log := run(t, tr, cfg)
	replaytest.CheckFinish(t, r, 10.5)
	wantLog(t, log, "0 node 0 launch job 0 map 1", "0.5 node 1 launch job 0 map 0")

	tr = replaytest.Trace(t, replaytest.Job(0).Maps(2, 10).Memory(2*gib))
	cfg.Cluster = []replay.NodeSpec{{Rack: 0, MemoryMB: 3072, Vcores: 8}, {Rack: 1, MemoryMB: 1024, Vcores: 8}}
	cfg.Nodes, cfg.NodesPerRack = 0, 0
	cfg.Seed = replaytest.SeedPlacing(t, tr, cfg, 0, []int32{1, 0})
	r, log = run(t, tr, cfg)
	replaytest.CheckFinish(t, r, 30)
	wantLog(t, log, "0 node 0 launch job 0 map 1", "10 node 0 launch job 0 map 0")
	s := &r.Segments
	for i := range s.Len() {
		if s.Task[i] == 0 && s.Locality[i] != replay.OffRack {
			t.Errorf("map 0 ran %v, want off-rack", s.Locality[i])
		}
	}
}

// In the slot model the policy refuses to start.
func TestSlotModelRefused(t *testing.T) {
	tr := replaytest.Trace(t, replaytest.Job(0).Maps(1, 10))
	_, err := replay.Run(tr, replaytest.Build(t, Policy.Build, nil), replay.Config{Nodes: 1})
	if err == nil || !strings.Contains(err.Error(), "container model") {
		t.Fatalf("err = %v; want a refusal naming the container model", err)
	}
}
