package hfsp

import (
	"fmt"
	"maps"

	"sojourn/replay"
	"sojourn/schedulers/internal/policy"
)

// FSPName is the name of FSP, HFSP with exact sizes, in the registry and
// on the command line.
const FSPName = "fsp"

var fspOptions = []policy.Option{
	{Name: "preemption", Default: "eager", Usage: "as hfsp.preemption: eager, wait or kill"},
	{Name: "map-preemption", Default: "wait", Usage: "as hfsp.map-preemption: wait, eager or kill"},
	{Name: "late", Default: "fifo", Usage: "as hfsp.late: fifo or ps"},
	{Name: "locality-delay", Default: "-1", Usage: "as hfsp.locality-delay"},
	{Name: "virtual-speed", Default: "1", Usage: "as hfsp.virtual-speed"},
	{Name: "reduce-aging", Default: "after-maps", Usage: "as hfsp.reduce-aging: after-maps (the reduce phase ages once the job's maps have finished) or at-arrival (the public HFSP code)"},
}

// FSPPolicy describes FSP to the registry.
var FSPPolicy = policy.Policy{
	Name:      FSPName,
	Summary:   "oracle: HFSP with exact sizes (hfsp with oracle=both): the Fair Sojourn Protocol",
	Options:   fspOptions,
	MayStarve: true, // with true sizes the largest job is served last
	New: func(s *policy.Settings) (replay.Scheduler, error) {
		opts := maps.Clone(s.Values)
		opts["oracle"] = "both"
		h, err := Policy.Build(opts)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", FSPName, err)
		}
		return &FSP{h.(*HFSP)}, nil
	},
}

// FSP is HFSP with exact sizes, under its own name: the Fair Sojourn
// Protocol (Friedman and Henderson), which the HFSP paper approximates.
type FSP struct{ *HFSP }

var (
	_ replay.Scheduler = (*FSP)(nil)
	_ replay.Starter   = (*FSP)(nil)
	_ replay.Preempter = (*FSP)(nil)
)

// Name implements replay.Scheduler.
func (f *FSP) Name() string { return FSPName }
