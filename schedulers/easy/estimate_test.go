package easy

import (
	"testing"

	"sojourn/replay"
	"sojourn/replay/replaytest"
)

// TestEasyUserEstimate: a job's estimate is the trace's user estimate when
// it has one (user-estimate=trace, the default; alpha does not apply), the
// synthetic one otherwise or with user-estimate=synthetic.
func TestEasyUserEstimate(t *testing.T) {
	tr := replaytest.Trace(t, replaytest.Job(0).Maps(3, 10).Reduces(1, 20), replaytest.Job(1).Maps(2, 5))
	tr.Jobs[0].Estimate, tr.Jobs[0].HasEstimate = 400, true
	cfg := replay.Config{Nodes: 2, MapSlots: 2, ReduceSlots: 1, Heartbeat: 1}
	for _, c := range []struct {
		opts map[string]string
		want [2]float64
	}{
		{map[string]string{"alpha": "0.5"}, [2]float64{400, -1}},
		{map[string]string{"user-estimate": "synthetic"}, [2]float64{50, 10}},
		{nil, [2]float64{400, 10}},
	} {
		e := replaytest.Build(t, Policy.Build, c.opts).(*Easy)
		replaytest.Run(t, tr, e, cfg)
		for j, want := range c.want {
			if want < 0 {
				continue
			}
			if got, _ := e.Estimate(int32(j)); got != want {
				t.Errorf("%v: job %d estimate %v, want %v", c.opts, j, got, want)
			}
		}
		if c.opts == nil {
			if m, r := e.jobs[0].estimate[0], e.jobs[0].estimate[1]; m != 300 || r != 100 {
				t.Errorf("estimate split %v + %v, want 300 + 100 (by task counts 3 and 1)", m, r)
			}
		}
	}
}
