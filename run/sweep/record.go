package sweep

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path"
	"path/filepath"
	"strings"

	"sojourn/analysis"
	"sojourn/internal/atomicfile"
	"sojourn/internal/jsondup"
	"sojourn/replay"
	"sojourn/run"
	"sojourn/traces"
)

// Float is a float64 that JSON writes as null when it is NaN or infinite
// (a node-local fraction without maps), and reads back as NaN.
type Float float64

// MarshalJSON writes null for NaN and ±Inf.
func (f Float) MarshalJSON() ([]byte, error) {
	if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
		return []byte("null"), nil
	}
	return json.Marshal(float64(f))
}

// UnmarshalJSON reads null as NaN.
func (f *Float) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*f = Float(math.NaN())
		return nil
	}
	return json.Unmarshal(b, (*float64)(f))
}

// Figures are the headline figures of a cell or a group of cells.
type Figures struct {
	Jobs              int   `json:"jobs"`
	MeanSojournS      Float `json:"mean_sojourn_s"`
	MedianSojournS    Float `json:"median_sojourn_s"`
	P95SojournS       Float `json:"p95_sojourn_s"`
	MeanSlowdown      Float `json:"mean_slowdown"`
	NodeLocalFraction Float `json:"node_local_fraction"`
}

// PerJob holds one entry per job, in trace order: what bench compare
// resamples.
type PerJob struct {
	SojournS []float64 `json:"sojourn_s"` // finish − submit, s
	// Slowdown is sojourn / ideal run time (analysis.IdealRunTime, both
	// at least 1 ms): how many times longer the job took than alone on
	// the empty cluster with every node as fast as its fastest, all its
	// slots (or the containers of the job's size its nodes hold) free.
	// Dimensionless and >= 1 on any cluster.
	Slowdown      []float64 `json:"slowdown"`
	NodeLocalMaps []float64 `json:"node_local_maps"` // maps that ran node-local
	Maps          []float64 `json:"maps"`            // maps finished that read input (any locality; 0 for a job without input data)
}

