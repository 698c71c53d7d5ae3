package hfsp

import (
	"testing"

	"sojourn/replay"
	"sojourn/replay/replaytest"
)

// In the container model FSP sizes a phase in container-seconds of the
// dominant resource. One node of 6 GiB (minimum container 1 GiB), both
// jobs' ApplicationMasters (1 GiB each) at 0, leaving 4 GiB. Job 0: one
// 10 s map in a 4 GiB container, 40 container-seconds (10 task-seconds);
// job 1: three 12 s maps of 1 GiB, 36 container-seconds (36 task-seconds).
// In container-seconds job 1 is the smaller: its three maps run 0-12 and
// job 0's map, which does not fit beside them, 12-22. Sized in
// task-seconds job 0 would go first (0-10) and job 1 run 10-22.
func TestFSPSizesInContainerSeconds(t *testing.T) {
	tr := replaytest.Trace(t, replaytest.Job(0).Maps(1, 10).MapMemory(4<<30), replaytest.Job(0).Maps(3, 12).MapMemory(1<<30))
	cfg := replay.Config{Model: replay.ContainerModel, Nodes: 1, NodesPerRack: 1, Replication: 1, Heartbeat: 1,
		NodeMemoryMB: 6 << 10, NodeVcores: 8, AMMemoryMB: 1024, MaxAMShare: 1}
	r := replaytest.Run(t, tr, replaytest.Build(t, FSPPolicy.Build, nil), cfg)
	replaytest.CheckFinish(t, r, 22, 12)
}
