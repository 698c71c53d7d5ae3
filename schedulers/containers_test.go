package schedulers

import (
	"testing"

	"sojourn/replay"
	"sojourn/replay/replaytest"
)

// TestPoliciesInContainers runs every policy of YARN's own
// (Policy.ContainersOnly) on both paper workloads at 100 nodes in the
// container model (8 GiB and 8 vcores a node, YARN's defaults), with the
// invariant checker on, and checks what TestPoliciesOnPaperProfiles
// checks in the slot model: every job finishes and, unless the policy may
// starve by design, none waits for its first container for more than half
// the run.
func TestPoliciesInContainers(t *testing.T) {
	for _, prof := range []string{"fb2009", "fb2010"} {
		tr := replaytest.Profile(t, prof)
		for _, p := range Policies() {
			if !p.ContainersOnly {
				continue
			}
			t.Run(prof+"/"+p.Name, func(t *testing.T) {
				r := replaytest.Run(t, tr, build(t, p.Name, nil), replay.Config{Model: replay.ContainerModel, Seed: 1})
				makespan := r.Stats.End
				var worst replay.Time
				for _, j := range r.Jobs {
					worst = max(worst, j.FirstLaunch-j.Submit)
				}
				t.Logf("mean sojourn %.1f s, node-local %.1f%%, memory %.0f%% allocated, worst wait for a first container %.0f s of a %.0f s run",
					r.MeanSojourn(), 100*r.NodeLocalFraction(), 100*r.Utilisation(0), worst.Sec(), makespan.Sec())
				if !p.MayStarve && worst > makespan/2 {
					t.Errorf("a job waited %v for its first container in a run of %v", worst, makespan)
				}
			})
		}
	}
}
