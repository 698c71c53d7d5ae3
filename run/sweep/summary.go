package sweep

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"

	"sojourn/internal/jsondup"
)

// Files at the top of a sweep's output directory.
const (
	ManifestFile = "sweep.json"
	SummaryFile  = "summary.json"
	// Format tags of the two files, checked on reading.
	ManifestFormat = "sojourn-sweep/1"
	SummaryFormat  = "sojourn-summary/1"
)

// Manifest is sweep.json: the sweep as run, with its output settings and
// the code version. Every shard writes the same bytes, and a resumed run
// must find them unchanged, so results of different sweeps, builds or
// formats never mix in one directory.
type Manifest struct {
	Format      string `json:"format"`
	CodeVersion string `json:"code_version"`
	Spec        *Spec  `json:"spec"`
	Output      Output `json:"output"`
	Cells       int    `json:"cells"`
}

// Output says what each cell writes.
type Output struct {
	Format string `json:"format"` // arrow, parquet or csv
	Tasks  bool   `json:"tasks"`  // tasks.arrow as well as jobs.arrow
}

// Summary is summary.json: every cell's figures and, per group of cells
// that differ only in their seed, the pooled per-job values that bench
// compare resamples. It depends only on the cells' records, in index
// order, so a merged sweep's summary is byte-identical to an unsharded
// one's.
type Summary struct {
	Format      string `json:"format"`
	Sweep       string `json:"sweep"`
	CodeVersion string `json:"code_version"`
	// Fixed is the sweep's fixed settings, which are in no group's key:
	// bench compare refuses two summaries whose settings differ. Empty
	// for a sweep without any; nil when unknown (a summary written
	// before the field existed, read without its sweep.json).
	Fixed  map[string]Value `json:"fixed"`
	Groups []*Group         `json:"groups"`
	Cells  []CellSummary    `json:"cells"`
}

// Group is the cells of one workload, policy and parameter combination,
// over the sweep's seeds.
type Group struct {
	Workload string            `json:"workload"`
	Policy   string            `json:"policy"`
	Params   map[string]string `json:"parameters"`
	Seeds    []uint64          `json:"seeds"`
	// Traces are the sha256 sums of the seeds' traces: two groups with
	// the same sums describe the same jobs in the same order.
	Traces []string `json:"trace_sha256"`
	Cells  []int    `json:"cells"`
	Figures
	PerJob PerJob `json:"per_job"`
}

// Key identifies a group across summaries: "workload policy k=v ...".
func (g *Group) Key() string {
	return strings.Join(append([]string{g.Workload, g.Policy}, paramList(g.Params)...), " ")
}

// ParamText is the group's parameters as "k=v, k=v", or "–" for none.
func (g *Group) ParamText() string {
	if len(g.Params) == 0 {
		return "–"
	}
	return strings.Join(paramList(g.Params), ", ")
}

// CellSummary is one cell's line in the summary.
type CellSummary struct {
	CellCoords
	Figures
}

func readManifest(dir string) (*Manifest, []byte, error) {
	path := filepath.Join(dir, ManifestFile)
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	var m Manifest
	if err := readJSON(path, &m); err != nil {
		return nil, nil, err
	}
	if m.Format != ManifestFormat {
		return nil, nil, fmt.Errorf("%s: format %q, want %q", path, m.Format, ManifestFormat)
	}
	return &m, data, nil
}

// finished reports whether cell i of the sweep in dir is done.
func finished(dir string, i int) bool {
	_, err := os.Stat(filepath.Join(dir, cellDir(i), CellFile))
	return err == nil
}

// errIncomplete marks a directory whose sweep has unfinished cells.
var errIncomplete = errors.New("cells missing")

