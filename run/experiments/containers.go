package experiments

import (
	_ "embed"
	"fmt"
	"slices"
	"strings"

	"sojourn/replay"
	"sojourn/replay/clusterfile"
	"sojourn/reports"
	"sojourn/run"
	"sojourn/schedulers"
	"sojourn/traces"
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
// policies that run in both models, then YARN's own (containers only),
// the Fair scheduler also with DRF and the Capacity scheduler also with
// the DominantResourceCalculator.
func containerPolicies() (both, yarnOnly []string) {
	both = []string{"fifo", "fair", "hfsp"}
	for _, p := range schedulers.Policies() {
		if p.ContainersOnly {
			yarnOnly = append(yarnOnly, p.Name)
			switch p.Name {
			case "yarn-fair":
				yarnOnly = append(yarnOnly, "yarn-fair drf")
			case "yarn-capacity":
				yarnOnly = append(yarnOnly, "yarn-capacity dominant")
			}
		}
	}
	return both, yarnOnly
}

// variantPolicy splits a variant such as "yarn-fair drf" into its policy
// and options.
func variantPolicy(v string) (string, map[string]string) {
	switch v {
	case "yarn-fair drf":
		return "yarn-fair", map[string]string{"policy": "drf"}
	case "yarn-capacity dominant":
		return "yarn-capacity", map[string]string{"resource-calculator": "dominant"}
	}
	return v, nil
}

func variantLabel(v string) string {
	switch v {
	case "yarn-fair":
		return "YARN Fair"
	case "yarn-fair drf":
		return "YARN Fair, DRF"
	case "yarn-capacity":
		return "YARN Capacity"
	case "yarn-capacity dominant":
		return "YARN Capacity, dominant"
	case "yarn-fifo":
		return "YARN FIFO"
	}
	return label(v)
}

// modelRun is what the experiment keeps of one replay.
type modelRun struct {
	mean, util, vcoreUtil float64
	sojourns              []float64 // per job, s
}

// The clusters of the experiment, by name.
const (
	slotCluster    = "slots"      // the paper's 100 nodes of 4 + 2 slots
	yarnCluster    = "containers" // the same nodes as NodeManagers of 15 GiB, 8 vcores
	heteroCluster  = "hetero"     // clusters/hetero.txt as NodeManagers
	uniformCluster = "uniform"    // hetero's totals spread evenly over 100 nodes
)

//go:embed clusters/hetero.txt
var heteroFile string

// clusterFor is the named cluster's configuration on seed.
func clusterFor(name string, seed uint64) (replay.Config, error) {
	switch name {
	case slotCluster:
		return paperCluster(seed), nil
	case yarnCluster:
		return containerCluster(seed), nil
	case heteroCluster:
		cl, err := clusterfile.Parse(strings.NewReader(heteroFile), "clusters/hetero.txt")
		if err != nil {
			return replay.Config{}, err
		}
		c := replay.Config{Model: replay.ContainerModel, Seed: seed}
		c.Cluster, c.ExtraResources = run.ClusterNodes(cl, 0)
		return c, nil
	case uniformCluster:
		// 1,875 GiB, 1,000 vcores and a mean speed of 1.12 over 100 nodes.
		c := replay.Config{Model: replay.ContainerModel, Seed: seed, Nodes: 100, NodeMemoryMB: 19200, NodeVcores: 10}
		c.NodeSpeeds = make([]float64, 100)
		for i := range c.NodeSpeeds {
			c.NodeSpeeds[i] = 1.12
		}
		return c, nil
	}
	return replay.Config{}, fmt.Errorf("no cluster %q", name)
}

// modelReplay replays profile on seed under a policy variant on a named
// cluster, in memory, once per Env.
func (e *Env) modelReplay(profile, policy, cluster string, seed uint64) (modelRun, error) {
	key := fmt.Sprintf("model replay %s %s on %s seed %d", profile, policy, cluster, seed)
	v, err := e.memo.do(key, func() (any, error) {
		tr, err := e.seedTrace(profile, seed, false)
		if err != nil {
			return nil, err
		}
		cfg, err := clusterFor(cluster, seed)
		if err != nil {
			return nil, err
		}
		pol, opts := variantPolicy(policy)
		o, err := run.Replay(&run.Cell{Trace: tr, Policy: pol, Options: opts, Cluster: cfg}, "", run.Options{})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", key, err)
		}
		r := o.Result
		m := modelRun{mean: r.MeanSojourn(), util: r.SlotUtilisation(), sojourns: sojourns(r.Jobs)}
		if cfg.Model == replay.ContainerModel {
			m.util = r.Utilisation(0) // memory, the ApplicationMasters' included
			m.vcoreUtil = r.Utilisation(1)
		}
		return m, nil
	})
	if err != nil {
		return modelRun{}, err
	}
	return v.(modelRun), nil
}

