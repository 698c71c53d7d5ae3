package experiments

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"

	"sojourn/replay"
	"sojourn/results"
	"sojourn/run"
	"sojourn/traces"
)

// Run is a finished cell.
type Run struct {
	Cell   *run.Cell
	Jobs   *results.Jobs  // jobs.arrow as read back from disk
	Result *replay.Result // Segments and Occupancy only when Cell.Keep
}

// Env is what experiments share: where results go, the seed, the code
// version, the number of workers and where progress is reported.
type Env struct {
	Results string // root directory: each experiment writes Results/<name>/
	// Seed draws the workloads and replays whose results are written and
	// drawn as figures and tables; Seeds are those every claim is computed
	// on, with an interval (empty: Seed alone).
	Seed     uint64
	Seeds    []uint64
	Version  string // code version recorded in every manifest
	Workers  int    // parallel replays; 0 means GOMAXPROCS
	Progress *run.Progress
	// Convert, if set, rewrites an experiment's finished directory before
	// it is renamed into place (results.ConvertDir for Parquet output).
	Convert func(dir string) error

	memo memo // the claims' replays, shared by the experiments
}

// seeds are the claims' seeds.
func (e *Env) seeds() []uint64 {
	if len(e.Seeds) == 0 {
		return []uint64{e.Seed}
	}
	return e.Seeds
}

func (e *Env) workers() int {
	if e.Workers > 0 {
		return e.Workers
	}
	return runtime.GOMAXPROCS(0)
}

// replayCells runs every cell on the env's workers, writes its results
// under dir and returns the runs in the order of cells, whatever the
// order they finished in. Every result records every option of its
// policy, defaults included.
func (e *Env) replayCells(name, dir string, cells []*run.Cell) ([]*Run, error) {
	if err := checkCells(cells); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if err := writeTraces(dir, cells); err != nil {
		return nil, err
	}
	runs := make([]*Run, len(cells))
	pool := run.Pool{Workers: e.workers(), Name: name, Progress: e.Progress}
	_, err := pool.Run(context.Background(), len(cells), func(i int) error {
		var err error
		runs[i], err = replayCell(dir, cells[i])
		return err
	})
	if ce := (*run.CellError)(nil); errors.As(err, &ce) {
		return nil, fmt.Errorf("%s: cell %s: %w", name, cells[ce.Index].Dir, ce.Err)
	}
	return runs, err
}

func checkCells(cells []*run.Cell) error {
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
func writeTraces(dir string, cells []*run.Cell) error {
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

func replayCell(dir string, c *run.Cell) (*Run, error) {
	out := filepath.Join(dir, filepath.FromSlash(c.Dir))
	o, err := run.Replay(c, out, run.Options{})
	if err != nil {
		return nil, err
	}
	jobs, err := results.ReadJobs(filepath.Join(out, results.JobsFile))
	if err != nil {
		return nil, err
	}
	return &Run{Cell: c, Jobs: jobs, Result: o.Result}, nil
}
