package sweep

import (
	"testing"

	"sojourn/replay"
	"sojourn/run"
	"sojourn/schedulers"
	"sojourn/swim"
)

// TestSlowdownAtLeastOne: on clusters whose nodes are faster than the
// reference node, and in the container model (where a node holds more
// containers than it has slots), no job's slowdown is below 1: its ideal
// run time is on nodes as fast as the fastest, with all the tasks the
// cluster can run at once. Before, the ideal assumed reference speed and
// the slot counts, and fast nodes gave slowdowns below 1.
func TestSlowdownAtLeastOne(t *testing.T) {
	tr, err := swim.Generate(swim.Config{Profile: "fb2009", Seed: 2, Jobs: 40, Nodes: 10})
	if err != nil {
		t.Fatal(err)
	}
	fast := make([]float64, 10)
	for i := range fast {
		fast[i] = 1.5 + float64(i%3) // 1.5, 2.5 and 3.5 times the reference
	}
	for _, c := range []struct {
		name, policy string
		cfg          replay.Config
	}{
		{"fast slots", "fair", replay.Config{Nodes: 10, NodeSpeeds: fast}},
		{"mixed slots", "hfsp", replay.Config{Nodes: 10, SpeedSigma: 0.8}},
		{"containers", "yarn-fair", replay.Config{Nodes: 10, Model: replay.ContainerModel, NodeMemoryMB: 32768, NodeVcores: 32}},
		{"fast containers", "yarn-fifo", replay.Config{Nodes: 10, Model: replay.ContainerModel, NodeSpeeds: fast}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, err := schedulers.New(c.policy, nil)
			if err != nil {
				t.Fatal(err)
			}
			e, err := replay.New(tr, s, c.cfg)
			if err != nil {
				t.Fatal(err)
			}
			res, err := e.Run()
			if err != nil {
				t.Fatal(err)
			}
			rec := newRecord(&run.Cell{Policy: c.policy}, "t.arrow", "", tr, res)
			low := 0
			for i, sd := range rec.PerJob.Slowdown {
				if sd < 1 {
					if low++; low <= 3 {
						t.Errorf("job %d: slowdown %.4f (sojourn %.1f s)", i, sd, rec.PerJob.SojournS[i])
					}
				}
			}
			if low > 0 {
				t.Errorf("%d of %d jobs with a slowdown below 1", low, len(rec.PerJob.Slowdown))
			}
		})
	}
}
