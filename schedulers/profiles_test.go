package schedulers

import (
	"testing"

	"sojourn/replay"
	"sojourn/replay/replaytest"
)

// TestPoliciesOnPaperProfiles runs every registered policy on both paper
// workloads at 100 nodes with the invariant checker on, and checks that no
// job starves: every job gets its first slot before half the run is over
// (a starved job would wait for the cluster to drain), except under the
// policies that say they may (Policy.MayStarve).
func TestPoliciesOnPaperProfiles(t *testing.T) {
	for _, prof := range []string{"fb2009", "fb2010"} {
		tr := replaytest.Profile(t, prof)
		for _, p := range Policies() {
			name := p.Name
			if external(name) {
				continue
			}
			if p.ContainersOnly {
				continue // TestPoliciesInContainers runs them
			}
			t.Run(prof+"/"+name, func(t *testing.T) {
				r := replaytest.Run(t, tr, build(t, name, nil), replay.Config{Seed: 1})
				makespan := r.Stats.End
				var worst replay.Time
				for _, j := range r.Jobs {
					worst = max(worst, j.FirstLaunch-j.Submit)
				}
				t.Logf("mean sojourn %.1f s, node-local %.1f%%, worst wait for a first slot %.0f s of a %.0f s run",
					r.MeanSojourn(), 100*r.NodeLocalFraction(), worst.Sec(), makespan.Sec())
				if !p.MayStarve && worst > makespan/2 {
					t.Errorf("a job waited %v for its first slot in a run of %v", worst, makespan)
				}
			})
		}
	}
}

// TestFB2009Ordering: the HFSP paper's headline on FB2009 at 100 nodes
// (Section 4.2): HFSP's mean sojourn is below FAIR's, and FIFO's is the
// largest (the paper: 5 to 10 times HFSP's).
func TestFB2009Ordering(t *testing.T) {
	tr := replaytest.Profile(t, "fb2009")
	mean := map[string]float64{}
	for _, name := range []string{"fifo", "fair", "hfsp"} {
		mean[name] = replaytest.Run(t, tr, build(t, name, nil), replay.Config{Seed: 1}).MeanSojourn()
	}
	t.Logf("fb2009 mean sojourn: fifo %.1f s, fair %.1f s, hfsp %.1f s (fifo/hfsp %.1f)",
		mean["fifo"], mean["fair"], mean["hfsp"], mean["fifo"]/mean["hfsp"])
	if !(mean["hfsp"] < mean["fair"] && mean["fair"] < mean["fifo"]) {
		t.Errorf("want hfsp < fair < fifo, got %v", mean)
	}
}
