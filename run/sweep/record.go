package sweep

import (
	"encoding/json"
	"fmt"
	"math"
	"os"

	"sojourn/analysis"
	"sojourn/internal/atomicfile"
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
	// Slowdown is sojourn / ideal run time (analysis.IdealRunTime, at
	// least 1 ms): how many times longer the job took than alone on the
	// empty cluster. Dimensionless, >= 1 on reference-speed nodes.
	Slowdown      []float64 `json:"slowdown"`
	NodeLocalMaps []float64 `json:"node_local_maps"` // maps that ran node-local
	Maps          []float64 `json:"maps"`            // maps finished (any locality)
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

// minIdeal floors ideal run times: a job of zero-length tasks would
// otherwise have an infinite slowdown. 1 ms is the generator's resolution.
const minIdeal = 0.001

// newRecord computes a cell's record from its replay.
func newRecord(c *run.Cell, trace, traceSum string, tr *traces.Trace, res *replay.Result) *CellRecord {
	cfg := res.Config
	slots := analysis.Slots{Nodes: cfg.Nodes, MapSlots: cfg.MapSlots, ReduceSlots: cfg.ReduceSlots, Shuffle: cfg.ShuffleBandwidth}
	rec := &CellRecord{CellCoords: CellCoords{Index: c.Index, Dir: c.Dir, Workload: c.Labels[workloadLabel], Policy: c.Policy,
		Params: Params(c), Seed: c.Cluster.Seed}, Trace: trace, TraceSum: traceSum}
	pj := &rec.PerJob
	for i := range res.Jobs {
		j := &res.Jobs[i]
		tj := &tr.Jobs[j.Index]
		soj := j.Sojourn().Sec()
		ideal := analysis.IdealRunTime(tj.MapDurations, tj.ReduceDurations, tj.ReduceShuffleBytes, slots)
		pj.SojournS = append(pj.SojournS, soj)
		pj.Slowdown = append(pj.Slowdown, soj/max(ideal, minIdeal))
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
