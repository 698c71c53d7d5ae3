package scenario

import (
	"testing"
)

// TestDiscoResearchProduction: the two jobs of the experiment, seeded
// durations within the documented spread, the same trace for the same
// seed and different traces for different seeds.
func TestDiscoResearchProduction(t *testing.T) {
	seen := map[float64]bool{}
	for seed := uint64(1); seed <= 10; seed++ {
		tr, cfg := DiscoResearchProduction(seed)
		if cfg.Nodes*cfg.MapSlots != 10 || len(tr.Jobs) != 2 {
			t.Fatalf("seed %d: %d map slots, %d jobs; want 10 and 2", seed, cfg.Nodes*cfg.MapSlots, len(tr.Jobs))
		}
		research, production := tr.Jobs[0], tr.Jobs[1]
		if research.Submit != 0 || production.Submit != DiscoDelay || research.Maps() != DiscoMaps || production.Maps() != DiscoMaps {
			t.Fatalf("seed %d: jobs %+v", seed, tr.Jobs)
		}
		for i, d := range research.MapDurations {
			if d < DiscoResearchMap*(1-DiscoSpread) || d > DiscoResearchMap*(1+DiscoSpread) {
				t.Errorf("seed %d: research map %d lasts %v s", seed, i, d)
			}
		}
		for i, d := range production.MapDurations {
			if d < DiscoProductionMap*(1-DiscoSpread) || d > DiscoProductionMap*(1+DiscoSpread) {
				t.Errorf("seed %d: production map %d lasts %v s", seed, i, d)
			}
		}
		again, _ := DiscoResearchProduction(seed)
		if again.Jobs[0].MapDurations[3] != research.MapDurations[3] {
			t.Errorf("seed %d: two builds differ", seed)
		}
		seen[research.MapDurations[0]] = true
	}
	if len(seen) != 10 {
		t.Errorf("10 seeds gave %d different first research maps", len(seen))
	}
}
