package sweep

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"sojourn/run"
	"sojourn/swim"
	"sojourn/traces"
)

// traceCache makes each trace of a run once, shared by the cells that
// replay it, and stores it under traces/ of the output directory.
type traceCache struct {
	sweep   string
	dir     string // output directory
	planDir string // sweep file's directory
	// workloads are the sweep's, by name.
	workloads map[string]*Workload
	mu        sync.Mutex
	entries   map[string]*traceEntry
	// users counts the cells still to run on each trace, so that a trace
	// leaves memory with its last cell: a sweep over many seeds would
	// otherwise hold them all.
	users map[string]int
}

type traceEntry struct {
	once  sync.Once
	trace *traces.Trace
	file  string // path under the output directory
	sum   string // sha256 of the file's bytes
	err   error
}

// traceFile is where a cell's trace is stored: one per workload and seed
// for a profile, one per workload for a trace file.
func traceFile(w *Workload, seed uint64) string {
	if w.Trace != "" {
		return "traces/" + w.Name + ".arrow"
	}
	return fmt.Sprintf("traces/%s-seed%d.arrow", w.Name, seed)
}

func (tc *traceCache) get(c *run.Cell) (*traceEntry, error) {
	file := c.TraceFile
	tc.mu.Lock()
	e, ok := tc.entries[file]
	if !ok {
		e = &traceEntry{file: file}
		tc.entries[file] = e
	}
	tc.mu.Unlock()
	e.once.Do(func() { e.err = tc.load(e, c) })
	return e, e.err
}

// release records that cell c is done with its trace.
func (tc *traceCache) release(c *run.Cell) {
	file := c.TraceFile
	tc.mu.Lock()
	defer tc.mu.Unlock()
	if tc.users[file]--; tc.users[file] <= 0 {
		if e, ok := tc.entries[file]; ok {
			e.trace = nil
		}
	}
}

// load makes the trace, writes it unless a previous run or another shard
// did, and hashes the stored bytes. A stored trace is read back rather
// than trusted blindly: sweep.json already pins the code version, so it
// equals what this run would write.
func (tc *traceCache) load(e *traceEntry, c *run.Cell) error {
	w, seed := tc.workloads[c.Labels[workloadLabel]], c.Cluster.Seed
	path := filepath.Join(tc.dir, filepath.FromSlash(e.file))
	if _, err := os.Stat(path); err == nil {
		tr, err := traces.Read(path)
		if err != nil {
			return err
		}
		e.trace = tr
	} else {
		var tr *traces.Trace
		if w.Trace != "" {
			src := w.Trace
			if !filepath.IsAbs(src) {
				src = filepath.Join(tc.planDir, src)
			}
			if tr, err = traces.Read(src); err != nil {
				return fmt.Errorf("workload %s: %w", w.Name, err)
			}
		} else {
			tr, err = swim.Generate(swim.Config{Profile: w.Profile, Seed: seed, Jobs: w.Jobs, MeanGap: w.MeanGap, Nodes: w.Nodes})
			if err != nil {
				return fmt.Errorf("workload %s, seed %d: %w", w.Name, seed, err)
			}
		}
		if err := traces.Write(path, tr); err != nil {
			return err
		}
		e.trace = tr
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	sum := sha256.Sum256(data)
	e.sum = hex.EncodeToString(sum[:])
	return nil
}
