package experiments

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"

	"sojourn/replay"
	"sojourn/results"
	"sojourn/schedulers"
	"sojourn/traces"
)

// Cell is one replay of a sweep: a trace under a policy on a cluster.
type Cell struct {
	// Dir is the cell's directory under the experiment's, e.g. "fair" or
	// "alpha-0.30/rep-07". It must be unique within the experiment.
	Dir string
	// Trace is the workload; TraceFile the name under which the experiment
	// stores it (once, however many cells share it).
	Trace     *traces.Trace
	TraceFile string
	Policy    string
	Options   map[string]string // policy options; unset ones take defaults
	Cluster   replay.Config
	// Labels are the cell's coordinates in the sweep (e.g. "alpha": "0.3"),
	// recorded in the manifest and the result metadata.
	Labels map[string]string
	// Keep keeps the run's per-task segments (and occupancy) in memory for
	// the experiment's figures; they are written to disk either way.
	Keep bool
	// Occupancy records and writes the per-job slot occupancy series
	// (occupancy.arrow), as large as the task file: only allocation
	// graphs need it.
	Occupancy bool
	// NoTasks skips tasks.arrow, for repetitions of a sweep point whose
	// first repetition keeps it.
	NoTasks bool
}

// Run is a finished cell.
type Run struct {
	Cell   *Cell
	Jobs   *results.Jobs  // jobs.arrow as read back from disk
	Result *replay.Result // Segments and Occupancy only when Cell.Keep
}

// Env is what experiments share: where results go, the seed, the code
// version, the number of workers and where progress is reported.
type Env struct {
	Results  string // root directory: each experiment writes Results/<name>/
	Seed     uint64
	Version  string // code version recorded in every manifest
	Workers  int    // parallel replays; 0 means GOMAXPROCS
	Progress *Progress
	// Convert, if set, rewrites an experiment's finished directory before
	// it is renamed into place (results.ConvertDir for Parquet output).
	Convert func(dir string) error
}

func (e *Env) workers() int {
	if e.Workers > 0 {
		return e.Workers
	}
	return runtime.GOMAXPROCS(0)
}

// replayCells runs every cell on the env's workers, writes its results
// under dir and returns the runs in the order of cells, whatever the
// order they finished in.
func (e *Env) replayCells(name, dir string, cells []*Cell) ([]*Run, error) {
	if err := checkCells(cells); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if err := writeTraces(dir, cells); err != nil {
		return nil, err
	}
	runs := make([]*Run, len(cells))
	errs := make([]error, len(cells))
	next := make(chan int)
	var wg sync.WaitGroup
	e.Progress.Start(name, len(cells))
	for w := 0; w < min(e.workers(), len(cells)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				runs[i], errs[i] = replayCell(dir, cells[i])
				e.Progress.Step()
			}
		}()
	}
	for i := range cells {
		next <- i
	}
	close(next)
	wg.Wait()
	e.Progress.Finish()
	for i, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("%s: cell %s: %w", name, cells[i].Dir, err)
		}
	}
	return runs, nil
}

func checkCells(cells []*Cell) error {
	seen := map[string]bool{}
	for _, c := range cells {
		if !filepath.IsLocal(c.Dir) || filepath.Clean(c.Dir) != c.Dir || c.Dir == "." {
			return fmt.Errorf("cell directory %q is not a clean relative path", c.Dir)
		}
		if seen[c.Dir] {
			return fmt.Errorf("two cells share directory %q", c.Dir)
		}
		seen[c.Dir] = true
		if c.Trace == nil || c.TraceFile == "" {
			return fmt.Errorf("cell %s has no trace", c.Dir)
		}
	}
	return nil
}

// writeTraces stores each distinct trace of the cells once.
func writeTraces(dir string, cells []*Cell) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	written := map[string]*traces.Trace{}
	for _, c := range cells {
		if t, ok := written[c.TraceFile]; ok {
			if t != c.Trace {
				return fmt.Errorf("cells %s: two different traces named %s", c.Dir, c.TraceFile)
			}
			continue
		}
		written[c.TraceFile] = c.Trace
		if err := traces.Write(filepath.Join(dir, c.TraceFile), c.Trace); err != nil {
			return err
		}
	}
	return nil
}

func replayCell(dir string, c *Cell) (*Run, error) {
	sched, err := schedulers.New(c.Policy, c.Options)
	if err != nil {
		return nil, err
	}
	cfg := c.Cluster
	cfg.RecordTasks = !c.NoTasks || c.Keep
	cfg.RecordOccupancy = c.Occupancy
	res, err := replay.Run(c.Trace, sched, cfg)
	if err != nil {
		return nil, err
	}
	out := filepath.Join(dir, filepath.FromSlash(c.Dir))
	md := results.Metadata(res, c.Trace, map[string]string{"trace.file": c.TraceFile})
	for k, v := range policySettings(c.Policy, c.Options) {
		md["policy."+k] = v
	}
	for k, v := range c.Labels {
		md["label."+k] = v
	}
	res.Config.RecordTasks = !c.NoTasks // kept in memory only: not written
	if err := results.WriteAll(out, res, md); err != nil {
		return nil, err
	}
	jobs, err := results.ReadJobs(filepath.Join(out, results.JobsFile))
	if err != nil {
		return nil, err
	}
	if !c.Keep {
		res.Segments, res.Occupancy = replay.Segments{}, replay.Occupancy{}
	}
	return &Run{Cell: c, Jobs: jobs, Result: res}, nil
}

// policySettings is every option of the policy: its defaults overridden
// by the cell's options.
func policySettings(policy string, opts map[string]string) map[string]string {
	out := map[string]string{}
	if p, err := schedulers.Lookup(policy); err == nil {
		for _, o := range p.Options {
			out[o.Name] = o.Default
		}
	}
	for k, v := range opts {
		out[k] = v
	}
	return out
}
