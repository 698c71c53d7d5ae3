package swim

import (
	"errors"
	"fmt"
	"strings"
)

// DefaultNodes is the default target cluster: the HFSP paper's 100 nodes.
const DefaultNodes = 100

// maxNodes bounds the target cluster size.
const maxNodes = 1_000_000

// Limits of the generator's parameters: beyond them a run would exhaust
// memory or time, or write times beyond the replay clock.
const (
	MaxJobs    = 10_000_000 // jobs of a trace
	MaxSamples = 10_000     // sampler windows
	MaxTime    = 1e9        // s: a mean gap, a window, a task start-up
)

// ErrConfig marks a bad generator parameter; every *ConfigError wraps it.
var ErrConfig = errors.New("invalid generator parameter")

// ConfigError names a bad parameter by its field path in Config, e.g.
// "Tasks.BlockSize" or "Durations.MapRate".
type ConfigError struct {
	Field string
	Msg   string
}

func (e *ConfigError) Error() string { return e.Field + ": " + e.Msg }

func (e *ConfigError) Unwrap() error { return ErrConfig }

// Arrivals selects how submit times are made.
type Arrivals int

const (
	// ArrivalsDefault is exponential for a profile, trace for a SWIM source.
	ArrivalsDefault Arrivals = iota
	// ArrivalsTrace keeps the shape of the trace's gaps: for a SWIM source
	// the sampled submit times, for a profile gaps drawn from its model.
	// A MeanGap rescales them to that mean.
	ArrivalsTrace
	// ArrivalsExponential draws exponential gaps of mean MeanGap.
	ArrivalsExponential
)

var arrivalNames = [...]string{ArrivalsDefault: "default", ArrivalsTrace: "trace", ArrivalsExponential: "exponential"}

func (a Arrivals) String() string {
	if a < 0 || int(a) >= len(arrivalNames) {
		return fmt.Sprintf("Arrivals(%d)", int(a))
	}
	return arrivalNames[a]
}

// ParseArrivals accepts "trace" or "exponential" (and "" or "default").
func ParseArrivals(s string) (Arrivals, error) {
	if s == "" {
		return ArrivalsDefault, nil
	}
	for i, n := range arrivalNames {
		if s == n {
			return Arrivals(i), nil
		}
	}
	return 0, fmt.Errorf("unknown arrival process %q; want trace or exponential", s)
}

// Config holds every parameter of Generate. Zero fields take defaults in
// Validate; the trace's metadata records the values used.
type Config struct {
	// Exactly one of Profile (a name from ProfileNames) and Source (a SWIM
	// workload, sampled with Sampler) says where jobs come from.
	Profile string
	Source  *Source

	Seed uint64 // every random draw derives from it

	Nodes int // target cluster size; 0 means DefaultNodes
	// OriginalNodes is the size of the cluster the jobs' bytes come from;
	// bytes are scaled by Nodes/OriginalNodes. 0 means the profile's (100)
	// or, for a Source, the guess of OriginalNodesFor.
	OriginalNodes int
	// Jobs is the number of jobs; 0 means the profile's, or every job the
	// sampler gives for a Source.
	Jobs int

	Tasks   TaskConfig // Tasks.Nodes is set from Nodes
	Sampler Sampler    // Source only; Sampler.MaxJobs is set from Jobs
	// Whole takes the Source's jobs as they are, each with its own submit
	// time, instead of sampling windows (the first Jobs, if set): a SWIM
	// sample file replayed whole is the day it describes.
	Whole bool

	Arrivals Arrivals
	// MeanGap (s) is the mean inter-arrival time. 0 means the profile's;
	// for a Source, the mean of the sampled gaps.
	MeanGap float64

	Durations *DurationModel // nil means DefaultDurationModel()

	// Progress, if set, is called every few thousand jobs with the number
	// of jobs done and the total.
	Progress func(done, total int)

	profile *Profile
}

