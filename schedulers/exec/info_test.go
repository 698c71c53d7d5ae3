package exec

import (
	"strings"
	"testing"

	"sojourn/replay"
	"sojourn/replay/replaytest"
)

// infoProbe keeps the job-arrived info the protocol would send.
type infoProbe struct{ infos []string }

func (p *infoProbe) Name() string { return "probe" }
func (p *infoProbe) OnEvent(ev replay.Event, v *replay.View) {
	if ev.Kind == replay.JobArrived {
		p.infos = append(p.infos, string(appendJobInfo(nil, v.Job(ev.Job))))
	}
}
func (p *infoProbe) OnHeartbeat(*replay.Heartbeat) error { return nil }

// TestJobInfoUserEstimate: a job's info carries user_estimate when the
// trace has one, and nothing of it otherwise (so the protocol's messages
// for generated traces are unchanged).
func TestJobInfoUserEstimate(t *testing.T) {
	tr := replaytest.Trace(t, replaytest.Job(0).Maps(1, 10), replaytest.Job(1).Maps(1, 5))
	tr.Jobs[1].Estimate, tr.Jobs[1].HasEstimate = 12.5, true
	p := &infoProbe{}
	e, err := replay.New(tr, p, replay.Config{Nodes: 1, MapSlots: 1, ReduceSlots: 1, Heartbeat: 1})
	if err != nil {
		t.Fatal(err)
	}
	for len(p.infos) < 2 {
		if more, err := e.Step(); err != nil || !more {
			t.Fatalf("step: %v, more %v", err, more)
		}
	}
	if strings.Contains(p.infos[0], "user_estimate") {
		t.Errorf("job 0 without estimate: %s", p.infos[0])
	}
	if !strings.HasSuffix(p.infos[1], `"true_work":[5,0],"user_estimate":12.5}`) {
		t.Errorf("job 1: %s", p.infos[1])
	}
}
