package replaytest

import (
	"testing"

	"sojourn/replay"
)

// UpkeepClusters are the clusters on which tests replay a busy trace while
// checking a policy's incremental state: a quiet one, and one with node
// failures, slow nodes, out-of-band heartbeats and room for one suspended
// task per node.
func UpkeepClusters() []replay.Config {
	return []replay.Config{
		{Nodes: 12, NodesPerRack: 4, Seed: 1},
		{Nodes: 12, NodesPerRack: 4, Seed: 2, MTBF: 2000, MTTR: 300, SpeedSigma: 0.3, OutOfBandHeartbeat: true, MaxSuspendedPerNode: 1},
	}
}

// SameJobs fails the test unless two replays gave every job the same
// result, for instance a plain run and one with checks that must change
// nothing; what names the comparison.
func SameJobs(t testing.TB, what string, a, b *replay.Result) {
	t.Helper()
	if len(a.Jobs) != len(b.Jobs) {
		t.Fatalf("%s: %d jobs, then %d", what, len(a.Jobs), len(b.Jobs))
	}
	for i := range a.Jobs {
		if a.Jobs[i] != b.Jobs[i] {
			t.Fatalf("%s: job %d differs: %+v, %+v", what, i, a.Jobs[i], b.Jobs[i])
		}
	}
}

// OneNode is a single node with the given map and reduce slots, a
// heartbeat every second and out-of-band heartbeats, so that a freed slot
// is reused at once and whole-second tasks give exact times.
func OneNode(maps, reduces int) replay.Config {
	return replay.Config{Nodes: 1, NodesPerRack: 1, MapSlots: maps, ReduceSlots: reduces, Heartbeat: 1, OutOfBandHeartbeat: true}
}

// OneNodeManager is a single YARN NodeManager of memMB MiB and vcores
// holding every block, heartbeating at 0, 1, 2, … s, with
// ApplicationMasters of 1024 MiB and 1 vcore and no cap on their share:
// the hand-computed micro-traces of the container model.
func OneNodeManager(memMB, vcores int64) replay.Config {
	return replay.Config{Model: replay.ContainerModel, Nodes: 1, NodesPerRack: 1, Replication: 1, Heartbeat: 1,
		NodeMemoryMB: memMB, NodeVcores: vcores, AMMemoryMB: 1024, MaxAMShare: 1, Seed: 1}
}