// Validate fills defaults and checks every parameter; its error is a
// *ConfigError naming the first bad field.
func (c *Config) Validate() error {
	c.profile = nil
	switch {
	case c.Profile == "" && c.Source == nil:
		return &ConfigError{"Profile", "no workload: give a profile (" + strings.Join(ProfileNames(), " or ") + ") or a SWIM source"}
	case c.Profile != "" && c.Source != nil:
		return &ConfigError{"Profile", "give a profile or a SWIM source, not both"}
	}
	if c.Profile != "" {
		p, err := LookupProfile(c.Profile)
		if err != nil {
			return &ConfigError{"Profile", err.Error()}
		}
		c.profile = p
		if c.Sampler != (Sampler{}) {
			return &ConfigError{"Sampler", "the window sampler applies only to a SWIM source, not to a profile"}
		}
	}
	if c.Nodes == 0 {
		c.Nodes = DefaultNodes
	}
	if c.Nodes < 1 || c.Nodes > maxNodes {
		return &ConfigError{"Nodes", fmt.Sprintf("%d; want 1 to %d", c.Nodes, maxNodes)}
	}
	if c.OriginalNodes == 0 {
		if c.profile != nil {
			c.OriginalNodes = c.profile.OriginalNodes
		} else if n, ok := OriginalNodesFor(c.Source.Name); ok {
			c.OriginalNodes = n
		} else {
			return &ConfigError{"OriginalNodes", fmt.Sprintf("cannot tell the original cluster size from the name %q; set it (600 for FB-2009, 3000 for FB-2010)", c.Source.Name)}
		}
	}
	if c.OriginalNodes < 1 || c.OriginalNodes > maxNodes {
		return &ConfigError{"OriginalNodes", fmt.Sprintf("%d; want 1 to %d", c.OriginalNodes, maxNodes)}
	}
	if c.Jobs < 0 || c.Jobs > MaxJobs {
		return &ConfigError{"Jobs", fmt.Sprintf("%d; want 0 (default) to %d", c.Jobs, MaxJobs)}
	}
	if c.Jobs == 0 && c.profile != nil {
		c.Jobs = c.profile.Jobs
	}
	c.Tasks.Nodes = c.Nodes
	if err := c.Tasks.Validate(); err != nil {
		return err
	}
	switch {
	case c.Whole && c.Source == nil:
		return &ConfigError{"Whole", "applies only to a SWIM source"}
	case c.Whole && c.Sampler != (Sampler{}):
		return &ConfigError{"Sampler", "a whole source is not sampled; leave the sampler unset"}
	case c.Source != nil && !c.Whole:
		c.Sampler.MaxJobs = c.Jobs
		if err := c.Sampler.Validate(); err != nil {
			return err
		}
	}
	if c.Arrivals == ArrivalsDefault {
		c.Arrivals = ArrivalsExponential
		if c.Source != nil {
			c.Arrivals = ArrivalsTrace
		}
	}
	if c.Arrivals != ArrivalsTrace && c.Arrivals != ArrivalsExponential {
		return &ConfigError{"Arrivals", fmt.Sprintf("%v; want trace or exponential", c.Arrivals)}
	}
	if !finiteNonNeg(c.MeanGap) || c.MeanGap > MaxTime {
		return &ConfigError{"MeanGap", fmt.Sprintf("%v s; want a mean from 0 (default) to %g s", c.MeanGap, MaxTime)}
	}
	if c.MeanGap == 0 && c.profile != nil {
		c.MeanGap = c.profile.MeanGap
	}
	if c.Durations == nil {
		d := DefaultDurationModel()
		c.Durations = &d
	}
	if err := c.Durations.Validate(); err != nil {
		return err
	}
	return nil
}

// scale returns Nodes/OriginalNodes as a float, for the record.
func (c *Config) scale() float64 { return float64(c.Nodes) / float64(c.OriginalNodes) }
