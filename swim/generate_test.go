package swim

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"sojourn/traces"
)

// syntheticSource is a made-up SWIM workload (no real data): 600 jobs over
// two hours, every third one map-only, sizes growing with the index.
func syntheticSource(t testing.TB) *Source {
	var b strings.Builder
	for i := range 600 {
		sh := int64(i) * 7_000_000
		if i%3 == 0 {
			sh = 0
		}
		fmt.Fprintf(&b, "job%d\t%d\t12\t%d\t%d\t%d\n", i, 12*i, int64(i*i)*1_000_000, sh, int64(i)*1000)
	}
	src, err := ParseTSV(strings.NewReader(b.String()), "synthetic-FB-2009.tsv")
	if err != nil {
		t.Fatal(err)
	}
	return src
}

func encode(t testing.TB, tr *traces.Trace) []byte {
	t.Helper()
	path := filepath.Join(t.TempDir(), "t.arrow")
	if err := traces.Write(path, tr); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestSameSeedSameFile: the same configuration gives the same Arrow file,
// byte for byte; another seed gives another workload.
func TestSameSeedSameFile(t *testing.T) {
	for name, cfg := range map[string]func(seed uint64) Config{
		"fb2009":       func(s uint64) Config { return Config{Profile: "fb2009", Seed: s} },
		"fb2010 trace": func(s uint64) Config { return Config{Profile: "fb2010", Seed: s, Arrivals: ArrivalsTrace} },
		"fb2009 swim":  func(s uint64) Config { return Config{Profile: "fb2009", Seed: s, Tasks: TaskConfig{Rule: RuleSWIM}} },
		"source sampled": func(s uint64) Config {
			return Config{Source: syntheticSource(t), Seed: s, Sampler: Sampler{Samples: 3, Window: 1800}}
		},
	} {
		t.Run(name, func(t *testing.T) {
			a, b := encode(t, generate(t, cfg(1))), encode(t, generate(t, cfg(1)))
			if !bytes.Equal(a, b) {
				t.Fatal("two runs with seed 1 wrote different files")
			}
			x, y := generate(t, cfg(1)), generate(t, cfg(2))
			if sameJobs(x, y) {
				t.Fatal("seeds 1 and 2 gave the same jobs")
			}
			if x.Params["generator.seed"] != "1" || y.Params["generator.seed"] != "2" {
				t.Errorf("seeds recorded as %q and %q", x.Params["generator.seed"], y.Params["generator.seed"])
			}
		})
	}
}

func sameJobs(x, y *traces.Trace) bool {
	if len(x.Jobs) != len(y.Jobs) {
		return false
	}
	for i := range x.Jobs {
		a, b := &x.Jobs[i], &y.Jobs[i]
		if a.Submit != b.Submit || a.MapInputBytes != b.MapInputBytes || a.ShuffleBytes != b.ShuffleBytes {
			return false
		}
	}
	return true
}

func TestGenerateFromSource(t *testing.T) {
	src := syntheticSource(t)
	tr := generate(t, Config{Source: src, Seed: 4, Sampler: Sampler{Samples: 2, Window: 1200}})
	// 2 windows of 1200 s hold 2×100 jobs (a job every 12 s; the window
	// starts are not whole seconds, so no window holds a job at each end).
	if n := len(tr.Jobs); n != 200 {
		t.Errorf("%d jobs; want 200", n)
	}
	for _, k := range []string{"generator.source", "generator.source_sha256", "generator.sampler.samples", "generator.sampler.window_s", "generator.original_nodes", "generator.scale"} {
		if tr.Params[k] == "" {
			t.Errorf("metadata lacks %s", k)
		}
	}
	if tr.Params["generator.original_nodes"] != "600" || tr.Params["generator.source"] != "synthetic-FB-2009.tsv" {
		t.Errorf("original nodes %q from %q; want 600 guessed from the name", tr.Params["generator.original_nodes"], tr.Params["generator.source"])
	}
	for _, j := range tr.Jobs {
		if j.Class != ClassifyHFSP(j.Maps(), j.Reduces()) {
			t.Fatalf("job %d labelled %s", j.ID, j.Class)
		}
		if j.Reduces() > 0 && j.ShuffleBytes == 0 {
			t.Fatalf("job %d has reduces but no shuffle under the natural rule", j.ID)
		}
	}
	// Jobs are capped at --jobs; exponential arrivals replace the gaps.
	tr = generate(t, Config{Source: src, Seed: 4, Jobs: 50, Arrivals: ArrivalsExponential, MeanGap: 30})
	if len(tr.Jobs) != 50 || tr.Jobs[0].Submit != 0 {
		t.Errorf("%d jobs, first at %v s; want 50, the first at 0", len(tr.Jobs), tr.Jobs[0].Submit)
	}
}

// TestScaling: the same seed draws the same jobs whatever the scale, and
// the bytes shrink by nodes/original nodes, truncated.
func TestScaling(t *testing.T) {
	a := generate(t, Config{Profile: "fb2009", Seed: 5})
	b := generate(t, Config{Profile: "fb2009", Seed: 5, OriginalNodes: 600})
	if b.Params["generator.scale"] != strconvF(100.0/600) {
		t.Errorf("scale recorded as %q", b.Params["generator.scale"])
	}
	for i := range a.Jobs {
		if got, want := b.Jobs[i].MapInputBytes, a.Jobs[i].MapInputBytes*100/600; got != want {
			t.Fatalf("job %d: input %d at 100/600; want %d", i, got, want)
		}
	}
}

func strconvF(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

func TestSWIMRuleNeverMapOnly(t *testing.T) {
	tr := generate(t, Config{Profile: "fb2009", Seed: 1, Tasks: TaskConfig{Rule: RuleSWIM}})
	p := MaxSeqFile(DefaultBlockSize)
	for _, j := range tr.Jobs {
		if j.Reduces() < 1 || j.MapInputBytes < p || j.ShuffleBytes < 1024 {
			t.Fatalf("job %d: %d reduces, %d input, %d shuffle bytes; SWIM gives >= 1 reduce, >= P input, >= 1 KiB shuffle", j.ID, j.Reduces(), j.MapInputBytes, j.ShuffleBytes)
		}
	}
}

// TestTraceArrivals: a profile's trace arrivals follow the model's gaps,
// rescaled to the profile's mean.
func TestTraceArrivals(t *testing.T) {
	tr := generate(t, Config{Profile: "fb2009", Seed: 1, Jobs: 2000, Arrivals: ArrivalsTrace})
	gap := tr.Jobs[len(tr.Jobs)-1].Submit / float64(len(tr.Jobs)-1)
	if math.Abs(gap-13) > 0.05*13 {
		t.Errorf("mean gap %.2f s; want 13 s within 5%%", gap)
	}
}

func TestConfigErrors(t *testing.T) {
	src := &Source{Name: "mine.tsv", Records: []Record{{ID: "a", Submit: 1}}}
	for _, c := range []struct {
		cfg   Config
		field string
	}{
		{Config{}, "Profile"},
		{Config{Profile: "fb2009", Source: src}, "Profile"},
		{Config{Profile: "fb1999"}, "Profile"},
		{Config{Profile: "fb2009", Nodes: -1}, "Nodes"},
		{Config{Profile: "fb2009", Jobs: -1}, "Jobs"},
		{Config{Profile: "fb2009", Sampler: Sampler{Samples: 3}}, "Sampler"},
		{Config{Source: src}, "OriginalNodes"},
		{Config{Source: src, OriginalNodes: 10, Sampler: Sampler{Window: -1}}, "Sampler.Window"},
		{Config{Profile: "fb2009", Tasks: TaskConfig{BlockSize: 5}}, "Tasks.BlockSize"},
		{Config{Profile: "fb2009", MeanGap: math.Inf(1)}, "MeanGap"},
		{Config{Profile: "fb2009", Arrivals: 9}, "Arrivals"},
		{Config{Profile: "fb2009", Durations: &DurationModel{}}, "Durations.MapRate"},
	} {
		_, err := Generate(c.cfg)
		var ce *ConfigError
		if !errors.As(err, &ce) || ce.Field != c.field {
			t.Errorf("%+v: error %v; want one naming %s", c.cfg, err, c.field)
		}
	}
}

// TestParamsComplete: the metadata records every parameter of a profile
// run, under sorted "generator." keys.
func TestParamsComplete(t *testing.T) {
	tr := generate(t, Config{Profile: "fb2010", Seed: 9, Jobs: 10})
	for _, k := range []string{
		"generator.name", "generator.version", "generator.seed", "generator.profile", "generator.model",
		"generator.jobs", "generator.nodes", "generator.original_nodes", "generator.scale",
		"generator.task_rule", "generator.block_size_bytes", "generator.bytes_per_reduce",
		"generator.arrivals", "generator.mean_gap_s", "generator.profile.classes", "generator.profile.min_reduces",
		"generator.duration.map_startup_s", "generator.duration.map_rate_bytes_per_s",
		"generator.duration.reduce_startup_s", "generator.duration.reduce_rate_bytes_per_s",
		"generator.duration.task_skew_sigma", "generator.duration.shuffle_skew_sigma",
		"generator.duration.map_memory_bytes", "generator.duration.reduce_memory_bytes",
	} {
		if _, ok := tr.Params[k]; !ok {
			t.Errorf("metadata lacks %s", k)
		}
	}
	for k := range tr.Params {
		if !strings.HasPrefix(k, "generator.") {
			t.Errorf("key %s is outside generator.", k)
		}
	}
	if tr.Params["generator.jobs"] != "10" || tr.Params["generator.mean_gap_s"] != "38" {
		t.Errorf("jobs %q, mean gap %q", tr.Params["generator.jobs"], tr.Params["generator.mean_gap_s"])
	}
}

func BenchmarkGenerateFB2010(b *testing.B) {
	for range b.N {
		generate(b, Config{Profile: "fb2010", Seed: 1, Jobs: 1000})
	}
}
