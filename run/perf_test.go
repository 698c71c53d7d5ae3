package run

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"

	"sojourn/replay"
	"sojourn/schedulers"
	"sojourn/swim"
	"sojourn/traces"
)

// The speed check: the engine and two policies replay a fixed workload
// (fb2010, seed 1, on the paper's 100 nodes) and their times are stated
// as ratios to the floor's (replay.Floor, the irreducible work of the same
// tasks), which hold across machines where absolute times do not.
// BenchmarkPerf reports them; TestPerfRegression (make perf-check)
// compares the ratios with the committed baseline.

// perfBaseline is the committed baseline of the ratios (make perf-baseline).
const perfBaseline = "../results/baseline/perf.json"

// perfTolerance: a ratio more than this much above its baseline fails.
const perfTolerance = 1.20

type perfVariant struct {
	name string
	run  func(tr *traces.Trace) (int64, error) // task events
}

var perfVariants = []perfVariant{
	{"floor", func(tr *traces.Trace) (int64, error) {
		r, err := replay.Floor(tr, perfNodes, replay.DefaultMapSlots, replay.DefaultReduceSlots)
		return r.TaskEvents, err
	}},
	{"fifo-minimal", func(tr *traces.Trace) (int64, error) { return perfReplay(tr, &replay.FIFO{}) }},
	{"fifo", func(tr *traces.Trace) (int64, error) { return perfPolicy(tr, "fifo") }},
	{"hfsp", func(tr *traces.Trace) (int64, error) { return perfPolicy(tr, "hfsp") }},
}

func perfPolicy(tr *traces.Trace, name string) (int64, error) {
	s, err := schedulers.New(name, nil)
	if err != nil {
		return 0, err
	}
	return perfReplay(tr, s)
}

func perfReplay(tr *traces.Trace, s replay.Scheduler) (int64, error) {
	r, err := replay.Run(tr, s, replay.Config{Nodes: perfNodes, Seed: 1})
	if err != nil {
		return 0, err
	}
	return r.Stats.TaskEvents, nil
}

// perfNodes is the cluster's size: 100, or SOJOURN_BENCH_NODES for
// BenchmarkPerf on another trace.
var perfNodes = 100

func perfTrace(tb testing.TB) *traces.Trace {
	tr, err := swim.Generate(swim.Config{Profile: "fb2010", Seed: 1})
	if err != nil {
		tb.Fatal(err)
	}
	return tr
}

// BenchmarkPerf replays the check's workload under each variant:
// go test -run NONE -bench Perf ./run. With SOJOURN_BENCH_TRACE=FILE and
// SOJOURN_BENCH_NODES=N it replays that trace on N nodes instead (make
// bench times the floor on the FB-2010 day so).
func BenchmarkPerf(b *testing.B) {
	tr := perfTrace(b)
	if path := os.Getenv("SOJOURN_BENCH_TRACE"); path != "" {
		var err error
		if tr, err = traces.Read(path); err != nil {
			b.Fatal(err)
		}
		if _, err := fmt.Sscan(os.Getenv("SOJOURN_BENCH_NODES"), &perfNodes); err != nil || perfNodes < 1 {
			b.Fatalf("SOJOURN_BENCH_NODES=%q: want the trace's number of nodes", os.Getenv("SOJOURN_BENCH_NODES"))
		}
		defer func() { perfNodes = 100 }()
	}
	for _, v := range perfVariants {
		b.Run(v.name, func(b *testing.B) {
			var events int64
			for range b.N {
				n, err := v.run(tr)
				if err != nil {
					b.Fatal(err)
				}
				events += n
			}
			b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "task-events/s")
		})
	}
}

// perfRatios measures each variant's time per replay over the floor's:
// the fastest of reps runs of each, the floor timed before each of the
// variant's runs. Interference from other work only adds time, so the
// fastest run is the steadiest figure on a shared machine.
func perfRatios(t *testing.T, tr *traces.Trace, reps int) map[string]float64 {
	timeOf := func(v perfVariant) float64 {
		r := testing.Benchmark(func(b *testing.B) {
			for range b.N {
				if _, err := v.run(tr); err != nil {
					b.Fatal(err)
				}
			}
		})
		if r.N == 0 {
			t.Fatalf("%s: the benchmark failed", v.name)
		}
		return float64(r.NsPerOp())
	}
	out := map[string]float64{}
	for _, v := range perfVariants[1:] {
		floor, variant := math.Inf(1), math.Inf(1)
		for range reps {
			floor = min(floor, timeOf(perfVariants[0]))
			variant = min(variant, timeOf(v))
		}
		out[v.name] = variant / floor
	}
	return out
}

// TestPerfRegression fails when a variant's time, as a ratio to the
// floor's, is more than perfTolerance times its committed baseline. It
// times runs, so it runs only when asked: SOJOURN_PERF_CHECK=1 (make
// perf-check), or =write to rewrite the baseline (make perf-baseline).
func TestPerfRegression(t *testing.T) {
	mode := os.Getenv("SOJOURN_PERF_CHECK")
	if mode == "" {
		t.Skip("times replays; run with SOJOURN_PERF_CHECK=1 (make perf-check)")
	}
	got := perfRatios(t, perfTrace(t), 5)
	if mode == "write" {
		data, _ := json.MarshalIndent(got, "", "  ")
		if err := os.WriteFile(perfBaseline, append(data, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s: %v", filepath.Clean(perfBaseline), got)
		return
	}
	data, err := os.ReadFile(perfBaseline)
	if err != nil {
		t.Fatal(err)
	}
	var base map[string]float64
	if err := json.Unmarshal(data, &base); err != nil {
		t.Fatalf("%s: %v", perfBaseline, err)
	}
	for _, v := range perfVariants[1:] {
		b, ok := base[v.name]
		if !ok || !(b > 0) {
			t.Errorf("%s: no baseline ratio for %s", perfBaseline, v.name)
			continue
		}
		verdict := "ok"
		if got[v.name] > perfTolerance*b {
			verdict = fmt.Sprintf("more than %.0f%% slower", 100*(perfTolerance-1))
			t.Errorf("%s: %.2f× the floor's time, baseline %.2f× (%+.0f%%)", v.name, got[v.name], b, 100*(got[v.name]/b-1))
		}
		t.Logf("%-12s %.2f× the floor (baseline %.2f×, %+.0f%%): %s", v.name, got[v.name], b, 100*(got[v.name]/b-1), verdict)
	}
}
