package replay

import (
	"testing"
)

// TestNoInputHasNoLocality: a job that reads no input has no block, so
// its maps run at their trace duration wherever they land (no rack-local
// or off-rack factor), are recorded as no-input, and are left out of the
// locality counts; a job with input on the same cluster still pays for
// its remote maps.
func TestNoInputHasNoLocality(t *testing.T) {
	for _, input := range []bool{false, true} {
		j := jobSpec(0, []float64{10, 10, 10, 10, 10, 10, 10, 10}, nil, 0, 0)
		if !input {
			j.MapInputBytes = 0
		}
		// 8 nodes in 4 racks, one map slot each, one replica per block:
		// with input, most maps cannot be node-local.
		cfg := Config{Nodes: 8, NodesPerRack: 2, MapSlots: 1, ReduceSlots: 1, Replication: 1,
			Heartbeat: 1, RecordTasks: true, Seed: 3, RackLocalFactor: 1.5, OffRackFactor: 3}
		r := mustRun(t, mkTrace(t, j), &FIFO{}, cfg)
		jr := r.Jobs[0]
		located := jr.NodeLocal + jr.RackLocal + jr.OffRack
		s := &r.Segments
		slow := 0
		for i := range s.Job {
			d := (s.End[i] - s.Start[i]).Sec()
			if d > 10 {
				slow++
			}
			if want := !input; (s.Locality[i] == NoInput) != want {
				t.Errorf("input %v: map %d recorded %v", input, s.Task[i], s.Locality[i])
			}
		}
		switch {
		case !input && (located != 0 || !jr.NoInput || slow != 0 || r.NoInputMaps() != 8):
			t.Errorf("no input: located %d maps (want 0), NoInput %v, %d maps ran longer than their 10 s, NoInputMaps %d",
				located, jr.NoInput, slow, r.NoInputMaps())
		case !input && r.NodeLocalFraction() == r.NodeLocalFraction():
			t.Errorf("no input: node-local fraction %v, want NaN", r.NodeLocalFraction())
		case input && (located != 8 || jr.NoInput || slow == 0):
			t.Errorf("with input: located %d maps (want 8), NoInput %v, %d maps slowed by remote reads (want some)", located, jr.NoInput, slow)
		}
	}
}
