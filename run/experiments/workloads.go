package experiments

import (
	"fmt"
	"sort"

	"sojourn/replay"
	"sojourn/schedulers"
	"sojourn/swim"
	"sojourn/traces"
)

// profileTrace generates a paper workload (fb2009 or fb2010) from the
// embedded model, for the paper's 100-node cluster.
func profileTrace(profile string, seed uint64) (*traces.Trace, error) {
	tr, err := swim.Generate(swim.Config{Profile: profile, Seed: seed})
	if err != nil {
		return nil, fmt.Errorf("generating %s: %w", profile, err)
	}
	return tr, nil
}

// mapOnly is a copy of tr without reduce phases: the "map only version of
// the FB2009 dataset" of the paper's Figure 6.
func mapOnly(tr *traces.Trace) (*traces.Trace, error) {
	out := &traces.Trace{Params: map[string]string{}, Jobs: make([]traces.Job, len(tr.Jobs))}
	for k, v := range tr.Params {
		out.Params[k] = v
	}
	out.Params["map_only"] = "true"
	for i, j := range tr.Jobs {
		j.ReduceDurations, j.ReduceShuffleBytes = nil, nil
		j.ShuffleBytes, j.OutputBytes = 0, 0
		out.Jobs[i] = j
	}
	return out, out.Validate()
}

// paperCluster is the paper's cluster: 100 nodes, 4 map and 2 reduce
// slots each, every other parameter at the model's default.
func paperCluster(seed uint64) replay.Config {
	return replay.Config{Nodes: 100, Seed: seed}
}

// oracles use true job sizes; they are reference bounds, not contenders.
var oracles = map[string]bool{"fsp": true, "srpt": true, "ps": true, "las": true}

// hidden policies are not compared: fifo-minimal is the engine's own
// reference FIFO, kept for its tests, and exec runs whatever command it
// is given.
var hidden = map[string]bool{"fifo-minimal": true, "exec": true}

// comparedPolicies lists the policies of the summary tables: FIFO, FAIR
// and HFSP first, then the other registered policies, then the oracles.
func comparedPolicies() []string {
	rank := func(p string) int {
		switch {
		case p == "fifo":
			return 0
		case p == "fair":
			return 1
		case p == "hfsp":
			return 2
		case oracles[p]:
			return 4
		}
		return 3
	}
	var out []string
	for _, p := range schedulers.Policies() {
		if !hidden[p.Name] && !p.ContainersOnly {
			out = append(out, p.Name)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return rank(out[i]) < rank(out[j]) })
	return out
}

// byPolicy indexes runs by their cell's policy.
func byPolicy(runs []*Run) map[string]*Run {
	m := map[string]*Run{}
	for _, r := range runs {
		m[r.Cell.Policy] = r
	}
	return m
}
