package experiments

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"sojourn/internal/atomicfile"
	"sojourn/reports"
	"sojourn/run"
)

// Experiment is one reproducible part of the paper's evaluation.
type Experiment struct {
	Name  string // e.g. "fig4"
	Title string // one line
	// Description says what is run and drawn, for bench experiment --help.
	Description string
	run         func(x *Ctx) (reports.Section, error)
}

// Ctx is an experiment's handle on its run: where it writes, the seed, and
// the replays and parameters it records for the manifest.
type Ctx struct {
	Env    *Env
	Name   string
	Dir    string // the experiment's result directory (being written)
	params map[string]string
	runs   []*Run
}

// Param records an experiment-wide parameter in the manifest.
func (x *Ctx) Param(key string, value any) { x.params[key] = fmt.Sprint(value) }

// Replay runs cells in parallel and records them in the manifest.
func (x *Ctx) Replay(cells []*run.Cell) ([]*Run, error) {
	runs, err := x.Env.replayCells(x.Name, x.Dir, cells)
	x.runs = append(x.runs, runs...)
	return runs, err
}

// Files in an experiment's directory besides the runs' own.
const (
	ManifestFile = "manifest.json"
	SectionFile  = "section.json"
)

// Run runs experiment ex into Env.Results/<name>/. The directory is built
// beside its final place and renamed into it when complete, so an
// interrupted run leaves the previous results (or none), never a half.
func (e *Env) Run(ex *Experiment) (reports.Section, error) {
	final := filepath.Join(e.Results, ex.Name)
	tmp := filepath.Join(e.Results, "."+ex.Name+".partial")
	if err := os.RemoveAll(tmp); err != nil {
		return reports.Section{}, err
	}
	if err := os.MkdirAll(tmp, 0o755); err != nil {
		return reports.Section{}, err
	}
	x := &Ctx{Env: e, Name: ex.Name, Dir: tmp, params: map[string]string{}}
	x.Param("seed", e.Seed)
	sec, err := ex.run(x)
	if err != nil {
		os.RemoveAll(tmp)
		return reports.Section{}, err
	}
	sec.Name = ex.Name
	if sec.Title == "" {
		sec.Title = ex.Title
	}
	for i := range sec.Claims {
		sec.Claims[i].Experiment = ex.Name
	}
	if err := reports.WriteSection(filepath.Join(tmp, SectionFile), sec); err != nil {
		return reports.Section{}, err
	}
	if err := writeManifest(filepath.Join(tmp, ManifestFile), e, ex, x); err != nil {
		return reports.Section{}, err
	}
	if e.Convert != nil {
		if err := e.Convert(tmp); err != nil {
			return reports.Section{}, err
		}
	}
	// The new set takes the old one's place in one step: a run killed at
	// any moment leaves one whole set under the experiment's name.
	if err := atomicfile.ReplaceDir(tmp, final); err != nil {
		return reports.Section{}, err
	}
	return sec, nil
}

// Manifest describes an experiment's run: enough to reproduce it.
type Manifest struct {
	Experiment  string            `json:"experiment"`
	Title       string            `json:"title"`
	CodeVersion string            `json:"code_version"`
	GoVersion   string            `json:"go_version"`
	Parameters  map[string]string `json:"parameters"`
	Runs        []ManifestRun     `json:"runs"`
}

// ManifestRun is one replay: its directory, trace, policy with every
// option, cluster parameters, sweep labels and headline figures.
type ManifestRun struct {
	Dir               string            `json:"dir"`
	Trace             string            `json:"trace"`
	Policy            string            `json:"policy"`
	PolicyOptions     map[string]string `json:"policy_options"`
	Cluster           map[string]string `json:"cluster"`
	Labels            map[string]string `json:"labels,omitempty"`
	Jobs              int               `json:"jobs"`
	MeanSojournS      float64           `json:"mean_sojourn_s"`
	NodeLocalFraction float64           `json:"node_local_fraction"`
	TaskEvents        int64             `json:"task_events"`
}

func writeManifest(path string, e *Env, ex *Experiment, x *Ctx) error {
	m := Manifest{Experiment: ex.Name, Title: ex.Title, CodeVersion: e.Version, GoVersion: runtime.Version(),
		Parameters: x.params}
	for _, r := range x.runs {
		c := r.Cell
		cluster := map[string]string{}
		md := resultsMetadata(r)
		for k, v := range md {
			if rest, ok := strings.CutPrefix(k, "replay."); ok {
				cluster[rest] = v
			}
		}
		mr := ManifestRun{Dir: c.Dir, Trace: c.TraceFile, Policy: c.Policy,
			PolicyOptions: run.PolicySettings(c.Policy, c.Options), Cluster: cluster, Labels: c.Labels,
			Jobs: len(r.Result.Jobs), MeanSojournS: round(r.Result.MeanSojourn(), 6),
			NodeLocalFraction: round(r.Result.NodeLocalFraction(), 6), TaskEvents: r.Result.Stats.TaskEvents}
		m.Runs = append(m.Runs, mr)
	}
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return atomicfile.WriteBytes(path, append(data, '\n'))
}

// ReadManifest reads an experiment's manifest.json.
func ReadManifest(path string) (Manifest, error) {
	var m Manifest
	data, err := os.ReadFile(path)
	if err != nil {
		return m, err
	}
	if err := json.Unmarshal(data, &m); err != nil {
		return m, fmt.Errorf("%s: not a manifest: %w", path, err)
	}
	return m, nil
}
