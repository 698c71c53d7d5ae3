package replaytest

import (
	"slices"
	"testing"

	"sojourn/replay"
	"sojourn/traces"
)

// SeedPlacing returns the first seed from 1 to 1000 under which the
// engine places the blocks of job j's maps on the nodes want (the
// replicas of map t at want[t·r : (t+1)·r] for replication r), so that a
// hand-computed locality test can name the nodes holding its data. The
// placement depends on the seed and the job alone, not on the policy.
func SeedPlacing(t testing.TB, tr *traces.Trace, cfg replay.Config, j int32, want []int32) uint64 {
	t.Helper()
	for seed := uint64(1); seed <= 1000; seed++ {
		cfg.Seed = seed
		e, err := replay.New(tr, &replay.FIFO{}, cfg)
		if err != nil {
			t.Fatal(err)
		}
		var got []int32
		e.Observe(func(ev replay.Event, v *replay.View) {
			if ev.Kind == replay.JobArrived && ev.Job == j {
				got = slices.Clone(v.Job(j).Replicas())
			}
		})
		if _, err := e.Run(); err != nil {
			t.Fatal(err)
		}
		if slices.Equal(got, want) {
			return seed
		}
	}
	t.Fatalf("no seed from 1 to 1000 places job %d's blocks on %v", j, want)
	return 0
}
