package replay

import (
	"crypto/sha256"
	"fmt"
	"testing"
)

// TestTouchChangesNothing replays on clusters large enough for the
// queue's calendars, in slots and in containers whose CPUs are shared, with
// touchTasks loading each bucket's records and without it: the loads ahead
// of use must leave every result as it is.
func TestTouchChangesNothing(t *testing.T) {
	tr := mixedTrace(t, 60)
	for _, cfg := range []Config{
		{Nodes: 1000, NodesPerRack: 40, Seed: 5},
		{Model: ContainerModel, Nodes: 300, NodesPerRack: 30, Heartbeat: 3, NodeMemoryMB: 8192, NodeVcores: 2,
			AMMemoryMB: 1024, MaxAMShare: 0.5, Seed: 5},
	} {
		cfg.RecordTasks, cfg.RecordOccupancy = true, true
		var digests [2]string
		for i, touch := range []bool{true, false} {
			// In containers cpuWatch counts memory alone, so that CPUs
			// are shared, and checks the CPU lists at every event.
			var s Scheduler = &FIFO{}
			w := &cpuWatch{Scheduler: &FIFO{}, t: t}
			if cfg.Model == ContainerModel {
				s = w
			}
			e, err := New(tr, s, cfg)
			if err != nil {
				t.Fatal(err)
			}
			if e.q.ends.shift == 0 {
				t.Fatalf("%s on %d nodes: the task ends are in a heap, not a calendar", cfg.Model, cfg.Nodes)
			}
			buckets := 0
			e.q.ends.touch = nil
			if touch {
				e.q.ends.touch = func(evs []event) { buckets++; e.touchTasks(evs) }
			}
			r, err := e.Run()
			if err != nil {
				t.Fatal(err)
			}
			if cfg.Model == SlotModel { // its slot counts are the slot model's
				checkResult(t, r)
			}
			if touch && (buckets == 0 || cfg.Model == ContainerModel && w.shared == 0) {
				t.Fatalf("%s: %d buckets touched, %d events with CPUs shared: the test needs both", cfg.Model, buckets, w.shared)
			}
			digests[i] = fmt.Sprintf("%x", sha256.Sum256(fmt.Appendf(nil, "%v %v %v", r.Jobs, r.Segments, r.Occupancy)))
		}
		if digests[0] != digests[1] {
			t.Errorf("%s: results with the touch %s, without %s", cfg.Model, digests[0], digests[1])
		}
	}
}
