package yarnfair

import (
	"testing"

	"sojourn/replay"
	"sojourn/replay/replaytest"
)

// TestPaperWorkloads runs the policy in the container model on both paper
// workloads (100 nodes of 15 GiB and 8 vcores) with every invariant on:
// every job finishes (replaytest.Run checks it), without an AM limit
// (max-am-share -1) no job waits for its first container more than 30 s
// (fair sharing lets a new app in at the next container that frees; it
// was 1-2 s when written), and memory is used at least a little and never
// beyond the cluster. With the default max-am-share of 0.5 under the fair
// policy, whose fair shares leave vcores at 0, an AM must fit in half the
// cluster's unallocated vcores (FSLeafQueue.computeMaxAMResource), which
// a full cluster does not have: there jobs wait longer.
func TestPaperWorkloads(t *testing.T) {
	for _, prof := range []string{"fb2009", "fb2010"} {
		for _, pol := range []string{"fair", "drf"} {
			t.Run(prof+"/"+pol, func(t *testing.T) {
				tr := replaytest.Profile(t, prof)
				cfg := replay.Config{Model: replay.ContainerModel, Seed: 1, NodeMemoryMB: 15360, NodeVcores: 8}
				s := replaytest.Build(t, Policy.Build, map[string]string{"policy": pol, "max-am-share": "-1"})
				r := replaytest.Run(t, tr, s, cfg)
				var worst replay.Time
				for i := range r.Jobs {
					j := &r.Jobs[i]
					if j.Finish <= 0 && len(tr.Jobs[i].MapDurations)+len(tr.Jobs[i].ReduceDurations) > 0 {
						t.Fatalf("job %d did not finish", i)
					}
					worst = max(worst, j.FirstLaunch-j.Submit)
				}
				u := r.Utilisation(0)
				t.Logf("mean sojourn %.1f s, worst first-container wait %.0f s of %.0f s, memory utilisation %.3f, node-local %.3f",
					r.MeanSojourn(), worst.Sec(), r.Stats.End.Sec(), u, r.NodeLocalFraction())
				if worst > replay.Seconds(30) {
					t.Errorf("a job waited %v for its first container in a run of %v", worst, r.Stats.End)
				}
				if !(u > 0.01 && u <= 1) {
					t.Errorf("memory utilisation %v, want in (0.01, 1]", u)
				}
			})
		}
	}
}
