package schedulers

import (
	"math/rand/v2"
	"os"
	"path/filepath"
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

// TestYARNPoliciesDoNotStarve runs YARN's own policies
// (Policy.ContainersOnly) on both paper workloads at 100 nodes of YARN's
// default NodeManagers (8 GiB and 8 vcores), with the invariant checker
// on, and checks what TestPoliciesOnPaperProfiles checks in the slot
// model: unless the policy may starve by design, no job waits for its
// first container for more than half the run. yarn-fair runs without its
// AM limit: under the fair policy a queue's vcore fair share is 0, so
// FSLeafQueue.computeMaxAMResource lets AMs hold half the cluster's
// unallocated vcores, which a saturated cluster lacks, and on fb2010 a
// job then waits most of the run for its AM, as it would in YARN.
func TestYARNPoliciesDoNotStarve(t *testing.T) {
	for _, prof := range []string{"fb2009", "fb2010"} {
		tr := replaytest.Profile(t, prof)
		for _, p := range Policies() {
			if !p.ContainersOnly {
				continue
			}
			t.Run(prof+"/"+p.Name, func(t *testing.T) {
				var opts map[string]string
				if p.Name == "yarn-fair" {
					opts = map[string]string{"max-am-share": "-1"}
				}
				r := replaytest.Run(t, tr, build(t, p.Name, opts), replay.Config{Model: replay.ContainerModel, Seed: 1})
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

// TestRandomContainerClusters replays 40 FB2009 jobs with containers of
// random sizes (0 to 3 GiB and 0 to 2 cores, rounded up to the minimum)
// on 20 random heterogeneous clusters of small nodes (3 to 10 GiB, 1 to 4
// vcores, several racks, speeds 0.5 to 1.5) under every policy and the
// preempting variants, with the invariant checker on. Every job must
// finish, and no policy may churn: at most 5 kills per task on average (a
// policy that kills for a container the node cannot hold even then kills
// and relaunches forever; victim.Frees stops it).
func TestRandomContainerClusters(t *testing.T) {
	if testing.Short() {
		t.Skip("about 10 s")
	}
	base := replaytest.Profile(t, "fb2009")
	type variant struct {
		name string
		opts map[string]string
	}
	var vs []variant
	for _, p := range Policies() {
		if !external(p.Name) {
			vs = append(vs, variant{p.Name, nil})
		}
	}
	vs = append(vs,
		variant{"yarn-capacity", map[string]string{"preemption": "true"}},
		variant{"yarn-fair", map[string]string{"preemption": "true", "min-share-preemption-timeout": "5",
			"fair-share-preemption-timeout": "10", "preemption-utilization-threshold": "0"}},
		variant{"fair", map[string]string{"preemption": "true"}},
		variant{"hfsp", map[string]string{"map-preemption": "eager"}},
		variant{"hfsp", map[string]string{"preemption": "kill", "map-preemption": "kill"}})
	for seed := uint64(1); seed <= 20; seed++ {
		cluster, tr := randomContainerCase(base, seed)
		tasks := 0
		for _, j := range tr.Jobs {
			tasks += j.Maps() + j.Reduces()
		}
		for _, v := range vs {
			cfg := replay.Config{Model: replay.ContainerModel, Seed: seed, Cluster: cluster, MaxAMShare: 0.3}
			r := replaytest.Run(t, tr, build(t, v.name, v.opts), cfg)
			var kills int
			for i := range r.Jobs {
				kills += int(r.Jobs[i].Kills)
			}
			if kills > 5*tasks {
				t.Errorf("seed %d, %s %v: %d kills for %d tasks", seed, v.name, v.opts, kills, tasks)
			}
		}
	}
}

// randomContainerCase is seed's small random cluster (3 to 22 nodes of 3
// to 10 GiB and 1 to 4 vcores, several racks, speeds 0.5 to 1.5) and the
// first 40 jobs of base with random container sizes, every third job in
// pool a.
func randomContainerCase(base *traces.Trace, seed uint64) ([]replay.NodeSpec, *traces.Trace) {
	rng := rand.New(rand.NewPCG(seed, 7))
	var cluster []replay.NodeSpec
	rack := int32(0)
	for i := range 3 + rng.IntN(20) {
		if i > 0 && rng.IntN(4) == 0 {
			rack++
		}
		cluster = append(cluster, replay.NodeSpec{Rack: rack, MemoryMB: int64(3+rng.IntN(8)) * 1024,
			Vcores: int64(1 + rng.IntN(4)), Speed: 0.5 + rng.Float64()})
	}
	tr := &traces.Trace{Params: base.Params, Jobs: append([]traces.Job(nil), base.Jobs[:40]...)}
	for i := range tr.Jobs {
		j := &tr.Jobs[i]
		j.MapMemoryBytes, j.ReduceMemoryBytes = int64(rng.IntN(4))<<30, int64(rng.IntN(4))<<30
		j.MapCores, j.ReduceCores = float64(rng.IntN(3)), float64(rng.IntN(3))
		if i%3 == 0 {
			j.Pool = "a"
		}
	}
	return cluster, tr
}

// TestCapacityQueuesDoNotStall: yarn-capacity with two queues and
// preemption on the random clusters of TestRandomContainerClusters, one
// user per pool and one per job. Without per-queue AM limits,
// ApplicationMasters filled queue a's user limit and no task could ever
// run there (no progress on seeds 9, 14, 15 and 16 of this set-up);
// LeafQueue.activateApplications admits an AM only while the queue's and
// the user's AMs fit their AM limits, which leaves room for tasks.
func TestCapacityQueuesDoNotStall(t *testing.T) {
	if testing.Short() {
		t.Skip("about 3 s")
	}
	base := replaytest.Profile(t, "fb2009")
	queues := filepath.Join(t.TempDir(), "queues.txt")
	if err := os.WriteFile(queues, []byte("root.a.capacity = 30\nroot.a.maximum-capacity = 100\nroot.default.capacity = 70\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for seed := uint64(1); seed <= 20; seed++ {
		cluster, tr := randomContainerCase(base, seed)
		for _, opts := range []map[string]string{
			{"preemption": "true", "queues": queues},
			{"preemption": "true", "queues": queues, "user-by": "job"},
		} {
			cfg := replay.Config{Model: replay.ContainerModel, Seed: seed, Cluster: cluster, MaxAMShare: 0.3}
			replaytest.Run(t, tr, build(t, "yarn-capacity", opts), cfg)
		}
	}
}