// mixedProfile is FB2009 with jobs of two shapes (mixedResources).
const mixedProfile = "fb2009-mixed"

// mixedResources is a copy of tr whose jobs alternate between two
// shapes: CPU-heavy (containers of 1 GiB and 4 vcores for maps, 1 GiB
// and 2 vcores for reduces) and memory-heavy (4 GiB and 1 vcore for
// maps, 3 GiB and 1 vcore for reduces). On nodes of 15 GiB and 8 vcores
// the first shape is bound by vcores (2 maps a node), the second by
// memory (3 maps a node).
func mixedResources(tr *traces.Trace) *traces.Trace {
	out := &traces.Trace{Params: map[string]string{}, Jobs: append([]traces.Job(nil), tr.Jobs...)}
	for k, v := range tr.Params {
		out.Params[k] = v
	}
	out.Params["mixed_resources"] = "even jobs 1 GiB x 4 vcores maps, 1 GiB x 2 reduces; odd jobs 4 GiB x 1 maps, 3 GiB x 1 reduces"
	for i := range out.Jobs {
		j := &out.Jobs[i]
		if i%2 == 0 {
			j.MapMemoryBytes, j.MapCores, j.ReduceMemoryBytes, j.ReduceCores = 1<<30, 4, 1<<30, 2
		} else {
			j.MapMemoryBytes, j.MapCores, j.ReduceMemoryBytes, j.ReduceCores = 4<<30, 1, 3<<30, 1
		}
	}
	return out
}

// containersSeed is one seed's runs.
type containersSeed struct {
	models map[string]map[string][2]modelRun // [profile][policy]: slots, containers
	mixed  map[string]modelRun               // [policy] on the mixed workload, containers
	hetero map[string][2]modelRun            // [policy] on FB2009: hetero, uniform
}

// mixedVariants are the policies of the mixed workload: the YARN
// schedulers with and without dominant resources, and HFSP.
func mixedVariants(yarnOnly []string) []string {
	return append([]string{"hfsp"}, yarnOnly...)
}

// heteroPolicies are the policies on the heterogeneous cluster.
func heteroPolicies(yarnOnly []string) []string {
	out := []string{"fifo", "fair", "hfsp"}
	for _, p := range yarnOnly {
		if p == "yarn-fair" || p == "yarn-capacity" {
			out = append(out, p)
		}
	}
	return out
}

