package experiments

import (
	"fmt"

	"sojourn/replay"
	"sojourn/reports"
	"sojourn/run"
	"sojourn/schedulers"
)

// The containers experiment: YARN's claim that fungible containers serve
// jobs better than Hadoop 1.x's typed slots ("jobs are bottle-necked on
// reduce slots"), on the paper's workloads and hardware: 100 nodes of 4
// map + 2 reduce slots, or the same nodes as NodeManagers of 15 GiB and 8
// vcores (the paper's m1.xlarge), under the same policies, over the
// claims' seeds.

// containerCluster is the paper's hardware as YARN NodeManagers.
func containerCluster(seed uint64) replay.Config {
	c := paperCluster(seed)
	c.Model = replay.ContainerModel
	c.NodeMemoryMB, c.NodeVcores = 15<<10, 8
	return c
}

// containerPolicies are the policies of the comparison: the slot
// policies that run in both models, then YARN's own (containers only).
func containerPolicies() (both, yarnOnly []string) {
	both = []string{"fifo", "fair", "hfsp"}
	for _, p := range schedulers.Policies() {
		if p.ContainersOnly {
			yarnOnly = append(yarnOnly, p.Name)
		}
	}
	return both, yarnOnly
}

// modelRun is what the experiment keeps of one replay.
type modelRun struct {
	mean, util float64
}

// modelReplay replays profile on seed under policy in one model, in
// memory, once per Env.
func (e *Env) modelReplay(profile, policy string, containers bool, seed uint64) (modelRun, error) {
	key := fmt.Sprintf("model replay %s %s containers %v seed %d", profile, policy, containers, seed)
	v, err := e.memo.do(key, func() (any, error) {
		tr, err := e.seedTrace(profile, seed, false)
		if err != nil {
			return nil, err
		}
		cfg := paperCluster(seed)
		if containers {
			cfg = containerCluster(seed)
		}
		o, err := run.Replay(&run.Cell{Trace: tr, Policy: policy, Cluster: cfg}, "", run.Options{})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", key, err)
		}
		r := o.Result
		m := modelRun{mean: r.MeanSojourn(), util: r.SlotUtilisation()}
		if containers {
			m.util = r.Utilisation(0) // memory, the ApplicationMasters' included
		}
		return m, nil
	})
	if err != nil {
		return modelRun{}, err
	}
	return v.(modelRun), nil
}

// containersSeed is one seed's runs: [profile][policy][model].
type containersSeed map[string]map[string][2]modelRun

func containers(x *Ctx) (reports.Section, error) {
	both, yarnOnly := containerPolicies()
	profiles := []string{"fb2009", "fb2010"}
	x.Param("slots", "100 nodes, 4 map + 2 reduce slots each, heartbeat 1 s")
	x.Param("containers", "the same 100 nodes as NodeManagers of 15 GiB and 8 vcores, 1 GiB minimum allocation, ApplicationMasters of 1.5 GiB (2 GiB allocated) capped at 10% of the memory, heartbeat 1 s")
	per, err := overSeeds(x, func(seed uint64) (containersSeed, error) {
		out := containersSeed{}
		for _, prof := range profiles {
			out[prof] = map[string][2]modelRun{}
			for _, p := range append(append([]string(nil), both...), yarnOnly...) {
				var runs [2]modelRun
				for m, cont := range []bool{false, true} {
					if !cont && !contains(both, p) {
						continue
					}
					r, err := x.Env.modelReplay(prof, p, cont, seed)
					if err != nil {
						return nil, err
					}
					runs[m] = r
				}
				out[prof][p] = runs
			}
		}
		return out, nil
	})
	if err != nil {
		return reports.Section{}, err
	}
	seeds := len(per)
	values := func(prof, p string, f func([2]modelRun) float64) []float64 {
		var xs []float64
		for _, s := range per {
			xs = append(xs, f(s[prof][p]))
		}
		return xs
	}
	ci := func(xs []float64, show func(float64) string) string {
		m, lo, hi := meanInterval(xs)
		return fmt.Sprintf("%s [%s, %s]", show(m), show(lo), show(hi))
	}
	tab := reports.Table{Name: "containers", Title: "Typed slots against fungible containers on the same 100 nodes",
		Columns: []string{"workload", "policy", "slots: mean sojourn", "containers: mean sojourn", "containers / slots", "slot utilisation", "memory utilisation"},
		Note: fmt.Sprintf("Means over %d seeds with their 95%% Student-t intervals. Utilisation: busy slot time over the slots, or allocated memory "+
			"(ApplicationMasters included) over the memory, from the first submit to the last finish.", seeds)}
	for _, prof := range profiles {
		for _, p := range append(append([]string(nil), both...), yarnOnly...) {
			slotMean, slotUtil, ratio := "–", "–", "–"
			if contains(both, p) {
				slotMean = ci(values(prof, p, func(r [2]modelRun) float64 { return r[0].mean }), showSec)
				slotUtil = ci(values(prof, p, func(r [2]modelRun) float64 { return r[0].util }), showPct)
				ratio = ci(values(prof, p, func(r [2]modelRun) float64 { return r[1].mean / r[0].mean }), showRatio)
			}
			tab.Rows = append(tab.Rows, []string{prof, label(p), slotMean,
				ci(values(prof, p, func(r [2]modelRun) float64 { return r[1].mean }), showSec), ratio, slotUtil,
				ci(values(prof, p, func(r [2]modelRun) float64 { return r[1].util }), showPct)})
		}
	}
	var claims []reports.Claim
	for _, prof := range profiles {
		for _, p := range []string{"fifo", "hfsp"} {
			prof, p := prof, p
			c := check[containersSeed]{
				statement: fmt.Sprintf("%s, %s: fungible containers give a lower mean sojourn time than typed slots on the same hardware", prof, label(p)),
				paper:     "jobs are bottle-necked on reduce slots; fungible containers improve utilisation (YARN)",
				tol:       atMost(1, "containers / slots ≤ 1.00×"),
				value:     func(s containersSeed) float64 { r := s[prof][p]; return r[1].mean / r[0].mean },
				show:      showRatio,
				note: "Containers as sized here: 8 vcores cap a node at 8 containers (7 beside an ApplicationMaster) against 6 slots; " +
					"a job's reduces wait for its last map to get a container (see README: the container model).",
			}
			cl, err := judgeValues(c, per)
			if err != nil {
				return reports.Section{}, err
			}
			claims = append(claims, cl)
		}
	}
	return reports.Section{Title: "Typed slots or fungible containers (YARN)",
		Summary: "The paper's workloads on its 100 nodes, as Hadoop 1.x TaskTrackers of 4 map and 2 reduce slots or as YARN NodeManagers " +
			"of 15 GiB and 8 vcores where maps and reduces draw the same containers and each job first runs an ApplicationMaster; " +
			"the same policies in both models, and YARN's own in containers.",
		Tables: []reports.Table{tab}, Claims: claims}, nil
}

// judgeValues judges one check on per-seed measurements already made.
func judgeValues[T any](c check[T], per []T) (reports.Claim, error) {
	values := make([]float64, len(per))
	for i, m := range per {
		values[i] = c.value(m)
	}
	return claimFrom(c, values, nil, false), nil
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}