// summarize writes dir/summary.json from the cells' records when every
// cell of the sweep is done; it returns errIncomplete, with the first
// missing cells, otherwise.
func summarize(dir string) error {
	m, _, err := readManifest(dir)
	if err != nil {
		return err
	}
	var missing []int
	for i := 0; i < m.Cells; i++ {
		if !finished(dir, i) {
			missing = append(missing, i)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("%s: %d of %d %w, first %s", dir, len(missing), m.Cells, errIncomplete, intList(missing, 8))
	}
	s := &Summary{Format: SummaryFormat, Sweep: m.Spec.Name, CodeVersion: m.CodeVersion,
		Fixed: map[string]Value{}, Cells: []CellSummary{}}
	for k, v := range m.Spec.Fixed {
		s.Fixed[k] = v
	}
	groups := map[string]*Group{}
	for i := 0; i < m.Cells; i++ {
		r, err := ReadCell(filepath.Join(dir, cellDir(i), CellFile))
		if err != nil {
			return err
		}
		if r.Index != i {
			return fmt.Errorf("%s: index %d, want %d", filepath.Join(dir, r.Dir, CellFile), r.Index, i)
		}
		s.Cells = append(s.Cells, CellSummary{r.CellCoords, r.Figures})
		g := &Group{Workload: r.Workload, Policy: r.Policy, Params: r.Params}
		if old, ok := groups[g.Key()]; ok {
			g = old
		} else {
			groups[g.Key()] = g
			s.Groups = append(s.Groups, g)
		}
		g.Seeds = append(g.Seeds, r.Seed)
		g.Traces = append(g.Traces, r.TraceSum)
		g.Cells = append(g.Cells, r.Index)
		g.PerJob.append(&r.PerJob)
	}
	for _, g := range s.Groups {
		g.Figures = g.PerJob.Figures()
	}
	return writeJSON(filepath.Join(dir, SummaryFile), s)
}

func intList(xs []int, most int) string {
	var parts []string
	for i, x := range xs {
		if i == most {
			parts = append(parts, "…")
			break
		}
		parts = append(parts, fmt.Sprint(x))
	}
	return strings.Join(parts, ", ")
}

// ReadSummary reads a summary.json, or the one in a directory. A summary
// that does not record its fixed settings takes them from the sweep.json
// beside it, if there is one.
func ReadSummary(path string) (*Summary, error) {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		path = filepath.Join(path, SummaryFile)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	s, err := ParseSummary(data, path)
	if err != nil || s.Fixed != nil {
		return s, err
	}
	if m, _, err := readManifest(filepath.Dir(path)); err == nil && m.Spec != nil {
		s.Fixed = map[string]Value{}
		for k, v := range m.Spec.Fixed {
			s.Fixed[k] = v
		}
	}
	return s, nil
}

// ParseSummary decodes and checks a summary.json read from name.
func ParseSummary(data []byte, name string) (*Summary, error) {
	path := name
	var s Summary
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("%s: %v", path, strings.TrimPrefix(err.Error(), "json: "))
	}
	if err := jsondup.Check(path, data); err != nil {
		return nil, err
	}
	if s.Format != SummaryFormat {
		return nil, fmt.Errorf("%s: format %q, want %q (a summary.json of bench sweep)", path, s.Format, SummaryFormat)
	}
	if len(s.Groups) == 0 {
		return nil, fmt.Errorf("%s: no groups; a summary of bench sweep has one per workload, policy and parameters", path)
	}
	for i, g := range s.Groups {
		if len(g.Seeds) == 0 || len(g.Traces) != len(g.Seeds) || len(g.Cells) != len(g.Seeds) {
			return nil, fmt.Errorf("%s: groups[%d] (%s): %d seeds, %d trace_sha256 and %d cells; want one of each per seed",
				path, i, g.Key(), len(g.Seeds), len(g.Traces), len(g.Cells))
		}
		p := &g.PerJob
		n := len(p.SojournS)
		if len(p.Slowdown) != n || len(p.NodeLocalMaps) != n || len(p.Maps) != n || n == 0 {
			return nil, fmt.Errorf("%s: groups[%d] (%s): per_job lists empty or of different lengths", path, i, g.Key())
		}
		for k, v := range p.SojournS {
			if !(v >= 0) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("%s: groups[%d] (%s): per_job.sojourn_s[%d] is %v; want a finite time >= 0", path, i, g.Key(), k, v)
			}
		}
		for k, v := range p.Slowdown {
			if !(v >= 1) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("%s: groups[%d] (%s): per_job.slowdown[%d] is %v; want a finite value >= 1 (sojourn / the job's ideal run time)", path, i, g.Key(), k, v)
			}
		}
		for k := range p.Maps {
			m, l := p.Maps[k], p.NodeLocalMaps[k]
			if !(m >= 0) || m > 1<<31 || m != math.Trunc(m) {
				return nil, fmt.Errorf("%s: groups[%d] (%s): per_job.maps[%d] is %v; want a whole number of maps >= 0", path, i, g.Key(), k, m)
			}
			if !(l >= 0) || l > m || l != math.Trunc(l) {
				return nil, fmt.Errorf("%s: groups[%d] (%s): per_job.node_local_maps[%d] is %v; want a whole number from 0 to the job's %v maps", path, i, g.Key(), k, l, m)
			}
		}
	}
	for i, c := range s.Cells {
		if f := float64(c.NodeLocalFraction); f < 0 || f > 1 {
			return nil, fmt.Errorf("%s: cells[%d]: node_local_fraction is %v; want a fraction from 0 to 1", path, i, f)
		}
		if f := float64(c.MeanSlowdown); f < 1 {
			return nil, fmt.Errorf("%s: cells[%d]: mean_slowdown is %v; want a value >= 1", path, i, f)
		}
		for _, x := range []struct {
			name string
			v    Float
		}{{"mean_sojourn_s", c.MeanSojournS}, {"median_sojourn_s", c.MedianSojournS}, {"p95_sojourn_s", c.P95SojournS}} {
			if x.v < 0 {
				return nil, fmt.Errorf("%s: cells[%d]: %s is %v; want a time >= 0", path, i, x.name, float64(x.v))
			}
		}
	}
	return &s, nil
}
