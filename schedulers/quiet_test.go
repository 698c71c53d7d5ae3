package schedulers

import (
	"testing"

	"sojourn/replay"
	"sojourn/swim"
)

// loud hides a policy's replay.Quieter from the engine, so that every
// node with a free slot where tasks wait reports at each of its grid
// times, as before the engine learnt to skip reports.
type loud struct {
	replay.Scheduler
	start replay.Starter
	pre   replay.Preempter
}

func (l loud) Start(v *replay.View) error              { return l.start.Start(v) }
func (l loud) WantsBusyHeartbeats(v *replay.View) bool { return l.pre.WantsBusyHeartbeats(v) }

// TestQuietReportsChangeNothing replays HFSP with and without its
// Quieter on the paper's workloads and on an overloaded one (400 fb2010
// jobs on the paper's 100 nodes, where reduce slots stay free for long
// stretches): every result must be the same to the microsecond, with far
// fewer heartbeats.
func TestQuietReportsChangeNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("replays HFSP twice on several workloads")
	}
	traces := map[string]swim.Config{
		"fb2009":     {Profile: "fb2009", Seed: 1},
		"fb2010":     {Profile: "fb2010", Seed: 1},
		"fb2010-400": {Profile: "fb2010", Seed: 2, Jobs: 400},
	}
	for _, c := range []struct {
		trace  string
		policy string
		opts   map[string]string
		cfg    replay.Config
		fewer  float64 // at most this share of the loud run's heartbeats
	}{
		{"fb2009", "hfsp", nil, replay.Config{Seed: 1, RecordTasks: true}, 0.2},
		{"fb2010", "hfsp", nil, replay.Config{Seed: 1, RecordTasks: true}, 0.2},
		{"fb2010", "fsp", nil, replay.Config{Seed: 1, RecordTasks: true}, 0.2},
		{"fb2010", "hfsp", map[string]string{"preemption": "kill", "late": "ps"}, replay.Config{Seed: 1, RecordTasks: true}, 0.2},
		{"fb2010", "hfsp", map[string]string{"train-reduce-slots": "1", "delta": "10"}, replay.Config{Seed: 4, SpeedSigma: 0.3, RecordTasks: true}, 0.2},
		{"fb2010-400", "hfsp", nil, replay.Config{Seed: 1, RecordTasks: true}, 0.2},
	} {
		tr, err := swim.Generate(traces[c.trace])
		if err != nil {
			t.Fatal(err)
		}
		quiet, err := replay.Run(tr, build(t, c.policy, c.opts), c.cfg)
		if err != nil {
			t.Fatal(err)
		}
		s := build(t, c.policy, c.opts)
		l, err := replay.Run(tr, loud{s, s.(replay.Starter), s.(replay.Preempter)}, c.cfg)
		if err != nil {
			t.Fatal(err)
		}
		name := c.trace + " " + c.policy
		if dq, dl := digest(quiet), digest(l); dq != dl {
			t.Errorf("%s %v: results with skipped reports differ (digest %s, every report %s)", name, c.opts, dq, dl)
		}
		t.Logf("%s %v: %d heartbeats, %d with every report", name, c.opts, quiet.Stats.Heartbeats, l.Stats.Heartbeats)
		if float64(quiet.Stats.Heartbeats) > c.fewer*float64(l.Stats.Heartbeats) {
			t.Errorf("%s %v: %d heartbeats, more than %.0f%% of the %d with every report", name, c.opts, quiet.Stats.Heartbeats, 100*c.fewer, l.Stats.Heartbeats)
		}
	}
}
