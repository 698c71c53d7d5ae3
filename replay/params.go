package replay

import (
	"fmt"
	"math"
	"sort"
)

// Limits of the cluster parameters: beyond them a run would exhaust
// memory (nodes, slots) or overflow the microsecond clock (times).
const (
	MaxNodes        = 1_000_000
	MaxSlotsPerNode = 1024
	MaxSlots        = 1 << 26 // nodes × (map + reduce slots)
	MaxReplication  = 64
	MaxSuspended    = 1 << 20
	// MaxParamSeconds bounds every time parameter (heartbeat, MTBF, MTTR):
	// 1e12 s, so that sums of a few of them stay within int64 µs (9.2e12 s).
	MaxParamSeconds = 1e12
	MaxFactor       = 1e6  // locality factors
	MaxBandwidth    = 1e15 // bytes/s
	MaxSpeedSigma   = 10
	MaxMemoryMB     = 1 << 40 // per node or container
	MaxVcores       = 1_000_000
	// MaxContainers bounds nodes × the minimum-size containers one node
	// holds, as MaxSlots bounds the slots.
	MaxContainers = MaxSlots
)

// ParamSpec is the allowed range of one cluster parameter, named as
// bench replay's flag and a sweep file's parameter. Every place a
// parameter is given (flags, sweep files, Config.Validate) checks it here.
type ParamSpec struct {
	Name     string
	Integer  bool
	Min, Max float64
	// OpenMin excludes Min itself (a float that must be > Min).
	OpenMin bool
	// Zero is what an explicit 0 means when it is allowed ("" when 0 is
	// refused: 0 in Config means "the default", so a user's 0 would be
	// silently replaced).
	Zero string
	Unit string
	// Container marks a parameter of the container model only.
	Container bool
	get       func(*Config) float64
}

var paramSpecs = []ParamSpec{
	{Name: "nodes", Integer: true, Min: 1, Max: MaxNodes, Unit: "nodes", get: func(c *Config) float64 { return float64(c.Nodes) }},
	{Name: "nodes-per-rack", Integer: true, Min: 1, Max: MaxNodes, Unit: "nodes", get: func(c *Config) float64 { return float64(c.NodesPerRack) }},
	{Name: "map-slots", Integer: true, Min: 1, Max: MaxSlotsPerNode, Unit: "slots", get: func(c *Config) float64 { return float64(c.MapSlots) }},
	{Name: "reduce-slots", Integer: true, Min: 1, Max: MaxSlotsPerNode, Unit: "slots", get: func(c *Config) float64 { return float64(c.ReduceSlots) }},
	{Name: "replication", Integer: true, Min: 1, Max: MaxReplication, Unit: "replicas", get: func(c *Config) float64 { return float64(c.Replication) }},
	{Name: "max-suspended", Integer: true, Min: 1, Max: MaxSuspended, Unit: "tasks", get: func(c *Config) float64 { return float64(c.MaxSuspendedPerNode) }},
	{Name: "heartbeat", Min: 1e-6, Max: MaxParamSeconds, Zero: "Hadoop's max(0.3, nodes/100)", Unit: "s", get: func(c *Config) float64 { return c.Heartbeat }},
	{Name: "rack-local-factor", Min: 0, OpenMin: true, Max: MaxFactor, get: func(c *Config) float64 { return c.RackLocalFactor }},
	{Name: "off-rack-factor", Min: 0, OpenMin: true, Max: MaxFactor, get: func(c *Config) float64 { return c.OffRackFactor }},
	{Name: "slowstart", Min: 0, Max: 1, Zero: "reduces launch at once", get: func(c *Config) float64 { return max(c.SlowStart, 0) }},
	{Name: "shuffle-bandwidth", Min: 0, OpenMin: true, Max: MaxBandwidth, Unit: "bytes/s", get: func(c *Config) float64 { return c.ShuffleBandwidth }},
	{Name: "disk-bandwidth", Min: 0, OpenMin: true, Max: MaxBandwidth, Unit: "bytes/s", get: func(c *Config) float64 { return c.DiskBandwidth }},
	{Name: "speed-sigma", Min: 0, Max: MaxSpeedSigma, Zero: "identical nodes", get: func(c *Config) float64 { return c.SpeedSigma }},
	{Name: "mtbf", Min: 0, OpenMin: true, Max: MaxParamSeconds, Zero: "no failures", Unit: "s", get: func(c *Config) float64 { return c.MTBF }},
	{Name: "mttr", Min: 0, OpenMin: true, Max: MaxParamSeconds, Unit: "s", get: func(c *Config) float64 { return c.MTTR }},
	{Name: "node-memory-mb", Integer: true, Min: 1, Max: MaxMemoryMB, Unit: "MiB", Container: true, get: func(c *Config) float64 { return float64(c.NodeMemoryMB) }},
	{Name: "node-vcores", Integer: true, Min: 1, Max: MaxVcores, Unit: "vcores", Container: true, get: func(c *Config) float64 { return float64(c.NodeVcores) }},
	{Name: "min-allocation-mb", Integer: true, Min: 1, Max: MaxMemoryMB, Unit: "MiB", Container: true, get: func(c *Config) float64 { return float64(c.MinAllocationMB) }},
	{Name: "min-allocation-vcores", Integer: true, Min: 1, Max: MaxVcores, Unit: "vcores", Container: true, get: func(c *Config) float64 { return float64(c.MinAllocationVcores) }},
	{Name: "map-memory-mb", Integer: true, Min: 1, Max: MaxMemoryMB, Unit: "MiB", Container: true, get: func(c *Config) float64 { return float64(c.MapMemoryMB) }},
	{Name: "reduce-memory-mb", Integer: true, Min: 1, Max: MaxMemoryMB, Unit: "MiB", Container: true, get: func(c *Config) float64 { return float64(c.ReduceMemoryMB) }},
	{Name: "am-memory-mb", Integer: true, Min: 1, Max: MaxMemoryMB, Unit: "MiB", Container: true, get: func(c *Config) float64 { return float64(c.AMMemoryMB) }},
	{Name: "am-vcores", Integer: true, Min: 1, Max: MaxVcores, Unit: "vcores", Container: true, get: func(c *Config) float64 { return float64(c.AMVcores) }},
	{Name: "max-am-share", Min: 0, OpenMin: true, Max: 1, Container: true, get: func(c *Config) float64 { return c.MaxAMShare }},
}

