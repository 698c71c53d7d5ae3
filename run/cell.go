package run

import (
	"path"
	"path/filepath"
	"strings"

	"sojourn/replay"
	"sojourn/results"
	"sojourn/schedulers"
	"sojourn/traces"
)

// Cell is one replay: a trace under a policy on a cluster, and which of
// its results to write.
type Cell struct {
	// Index is the cell's number in its sweep (bench sweep names its
	// directory and shards by it); experiments leave it 0.
	Index int
	// Dir is the cell's directory under its run's, e.g. "fair",
	// "alpha-0.30/rep-07" or "cells/000017". Within one run it is unique.
	Dir string
	// Trace is the workload in memory. When it is nil, the jobs stream
	// from the trace file TracePath as they arrive, so that memory holds
	// the jobs in flight, not the whole trace.
	Trace     *traces.Trace
	TracePath string
	// TraceFile is the trace's name as the results record it (trace.file).
	TraceFile string
	// Workload names the workload in the results (metadata workload and
	// the jobs' workload column); empty means TraceFile's base name
	// without its extension.
	Workload string
	Policy   string
	Options  map[string]string // policy options; unset ones take defaults
	Cluster  replay.Config
	// Labels are the cell's coordinates in its sweep (e.g. "alpha": "0.3"),
	// recorded in the result metadata as label.*.
	Labels map[string]string
	// Metadata is further result metadata, such as sweep.name.
	Metadata map[string]string
	// Tasks writes tasks.arrow (one row per task segment); Occupancy
	// records and writes occupancy.arrow (per-job slot occupancy series).
	Tasks, Occupancy bool
	// Keep keeps the per-task segments (and occupancy, if recorded) in the
	// Result, in memory, rather than streaming them to disk as they come.
	Keep bool
}

// metadata is the cell's result metadata, the one place it is assembled:
// the policy, every cluster parameter and the trace's parameters
// (results.RunMetadata), the trace's name, the cell's own metadata, its
// labels (label.*), its workload and every option of its policy in force
// (policy.*), defaults included.
func (c *Cell) metadata(scheduler string, cfg replay.Config, tr *traces.Trace) map[string]string {
	extra := map[string]string{}
	if c.TraceFile != "" {
		extra["trace.file"] = c.TraceFile
	}
	for k, v := range c.Metadata {
		extra[k] = v
	}
	for k, v := range c.Labels {
		extra["label."+k] = v
	}
	extra[results.KeyWorkload] = c.WorkloadName()
	md := results.RunMetadata(scheduler, cfg, tr, extra)
	for k, v := range PolicySettings(c.Policy, c.Options) {
		md["policy."+k] = v
	}
	return md
}

// WorkloadName is the cell's workload: Workload, or else TraceFile's base
// name without its extension ("traces/fb2009-seed1.arrow" gives
// "fb2009-seed1").
func (c *Cell) WorkloadName() string {
	if c.Workload != "" {
		return c.Workload
	}
	base := path.Base(filepath.ToSlash(c.TraceFile))
	if base == "." || base == "/" {
		return ""
	}
	return strings.TrimSuffix(base, path.Ext(base))
}

// PolicySettings is every option of the policy: its defaults overridden
// by opts. An option marked OmitDefault is left out while it has its
// default value.
func PolicySettings(policy string, opts map[string]string) map[string]string {
	out := map[string]string{}
	p, err := schedulers.Lookup(policy)
	if err == nil {
		for _, o := range p.Options {
			out[o.Name] = o.Default
		}
	}
	for k, v := range opts {
		out[k] = v
	}
	if err == nil {
		for _, o := range p.Options {
			if o.OmitDefault && out[o.Name] == o.Default {
				delete(out, o.Name)
			}
		}
	}
	return out
}
