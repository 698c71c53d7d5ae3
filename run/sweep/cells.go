package sweep

import (
	"fmt"
	"math/big"
	"path/filepath"
	"strconv"
	"strings"

	"sojourn/replay"
	"sojourn/replay/clusterfile"
	"sojourn/run"
	"sojourn/schedulers"
	execpolicy "sojourn/schedulers/exec"
)

// Plan is a loaded sweep: its spec and its cells in order.
type Plan struct {
	Spec  *Spec
	Dir   string // the sweep file's directory: trace files are relative to it
	Path  string // the sweep file; "" for a sweep built in memory (NewPlan)
	Cells []*run.Cell
}

// A sweep's cell is a run.Cell whose Labels are its coordinates: its
// workload ("workload"), its seed ("seed", also the cluster's) and its
// swept parameters (cluster parameters and its policy's options), by
// name; fixed ones are not repeated. Its Cluster has every cluster
// parameter the sweep sets (zero fields take the replay's defaults), its
// Options the policy options it sets.

// Label describes a cell in messages: "fb2009 fair nodes=20 seed=3". An
// external policy is named as its results are, by its name in the sweep
// file's exec, or else "exec" (it declares its name when it starts).
func Label(c *run.Cell) string {
	pol := schedulers.ResultName(c.Policy, c.Options)
	return strings.Join(append(append([]string{c.Labels[workloadLabel], pol}, paramList(Params(c))...), "seed="+c.Labels[seedLabel]), " ")
}

// Labels of a cell's workload and seed; no parameter has these names.
const (
	workloadLabel = "workload"
	seedLabel     = "seed"
)

// Params are the cell's swept parameters, by name: its labels but its
// workload and seed.
func Params(c *run.Cell) map[string]string {
	out := map[string]string{}
	for k, v := range c.Labels {
		if k != workloadLabel && k != seedLabel {
			out[k] = v
		}
	}
	return out
}

// cellDir is a cell's directory under the sweep's output, e.g.
// "cells/000017".
func cellDir(i int) string { return fmt.Sprintf("cells/%06d", i) }

// paramList is "name=value" for each parameter, by name.
func paramList(m map[string]string) []string {
	var out []string
	for _, k := range sortedKeys(m) {
		out = append(out, k+"="+m[k])
	}
	return out
}

// clusterParam sets one field of replay.Config from the text of a value.
type clusterParam struct {
	kind int
	set  func(c *replay.Config, v string)
}

const (
	kindInt = iota
	kindFloat
	kindBool
	kindModel // slots or yarn
	kindPath  // a cluster file
)

func intParam(f func(*replay.Config) *int) clusterParam {
	return clusterParam{kindInt, func(c *replay.Config, v string) { *f(c), _ = strconv.Atoi(v) }}
}

func int64Param(f func(*replay.Config) *int64) clusterParam {
	return clusterParam{kindInt, func(c *replay.Config, v string) { *f(c), _ = strconv.ParseInt(v, 10, 64) }}
}

func floatParam(f func(*replay.Config) *float64) clusterParam {
	return clusterParam{kindFloat, func(c *replay.Config, v string) { *f(c), _ = strconv.ParseFloat(v, 64) }}
}

