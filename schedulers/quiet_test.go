package schedulers

import (
	"math/rand/v2"
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

// TestQuietRandomClusters: HFSP with and without its Quieter on 24 random
// small clusters (nodes, slots, racks, heartbeat interval, node speeds)
// and random HFSP options, on 60 fb2010 jobs that overload most of them:
// the results must be the same in every case.
func TestQuietRandomClusters(t *testing.T) {
	if testing.Short() {
		t.Skip("about 10 s")
	}
	for seed := uint64(1); seed <= 24; seed++ {
		rng := rand.New(rand.NewPCG(seed, 11))
		tr, err := swim.Generate(swim.Config{Profile: "fb2010", Seed: seed, Jobs: 60, MeanGap: 5 + 40*rng.Float64()})
		if err != nil {
			t.Fatal(err)
		}
		cfg := replay.Config{Seed: seed, RecordTasks: true,
			Nodes: 3 + rng.IntN(40), NodesPerRack: 1 + rng.IntN(10),
			MapSlots: 1 + rng.IntN(6), ReduceSlots: 1 + rng.IntN(4),
			Heartbeat: []float64{0.3, 1, 3, 7.5}[rng.IntN(4)]}
		if rng.IntN(2) == 0 {
			cfg.SpeedSigma = 0.4
		}
		opts := map[string]string{
			"preemption":         []string{"eager", "wait", "kill"}[rng.IntN(3)],
			"late":               []string{"fifo", "ps"}[rng.IntN(2)],
			"reduce-aging":       []string{"after-maps", "at-arrival"}[rng.IntN(2)],
			"train-reduce-slots": []string{"-1", "0", "1", "3"}[rng.IntN(4)],
			"delta":              []string{"5", "60", "300"}[rng.IntN(3)],
			"samples":            []string{"1", "5"}[rng.IntN(2)],
			"locality-delay":     []string{"-1", "0", "20"}[rng.IntN(3)],
		}
		policy := []string{"hfsp", "fsp"}[rng.IntN(2)]
		if policy == "fsp" {
			for _, k := range []string{"train-reduce-slots", "delta", "samples"} {
				delete(opts, k)
			}
		}
		quiet, err := replay.Run(tr, build(t, policy, opts), cfg)
		if err != nil {
			t.Fatalf("seed %d %s %v: %v", seed, policy, opts, err)
		}
		s := build(t, policy, opts)
		l, err := replay.Run(tr, loud{s, s.(replay.Starter), s.(replay.Preempter)}, cfg)
		if err != nil {
			t.Fatalf("seed %d %s %v, every report: %v", seed, policy, opts, err)
		}
		if digest(quiet) != digest(l) {
			t.Errorf("seed %d %s %v on %d nodes (%d+%d slots, heartbeat %v s): results with skipped reports differ",
				seed, policy, opts, cfg.Nodes, cfg.MapSlots, cfg.ReduceSlots, cfg.Heartbeat)
		}
		t.Logf("seed %d %s: %d heartbeats, %d with every report", seed, policy, quiet.Stats.Heartbeats, l.Stats.Heartbeats)
	}
}
