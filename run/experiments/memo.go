package experiments

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"sojourn/replay"
	"sojourn/run"
	"sojourn/traces"
)

// memo computes each keyed value once per Env, however many experiments
// and seeds ask for it at once: the claims of fig3, fig4 and tables share
// their seeds' replays.
type memo struct {
	mu sync.Mutex
	m  map[string]*memoEntry
}

type memoEntry struct {
	once sync.Once
	v    any
	err  error
}

func (m *memo) do(key string, f func() (any, error)) (any, error) {
	m.mu.Lock()
	if m.m == nil {
		m.m = map[string]*memoEntry{}
	}
	e, ok := m.m[key]
	if !ok {
		e = &memoEntry{}
		m.m[key] = e
	}
	m.mu.Unlock()
	e.once.Do(func() { e.v, e.err = f() })
	return e.v, e.err
}

// seedTrace is a paper workload generated for seed, whole or map-only
// (Figure 6's), made once per Env.
func (e *Env) seedTrace(profile string, seed uint64, mapOnlyTrace bool) (*traces.Trace, error) {
	v, err := e.memo.do(fmt.Sprintf("trace %s seed %d map-only %v", profile, seed, mapOnlyTrace), func() (any, error) {
		if profile == swfLike {
			return swfLikeTrace(seed), nil
		}
		if profile == mixedProfile {
			tr, err := profileTrace("fb2009", seed)
			if err != nil {
				return nil, err
			}
			return mixedResources(tr), nil
		}
		tr, err := profileTrace(profile, seed)
		if err != nil || !mapOnlyTrace {
			return tr, err
		}
		return mapOnly(tr)
	})
	if err != nil {
		return nil, err
	}
	return v.(*traces.Trace), nil
}

// seedReplay is what a claim needs of one replay on one seed: a paper
// workload on the paper's cluster (nodes wide) under a policy and its
// options, replayed in memory (nothing written) once per Env.
type seedReplay struct {
	profile string
	mapOnly bool
	nodes   int
	policy  string
	options map[string]string
}

func (r seedReplay) key(seed uint64) string {
	keys := make([]string, 0, len(r.options))
	for k := range r.options {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var opts strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&opts, " %s=%s", k, r.options[k])
	}
	return fmt.Sprintf("replay %s map-only %v seed %d nodes %d %s%s", r.profile, r.mapOnly, seed, r.nodes, r.policy, opts.String())
}

// jobs replays r on seed (or recalls it) and returns its job results.
func (e *Env) jobs(r seedReplay, seed uint64) ([]replay.JobResult, error) {
	v, err := e.memo.do(r.key(seed), func() (any, error) {
		tr, err := e.seedTrace(r.profile, seed, r.mapOnly)
		if err != nil {
			return nil, err
		}
		cfg := paperCluster(seed)
		if r.nodes > 0 {
			cfg.Nodes = r.nodes
		}
		o, err := run.Replay(&run.Cell{Trace: tr, Policy: r.policy, Options: r.options, Cluster: cfg}, "", run.Options{})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", r.key(seed), err)
		}
		return o.Result.Jobs, nil
	})
	if err != nil {
		return nil, err
	}
	return v.([]replay.JobResult), nil
}

// policyJobs replays a paper workload on the paper's 100 nodes under
// each policy (default options) on seed.
func (e *Env) policyJobs(profile string, seed uint64, policies ...string) (map[string][]replay.JobResult, error) {
	out := map[string][]replay.JobResult{}
	for _, p := range policies {
		j, err := e.jobs(seedReplay{profile: profile, policy: p}, seed)
		if err != nil {
			return nil, err
		}
		out[p] = j
	}
	return out, nil
}

// Figures of a replay's jobs, in seconds.
func sojourns(jobs []replay.JobResult) []float64 {
	out := make([]float64, len(jobs))
	for i := range jobs {
		out[i] = jobs[i].Sojourn().Sec()
	}
	return out
}

// meanSojourn and nodeLocalFraction are replay.Result's figures of a
// replay's jobs.
func meanSojourn(jobs []replay.JobResult) float64 { return (&replay.Result{Jobs: jobs}).MeanSojourn() }

func nodeLocalFraction(jobs []replay.JobResult) float64 {
	return (&replay.Result{Jobs: jobs}).NodeLocalFraction()
}
