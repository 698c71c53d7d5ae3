package sweep

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"sojourn/results"
	"sojourn/run"
	execpolicy "sojourn/schedulers/exec"
)

// Runner runs the cells of a plan into a directory.
type Runner struct {
	Dir     string // output directory; shards may share it
	Workers int    // cells run at once; 0 means 1
	Shard   Shard
	Output  Output
	Version string // code version, recorded in sweep.json
	// Progress, if set, hears of every cell this run finishes.
	Progress run.Reporter
}

// Report says what a run did.
type Report struct {
	Cells   int  // in the sweep
	Mine    int  // in this shard
	Skipped int  // already finished
	Ran     int  // finished by this run
	Done    bool // every cell of the sweep is finished and summary.json written
}

// ErrInterrupted marks a run stopped by its context; what it finished is
// kept, and the same command resumes it.
var ErrInterrupted = errors.New("interrupted")

// Run runs the shard's unfinished cells, Workers at a time, each into
// cells/NNNNNN/ of the output directory: a cell is written in a hidden
// directory beside its place and renamed into it once complete, so a
// finished cell is exactly one whose directory exists, and a killed run
// leaves none half-written. When the context is cancelled no new cell
// starts, the running ones finish, and Run returns ErrInterrupted. When
// every cell of the sweep is finished, whoever ran them, it writes
// summary.json.
func (r *Runner) Run(ctx context.Context, p *Plan) (Report, error) {
	rep := Report{Cells: len(p.Cells)}
	if _, err := results.ParseFormat(r.Output.Format); err != nil || r.Output.Format == "" {
		return rep, fmt.Errorf("sweep: output format %q: want arrow, parquet or csv", r.Output.Format)
	}
	if err := r.checkTaskKinds(p); err != nil {
		return rep, err
	}
	if err := r.claim(p); err != nil {
		return rep, err
	}
	release, err := lockShard(r.Dir, r.Shard)
	if err != nil {
		return rep, err
	}
	defer release()
	if err := r.removePartials(); err != nil {
		return rep, err
	}
	var todo []*run.Cell
	for _, c := range p.Cells {
		if !r.Shard.Owns(c.Index) {
			continue
		}
		rep.Mine++
		if finished(r.Dir, c.Index) {
			rep.Skipped++
			continue
		}
		todo = append(todo, c)
	}
	tc := &traceCache{sweep: p.Spec.Name, dir: r.Dir, planDir: p.Dir, entries: map[string]*traceEntry{}, users: map[string]int{},
		workloads: map[string]*Workload{}}
	for i := range p.Spec.Workloads {
		tc.workloads[p.Spec.Workloads[i].Name] = &p.Spec.Workloads[i]
	}
	for _, c := range todo {
		tc.users[c.TraceFile]++
	}
	// An external policy without a name in exec declares one when it
	// starts, which must not be another policy's of the sweep: their
	// cells would pool in one group.
	taken := map[string]bool{}
	for _, pol := range p.Spec.Policies {
		if pol != execpolicy.Name {
			taken[pol] = true
		}
	}
	pool := run.Pool{Workers: r.Workers, Name: "sweep " + p.Spec.Name, Progress: r.Progress}
	ran, err := pool.Run(ctx, len(todo), func(i int) error {
		defer tc.release(todo[i])
		return r.runCell(tc, todo[i], taken)
	})
	rep.Ran = ran
	if ce := (*run.CellError)(nil); errors.As(err, &ce) {
		c := todo[ce.Index]
		return rep, fmt.Errorf("sweep %s: cell %d (%s): %w", p.Spec.Name, c.Index, Label(c), ce.Err)
	}
	if ctx.Err() != nil && rep.Skipped+rep.Ran < rep.Mine {
		return rep, fmt.Errorf("sweep %s: %w after %d of this shard's %d cells (%d were done before); run the same command again to resume",
			p.Spec.Name, ErrInterrupted, rep.Skipped+rep.Ran, rep.Mine, rep.Skipped)
	}
	switch err := summarize(r.Dir); {
	case err == nil:
		rep.Done = true
	case !errors.Is(err, errIncomplete):
		return rep, err
	}
	return rep, nil
}

