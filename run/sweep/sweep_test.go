package sweep

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
)

// tinySweep has 2 workloads × 2 policies × 3 cluster sizes × 20 seeds =
// 240 cells of a few small jobs each.
const tinySweep = `{
  "name": "tiny",
  "workloads": [
    {"name": "a", "profile": "fb2009", "jobs": 6, "nodes": 10},
    {"name": "b", "profile": "fb2010", "jobs": 2, "nodes": 5, "mean_gap": 5}
  ],
  "policies": ["fifo", "fair"],
  "parameters": {"nodes": [5, 10, 20]},
  "fixed": {"fair.locality-delay": 0},
  "seeds": {"from": 1, "to": 20}
}`

func writeFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func load(t *testing.T, text string) *Plan {
	t.Helper()
	p, err := Load(writeFile(t, t.TempDir(), "sweep.json", text))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// counter, a run.Reporter, counts the cells a run replays and can cancel
// a context after some of them.
type counter struct {
	n      atomic.Int64
	cancel func()
	after  int64
}

func (c *counter) Start(string, int) {}
func (c *counter) Finish()           {}
func (c *counter) Step() {
	if k := c.n.Add(1); c.cancel != nil && k == c.after {
		c.cancel()
	}
}

func runner(dir string, c *counter) *Runner {
	return &Runner{Dir: dir, Workers: 2, Output: Output{Format: "arrow"}, Version: "test", Progress: c}
}

// tree reads every file under dir, by slash path.
func tree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		data, err := os.ReadFile(path)
		out[filepath.ToSlash(rel)] = data
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func sameTree(t *testing.T, what string, a, b map[string][]byte) {
	t.Helper()
	var names []string
	for k := range a {
		names = append(names, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			names = append(names, k)
		}
	}
	sort.Strings(names)
	bad := 0
	for _, k := range names {
		x, okx := a[k]
		y, oky := b[k]
		if !okx || !oky || !bytes.Equal(x, y) {
			if bad++; bad <= 5 {
				t.Errorf("%s: %s differs (present: %v, %v)", what, k, okx, oky)
			}
		}
	}
	if bad > 5 {
		t.Errorf("%s: %d files differ in all", what, bad)
	}
}

func TestExpandOrder(t *testing.T) {
	p := load(t, tinySweep)
	if len(p.Cells) != 240 {
		t.Fatalf("%d cells, want 240", len(p.Cells))
	}
	c := p.Cells[0]
	if c.Labels["workload"] != "a" || c.Policy != "fifo" || Params(c)["nodes"] != "5" || c.Cluster.Seed != 1 || c.Cluster.Nodes != 5 || c.Dir != "cells/000000" {
		t.Errorf("cell 0: %s", Label(c))
	}
	// Seeds vary fastest, then parameters, then policies, then workloads.
	if c := p.Cells[21]; Label(c) != "a fifo nodes=10 seed=2" {
		t.Errorf("cell 21: %s", Label(c))
	}
	if c := p.Cells[60+59]; Label(c) != "a fair nodes=20 seed=20" || c.Options["locality-delay"] != "0" {
		t.Errorf("cell 119: %s %v", Label(c), c.Options)
	}
	if c := p.Cells[120]; Label(c) != "b fifo nodes=5 seed=1" {
		t.Errorf("cell 120: %s", Label(c))
	}
}

// TestSweepRunsResumesAndShards: the 240-cell sweep runs to the end; an
// interrupted run resumed redoes no finished cell and ends with the same
// bytes; four shards merged give the same bytes again, whatever the order
// of the shard directories.
func TestSweepRunsResumesAndShards(t *testing.T) {
	p := load(t, tinySweep)
	n := int64(len(p.Cells))

	full := t.TempDir()
	var c0 counter
	rep, err := runner(full, &c0).Run(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Done || rep.Ran != len(p.Cells) || c0.n.Load() != n {
		t.Fatalf("full run: %+v, %d replays", rep, c0.n.Load())
	}
	want := tree(t, full)
	if _, ok := want["summary.json"]; !ok {
		t.Fatal("no summary.json after a complete run")
	}
	if _, ok := want["cells/000239/jobs.arrow"]; !ok {
		t.Fatal("no jobs.arrow in the last cell")
	}
	// The ideal run time is a lower bound of the model on identical
	// nodes: no job's slowdown is below 1 (up to the microsecond clock).
	sum, err := ReadSummary(full)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range sum.Groups {
		for i, sd := range g.PerJob.Slowdown {
			if sd < 1-1e-6 {
				t.Errorf("%s: job %d has slowdown %v (sojourn %v s)", g.Key(), i, sd, g.PerJob.SojournS[i])
			}
		}
	}

	// Interrupted after 50 replays, then resumed.
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	c1 := counter{cancel: cancel, after: 50}
	rep, err = runner(dir, &c1).Run(ctx, p)
	if !errors.Is(err, ErrInterrupted) || rep.Done {
		t.Fatalf("interrupted run: %+v, %v", rep, err)
	}
	done := 0
	for i := range p.Cells {
		if finished(dir, i) {
			done++
		}
	}
	if done != rep.Ran || done < 50 || done >= len(p.Cells) {
		t.Fatalf("after the interruption %d cells are finished, the run reported %d", done, rep.Ran)
	}
	if _, err := os.Stat(filepath.Join(dir, SummaryFile)); !os.IsNotExist(err) {
		t.Error("an interrupted run wrote summary.json")
	}
	// A killed run's leftover: a half-written cell directory.
	junk := filepath.Join(dir, "cells", ".000239.partial-123")
	os.MkdirAll(junk, 0o755)
	writeFile(t, junk, "jobs.arrow", "half")
	var c2 counter
	rep, err = runner(dir, &c2).Run(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	if c2.n.Load() != n-int64(done) || rep.Skipped != done || !rep.Done {
		t.Fatalf("resume replayed %d cells, want %d (%+v)", c2.n.Load(), n-int64(done), rep)
	}
	sameTree(t, "interrupted and resumed", want, tree(t, dir))

	// Running again does nothing.
	var c3 counter
	if rep, err := runner(dir, &c3).Run(context.Background(), p); err != nil || c3.n.Load() != 0 || rep.Skipped != len(p.Cells) {
		t.Fatalf("a finished sweep ran again: %+v, %v, %d replays", rep, err, c3.n.Load())
	}

	// Four shards in four directories, merged in a scrambled order.
	shards := make([]string, 4)
	var total int64
	for i := range shards {
		shards[i] = t.TempDir()
		var c counter
		r := runner(shards[i], &c)
		r.Shard = Shard{i, 4}
		rep, err := r.Run(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Done || rep.Mine != 60 {
			t.Fatalf("shard %d: %+v", i, rep)
		}
		total += c.n.Load()
	}
	if total != n {
		t.Fatalf("4 shards replayed %d cells, want %d", total, n)
	}
	merged := filepath.Join(t.TempDir(), "merged")
	mrep, err := Merge(merged, []string{shards[2], shards[0], shards[3], shards[1]})
	if err != nil {
		t.Fatal(err)
	}
	if mrep.Copied != len(p.Cells) {
		t.Errorf("merge copied %d cells", mrep.Copied)
	}
	sameTree(t, "4 shards merged", want, tree(t, merged))

	// Merging in place into one shard's directory gives the same again.
	if _, err := Merge(shards[1], shards); err != nil {
		t.Fatal(err)
	}
	sameTree(t, "merged in place", want, tree(t, shards[1]))
}

// TestSharedDirectory: shards that share one directory finish the sweep
// there, and the last one writes the summary.
func TestSharedDirectory(t *testing.T) {
	p := load(t, strings.Replace(tinySweep, `"to": 20`, `"to": 2`, 1))
	dir := t.TempDir()
	for i := 0; i < 3; i++ {
		var c counter
		r := runner(dir, &c)
		r.Shard = Shard{i, 3}
		rep, err := r.Run(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Done != (i == 2) {
			t.Errorf("shard %d of 3: done %v", i, rep.Done)
		}
	}
	if _, err := ReadSummary(dir); err != nil {
		t.Fatal(err)
	}
}

func TestMergeErrors(t *testing.T) {
	p := load(t, strings.Replace(tinySweep, `"to": 20`, `"to": 1`, 1))
	a, b := t.TempDir(), t.TempDir()
	for i, d := range []string{a, b} {
		r := runner(d, &counter{})
		r.Shard = Shard{i, 3} // shard 2 of 3 never runs
		if _, err := r.Run(context.Background(), p); err != nil {
			t.Fatal(err)
		}
	}
	_, err := Merge(filepath.Join(t.TempDir(), "m"), []string{a, b})
	if err == nil || !strings.Contains(err.Error(), "4 of 12 cells are in no shard directory, first 2, 5, 8, 11") {
		t.Errorf("merge with a shard missing: %v", err)
	}
	other := t.TempDir()
	r := runner(other, &counter{})
	r.Version = "other"
	r.Shard = Shard{2, 3}
	if _, err := r.Run(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	_, err = Merge(filepath.Join(t.TempDir(), "m"), []string{a, other})
	if err == nil || !strings.Contains(err.Error(), "shards of different sweeps, builds or output settings") {
		t.Errorf("merge across builds: %v", err)
	}
	// A directory that holds another sweep is refused on resume.
	r = runner(a, &counter{})
	r.Output.Format = "parquet"
	_, err = r.Run(context.Background(), p)
	if err == nil || !strings.Contains(err.Error(), "holds another sweep (its output is") {
		t.Errorf("resume with another format: %v", err)
	}
}

// TestParquetCells: --format parquet writes jobs.parquet in each cell and
// the same summary as Arrow.
func TestParquetCells(t *testing.T) {
	p := load(t, strings.Replace(tinySweep, `"to": 20`, `"to": 1`, 1))
	a, b := t.TempDir(), t.TempDir()
	if _, err := runner(a, &counter{}).Run(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	r := runner(b, &counter{})
	r.Output = Output{Format: "parquet", Tasks: true}
	if _, err := r.Run(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"cells/000000/jobs.parquet", "cells/000000/tasks.parquet"} {
		if _, err := os.Stat(filepath.Join(b, f)); err != nil {
			t.Error(err)
		}
	}
	if _, err := os.Stat(filepath.Join(b, "cells/000000/jobs.arrow")); !os.IsNotExist(err) {
		t.Error("a parquet sweep left jobs.arrow")
	}
	sa, _ := ReadSummary(a)
	sb, _ := ReadSummary(b)
	if sa.Groups[0].MeanSojournS != sb.Groups[0].MeanSojournS || len(sa.Groups) != 12 {
		t.Errorf("summaries differ: %v vs %v (%d groups)", sa.Groups[0].MeanSojournS, sb.Groups[0].MeanSojournS, len(sa.Groups))
	}
}

// TestMergeChecksCells: a damaged cell.json in a shard (a trace path out
// of the sweep, a per-job list cut short, not JSON) stops the merge with
// one line naming it, before the cell is copied.
func TestMergeChecksCells(t *testing.T) {
	p := load(t, strings.Replace(tinySweep, `"to": 20`, `"to": 1`, 1))
	for _, damage := range []struct {
		name string
		edit func(string) string
		want string
	}{
		{"trace outside", func(s string) string {
			return strings.Replace(s, `"trace": "traces/`, `"trace": "../../traces/`, 1)
		}, `trace "../../traces/`},
		{"lists of different lengths", func(s string) string {
			return strings.Replace(s, `"slowdown": [`, `"slowdown": [1,`, 1)
		}, "per_job lists of different lengths"},
		{"not JSON", func(s string) string { return s[:len(s)/2] }, "unexpected EOF"},
	} {
		in := t.TempDir()
		r := runner(in, &counter{})
		if _, err := r.Run(context.Background(), p); err != nil {
			t.Fatal(err)
		}
		cell := filepath.Join(in, cellDir(3), CellFile)
		b, err := os.ReadFile(cell)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(cell, []byte(damage.edit(string(b))), 0o644); err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(t.TempDir(), "m")
		_, err = Merge(out, []string{in})
		if err == nil || !strings.Contains(err.Error(), cell+": ") || !strings.Contains(err.Error(), damage.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: merge error %v; want one line naming %s and %q", damage.name, err, cell, damage.want)
		}
		if _, err := os.Stat(filepath.Join(out, cellDir(3))); err == nil {
			t.Errorf("%s: the damaged cell was copied", damage.name)
		}
	}
}

// TestMergeVerifiesFiles: merge checks every file of a cell it takes
// against the sizes and SHA-256 its cell.json recorded, and every trace
// against the cells' trace_sha256, before it writes anything: a
// truncated result, a tampered trace or an edited figure is one line
// naming the file, and the output holds no cell or trace. A file a sweep
// did not write is not copied.
func TestMergeVerifiesFiles(t *testing.T) {
	p := load(t, strings.Replace(tinySweep, `"to": 20`, `"to": 1`, 1))
	for _, c := range []struct {
		name   string
		damage func(t *testing.T, in string) string // the file the error names
		want   string
	}{
		{"truncated result", func(t *testing.T, in string) string {
			f := filepath.Join(in, cellDir(3), "jobs.arrow")
			if err := os.Truncate(f, 100); err != nil {
				t.Fatal(err)
			}
			return f
		}, "100 bytes; cell.json records"},
		{"missing result", func(t *testing.T, in string) string {
			f := filepath.Join(in, cellDir(3), "jobs.arrow")
			if err := os.Remove(f); err != nil {
				t.Fatal(err)
			}
			return f
		}, "missing; cell.json records"},
		{"tampered trace", func(t *testing.T, in string) string {
			ents, _ := filepath.Glob(filepath.Join(in, "traces", "*.arrow"))
			b, err := os.ReadFile(ents[0])
			if err != nil {
				t.Fatal(err)
			}
			b[len(b)/2] ^= 1
			if err := os.WriteFile(ents[0], b, 0o644); err != nil {
				t.Fatal(err)
			}
			return ents[0]
		}, "changed since the cells replayed it"},
		{"edited figure", func(t *testing.T, in string) string {
			f := filepath.Join(in, cellDir(3), CellFile)
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			b = regexp.MustCompile(`"mean_sojourn_s": [0-9.e+-]+`).ReplaceAll(b, []byte(`"mean_sojourn_s": 1`))
			if err := os.WriteFile(f, b, 0o644); err != nil {
				t.Fatal(err)
			}
			return f
		}, "mean_sojourn_s is 1; its per_job lists give"},
	} {
		in := t.TempDir()
		if _, err := runner(in, &counter{}).Run(context.Background(), p); err != nil {
			t.Fatal(err)
		}
		file := c.damage(t, in)
		out := filepath.Join(t.TempDir(), "m")
		_, err := Merge(out, []string{in})
		if err == nil || !strings.Contains(err.Error(), file+": ") || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: merge error %v; want one line naming %s and %q", c.name, err, file, c.want)
		}
		for _, d := range []string{"cells", "traces", ManifestFile} {
			if _, err := os.Stat(filepath.Join(out, d)); err == nil {
				t.Errorf("%s: %s written after the error", c.name, d)
			}
		}
	}
	in := t.TempDir()
	if _, err := runner(in, &counter{}).Run(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(in, cellDir(2)), "notes.txt", "mine")
	out := filepath.Join(t.TempDir(), "m")
	if _, err := Merge(out, []string{in}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(out, cellDir(2), "notes.txt")); err == nil {
		t.Error("a file the sweep did not write was copied")
	}
}

// A resumed unsharded sweep removes the temporary trace files a killed run
// left (a kill -9 runs no cleanup), and nothing else.
func TestResumeRemovesTraceDebris(t *testing.T) {
	p := load(t, `{"name": "d", "workloads": [{"name": "a", "profile": "fb2009", "jobs": 4, "nodes": 10}],
		"policies": ["fifo"], "seeds": [1]}`)
	dir := t.TempDir()
	if _, err := runner(dir, &counter{}).Run(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	debris := writeFile(t, filepath.Join(dir, "traces"), ".a-seed2.arrow.tmp-12345", "half a trace")
	before := tree(t, dir)
	if _, err := runner(dir, &counter{}).Run(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(debris); !os.IsNotExist(err) {
		t.Errorf("%s left after a resume: %v", debris, err)
	}
	after := tree(t, dir)
	for name := range before {
		if _, ok := after[name]; !ok && !strings.Contains(name, ".tmp-") {
			t.Errorf("%s removed by the resume", name)
		}
	}
}

// TestSummaryRecordsFixed: summary.json records the sweep's fixed
// settings ({} for none), which bench compare checks; a summary without
// them (written before they were recorded) takes them from the sweep.json
// beside it, and has none (nil: unknown) alone.
func TestSummaryRecordsFixed(t *testing.T) {
	const spec = `{"name": "f", "workloads": [{"name": "a", "profile": "fb2009", "jobs": 3, "nodes": 5}],
	  "policies": ["fifo"], %s "seeds": [1]}`
	for _, c := range []struct {
		fixed string
		want  map[string]Value
	}{
		{``, map[string]Value{}},
		{`"fixed": {"nodes": 5, "heartbeat": 0.5},`, map[string]Value{"nodes": "5", "heartbeat": "0.5"}},
	} {
		dir := t.TempDir()
		if _, err := runner(dir, &counter{}).Run(context.Background(), load(t, strings.Replace(spec, "%s", c.fixed, 1))); err != nil {
			t.Fatal(err)
		}
		s, err := ReadSummary(dir)
		if err != nil {
			t.Fatal(err)
		}
		if s.Fixed == nil || len(s.Fixed) != len(c.want) {
			t.Errorf("%s: fixed %v, want %v", c.fixed, s.Fixed, c.want)
		}
		for k, v := range c.want {
			if s.Fixed[k] != v {
				t.Errorf("%s: fixed %v, want %v", c.fixed, s.Fixed, c.want)
			}
		}
		// The same summary without the field: from sweep.json beside it,
		// unknown elsewhere.
		var raw map[string]any
		data, _ := os.ReadFile(filepath.Join(dir, SummaryFile))
		if err := json.Unmarshal(data, &raw); err != nil {
			t.Fatal(err)
		}
		delete(raw, "fixed")
		data, _ = json.Marshal(raw)
		writeFile(t, dir, SummaryFile, string(data))
		if s, err := ReadSummary(dir); err != nil || len(s.Fixed) != len(c.want) || s.Fixed == nil {
			t.Errorf("%s: without the field, beside sweep.json: %v, %v", c.fixed, s.Fixed, err)
		}
		alone := writeFile(t, t.TempDir(), SummaryFile, string(data))
		if s, err := ReadSummary(alone); err != nil || s.Fixed != nil {
			t.Errorf("%s: without the field, alone: %v, %v", c.fixed, s.Fixed, err)
		}
	}
}
