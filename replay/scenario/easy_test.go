package scenario

import (
	"slices"
	"testing"

	"sojourn/replay"
	"sojourn/traces"
)

// TestBackfillCases: job sizes, task counts and durations of the three
// backfilling cases, on a pool of 5 map slots.
func TestBackfillCases(t *testing.T) {
	if j := BackfillJob(0, 2.5); !slices.Equal(j.MapDurations, []float64{1, 1, 0.5}) || j.Reduces() != 1 || j.Name != "2.5MB" {
		t.Errorf("a 2.5 MB job: maps %v, %d reduces, name %q", j.MapDurations, j.Reduces(), j.Name)
	}
	if j := BackfillJob(0, 2); !slices.Equal(j.MapDurations, []float64{1, 1}) {
		t.Errorf("a 2 MB job: maps %v", j.MapDurations)
	}
	for _, c := range []struct {
		build func() (*traces.Trace, replay.Config)
		names []string
	}{
		{BackfillEqual, []string{"2.5MB", "2.5MB", "2.5MB", "2.5MB"}},
		{BackfillMedium, []string{"1MB", "2MB", "2.5MB", "2MB"}},
		{BackfillSmall, []string{"1MB", "1MB", "2.5MB", "3.5MB", "1MB"}},
	} {
		tr, cfg := c.build()
		var names []string
		for _, j := range tr.Jobs {
			names = append(names, j.Name)
		}
		if !slices.Equal(names, c.names) || cfg.Nodes*cfg.MapSlots != 5 || cfg.Nodes*cfg.ReduceSlots != 5 {
			t.Errorf("jobs %v on %d map and %d reduce slots; want %v on 5 and 5", names,
				cfg.Nodes*cfg.MapSlots, cfg.Nodes*cfg.ReduceSlots, c.names)
		}
	}
}
