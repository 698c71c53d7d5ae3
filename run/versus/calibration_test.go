package versus

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"

	"sojourn/analysis"
	"sojourn/run"
	"sojourn/run/sweep"
	"sojourn/swim"
	"sojourn/traces"
)

// TestCalibration measures how often a single trace's interval contains
// the change measured over many workloads like it. For each profile, the
// truth is the relative change of the mean sojourn over the 20 workloads
// generated with seeds 1–20 (one cluster seed each, pooled: bench versus
// --workload P --seeds 1-20). Then each of those 20 traces is replayed on
// its own on cluster seeds 1–10 (bench versus --trace P-k.arrow --seeds
// 1-10) and its interval computed by each resampling: the cluster seeds
// (what bench versus did before the block bootstrap) and submit-time
// windows of several sizes. Coverage is the share of the 20 intervals
// that contain the truth. Replays go to $SOJOURN_VERSUS_CALIBRATION (a
// directory, resumed if it holds the same), the table to coverage.md
// there: make versus-calibration. About 15 minutes on 2 cores.
func TestCalibration(t *testing.T) {
	dir := os.Getenv("SOJOURN_VERSUS_CALIBRATION")
	if dir == "" {
		t.Skip("set SOJOURN_VERSUS_CALIBRATION=DIR to replay the calibration into DIR (make versus-calibration)")
	}
	const workloads, clusterSeeds = 20, 10
	profiles := []string{"fb2009", "fb2010"}
	policies := []string{"fifo", "fair", "hfsp"}
	pairs := [][2]string{{"fair", "hfsp"}, {"fair", "fifo"}}
	methods := []struct {
		name string
		o    Options
	}{
		{"cluster seeds", Options{Resample: ResampleSeeds}},
		{"windows, 1 job", Options{WindowJobs: 1}},
		{"5 jobs", Options{WindowJobs: 5}},
		{fmt.Sprintf("%d jobs (default)", DefaultWindowJobs), Options{}},
		{"20 jobs", Options{WindowJobs: 20}},
	}
	ctx := context.Background()
	workers := runtime.GOMAXPROCS(0)
	replay := func(name string, spec *sweep.Spec) string {
		t.Helper()
		out := filepath.Join(dir, name)
		plan, err := sweep.NewPlan(spec, ".")
		if err != nil {
			t.Fatal(err)
		}
		r := &sweep.Runner{Dir: out, Workers: workers, Output: sweep.Output{Format: "arrow"}, Version: run.CodeVersion(), Progress: run.NewProgress(os.Stderr)}
		if rep, err := r.Run(ctx, plan); err != nil || !rep.Done {
			t.Fatalf("%s: %v (done %v)", name, err, rep.Done)
		}
		return out
	}
	var seeds, cseeds sweep.Seeds
	for k := uint64(1); k <= workloads; k++ {
		seeds = append(seeds, k)
	}
	for k := uint64(1); k <= clusterSeeds; k++ {
		cseeds = append(cseeds, k)
	}
	only := func(class, metric string) bool { return class == allClasses && metric == "mean" }
	var table strings.Builder
	fmt.Fprintf(&table, "| workload | change | over %d workloads | %d single traces: median [range] |", workloads, workloads)
	for _, m := range methods {
		fmt.Fprintf(&table, " %s |", m.name)
	}
	table.WriteString("\n|---|---|---|---|" + strings.Repeat("---|", len(methods)) + "\n")
	hits, intervals := make([]int, len(methods)), 0
	for _, p := range profiles {
		truthDir := replay("truth-"+p, &sweep.Spec{Name: "truth-" + p, Workloads: []sweep.Workload{{Name: p, Profile: p}}, Policies: policies, Seeds: seeds})
		spec := &sweep.Spec{Name: "single-" + p, Policies: policies, Seeds: cseeds}
		for k := uint64(1); k <= workloads; k++ {
			path := filepath.Join(dir, "traces", fmt.Sprintf("%s-%d.arrow", p, k))
			if _, err := os.Stat(path); err != nil {
				tr, err := swim.Generate(swim.Config{Profile: p, Seed: k})
				if err != nil {
					t.Fatal(err)
				}
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := traces.Write(path, tr); err != nil {
					t.Fatal(err)
				}
			}
			spec.Workloads = append(spec.Workloads, sweep.Workload{Name: fmt.Sprintf("%s-%d", p, k), Trace: path})
		}
		singleDir := replay("single-"+p, spec)
		for _, pair := range pairs {
			truth, err := Read(truthDir, Options{Baseline: pair[0], Candidate: pair[1], Seed: 1, only: only})
			if err != nil {
				t.Fatal(err)
			}
			want := truth.Rows[0].Change.Est
			cells := make([]string, len(methods))
			var est []float64
			var wg sync.WaitGroup
			sem := make(chan struct{}, workers)
			for i, m := range methods {
				wg.Add(1)
				go func() {
					defer wg.Done()
					sem <- struct{}{}
					defer func() { <-sem }()
					o := m.o
					o.Baseline, o.Candidate, o.Seed, o.only = pair[0], pair[1], 1, only
					rep, err := Read(singleDir, o)
					if err != nil {
						t.Error(err)
						return
					}
					hit := 0
					var widths []float64
					for _, r := range rep.Rows {
						if r.Change.Lo <= want && want <= r.Change.Hi {
							hit++
						}
						widths = append(widths, r.Change.Hi-r.Change.Lo)
						if i == 0 {
							est = append(est, r.Change.Est)
						}
					}
					hits[i] += hit
					cells[i] = fmt.Sprintf("%d/%d (%.0f)", hit, len(rep.Rows), 100*analysis.Median(widths))
				}()
			}
			wg.Wait()
			if len(est) == 0 {
				t.FailNow()
			}
			intervals += len(est)
			sort.Float64s(est)
			fmt.Fprintf(&table, "| %s | %s vs %s | %s | %s [%s, %s] | %s |\n", p, DisplayName(pair[1]), DisplayName(pair[0]), signedPct(want),
				signedPct(analysis.Median(est)), signedPct(est[0]), signedPct(est[len(est)-1]), strings.Join(cells, " | "))
		}
	}
	fmt.Fprintf(&table, "| all | | | |")
	for _, h := range hits {
		fmt.Fprintf(&table, " %d/%d (%.0f%%) |", h, intervals, 100*float64(h)/float64(intervals))
	}
	table.WriteString("\n")
	t.Log("\n" + table.String())
	if err := os.WriteFile(filepath.Join(dir, "coverage.md"), []byte(table.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}
