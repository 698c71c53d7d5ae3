package versus

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"sojourn/analysis"
	"sojourn/replay"
	"sojourn/results"
	"sojourn/swim"
	"sojourn/traces"
)

// smallTrace writes a 24-job FB2009 workload sized for 10 nodes.
func smallTrace(t *testing.T, dir string) (string, *traces.Trace) {
	t.Helper()
	tr, err := swim.Generate(swim.Config{Profile: "fb2009", Seed: 3, Jobs: 24, Nodes: 10})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "small.arrow")
	if err := traces.Write(path, tr); err != nil {
		t.Fatal(err)
	}
	return path, tr
}

// TestFiguresFromJobFiles replays FIFO against FAIR and recomputes every
// baseline, candidate and change figure from the jobs.arrow files the
// replays wrote.
func TestFiguresFromJobFiles(t *testing.T) {
	for _, seeds := range [][]uint64{{1, 2, 3}, {5}} {
		t.Run(fmt.Sprint(len(seeds), "seeds"), func(t *testing.T) {
			dir := t.TempDir()
			path, tr := smallTrace(t, dir)
			s := &Setup{Baseline: "fifo", Candidate: "fair", Traces: []string{path}, Seeds: seeds, Fixed: map[string]string{"nodes": "10"}}
			out := filepath.Join(dir, "sweep")
			rep, err := Run(context.Background(), s, out, 2, nil, Options{Resamples: 200, Seed: 7})
			if err != nil {
				t.Fatal(err)
			}
			// Cells are numbered policy, then seed: the baseline's first.
			read := func(first int) (soj, slow []float64, class []string) {
				slots := analysis.Slots{Nodes: 10, MapSlots: replay.DefaultMapSlots, ReduceSlots: replay.DefaultReduceSlots, Shuffle: replay.DefaultShuffleBandwidth}
				for i := range seeds {
					j, err := results.ReadJobs(filepath.Join(out, fmt.Sprintf("cells/%06d/jobs.arrow", first+i)))
					if err != nil {
						t.Fatal(err)
					}
					for k := 0; k < j.Len(); k++ {
						tj := &tr.Jobs[j.Index[k]]
						ideal := analysis.IdealRunTime(tj.MapDurations, tj.ReduceDurations, tj.ReduceShuffleBytes, slots)
						soj = append(soj, j.Sojourn[k])
						slow = append(slow, j.Sojourn[k]/max(ideal, 0.001))
						class = append(class, j.Class[k])
					}
				}
				return
			}
			bs, bslow, bcl := read(0)
			cs, cslow, _ := read(len(seeds))
			want := map[string][2]float64{}
			for _, class := range append([]string{"all"}, "small", "medium", "big") {
				pick := func(xs []float64) []float64 {
					var out []float64
					for i, x := range xs {
						if class == "all" || bcl[i] == class {
							out = append(out, x)
						}
					}
					return out
				}
				if len(pick(bs)) == 0 {
					continue
				}
				want[class+" mean"] = [2]float64{analysis.Mean(pick(bs)), analysis.Mean(pick(cs))}
				want[class+" median"] = [2]float64{analysis.Median(pick(bs)), analysis.Median(pick(cs))}
				want[class+" p95"] = [2]float64{analysis.Quantile(pick(bs), 0.95), analysis.Quantile(pick(cs), 0.95)}
				want[class+" slowdown"] = [2]float64{analysis.Mean(pick(bslow)), analysis.Mean(pick(cslow))}
			}
			if len(rep.Rows) != len(want) {
				t.Fatalf("%d rows, want %d", len(rep.Rows), len(want))
			}
			for _, r := range rep.Rows {
				w, ok := want[r.Class+" "+r.Metric]
				if !ok {
					t.Fatalf("unexpected row %s %s", r.Class, r.Metric)
				}
				if math.Abs(r.Base-w[0]) > 1e-9*w[0] || math.Abs(r.Cand-w[1]) > 1e-9*w[1] {
					t.Errorf("%s %s: %v vs %v, want %v vs %v", r.Class, r.Metric, r.Base, r.Cand, w[0], w[1])
				}
				if est := w[1]/w[0] - 1; math.Abs(r.Change.Est-est) > 1e-12 {
					t.Errorf("%s %s: change %v, want %v", r.Class, r.Metric, r.Change.Est, est)
				}
				if !(r.Change.Lo <= r.Change.Hi) {
					t.Errorf("%s %s: interval [%v, %v]", r.Class, r.Metric, r.Change.Lo, r.Change.Hi)
				}
				// One trace on every seed: submit-time windows, by default
				// of 24/MinWindows = 4 jobs on average.
				if r.Resampling != ResampleWindows || r.Seeds != len(seeds) || r.Traces != 1 {
					t.Errorf("%s %s: resampling %q over %d seeds of %d traces, want %q over %d of 1", r.Class, r.Metric, r.Resampling, r.Seeds, r.Traces, ResampleWindows, len(seeds))
				}
				if w := WindowFor(submits(tr), 4); r.WindowS != w {
					t.Errorf("%s %s: window %v s, want %v", r.Class, r.Metric, r.WindowS, w)
				}
				checkVerdict(t, r)
			}
			// Reading the sweep back gives the same report.
			again, err := Read(out, Options{Baseline: "fifo", Candidate: "fair", Resamples: 200, Seed: 7})
			if err != nil {
				t.Fatal(err)
			}
			var a, b strings.Builder
			rep.Text(&a)
			again.Text(&b)
			if a.String() != b.String() {
				t.Errorf("read back:\n%s\nwant\n%s", b.String(), a.String())
			}
		})
	}
}

// submits are the trace's submit times.
func submits(tr *traces.Trace) []float64 {
	var out []float64
	for i := range tr.Jobs {
		out = append(out, tr.Jobs[i].Submit)
	}
	return out
}

