package main

import (
	"encoding/json"
	"math/rand/v2"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"sojourn/analysis"
	"sojourn/run/sweep"
)

// TestVersus: bench versus replays two policies on a trace over two seeds,
// says which resampling it used (submit-time windows, for one trace) and
// gives a verdict per row; reading its
// kept sweep back with --sweep prints the same; the formats parse.
func TestVersus(t *testing.T) {
	dir := t.TempDir()
	trace := filepath.Join(dir, "small.arrow")
	if _, _, err := bench(t, "generate", "--profile", "fb2009", "--seed", "2", "--jobs", "20", "--nodes", "10", "-o", trace); err != nil {
		t.Fatal(err)
	}
	kept := filepath.Join(dir, "kept")
	args := []string{"versus", "--baseline", "fifo", "--candidate", "hfsp", "--trace", trace, "--nodes", "10", "--seeds", "1-2", "--resamples", "300"}
	text, _, err := bench(t, append(args, "--out", kept)...)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"block bootstrap over submit-time windows", "small, one trace of 20 jobs, 2 seeds (40 job results per policy); windows of",
		"mean sojourn", "p95 sojourn", "mean slowdown"} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks %q:\n%s", want, text)
		}
	}
	if !strings.Contains(text, "HFSP shortens") && !strings.Contains(text, "HFSP lengthens") && !strings.Contains(text, "no significant difference") {
		t.Errorf("no verdict:\n%s", text)
	}
	again, _, err := bench(t, "versus", "--baseline", "fifo", "--candidate", "hfsp", "--sweep", kept, "--resamples", "300")
	if err != nil {
		t.Fatal(err)
	}
	if again != text {
		t.Errorf("--sweep read back:\n%s\nwant\n%s", again, text)
	}
	js, _, err := bench(t, "versus", "--baseline", "fifo", "--candidate", "hfsp", "--sweep", kept, "--format", "json")
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Rows []struct {
			Metric, Class, Verdict string
			Change                 *float64
		}
	}
	if err := json.Unmarshal([]byte(js), &rep); err != nil || len(rep.Rows) == 0 || rep.Rows[0].Change == nil {
		t.Fatalf("json: %v\n%s", err, js)
	}
	md, _, err := bench(t, "versus", "--baseline", "fifo", "--candidate", "hfsp", "--sweep", kept, "--format", "markdown")
	if err != nil || !strings.Contains(md, "| metric | class | FIFO | HFSP | change | 95% interval | verdict |") {
		t.Errorf("markdown (%v):\n%s", err, md)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"versus", "--baseline", "fair", "--candidate", "fair"}, "--baseline and --candidate are both fair"},
		{[]string{"versus", "--baseline", "fair", "--candidate", "hfsp", "--seeds", "5-1"}, `--seeds "5-1": want`},
		{[]string{"versus", "--baseline", "fair", "--candidate", "hfsp", "--format", "csv"}, `--format "csv": want text, markdown or json`},
		{[]string{"versus", "--baseline", "fair", "--candidate", "sjf", "--sweep", kept}, "no cell of policy fair"},
		{[]string{"versus", "--baseline", "fifo", "--candidate", "hfsp", "--sweep", kept, "--block", "0"}, `--block "0": want at least 1 job`},
		{[]string{"versus", "--baseline", "fifo", "--candidate", "hfsp", "--sweep", kept, "--block", "soon"}, `--block "soon": want a number of jobs`},
		{[]string{"versus", "--baseline", "fifo", "--candidate", "hfsp", "--sweep", kept, "--resample", "jobs"}, `--resample "jobs": want windows or seeds`},
		{[]string{"versus", "--baseline", "fifo", "--candidate", "hfsp", "--sweep", kept, "--resample", "seeds", "--block", "5"}, "--block: not with --resample seeds"},
		{[]string{"versus", "--baseline", "fifo", "--candidate", "hfsp", "--sweep", kept, "--block", "15"}, "want at most half of them for a block bootstrap"},
	} {
		if _, _, err := bench(t, c.args...); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: error %v, want %q", c.args, err, c.want)
		}
	}
}

