package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"sojourn/internal/atomicfile"
	"sojourn/results"
	"sojourn/run"
)

// RunManifest is the file bench replay writes last into its --out
// directory: its presence says the set of result files beside it is
// complete, and which files belong to the run.
const RunManifest = "run.json"

// runManifest is RunManifest's content.
type runManifest struct {
	Format      string         `json:"format"` // "sojourn-run/1"
	Policy      string         `json:"policy"`
	Workload    string         `json:"workload"`
	Trace       string         `json:"trace"`
	Seed        string         `json:"seed"`
	CodeVersion string         `json:"code_version"`
	TableFormat results.Format `json:"table_format"`
	Files       []manifestFile `json:"files"`
}

type manifestFile struct {
	Name  string `json:"name"`
	Bytes int64  `json:"bytes"`
}

// resultNames are the files a replay may leave in its directory, in every
// table format.
func resultNames() []string {
	var names []string
	for _, f := range []results.Format{results.Arrow, results.Parquet, results.CSV} {
		for _, n := range []string{results.JobsFile, results.TasksFile, results.OccupancyFile} {
			names = append(names, f.FileName(n))
		}
	}
	return names
}

// prepareOut checks a replay's output directory before anything runs: a
// file, or the results of an earlier run (its manifest or any result file)
// without force, or a result name that is the trace being read, are
// errors. With force, the earlier run's manifest and result files are
// removed first, so the directory no longer claims a complete run while
// the new one is written, and a run cut short (even by kill -9) leaves
// only its own complete files, never a mix of two runs.
func prepareOut(dir, trace string, force bool) error {
	fi, err := os.Stat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("--out: %w", err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("--out: %s is a file; want a directory for the results", dir)
	}
	var found []string
	for _, n := range append([]string{RunManifest}, resultNames()...) {
		p := filepath.Join(dir, n)
		if sameFile(trace, p) {
			return fmt.Errorf("--out: %s would replace the --trace input %s", p, trace)
		}
		if _, err := os.Lstat(p); err == nil {
			found = append(found, n)
		}
	}
	if len(found) == 0 {
		return nil
	}
	if !force {
		return fmt.Errorf("--out: %s holds the results of an earlier run (%s); give --force to replace them", dir, found[0])
	}
	for _, n := range found { // the manifest first
		if err := os.Remove(filepath.Join(dir, n)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("--out: %w", err)
		}
	}
	return nil
}

// finishOut removes what an earlier run left that this one did not write
// (tables of another format, a tasks file this run did not keep), then
// writes the manifest, last.
func finishOut(dir string, c *run.Cell, o *run.Outcome, format results.Format) error {
	if format == "" {
		format = results.Arrow
	}
	written := map[string]bool{format.FileName(results.JobsFile): true}
	if c.Tasks {
		written[format.FileName(results.TasksFile)] = true
	}
	if c.Occupancy {
		written[format.FileName(results.OccupancyFile)] = true
	}
	m := runManifest{Format: "sojourn-run/1", Policy: o.Result.Scheduler, Workload: o.Metadata[results.KeyWorkload],
		Trace: c.TracePath, Seed: o.Metadata["replay.seed"], CodeVersion: run.CodeVersion(), TableFormat: format}
	for _, n := range resultNames() {
		p := filepath.Join(dir, n)
		if !written[n] {
			if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
			continue
		}
		fi, err := os.Stat(p)
		if err != nil {
			return fmt.Errorf("%s: missing after the run: %w", p, err)
		}
		m.Files = append(m.Files, manifestFile{Name: n, Bytes: fi.Size()})
	}
	data, err := json.MarshalIndent(m, "", " ")
	if err != nil {
		return err
	}
	path := filepath.Join(dir, RunManifest)
	if err := atomicfile.WriteBytes(path, append(data, '\n')); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}