// checkVerdict checks that a row's words follow its interval.
func checkVerdict(t *testing.T, r Row) {
	t.Helper()
	none := strings.HasPrefix(r.Verdict, "no significant difference")
	switch {
	case r.Change.Lo <= 0 && r.Change.Hi >= 0:
		if !none || r.Significant {
			t.Errorf("interval [%v, %v] contains 0, verdict %q", r.Change.Lo, r.Change.Hi, r.Verdict)
		}
	case r.Change.Hi < 0:
		if none || !r.Significant || !(strings.Contains(r.Verdict, " shortens ") || strings.Contains(r.Verdict, " lowers ")) {
			t.Errorf("interval [%v, %v] below 0, verdict %q", r.Change.Lo, r.Change.Hi, r.Verdict)
		}
	default:
		if none || !r.Significant || !(strings.Contains(r.Verdict, " lengthens ") || strings.Contains(r.Verdict, " raises ")) {
			t.Errorf("interval [%v, %v] above 0, verdict %q", r.Change.Lo, r.Change.Hi, r.Verdict)
		}
	}
}

func TestVerdictWords(t *testing.T) {
	mean, slow := Metrics[0], Metrics[3]
	for _, c := range []struct {
		m    Metric
		row  Row
		ch   analysis.Interval
		want string
	}{
		{mean, Row{Class: "all", Seeds: 20, Resampling: ResampleSeeds}, analysis.Interval{Est: -0.10, Lo: -0.13, Hi: -0.07},
			"HFSP shortens mean sojourn by 10% [7%, 13%] on fb2009, 20 seeds"},
		{mean, Row{Class: "small", Seeds: 20, Resampling: ResampleSeeds}, analysis.Interval{Est: 0.25, Lo: 0.125, Hi: 0.4},
			"HFSP lengthens mean sojourn by 25% [12%, 40%] on fb2009 (small jobs), 20 seeds"},
		{slow, Row{Class: "all", Seeds: 1, Resampling: ResampleWindows, WindowS: 130}, analysis.Interval{Est: -0.2, Lo: -0.3, Hi: -0.05},
			"HFSP lowers mean slowdown by 20% [5%, 30%] on fb2009, one trace, 1 seed, windows of 130 s"},
		{mean, Row{Class: "all", Seeds: 10, Resampling: ResampleWindows, WindowS: 1800}, analysis.Interval{Est: -0.2, Lo: -0.3, Hi: -0.05},
			"HFSP shortens mean sojourn by 20% [5%, 30%] on fb2009, one trace, 10 seeds pooled, windows of 30.0 min"},
		{mean, Row{Class: "all", Seeds: 10, Resampling: ResampleClusterSeeds}, analysis.Interval{Est: -0.2, Lo: -0.3, Hi: -0.05},
			"HFSP shortens mean sojourn by 20% [5%, 30%] on fb2009, one trace, 10 cluster seeds (placement only)"},
		{mean, Row{Class: "all", Seeds: 20, Resampling: ResampleSeeds}, analysis.Interval{Est: 0.02, Lo: -0.01, Hi: 0.05},
			"no significant difference in mean sojourn on fb2009: +2% [−1%, +5%], 20 seeds"},
		{mean, Row{Class: "all", Seeds: 20, Resampling: ResampleSeeds}, analysis.Interval{Est: -0.02, Lo: -0.05, Hi: 0},
			"no significant difference in mean sojourn on fb2009: −2% [−5%, +0%], 20 seeds"},
	} {
		c.row.Workload, c.row.Change = "fb2009", c.ch
		if got := Verdict("hfsp", c.m, &c.row); got != c.want {
			t.Errorf("Verdict(%+v) = %q, want %q", c.ch, got, c.want)
		}
	}
}

// TestResamplingByWorkload: a profile replayed on several seeds is a
// workload per seed, resampled by seeds; on one seed it is one trace,
// resampled in submit-time windows; asking for seeds then is an error.
func TestResamplingByWorkload(t *testing.T) {
	dir := t.TempDir()
	s := &Setup{Baseline: "fifo", Candidate: "fair", Profiles: []string{"fb2009"}, Seeds: []uint64{1, 2}}
	rep, err := Run(context.Background(), s, filepath.Join(dir, "two"), 2, nil, Options{Resamples: 100})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rep.Rows {
		if r.Resampling != ResampleSeeds || r.Traces != 2 || r.WindowS != 0 || !strings.HasSuffix(r.Verdict, ", 2 seeds") {
			t.Fatalf("two generated workloads: row %+v, want seeds resampled", r)
		}
	}
	s.Seeds = []uint64{3}
	rep, err = Run(context.Background(), s, filepath.Join(dir, "one"), 2, nil, Options{Resamples: 100})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rep.Rows {
		if r.Resampling != ResampleWindows || r.Traces != 1 || r.WindowJobs == 0 || !strings.Contains(r.Verdict, "one trace, 1 seed, windows of") {
			t.Fatalf("one generated workload: row %+v, want submit-time windows", r)
		}
	}
	if _, err := Read(filepath.Join(dir, "one"), Options{Baseline: "fifo", Candidate: "fair", Resample: ResampleSeeds}); err == nil ||
		!strings.Contains(err.Error(), "one seed; resampling seeds needs at least two") {
		t.Errorf("seeds of one seed: error %v", err)
	}
	for _, o := range []Options{{Resample: "jobs"}, {Window: -1}, {Window: 60, WindowJobs: 5}} {
		o.Baseline, o.Candidate = "fifo", "fair"
		if _, err := Read(filepath.Join(dir, "one"), o); err == nil {
			t.Errorf("%+v: no error", o)
		}
	}
}
