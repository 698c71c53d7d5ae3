package hfsp

import (
	"testing"

	"sojourn/replay"
	"sojourn/replay/replaytest"
)

// sizeProbe records each phase's initial size when its job arrives.
type sizeProbe struct {
	*HFSP
	initial map[int32][2]float64
}

func (p sizeProbe) OnEvent(ev replay.Event, v *replay.View) {
	p.HFSP.OnEvent(ev, v)
	if ev.Kind == replay.JobArrived {
		p.initial[ev.Job] = p.jobs[ev.Job].estimate
	}
}

// TestHFSPInitialSizeEstimate: with initial-size=estimate a phase starts
// at the user's estimate shared by task count; without an estimate, or
// by default, at ξ·k·l.
func TestHFSPInitialSizeEstimate(t *testing.T) {
	tr := replaytest.Trace(t, replaytest.Job(0).Maps(3, 10).Reduces(1, 20), replaytest.Job(1).Maps(2, 5))
	tr.Jobs[0].Estimate, tr.Jobs[0].HasEstimate = 400, true
	cfg := replay.Config{Nodes: 2, MapSlots: 2, ReduceSlots: 1, Heartbeat: 1}
	for _, c := range []struct {
		opt  string
		want map[int32][2]float64
	}{
		{"estimate", map[int32][2]float64{0: {300, 100}, 1: {2 * 60, 0}}},
		{"xi", map[int32][2]float64{0: {3 * 60, 60}, 1: {2 * 60, 0}}},
	} {
		h := replaytest.Build(t, Policy.Build, map[string]string{"initial-size": c.opt}).(*HFSP)
		p := sizeProbe{h, map[int32][2]float64{}}
		replaytest.Run(t, tr, p, cfg)
		for j, want := range c.want {
			if got := p.initial[j]; got != want {
				t.Errorf("initial-size=%s: job %d starts at %v, want %v", c.opt, j, got, want)
			}
		}
	}
}