// TestVersusOneTrace: on one trace replayed on several seeds, the seeds
// only move HDFS blocks, so bench versus resamples the trace's jobs in
// blocks of submit-time windows, names that method and the window in its
// text and JSON, never calls the seeds workloads, and gives a wider
// interval than resampling the seeds would (computed here from the kept
// cells, as bench versus did before it resampled windows).
func TestVersusOneTrace(t *testing.T) {
	dir := t.TempDir()
	trace := filepath.Join(dir, "one.arrow")
	if _, _, err := bench(t, "generate", "--profile", "fb2009", "--seed", "5", "--jobs", "40", "--nodes", "10", "-o", trace); err != nil {
		t.Fatal(err)
	}
	kept := filepath.Join(dir, "kept")
	args := []string{"versus", "--baseline", "fair", "--candidate", "hfsp", "--trace", trace, "--nodes", "10", "--seeds", "1-4", "--resamples", "1000"}
	text, _, err := bench(t, append(args, "--out", kept)...)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"block bootstrap over submit-time windows", "each job with its results on every seed pooled",
		"one, one trace of 40 jobs, 4 seeds (160 job results per policy); windows of", "one trace, 4 seeds pooled, windows of"} {
		if !strings.Contains(strings.Join(strings.Fields(text), " "), want) { // the header is wrapped
			t.Errorf("output lacks %q:\n%s", want, text)
		}
	}
	for _, bad := range []*regexp.Regexp{regexp.MustCompile(`seeds resampled`), regexp.MustCompile(`whole workloads`),
		regexp.MustCompile(`\d+ workloads`), regexp.MustCompile(`, 4 seeds\.`)} {
		if m := bad.FindString(text); m != "" {
			t.Errorf("output says %q of one trace:\n%s", m, text)
		}
	}
	js, _, err := bench(t, "versus", "--baseline", "fair", "--candidate", "hfsp", "--sweep", kept, "--resamples", "1000", "--format", "json")
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Description string
		Rows        []struct {
			Metric, Class, Resampling string
			Traces                    int
			WindowS                   float64  `json:"window_s"`
			WindowJobs                float64  `json:"window_jobs"`
			Lo                        *float64 `json:"change_lo"`
			Hi                        *float64 `json:"change_hi"`
		}
	}
	if err := json.Unmarshal([]byte(js), &rep); err != nil || len(rep.Rows) == 0 {
		t.Fatalf("json: %v\n%s", err, js)
	}
	if !strings.Contains(rep.Description, "block bootstrap over submit-time windows") || strings.Contains(rep.Description, "whole workloads") {
		t.Errorf("JSON description does not name the block bootstrap of one trace: %q", rep.Description)
	}
	all := rep.Rows[0]
	if all.Class != "all" || all.Metric != "mean" || all.Resampling != "windows" || all.Traces != 1 || !(all.WindowS > 0) || !(all.WindowJobs >= 1) {
		t.Errorf("first row %+v: want all jobs' mean sojourn, resampled in windows of one trace", all)
	}
	if all.Lo == nil || all.Hi == nil {
		t.Fatalf("first row %+v: no interval", all)
	}

	// The seeds interval of the mean sojourn, from the cells' jobs (every
	// seed has the same jobs: the mean of the seeds drawn is that of their
	// jobs pooled).
	sum, err := sweep.ReadSummary(kept)
	if err != nil {
		t.Fatal(err)
	}
	perSeed := map[string][]float64{}
	for _, c := range sum.Cells {
		rec, err := sweep.ReadCell(filepath.Join(kept, filepath.FromSlash(c.Dir), sweep.CellFile))
		if err != nil {
			t.Fatal(err)
		}
		perSeed[c.Policy] = append(perSeed[c.Policy], analysis.Mean(rec.PerJob.SojournS))
	}
	seeds := analysis.Bootstrap{Paired: true, Resamples: 1000, Rand: rand.New(rand.NewPCG(1, 1))}.
		RelChange(4, analysis.MeanOf(perSeed["fair"]), 4, analysis.MeanOf(perSeed["hfsp"]))
	width, seedWidth := *all.Hi-*all.Lo, seeds.Hi-seeds.Lo
	t.Logf("mean sojourn: windows of %.0f s (%.1f jobs) [%+.3f, %+.3f], seeds [%+.3f, %+.3f]", all.WindowS, all.WindowJobs, *all.Lo, *all.Hi, seeds.Lo, seeds.Hi)
	if !(width > 3*seedWidth) {
		t.Errorf("one trace's interval [%+.3f, %+.3f] is not much wider than the seeds' [%+.3f, %+.3f]: it should reflect the jobs, not placement alone",
			*all.Lo, *all.Hi, seeds.Lo, seeds.Hi)
	}

	// --resample seeds gives the seeds' interval back, and says it is
	// placement only; --block sets the window.
	old, _, err := bench(t, "versus", "--baseline", "fair", "--candidate", "hfsp", "--sweep", kept, "--resample", "seeds")
	if err != nil || !strings.Contains(old, "cluster seeds resampled") || !strings.Contains(old, "HDFS block placement only") ||
		!strings.Contains(old, "4 cluster seeds (placement only)") || strings.Contains(old, "whole workloads") {
		t.Errorf("--resample seeds (%v):\n%s", err, old)
	}
	def, _, err := bench(t, "versus", "--baseline", "fair", "--candidate", "hfsp", "--sweep", kept)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ block, want string }{{"5", "jobs on average)"}, {"3m", "windows of 180 s of submissions"}} {
		out, _, err := bench(t, "versus", "--baseline", "fair", "--candidate", "hfsp", "--sweep", kept, "--block", c.block)
		if err != nil || !strings.Contains(out, c.want) || out == def {
			t.Errorf("--block %s (%v): output lacks %q or is the default's:\n%s", c.block, err, c.want, out)
		}
	}
	help, _, err := bench(t, "versus", "--help")
	if err != nil || !strings.Contains(help, "--block") || !strings.Contains(help, "submit-time windows") || strings.Contains(help, "each generates its workload") {
		t.Errorf("help (%v):\n%s", err, help)
	}
}
