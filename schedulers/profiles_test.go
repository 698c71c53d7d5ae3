package schedulers

import (
	"testing"

	"sojourn/replay"
	"sojourn/swim"
	"sojourn/traces"
)

func profileTrace(t testing.TB, name string) *traces.Trace {
	t.Helper()
	tr, err := swim.Generate(swim.Config{Profile: name, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// TestPoliciesOnPaperProfiles runs every registered policy on both paper
// workloads at 100 nodes with the invariant checker on, and checks that no
// job starves: every job gets its first slot before half the run is over
// (a starved job would wait for the cluster to drain).
func TestPoliciesOnPaperProfiles(t *testing.T) {
	for _, prof := range []string{"fb2009", "fb2010"} {
		tr := profileTrace(t, prof)
		for _, name := range Names() {
			t.Run(prof+"/"+name, func(t *testing.T) {
				r := run(t, tr, newPolicy(t, name, nil), replay.Config{Seed: 1})
				makespan := r.Stats.End
				var worst replay.Time
				for _, j := range r.Jobs {
					worst = max(worst, j.FirstLaunch-j.Submit)
				}
				t.Logf("mean sojourn %.1f s, node-local %.1f%%, worst wait for a first slot %.0f s of a %.0f s run",
					r.MeanSojourn(), 100*r.NodeLocalFraction(), worst.Sec(), makespan.Sec())
				if name != "fifo" && name != "fifo-minimal" && worst > makespan/2 {
					t.Errorf("a job waited %v for its first slot in a run of %v", worst, makespan)
				}
			})
		}
	}
}
