package schedulers

import (
	"testing"

	"sojourn/replay"
	"sojourn/replay/replaytest"
	"sojourn/traces"
)

// mixedSizes is a copy of tr whose jobs ask for containers of several
// sizes: every third job's maps 3 GiB and reduces 2 GiB with 2 cores,
// every third one after it maps of 1.5 GiB (2 GiB allocated), the rest
// as the trace says.
func mixedSizes(tr *traces.Trace) *traces.Trace {
	out := &traces.Trace{Params: tr.Params, Jobs: append([]traces.Job(nil), tr.Jobs...)}
	for i := range out.Jobs {
		j := &out.Jobs[i]
		switch i % 3 {
		case 0:
			j.MapMemoryBytes, j.ReduceMemoryBytes = 3<<30, 2<<30
			j.MapCores, j.ReduceCores = 1, 2
		case 1:
			j.MapMemoryBytes = 3 << 29
		}
	}
	return out
}

// TestPoliciesInContainers runs every policy in the container model, on
// the paper's workloads and on FB2009 with mixed container sizes, on the
// paper's nodes as NodeManagers of 15 GiB and 8 vcores, with the
// invariant checker on: every job finishes, no container is launched
// where it does not fit (the engine refuses it), and the memory
// allocated stays within what the nodes have.
func TestPoliciesInContainers(t *testing.T) {
	cfg := replay.Config{Model: replay.ContainerModel, Seed: 1, NodeMemoryMB: 15 << 10, NodeVcores: 8}
	fb2009 := replaytest.Profile(t, "fb2009")
	workloads := []struct {
		name string
		tr   *traces.Trace
	}{
		{"fb2009", fb2009},
		{"fb2010", replaytest.Profile(t, "fb2010")},
		{"fb2009-mixed", mixedSizes(fb2009)},
	}
	for _, w := range workloads {
		for _, p := range Policies() {
			if external(p.Name) {
				continue
			}
			t.Run(w.name+"/"+p.Name, func(t *testing.T) {
				r := replaytest.Run(t, w.tr, build(t, p.Name, nil), cfg)
				u := r.Utilisation(0)
				if !(u > 0 && u <= 1) {
					t.Errorf("memory utilisation %v; want in (0, 1]", u)
				}
				for i := range r.Jobs {
					if j := &r.Jobs[i]; j.AMStart < j.Submit || j.FirstLaunch < j.AMStart {
						t.Fatalf("job %d: submitted %v, AM at %v, first task at %v", i, j.Submit, j.AMStart, j.FirstLaunch)
					}
				}
				t.Logf("mean sojourn %.1f s, memory utilisation %.1f%%", r.MeanSojourn(), 100*u)
			})
		}
	}
}
