// Package policy is what every policy package shares with the registry:
// the description of a policy (its name, summary, options and
// constructor) and the settings a constructor reads its options from.
package policy

import (
	"fmt"
	"sort"
	"strings"

	"sojourn/replay"
)

// Option is one setting of a policy: its name, its default (as text) and
// what it means, with its unit.
type Option struct {
	Name    string
	Default string
	Usage   string
	// OmitDefault leaves the option out of a run's recorded settings
	// (results' policy.* metadata, manifests) while it has its default:
	// an option added after results were first recorded, whose default
	// behaves as the policy did before it, so that those results stay
	// byte-identical.
	OmitDefault bool
}

// Policy describes a scheduling policy.
type Policy struct {
	Name    string
	Summary string
	Options []Option
	// MayStarve says that the policy may, by design, keep a job waiting
	// for its first slot until most of the cluster's work is done: FIFO
	// queues, admission queues, and size-based orders without aging that
	// serve the largest job last. The tests on the paper workloads check
	// that no job starves under every other policy.
	MayStarve bool
	// ContainersOnly marks a policy of YARN's that schedules containers
	// only (replay.ContainerModel); in the slot model its Start fails.
	ContainersOnly bool
	// Gangs says that the policy honours rigid jobs (traces.Job.Rigid):
	// it gives a rigid job all its map slots at once. The others schedule
	// a rigid job's maps one by one, and bench replay notes it.
	Gangs bool
	// New builds the policy. Its settings hold every option, defaults
	// filled in.
	New func(s *Settings) (replay.Scheduler, error)
}

// Build builds the policy with the given option values: options not given
// take their defaults, and an unknown option is an error that lists the
// known ones.
func (p *Policy) Build(values map[string]string) (replay.Scheduler, error) {
	s, err := p.Settings(values)
	if err != nil {
		return nil, err
	}
	return p.New(s)
}

// Settings returns the policy's settings for the given option values,
// defaults filled in; an unknown option is an error.
func (p *Policy) Settings(values map[string]string) (*Settings, error) {
	s := &Settings{Policy: p.Name, Values: map[string]string{}}
	for _, o := range p.Options {
		s.Values[o.Name] = o.Default
	}
	keys := make([]string, 0, len(values))
	for k := range values {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !p.HasOption(k) {
			return nil, fmt.Errorf("%s has no option %q (options: %s)", p.Name, k, strings.Join(p.OptionNames(), ", "))
		}
		s.Values[k] = values[k]
	}
	return s, nil
}

// HasOption reports whether the policy has an option called name.
func (p *Policy) HasOption(name string) bool {
	for _, o := range p.Options {
		if o.Name == name {
			return true
		}
	}
	return false
}

// OptionNames lists the policy's option names in their order.
func (p *Policy) OptionNames() []string {
	names := make([]string, len(p.Options))
	for i, o := range p.Options {
		names[i] = o.Name
	}
	return names
}
