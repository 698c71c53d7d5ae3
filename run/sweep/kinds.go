package sweep

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"sojourn/replay"
	"sojourn/run"
	"sojourn/swim"
	"sojourn/traces"
)

// checkTaskKinds refuses, before any cell of the shard runs, a cell whose
// slot-model cluster file has no slot for a kind of task its trace holds:
// the replay could never finish, and would end on the engine's
// no-progress detector blaming the policy. Every job has maps; a trace is
// read (or generated) for reduces only for a cluster with no reduce slot,
// once per trace file.
func (r *Runner) checkTaskKinds(p *Plan) error {
	type found struct {
		job string // the first job with reduces, "" if none
		err error
	}
	reduced := map[string]found{} // by trace file
	for _, c := range p.Cells {
		if !r.Shard.Owns(c.Index) || c.Cluster.Model == replay.ContainerModel || len(c.Cluster.Cluster) == 0 {
			continue
		}
		var maps, reduces int64
		for _, n := range c.Cluster.Cluster {
			maps += int64(n.MapSlots)
			reduces += int64(n.ReduceSlots)
		}
		where := fmt.Sprintf("sweep %s: cell %d (%s): cluster %s", p.Spec.Name, c.Index, Label(c), clusterPath(p, c))
		if p.Path != "" {
			where = fmt.Sprintf("%s: cell %d (%s): cluster %s", p.Path, c.Index, Label(c), clusterPath(p, c))
		}
		if maps == 0 {
			return fmt.Errorf("%s: no node has a map slot; every job has maps", where)
		}
		if reduces > 0 {
			continue
		}
		f, ok := reduced[c.TraceFile]
		if !ok {
			f.job, f.err = firstReduce(p, c)
			reduced[c.TraceFile] = f
		}
		if f.err != nil {
			return f.err
		}
		if f.job != "" {
			return fmt.Errorf("%s: no node has a reduce slot; %s", where, f.job)
		}
	}
	return nil
}

// clusterPath is the cluster file of cell c, resolved as it was read.
func clusterPath(p *Plan, c *run.Cell) string {
	v, ok := c.Labels["cluster"]
	if !ok {
		v = string(p.Spec.Fixed["cluster"])
	}
	return inDir(p.Dir, v)
}

// firstReduce names the first job with reduces of cell c's workload, or
// is "" if none has any.
func firstReduce(p *Plan, c *run.Cell) (string, error) {
	var w *Workload
	for i := range p.Spec.Workloads {
		if p.Spec.Workloads[i].Name == c.Labels[workloadLabel] {
			w = &p.Spec.Workloads[i]
		}
	}
	if w == nil {
		return "", nil
	}
	if w.Profile != "" {
		seed := c.Cluster.Seed
		tr, err := swim.Generate(swim.Config{Profile: w.Profile, Seed: seed, Jobs: w.Jobs, MeanGap: w.MeanGap, Nodes: w.Nodes})
		if err != nil {
			return "", fmt.Errorf("workload %s, seed %d: %w", w.Name, seed, err)
		}
		for row := range tr.Jobs {
			if j := &tr.Jobs[row]; j.Reduces() > 0 {
				return fmt.Sprintf("job %d (row %d) of workload %s, seed %d, has %d reduces", j.ID, row, w.Name, seed, j.Reduces()), nil
			}
		}
		return "", nil
	}
	src := w.Trace
	if !filepath.IsAbs(src) {
		src = filepath.Join(p.Dir, src)
	}
	rd, err := traces.Open(src)
	if err != nil {
		return "", fmt.Errorf("workload %s: %w", w.Name, err)
	}
	defer rd.Close()
	var j traces.Job
	for row := 0; ; row++ {
		switch err := rd.Next(&j); {
		case errors.Is(err, io.EOF):
			return "", nil
		case err != nil:
			return "", fmt.Errorf("workload %s: %w", w.Name, err)
		}
		if j.Reduces() > 0 {
			return fmt.Sprintf("job %d (row %d) of %s has %d reduces", j.ID, row, src, j.Reduces()), nil
		}
	}
}