// UnmarshalJSON reads the lists, refusing a null in them: decoded into a
// float64 a null would silently read as 0.
func (p *PerJob) UnmarshalJSON(b []byte) error {
	var raw struct {
		SojournS      []*float64 `json:"sojourn_s"`
		Slowdown      []*float64 `json:"slowdown"`
		NodeLocalMaps []*float64 `json:"node_local_maps"`
		Maps          []*float64 `json:"maps"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	for _, l := range []struct {
		name string
		in   []*float64
		out  *[]float64
	}{
		{"sojourn_s", raw.SojournS, &p.SojournS}, {"slowdown", raw.Slowdown, &p.Slowdown},
		{"node_local_maps", raw.NodeLocalMaps, &p.NodeLocalMaps}, {"maps", raw.Maps, &p.Maps},
	} {
		*l.out = nil
		for i, v := range l.in {
			if v == nil {
				return fmt.Errorf("per_job.%s[%d] is null; want a number", l.name, i)
			}
			*l.out = append(*l.out, *v)
		}
	}
	return nil
}

func (p *PerJob) append(q *PerJob) {
	p.SojournS = append(p.SojournS, q.SojournS...)
	p.Slowdown = append(p.Slowdown, q.Slowdown...)
	p.NodeLocalMaps = append(p.NodeLocalMaps, q.NodeLocalMaps...)
	p.Maps = append(p.Maps, q.Maps...)
}

// Figures computes the headline figures of the jobs.
func (p *PerJob) Figures() Figures {
	s := analysis.Summarize(p.SojournS)
	var loc, maps float64
	for i := range p.Maps {
		loc += p.NodeLocalMaps[i]
		maps += p.Maps[i]
	}
	return Figures{Jobs: len(p.SojournS), MeanSojournS: Float(s.Mean), MedianSojournS: Float(s.Median),
		P95SojournS: Float(s.P95), MeanSlowdown: Float(analysis.Mean(p.Slowdown)), NodeLocalFraction: Float(loc / maps)}
}

// CellRecord is a finished cell's cell.json: its coordinates, its trace,
// its figures and its per-job values. Everything the summary needs, so that
// merging never reads the Arrow or Parquet files.
type CellRecord struct {
	CellCoords
	Trace    string `json:"trace"`        // path under the sweep's output
	TraceSum string `json:"trace_sha256"` // of the trace file's bytes
	Figures
	PerJob PerJob `json:"per_job"`
	// Files are the cell's files besides cell.json, by name, with their
	// sizes and SHA-256 as written: bench merge copies these and only
	// these, after checking them.
	Files []FileSum `json:"files,omitempty"`
}

// FileSum is one file of a cell as it was written.
type FileSum struct {
	Name   string `json:"name"`
	Bytes  int64  `json:"bytes"`
	SHA256 string `json:"sha256"`
}

// sumFiles lists the files of dir but skip, sorted, with sizes and sums.
func sumFiles(dir, skip string) ([]FileSum, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []FileSum
	for _, e := range ents {
		if e.Name() == skip || e.IsDir() {
			continue
		}
		n, sum, err := fileSum(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		out = append(out, FileSum{Name: e.Name(), Bytes: n, SHA256: sum})
	}
	return out, nil
}

// fileSum is the size and SHA-256 (hex) of the file at path.
func fileSum(path string) (int64, string, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, "", err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return 0, "", fmt.Errorf("%s: %w", path, err)
	}
	return n, hex.EncodeToString(h.Sum(nil)), nil
}

// CellCoords places a cell in its sweep. Embedded, its fields are
// inlined in the JSON, where they were before it existed.
type CellCoords struct {
	Index    int               `json:"index"`
	Dir      string            `json:"dir"`
	Workload string            `json:"workload"`
	Policy   string            `json:"policy"`
	Params   map[string]string `json:"parameters"`
	Seed     uint64            `json:"seed"`
}

// CellFile is a finished cell's record, written last into its directory.
const CellFile = "cell.json"

// minIdeal floors ideal run times and sojourns: a job of zero-length
// tasks would otherwise have an infinite (or zero) slowdown. 1 ms is the
// generator's resolution.
const minIdeal = 0.001

// ReadCell reads and checks a cell.json.
func ReadCell(path string) (*CellRecord, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParseCell(data, path)
}

// ParseCell decodes a cell.json read from name and checks it: known
// fields only, the directory its index gives, a trace path inside the
// sweep, a SHA-256, per-job lists of one length that agrees with the
// jobs count, finite values. Errors are one line naming name.
func ParseCell(data []byte, name string) (*CellRecord, error) {
	var r CellRecord
	d := json.NewDecoder(bytes.NewReader(data))
	d.DisallowUnknownFields()
	if err := d.Decode(&r); err != nil {
		return nil, fmt.Errorf("%s: %v (a cell.json of bench sweep)", name, strings.TrimPrefix(err.Error(), "json: "))
	}
	if d.More() {
		return nil, fmt.Errorf("%s: more than one JSON value", name)
	}
	if err := jsondup.Check(name, data); err != nil {
		return nil, err
	}
	if err := r.check(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return &r, nil
}

func (r *CellRecord) check() error {
	if r.Index < 0 || r.Index >= maxCells {
		return fmt.Errorf("index %d; want 0 to %d", r.Index, maxCells-1)
	}
	if r.Dir != cellDir(r.Index) {
		return fmt.Errorf("dir %q; cell %d is in %q", r.Dir, r.Index, cellDir(r.Index))
	}
	if t := r.Trace; t == "" || path.IsAbs(t) || path.Clean(t) != t || t == ".." || strings.HasPrefix(t, "../") || strings.Contains(t, "\\") {
		return fmt.Errorf("trace %q; want a clean relative path inside the sweep's directory", t)
	}
	if b, err := hex.DecodeString(r.TraceSum); err != nil || len(b) != sha256.Size {
		return fmt.Errorf("trace_sha256 %q; want 64 hex digits", r.TraceSum)
	}
	names := map[string]bool{CellFile: true}
	for i, f := range r.Files {
		if f.Name == "" || f.Name != path.Base(f.Name) || f.Name == "." || f.Name == ".." || strings.ContainsAny(f.Name, "/\\") || names[f.Name] {
			return fmt.Errorf("files[%d]: name %q; want a file name of the cell's directory, once", i, f.Name)
		}
		names[f.Name] = true
		if b, err := hex.DecodeString(f.SHA256); err != nil || len(b) != sha256.Size || f.Bytes < 0 {
			return fmt.Errorf("files[%d] (%s): %d bytes, sha256 %q; want a size >= 0 and 64 hex digits", i, f.Name, f.Bytes, f.SHA256)
		}
	}
	p := &r.PerJob
	n := len(p.SojournS)
	if len(p.Slowdown) != n || len(p.NodeLocalMaps) != n || len(p.Maps) != n {
		return fmt.Errorf("per_job lists of different lengths (%d, %d, %d, %d)", n, len(p.Slowdown), len(p.NodeLocalMaps), len(p.Maps))
	}
	if r.Jobs != n {
		return fmt.Errorf("jobs %d, but per_job lists %d", r.Jobs, n)
	}
	for i := range n {
		for _, v := range [...]struct {
			name string
			x    float64
		}{{"sojourn_s", p.SojournS[i]}, {"slowdown", p.Slowdown[i]}, {"node_local_maps", p.NodeLocalMaps[i]}, {"maps", p.Maps[i]}} {
			if !(v.x >= 0) || math.IsInf(v.x, 0) {
				return fmt.Errorf("per_job.%s[%d] is %v; want a finite value >= 0", v.name, i, v.x)
			}
		}
		if p.NodeLocalMaps[i] > p.Maps[i] {
			return fmt.Errorf("per_job.node_local_maps[%d] is %v, more than its %v maps", i, p.NodeLocalMaps[i], p.Maps[i])
		}
	}
	// The figures are the per-job lists' summary: an edited figure no
	// longer is.
	want := p.Figures()
	for _, f := range [...]struct {
		name      string
		got, want Float
	}{{"mean_sojourn_s", r.MeanSojournS, want.MeanSojournS}, {"median_sojourn_s", r.MedianSojournS, want.MedianSojournS},
		{"p95_sojourn_s", r.P95SojournS, want.P95SojournS}, {"mean_slowdown", r.MeanSlowdown, want.MeanSlowdown},
		{"node_local_fraction", r.NodeLocalFraction, want.NodeLocalFraction}} {
		if f.got != f.want && !(math.IsNaN(float64(f.got)) && math.IsNaN(float64(f.want))) {
			return fmt.Errorf("%s is %v; its per_job lists give %v (edited?)", f.name, float64(f.got), float64(f.want))
		}
	}
	return nil
}

// newRecord computes a cell's record from its replay. Its policy is the
// name the results carry (an external policy's may be declared only when
// it starts).
func newRecord(c *run.Cell, trace, traceSum string, tr *traces.Trace, res *replay.Result) *CellRecord {
	cfg := res.Config
	slots := analysis.Slots{Nodes: cfg.Nodes, MapSlots: cfg.MapSlots, ReduceSlots: cfg.ReduceSlots, Shuffle: cfg.ShuffleBandwidth}
	rec := &CellRecord{CellCoords: CellCoords{Index: c.Index, Dir: c.Dir, Workload: c.Labels[workloadLabel], Policy: res.Scheduler,
		Params: Params(c), Seed: c.Cluster.Seed}, Trace: trace, TraceSum: traceSum}
	pj := &rec.PerJob
	for i := range res.Jobs {
		j := &res.Jobs[i]
		tj := &tr.Jobs[j.Index]
		soj := j.Sojourn().Sec()
		slots.Speed, slots.MapTasks, slots.ReduceTasks = res.FastestSpeed, int(j.Parallel[0]), int(j.Parallel[1])
		ideal := analysis.IdealRunTime(tj.MapDurations, tj.ReduceDurations, tj.ReduceShuffleBytes, slots)
		pj.SojournS = append(pj.SojournS, soj)
		pj.Slowdown = append(pj.Slowdown, max(soj, minIdeal)/max(ideal, minIdeal))
		pj.NodeLocalMaps = append(pj.NodeLocalMaps, float64(j.NodeLocal))
		pj.Maps = append(pj.Maps, float64(j.NodeLocal+j.RackLocal+j.OffRack))
	}
	rec.Figures = pj.Figures()
	return rec
}

// encodeJSON is the one encoding of every file the sweep writes:
// indented, keys of maps sorted (encoding/json sorts them), a final newline.
func encodeJSON(v any) ([]byte, error) {
	data, err := json.MarshalIndent(v, "", " ")
	return append(data, '\n'), err
}

func writeJSON(path string, v any) error {
	data, err := encodeJSON(v)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := atomicfile.WriteBytes(path, data); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

func readJSON(path string, v any) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	return nil
}