func containers(x *Ctx) (reports.Section, error) {
	both, yarnOnly := containerPolicies()
	// On the paper's workloads every container has the minimum size, so
	// DRF orders as memory-only fair sharing does (the same results): the
	// Fair scheduler's DRF runs on the mixed workload alone.
	var all []string
	for _, p := range append(append([]string(nil), both...), yarnOnly...) {
		if p != "yarn-fair drf" {
			all = append(all, p)
		}
	}
	profiles := []string{"fb2009", "fb2010"}
	x.Param("slots", "100 nodes, 4 map + 2 reduce slots each, heartbeat 1 s")
	x.Param("containers", "the same 100 nodes as NodeManagers of 15 GiB and 8 vcores, 1 GiB minimum allocation, ApplicationMasters of 1.5 GiB (2 GiB allocated) capped at 10% of the memory, heartbeat 1 s")
	x.Param("mixed workload", "FB2009, even jobs CPU-heavy (maps 1 GiB x 4 vcores, reduces 1 GiB x 2), odd jobs memory-heavy (maps 4 GiB x 1, reduces 3 GiB x 1), containers")
	x.Param("heterogeneous cluster", "clusters/hetero.txt: 60 nodes of 15 GiB, 8 vcores, speed 1; 30 of 30 GiB, 16 vcores, speed 1.5; 10 of 7.5 GiB, 4 vcores, speed 0.7; "+
		"against 100 nodes of 18.75 GiB, 10 vcores, speed 1.12 (the same totals)")
	// The --seed runs, written out for the report and for inspection.
	var cells []*run.Cell
	add := func(profile, variant, cluster string) error {
		tr, err := x.Env.seedTrace(profile, x.Env.Seed, false)
		if err != nil {
			return err
		}
		cfg, err := clusterFor(cluster, x.Env.Seed)
		if err != nil {
			return err
		}
		pol, opts := variantPolicy(variant)
		cells = append(cells, &run.Cell{Tasks: true, Dir: strings.ReplaceAll(profile+"-"+variant+"-"+cluster, " ", "-"), Trace: tr,
			TraceFile: profile + ".arrow", Policy: pol, Options: opts, Cluster: cfg,
			Labels: map[string]string{"workload": profile, "cluster": cluster, "policy": variantLabel(variant)}})
		return nil
	}
	for _, prof := range profiles {
		for _, p := range all {
			for _, cluster := range []string{slotCluster, yarnCluster} {
				if cluster == slotCluster && !slices.Contains(both, p) {
					continue
				}
				if err := add(prof, p, cluster); err != nil {
					return reports.Section{}, err
				}
			}
		}
	}
	for _, p := range mixedVariants(yarnOnly) {
		if err := add(mixedProfile, p, yarnCluster); err != nil {
			return reports.Section{}, err
		}
	}
	for _, p := range heteroPolicies(yarnOnly) {
		for _, cluster := range []string{heteroCluster, uniformCluster} {
			if err := add("fb2009", p, cluster); err != nil {
				return reports.Section{}, err
			}
		}
	}
	if _, err := x.Replay(cells); err != nil {
		return reports.Section{}, err
	}
	per, err := overSeeds(x, func(seed uint64) (containersSeed, error) {
		out := containersSeed{models: map[string]map[string][2]modelRun{}, mixed: map[string]modelRun{}, hetero: map[string][2]modelRun{}}
		for _, prof := range profiles {
			out.models[prof] = map[string][2]modelRun{}
			for _, p := range all {
				var runs [2]modelRun
				for m, cluster := range []string{slotCluster, yarnCluster} {
					if cluster == slotCluster && !slices.Contains(both, p) {
						continue
					}
					r, err := x.Env.modelReplay(prof, p, cluster, seed)
					if err != nil {
						return out, err
					}
					runs[m] = r
				}
				out.models[prof][p] = runs
			}
		}
		for _, p := range mixedVariants(yarnOnly) {
			r, err := x.Env.modelReplay(mixedProfile, p, yarnCluster, seed)
			if err != nil {
				return out, err
			}
			out.mixed[p] = r
		}
		for _, p := range heteroPolicies(yarnOnly) {
			var runs [2]modelRun
			for i, cluster := range []string{heteroCluster, uniformCluster} {
				r, err := x.Env.modelReplay("fb2009", p, cluster, seed)
				if err != nil {
					return out, err
				}
				runs[i] = r
			}
			out.hetero[p] = runs
		}
		return out, nil
	})
	if err != nil {
		return reports.Section{}, err
	}
	seeds := len(per)
	over := func(f func(containersSeed) float64) []float64 {
		var xs []float64
		for _, s := range per {
			xs = append(xs, f(s))
		}
		return xs
	}
	ci := func(xs []float64, show func(float64) string) string {
		m, lo, hi := meanInterval(xs)
		return fmt.Sprintf("%s [%s, %s]", show(m), show(lo), show(hi))
	}
	note := fmt.Sprintf("Means over %d seeds with their 95%% Student-t intervals. Utilisation: busy slot time over the slots, or allocated memory "+
		"and vcores (ApplicationMasters included) over the cluster's, from the first submit to the last finish.", seeds)
	tab := reports.Table{Name: "containers", Title: "Typed slots against fungible containers on the same 100 nodes",
		Columns: []string{"workload", "policy", "slots: mean sojourn", "containers: mean sojourn", "containers / slots", "slot utilisation", "memory utilisation", "vcore utilisation"},
		Note:    note}
	for _, prof := range profiles {
		for _, p := range all {
			r := func(f func([2]modelRun) float64) func(containersSeed) float64 {
				return func(s containersSeed) float64 { return f(s.models[prof][p]) }
			}
			slotMean, slotUtil, ratio := "–", "–", "–"
			if slices.Contains(both, p) {
				slotMean = ci(over(r(func(m [2]modelRun) float64 { return m[0].mean })), showSec)
				slotUtil = ci(over(r(func(m [2]modelRun) float64 { return m[0].util })), showPct)
				ratio = ci(over(r(func(m [2]modelRun) float64 { return m[1].mean / m[0].mean })), showRatio)
			}
			tab.Rows = append(tab.Rows, []string{prof, variantLabel(p), slotMean,
				ci(over(r(func(m [2]modelRun) float64 { return m[1].mean })), showSec), ratio, slotUtil,
				ci(over(r(func(m [2]modelRun) float64 { return m[1].util })), showPct),
				ci(over(r(func(m [2]modelRun) float64 { return m[1].vcoreUtil })), showPct)})
		}
	}
	mixedTab := reports.Table{Name: "containers-mixed", Title: "A mixed memory/CPU workload in containers: dominant resources or memory alone",
		Columns: []string{"policy", "mean sojourn", "memory utilisation", "vcore utilisation"}, Note: note}
	for _, p := range mixedVariants(yarnOnly) {
		r := func(f func(modelRun) float64) func(containersSeed) float64 {
			return func(s containersSeed) float64 { return f(s.mixed[p]) }
		}
		mixedTab.Rows = append(mixedTab.Rows, []string{variantLabel(p), ci(over(r(func(m modelRun) float64 { return m.mean })), showSec),
			ci(over(r(func(m modelRun) float64 { return m.util })), showPct), ci(over(r(func(m modelRun) float64 { return m.vcoreUtil })), showPct)})
	}
	heteroTab := reports.Table{Name: "containers-hetero", Title: "FB2009 on a heterogeneous cluster from a cluster file, and on a uniform one of the same totals",
		Columns: []string{"policy", "heterogeneous: mean sojourn", "uniform: mean sojourn", "heterogeneous / uniform", "memory utilisation (heterogeneous)"}, Note: note}
	for _, p := range heteroPolicies(yarnOnly) {
		r := func(f func([2]modelRun) float64) func(containersSeed) float64 {
			return func(s containersSeed) float64 { return f(s.hetero[p]) }
		}
		heteroTab.Rows = append(heteroTab.Rows, []string{variantLabel(p), ci(over(r(func(m [2]modelRun) float64 { return m[0].mean })), showSec),
			ci(over(r(func(m [2]modelRun) float64 { return m[1].mean })), showSec),
			ci(over(r(func(m [2]modelRun) float64 { return m[0].mean / m[1].mean })), showRatio),
			ci(over(r(func(m [2]modelRun) float64 { return m[0].util })), showPct)})
	}
	var checks []check[containersSeed]
	for _, prof := range profiles {
		for _, p := range []string{"fifo", "hfsp"} {
			checks = append(checks, check[containersSeed]{
				statement: fmt.Sprintf("%s, %s: fungible containers give a lower mean sojourn time than typed slots on the same hardware", prof, label(p)),
				paper:     "jobs are bottle-necked on reduce slots; fungible containers improve utilisation (YARN)",
				tol:       atMost(1, "containers / slots ≤ 1.00×"),
				value:     func(s containersSeed) float64 { r := s.models[prof][p]; return r[1].mean / r[0].mean },
				show:      showRatio,
				note: "Containers as sized here: 8 vcores cap a node at 8 containers (7 beside an ApplicationMaster) against 6 slots; " +
					"a job's reduces wait for its last map to get a container (see docs/replay.md: the container model).",
			})
		}
	}
	for _, prof := range profiles {
		for _, y := range []string{"yarn-fair", "yarn-capacity"} {
			if !slices.Contains(yarnOnly, y) {
				continue
			}
			checks = append(checks, check[containersSeed]{
				statement: fmt.Sprintf("%s in containers: HFSP's mean sojourn time is below %s's", prof, variantLabel(y)),
				paper:     "size-based scheduling beats the fair and capacity schedulers on mean sojourn time (the HFSP paper, on Hadoop 1.x slots)",
				tol:       atMost(1, fmt.Sprintf("HFSP / %s ≤ 1.00×", variantLabel(y))),
				value:     func(s containersSeed) float64 { return s.models[prof]["hfsp"][1].mean / s.models[prof][y][1].mean },
				show:      showRatio,
			})
		}
	}
	if slices.Contains(yarnOnly, "yarn-fair drf") && slices.Contains(yarnOnly, "yarn-capacity") {
		checks = append(checks, check[containersSeed]{
			statement: "Mixed memory/CPU workload: the Fair scheduler with DRF gives a mean sojourn time no higher than the Capacity scheduler counting memory alone",
			paper:     "DRF against the DefaultResourceCalculator: memory-only scheduling overcommits CPUs when jobs differ in their CPU to memory ratio",
			tol:       atMost(1, "DRF / memory-only Capacity ≤ 1.00×"),
			value:     func(s containersSeed) float64 { return s.mixed["yarn-fair drf"].mean / s.mixed["yarn-capacity"].mean },
			show:      showRatio,
			note:      "Memory-only scheduling packs containers by memory and lets vcores be overcommitted; an overcommitted node's tasks share its CPUs and run slower.",
		})
	}
	if slices.Contains(yarnOnly, "yarn-fair drf") {
		checks = append(checks, check[containersSeed]{
			statement: "Mixed memory/CPU workload: the Fair scheduler with DRF gives a mean sojourn time no higher than with memory-only fair shares",
			paper:     "dominant resource fairness for multi-resource requests (YARN's DominantResourceFairnessPolicy)",
			tol:       atMost(1, "DRF / memory-only ≤ 1.00×"),
			value:     func(s containersSeed) float64 { return s.mixed["yarn-fair drf"].mean / s.mixed["yarn-fair"].mean },
			show:      showRatio,
			note:      "Both check every resource when placing a container; they differ in the order they serve queues and jobs.",
		})
	}
	checks = append(checks, check[containersSeed]{
		statement: "Heterogeneous cluster from a cluster file: HFSP's mean sojourn time is below FAIR's",
		paper:     "HFSP's gain over FAIR (the HFSP paper), here on nodes of three kinds",
		tol:       atMost(1, "HFSP / FAIR ≤ 1.00×"),
		value:     func(s containersSeed) float64 { return s.hetero["hfsp"][0].mean / s.hetero["fair"][0].mean },
		show:      showRatio,
	})
	claims := claimsOf(checks, per)
	// The figure, from --seed's runs as the paper's figures.
	fig := reports.Figure{Name: "containers", Title: "Sojourn times in typed slots and in fungible containers", Columns: 2,
		Caption: fmt.Sprintf("Seed %d on the paper's 100 nodes: empirical CDF of job sojourn times. Left, FIFO and HFSP on 4 + 2 slots; "+
			"right, the same policies and YARN's Fair and Capacity schedulers on NodeManagers of 15 GiB and 8 vcores (containers). "+
			"A policy has one colour and pattern in every panel.", x.Env.Seed)}
	for _, prof := range profiles {
		for _, model := range []struct {
			name     string
			cluster  string
			policies []string
		}{
			{"slots", slotCluster, []string{"fifo", "hfsp"}},
			{"containers", yarnCluster, []string{"fifo", "hfsp", "yarn-fair", "yarn-capacity"}},
		} {
			p := reports.Panel{Title: strings.ToUpper(prof[:2]) + prof[2:] + ", " + model.name, XLabel: "sojourn time (s)", YLabel: "fraction of jobs", XLog: true,
				Y: &reports.Range{Min: 0, Max: 1}}
			for _, pol := range model.policies {
				if !slices.Contains(all, pol) {
					continue
				}
				r, err := x.Env.modelReplay(prof, pol, model.cluster, x.Env.Seed)
				if err != nil {
					return reports.Section{}, err
				}
				s := ecdfSeries(containerLabel(pol), r.sojourns, 1)
				s.Policy = pol
				p.Series = append(p.Series, s)
			}
			fig.Panels = append(fig.Panels, p)
		}
	}
	return reports.Section{Title: "Typed slots or fungible containers (YARN)",
		Figures: []reports.Figure{fig},
		Summary: "The paper's workloads on its 100 nodes, as Hadoop 1.x TaskTrackers of 4 map and 2 reduce slots or as YARN NodeManagers " +
			"of 15 GiB and 8 vcores where maps and reduces draw the same containers and each job first runs an ApplicationMaster; " +
			"the same policies in both models, and YARN's own in containers. Then a workload of CPU-heavy and memory-heavy jobs under " +
			"YARN's schedulers with and without dominant resources, and FB2009 on a heterogeneous cluster given by a cluster file.",
		Tables: []reports.Table{tab, mixedTab, heteroTab}, Claims: claims}, nil
}

// containerLabel names a policy in the containers figure.
func containerLabel(policy string) string {
	switch policy {
	case "yarn-fair":
		return "YARN Fair"
	case "yarn-capacity":
		return "YARN Capacity"
	}
	return label(policy)
}