// claim writes sweep.json, or checks that the directory holds the same
// sweep, built by the same code, with the same output settings.
func (r *Runner) claim(p *Plan) error {
	m := &Manifest{Format: ManifestFormat, CodeVersion: r.Version, Spec: p.Spec, Output: r.Output, Cells: len(p.Cells)}
	path := filepath.Join(r.Dir, ManifestFile)
	old, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return writeJSON(path, m)
	}
	if err != nil {
		return err
	}
	want, err := encodeJSON(m)
	if err != nil {
		return err
	}
	if !bytes.Equal(old, want) {
		var prev Manifest
		why := "the sweep differs"
		if readJSON(path, &prev) == nil {
			switch {
			case prev.CodeVersion != m.CodeVersion:
				why = fmt.Sprintf("it was run by code %s, this is %s", prev.CodeVersion, m.CodeVersion)
			case prev.Output != m.Output:
				why = fmt.Sprintf("its output is %+v, this run's %+v", prev.Output, m.Output)
			}
		}
		return fmt.Errorf("%s: the directory holds another sweep (%s); use another --out or remove it", path, why)
	}
	return nil
}

// removePartials deletes what killed runs of this shard left: the hidden
// directories of cells it was writing. Other shards' are left alone, as
// they may be running in the same directory.
func (r *Runner) removePartials() error {
	if r.Shard.Count <= 1 {
		// Alone in the directory (lockShard): a killed run's temporary
		// trace files are debris too. Shards may be writing theirs.
		tmps, _ := filepath.Glob(filepath.Join(r.Dir, "traces", ".*.tmp-*"))
		for _, t := range tmps {
			if err := os.Remove(t); err != nil {
				return err
			}
		}
	}
	parent := filepath.Join(r.Dir, "cells")
	ents, err := os.ReadDir(parent)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, e := range ents {
		name, ok := strings.CutPrefix(e.Name(), ".")
		if !ok {
			continue
		}
		num, _, ok := strings.Cut(name, ".partial-")
		i, err := strconv.Atoi(num)
		if !ok || err != nil || !r.Shard.Owns(i) {
			continue
		}
		if err := os.RemoveAll(filepath.Join(parent, e.Name())); err != nil {
			return err
		}
	}
	return nil
}

// runCell replays one cell into a hidden directory, adds its record and
// moves the directory into place. The name its policy declares, if it
// has none in the sweep, may not be one of taken.
func (r *Runner) runCell(tc *traceCache, c *run.Cell, taken map[string]bool) error {
	te, err := tc.get(c)
	if err != nil {
		return err
	}
	final := filepath.Join(r.Dir, c.Dir)
	if err := os.MkdirAll(filepath.Dir(final), 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(final), "."+filepath.Base(final)+".partial-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp) // nothing left once renamed
	cell := *c
	cell.Trace = te.trace
	cell.Tasks = r.Output.Tasks
	cell.Metadata = map[string]string{"sweep.name": tc.sweep, "sweep.cell": fmt.Sprint(c.Index)}
	// The rows stream to disk: a cell of a day-long trace would otherwise
	// hold millions of them per worker.
	named := func(name string) (string, error) {
		if unnamed := c.Policy == execpolicy.Name && c.Options["name"] == ""; unnamed && taken[name] {
			return "", fmt.Errorf("the external policy declares the name %s, another policy's of the sweep; name it in exec", name)
		}
		return tmp, nil
	}
	o, err := run.Replay(&cell, tmp, run.Options{Format: results.Format(r.Output.Format), Named: named})
	if err != nil {
		return err
	}
	rec := newRecord(c, te.file, te.sum, te.trace, o.Result)
	if rec.Files, err = sumFiles(tmp, CellFile); err != nil {
		return err
	}
	if err := writeJSON(filepath.Join(tmp, CellFile), rec); err != nil {
		return err
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return err
	}
	if err := os.Rename(tmp, final); err != nil {
		if finished(r.Dir, c.Index) {
			return nil // another process sharing the directory finished it first
		}
		return err
	}
	return nil
}