// clusterParams are named after bench replay's flags, with their units.
var clusterParams = map[string]clusterParam{
	"nodes":             intParam(func(c *replay.Config) *int { return &c.Nodes }),
	"nodes-per-rack":    intParam(func(c *replay.Config) *int { return &c.NodesPerRack }),
	"map-slots":         intParam(func(c *replay.Config) *int { return &c.MapSlots }),
	"reduce-slots":      intParam(func(c *replay.Config) *int { return &c.ReduceSlots }),
	"replication":       intParam(func(c *replay.Config) *int { return &c.Replication }),
	"max-suspended":     intParam(func(c *replay.Config) *int { return &c.MaxSuspendedPerNode }),
	"heartbeat":         floatParam(func(c *replay.Config) *float64 { return &c.Heartbeat }),
	"rack-local-factor": floatParam(func(c *replay.Config) *float64 { return &c.RackLocalFactor }),
	"off-rack-factor":   floatParam(func(c *replay.Config) *float64 { return &c.OffRackFactor }),
	"shuffle-bandwidth": floatParam(func(c *replay.Config) *float64 { return &c.ShuffleBandwidth }),
	"disk-bandwidth":    floatParam(func(c *replay.Config) *float64 { return &c.DiskBandwidth }),
	"speed-sigma":       floatParam(func(c *replay.Config) *float64 { return &c.SpeedSigma }),
	"mtbf":              floatParam(func(c *replay.Config) *float64 { return &c.MTBF }),
	"mttr":              floatParam(func(c *replay.Config) *float64 { return &c.MTTR }),
	"slowstart": {kindFloat, func(c *replay.Config, v string) {
		// As bench replay's flag: 0 launches reduces at once, which the
		// engine spells as a negative value.
		c.SlowStart, _ = strconv.ParseFloat(v, 64)
		if c.SlowStart == 0 {
			c.SlowStart = -1
		}
	}},
	"oob-heartbeat": {kindBool, func(c *replay.Config, v string) { c.OutOfBandHeartbeat, _ = strconv.ParseBool(v) }},
	"model":         {kindModel, func(c *replay.Config, v string) { c.Model, _ = replay.ParseModel(v) }},
	"cluster": {kindPath, func(c *replay.Config, v string) {
		// Checked when the sweep file was read (clusterParam.check).
		if cl, err := clusterfile.Load(v); err == nil {
			c.Cluster, c.ExtraResources = run.ClusterNodes(cl, c.NodesPerRack)
			c.Nodes = 0
		}
	}},
	"node-memory-mb":        int64Param(func(c *replay.Config) *int64 { return &c.NodeMemoryMB }),
	"node-vcores":           int64Param(func(c *replay.Config) *int64 { return &c.NodeVcores }),
	"min-allocation-mb":     int64Param(func(c *replay.Config) *int64 { return &c.MinAllocationMB }),
	"min-allocation-vcores": int64Param(func(c *replay.Config) *int64 { return &c.MinAllocationVcores }),
	"map-memory-mb":         int64Param(func(c *replay.Config) *int64 { return &c.MapMemoryMB }),
	"reduce-memory-mb":      int64Param(func(c *replay.Config) *int64 { return &c.ReduceMemoryMB }),
	"am-memory-mb":          int64Param(func(c *replay.Config) *int64 { return &c.AMMemoryMB }),
	"am-vcores":             int64Param(func(c *replay.Config) *int64 { return &c.AMVcores }),
	"max-am-share":          floatParam(func(c *replay.Config) *float64 { return &c.MaxAMShare }),
}

// fileOptions are the policy options whose value is a file's path: in a
// sweep file it is relative to the sweep file, as traces and cluster files
// are, not to the working directory. (An external policy's command line
// runs in the working directory, as bench replay --exec's does.)
var fileOptions = map[string]bool{
	"easy.pass-times":      true,
	"fair.pools":           true,
	"capacity.queues":      true,
	"yarn-capacity.queues": true,
	"yarn-fair.queues":     true,
}

// ParameterNames lists the cluster parameters a sweep may set.
func ParameterNames() []string { return sortedKeys(clusterParams) }

// expand builds the cells: workloads, then policies, then parameter
// combinations (names in sorted order, the last varying fastest, values in
// the file's order), then seeds. The order, and so every cell's index,
// depends on the file alone.
func expand(s *Spec, path string) (*Plan, error) {
	p := &Plan{Spec: s, Dir: filepath.Dir(path)}
	// Count first: the combinations of a few long parameter lists run to
	// hundreds of millions, which must be refused before any is built.
	if n := cellCount(s); n.gt(maxCells) {
		return nil, fmt.Errorf("%s cells; want at most %d (fewer parameter values or seeds)", n.String(), maxCells)
	}
	checked := map[string]bool{}
	for wi := range s.Workloads {
		w := &s.Workloads[wi]
		for _, pol := range s.Policies {
			var names []string
			for _, k := range sortedKeys(s.Parameters) {
				if owner, _, isOpt := strings.Cut(k, "."); !isOpt || owner == pol {
					names = append(names, k)
				}
			}
			for _, combo := range product(names, s.Parameters) {
				for _, seed := range s.Seeds {
					c, err := newCell(p.Dir, len(p.Cells), w, pol, s.Exec, combo, seed, s.Fixed)
					if err != nil {
						return nil, err
					}
					if key := pol + "\x00" + strings.Join(paramList(c.Options), "\x00"); !checked[key] {
						// Option values are the policy's to check.
						if _, err := schedulers.New(c.Policy, c.Options); err != nil {
							return nil, fmt.Errorf("cell %d (%s): %v", c.Index, Label(c), err)
						}
						checked[key] = true
					}
					p.Cells = append(p.Cells, c)
					if len(p.Cells) > maxCells {
						return nil, fmt.Errorf("more than %d cells", maxCells)
					}
				}
			}
		}
	}
	return p, nil
}

