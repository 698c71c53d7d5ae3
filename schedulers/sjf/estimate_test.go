package sjf

import (
	"testing"

	"sojourn/replay"
	"sojourn/replay/replaytest"
)

// TestSJFSizeEstimate: with size=estimate a job's size is the trace's
// user estimate, and its true work for a job without one.
func TestSJFSizeEstimate(t *testing.T) {
	tr := replaytest.Trace(t, replaytest.Job(0).Maps(3, 10), replaytest.Job(1).Maps(2, 5))
	tr.Jobs[0].Estimate, tr.Jobs[0].HasEstimate = 7, true
	cfg := replay.Config{Nodes: 1, MapSlots: 2, ReduceSlots: 2, Heartbeat: 1}
	s := replaytest.Build(t, Policy.Build, map[string]string{"size": "estimate"}).(*SJF)
	replaytest.Run(t, tr, s, cfg)
	if s.size[0] != 7 || s.size[1] != 10 {
		t.Errorf("sizes %v, want [7 10] (the estimate, then the work of a job without one)", s.size)
	}
	w := replaytest.Build(t, Policy.Build, nil).(*SJF)
	replaytest.Run(t, tr, w, cfg)
	if w.size[0] != 30 {
		t.Errorf("size=work: job 0 has size %v with an estimate in the trace, want its work 30", w.size[0])
	}
}
