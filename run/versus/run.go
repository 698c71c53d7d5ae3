package versus

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"

	"sojourn/run"
	"sojourn/run/sweep"
	"sojourn/schedulers"
	execpolicy "sojourn/schedulers/exec"
)

// Setup is what bench versus replays: both policies on every workload and
// seed, each seed generating its workload (for a profile) and seeding the
// cluster, so that the two policies see the same jobs on the same nodes.
type Setup struct {
	// Baseline and Candidate are built-in policies, external ones named
	// in Exec, or exec, an external policy named by the name it declares
	// (its command among the Fixed options, exec.command).
	Baseline, Candidate string
	// Exec gives the command line of each external policy by its name.
	Exec     map[string]string
	Profiles []string // generated workloads: fb2009, fb2010
	Traces   []string // trace files, the same for every seed
	Seeds    []uint64
	// Fixed are cluster parameters (named as bench replay's flags) and
	// policy options ("policy.option"), as text.
	Fixed map[string]string
}

// Spec is the sweep that runs the setup.
func (s *Setup) Spec() (*sweep.Spec, error) {
	if s.Baseline == s.Candidate {
		return nil, fmt.Errorf("baseline and candidate are both %s; want two policies", s.Baseline)
	}
	spec := &sweep.Spec{Name: "versus-" + s.Baseline + "-" + s.Candidate, Policies: []string{s.Baseline, s.Candidate},
		Exec: s.Exec, Seeds: sweep.Seeds(s.Seeds), Fixed: map[string]sweep.Value{}}
	for _, p := range s.Profiles {
		spec.Workloads = append(spec.Workloads, sweep.Workload{Name: p, Profile: p})
	}
	for _, t := range s.Traces {
		abs, err := filepath.Abs(t)
		if err != nil {
			return nil, err
		}
		spec.Workloads = append(spec.Workloads, sweep.Workload{Name: traceName(t), Trace: abs})
	}
	for k, v := range s.Fixed {
		spec.Fixed[k] = sweep.Value(v)
	}
	if len(spec.Fixed) == 0 {
		spec.Fixed = nil
	}
	return spec, nil
}

var notName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// traceName names a trace file's workload after the file.
func traceName(path string) string {
	n := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	n = strings.TrimLeft(notName.ReplaceAllString(n, "_"), "._-")
	if n == "" {
		n = "trace"
	}
	return n
}

// Run replays the setup into dir (a sweep directory: resumed if it holds
// the same sweep) on workers cores and compares the two policies.
func Run(ctx context.Context, s *Setup, dir string, workers int, progress run.Reporter, o Options) (*Report, error) {
	spec, err := s.Spec()
	if err != nil {
		return nil, err
	}
	plan, err := sweep.NewPlan(spec, ".")
	if err != nil {
		return nil, err
	}
	r := &sweep.Runner{Dir: dir, Workers: workers, Output: sweep.Output{Format: "arrow"}, Version: run.CodeVersion(), Progress: progress}
	rep, err := r.Run(ctx, plan)
	if err != nil {
		return nil, err
	}
	if !rep.Done {
		return nil, fmt.Errorf("%s: cells missing", dir)
	}
	if o.Baseline, err = resultName(dir, plan, s.Baseline); err != nil {
		return nil, err
	}
	if o.Candidate, err = resultName(dir, plan, s.Candidate); err != nil {
		return nil, err
	}
	if o.Baseline == o.Candidate {
		return nil, fmt.Errorf("baseline and candidate are both named %s (an external policy declares it); name them apart, --exec NAME=COMMAND", o.Baseline)
	}
	o.Done = ctx.Done()
	return Read(dir, o)
}

// resultName is the name the results of the plan's policy pol carry: an
// external policy with no name of its own (pol is exec) declares it when
// it starts, and its cells' records have it.
func resultName(dir string, plan *sweep.Plan, pol string) (string, error) {
	if pol != execpolicy.Name {
		return pol, nil
	}
	sum, err := sweep.ReadSummary(dir)
	if err != nil {
		return "", err
	}
	for _, c := range plan.Cells {
		if schedulers.ResultName(c.Policy, c.Options) != pol {
			continue
		}
		for _, cs := range sum.Cells {
			if cs.Index == c.Index {
				return cs.Policy, nil
			}
		}
	}
	return "", fmt.Errorf("%s: no cell of policy %s", dir, pol)
}