// Params lists the ranges of the cluster parameters, by name.
func Params() []ParamSpec {
	out := append([]ParamSpec(nil), paramSpecs...)
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// LookupParam returns the range of cluster parameter name.
func LookupParam(name string) (ParamSpec, bool) {
	for _, p := range paramSpecs {
		if p.Name == name {
			return p, true
		}
	}
	return ParamSpec{}, false
}

// Want describes the allowed values, e.g. "an integer from 1 to 1000000".
func (p ParamSpec) Want() string {
	var s string
	switch {
	case p.Zero != "" && p.Min == 0 && !p.OpenMin:
		s = fmt.Sprintf("a number from 0 (%s) to %g", p.Zero, p.Max)
		if p.Unit != "" {
			s += " " + p.Unit
		}
		return s
	case p.Integer:
		s = fmt.Sprintf("an integer from %.0f to %.0f", p.Min, p.Max)
	case p.OpenMin:
		s = fmt.Sprintf("a number > %g and <= %g", p.Min, p.Max)
	default:
		s = fmt.Sprintf("a number from %g to %g", p.Min, p.Max)
	}
	if p.Unit != "" {
		s += " " + p.Unit
	}
	if p.Zero != "" {
		s += fmt.Sprintf(", or 0 (%s)", p.Zero)
	}
	return s
}

// Check reports whether v, given explicitly by a user, is allowed. The
// error is the value and what is wanted; callers prefix the flag or
// field.
func (p ParamSpec) Check(v float64) error {
	if v == 0 && p.Zero != "" {
		return nil
	}
	ok := !math.IsNaN(v) && v <= p.Max && (v > p.Min || !p.OpenMin && v == p.Min)
	if p.Integer && v != math.Trunc(v) {
		ok = false
	}
	if !ok {
		if v == 0 && !p.OpenMin && p.Min > 0 {
			return fmt.Errorf("0; want %s (leave it out for the default)", p.Want())
		}
		return fmt.Errorf("%v; want %s", v, p.Want())
	}
	return nil
}

// CheckInt is Check for an integer as given, so that a huge one is
// quoted exactly.
func (p ParamSpec) CheckInt(v int64) error {
	if p.Integer && (v < int64(p.Min) || v > int64(p.Max)) && !(v == 0 && p.Zero != "") {
		if v == 0 {
			return fmt.Errorf("0; want %s (leave it out for the default)", p.Want())
		}
		return fmt.Errorf("%d; want %s", v, p.Want())
	}
	return p.Check(float64(v))
}

// CheckParam checks an explicit value of cluster parameter name.
func CheckParam(name string, v float64) error {
	p, ok := LookupParam(name)
	if !ok {
		return fmt.Errorf("unknown cluster parameter %q", name)
	}
	return p.Check(v)
}

// checkRanges checks every field of a Config whose defaults are filled
// in against its parameter's range.
func (c *Config) checkRanges() error {
	for _, p := range paramSpecs {
		if p.Name == "mttr" && c.MTBF == 0 && c.MTTR == 0 {
			continue // no failures, no repairs
		}
		if p.Container && c.Model != ContainerModel {
			continue
		}
		if err := p.Check(p.get(c)); err != nil {
			return fmt.Errorf("replay: %s: %w", p.Name, err)
		}
	}
	if n := int64(c.Nodes) * int64(c.MapSlots+c.ReduceSlots); n > MaxSlots {
		return fmt.Errorf("replay: %d nodes of %d slots: %d slots in all; want at most %d", c.Nodes, c.MapSlots+c.ReduceSlots, n, MaxSlots)
	}
	return nil
}