// cellCount is the number of cells expand would build, counted without
// building them (as a big integer: it may overflow any fixed width).
func cellCount(s *Spec) *bigCount {
	total := newBigCount(0)
	for range s.Workloads {
		for _, pol := range s.Policies {
			n := newBigCount(int64(len(s.Seeds)))
			for k, vs := range s.Parameters {
				if owner, _, isOpt := strings.Cut(k, "."); !isOpt || owner == pol {
					n.Mul(n.Int, big.NewInt(int64(len(vs))))
				}
			}
			total.Add(total.Int, n.Int)
		}
	}
	return total
}

// bigCount is a cell count that compares with maxCells.
type bigCount struct{ *big.Int }

func newBigCount(v int64) *bigCount { return &bigCount{big.NewInt(v)} }

// Greater than maxCells.
func (b *bigCount) gt(n int) bool { return b.Cmp(big.NewInt(int64(n))) > 0 }

// product lists every combination of the values of names.
func product(names []string, values map[string][]Value) []map[string]string {
	out := []map[string]string{{}}
	for _, n := range names {
		var next []map[string]string
		for _, m := range out {
			for _, v := range values[n] {
				c := make(map[string]string, len(m)+1)
				for k, x := range m {
					c[k] = x
				}
				c[n] = string(v)
				next = append(next, c)
			}
		}
		out = next
	}
	return out
}

// newCell builds cell i: policy pol (a built-in or one of the external
// policies of external) on workload w with the swept params and seed.
func newCell(dir string, i int, w *Workload, pol string, external map[string]string, params map[string]string, seed uint64, fixed map[string]Value) (*run.Cell, error) {
	c := &run.Cell{Index: i, Dir: cellDir(i), TraceFile: traceFile(w, seed), Workload: w.Name, Policy: pol, Options: map[string]string{},
		Labels: map[string]string{workloadLabel: w.Name, seedLabel: fmt.Sprint(seed)}}
	if command, ok := external[pol]; ok {
		c.Policy = execpolicy.Name
		c.Options["command"], c.Options["name"] = command, pol
	}
	for k, v := range params {
		c.Labels[k] = v
	}
	apply := func(k, v string) {
		if owner, opt, isOpt := strings.Cut(k, "."); isOpt {
			if owner == pol {
				if fileOptions[c.Policy+"."+opt] && v != "" {
					v = inDir(dir, v)
				}
				c.Options[opt] = v
			}
			return
		}
		if clusterParams[k].kind == kindPath {
			v = inDir(dir, v)
		}
		clusterParams[k].set(&c.Cluster, v)
	}
	for _, k := range sortedKeys(fixed) {
		apply(k, string(fixed[k]))
	}
	for _, k := range sortedKeys(params) {
		apply(k, params[k])
	}
	c.Cluster.Seed = seed
	if c.Cluster.Model == replay.SlotModel {
		for _, p := range replay.Params() {
			_, inFixed := fixed[p.Name]
			_, inParams := params[p.Name]
			if p.Container && (inFixed || inParams) {
				return nil, fmt.Errorf("cell %d (%s): %s is a parameter of the container model; set model to yarn", i, Label(c), p.Name)
			}
		}
	}
	cfg := c.Cluster
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("cell %d (%s): %v", i, Label(c), err)
	}
	return c, nil
}
