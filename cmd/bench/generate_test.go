package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"

	"sojourn/traces"
)

// bench runs bench with args and returns its stdout, stderr and error.
func bench(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	app := newApp()
	app.Writer, app.ErrWriter = &out, &errOut
	app.ExitErrHandler = func(*cli.Context, error) {}
	err := app.Run(intersperse(append([]string{"bench"}, args...)))
	return out.String(), errOut.String(), err
}

func TestGenerateAndInspect(t *testing.T) {
	path := filepath.Join(t.TempDir(), "w", "fb2009.arrow")
	out, _, err := bench(t, "generate", "--profile", "fb2009", "--seed", "1", "--out", path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out, "wrote "+path+": 100 jobs") {
		t.Errorf("generate printed %q", out)
	}
	tr, err := traces.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Params["generator.profile"] != "fb2009" || tr.Params["generator.seed"] != "1" {
		t.Errorf("params %v", tr.Params)
	}
	out, _, err = bench(t, "inspect", path)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"jobs      100,", "small  53 (53.0%)  1 map, 0 reduces", "medium 41 (41.0%)", "big    6 (6.0%)",
		"maps ", "reduces ", "input ", "shuffle ", "output ", "map task ", "reduce task ", "gap ",
		"p10", "p99", "generator.profile", "fb2009"} {
		if !strings.Contains(out, want) {
			t.Errorf("inspect output lacks %q:\n%s", want, out)
		}
	}
}

// TestGenerateFlags: flags reach the trace's metadata.
func TestGenerateFlags(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.arrow")
	_, _, err := bench(t, "generate", "--profile", "fb2010", "--seed", "7", "--nodes", "50", "--original-nodes", "100",
		"--jobs", "20", "--task-rule", "swim", "--block-size", "64MiB", "--bytes-per-reduce", "256MiB",
		"--arrivals", "trace", "--mean-gap", "20", "--map-startup", "2", "--map-rate", "4", "--reduce-startup", "3",
		"--reduce-rate", "5", "--task-skew", "0", "--shuffle-skew", "0.1", "--map-memory", "1GiB", "--reduce-memory", "2GiB",
		"--out", path)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := traces.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range map[string]string{
		"generator.seed": "7", "generator.nodes": "50", "generator.original_nodes": "100", "generator.scale": "0.5",
		"generator.jobs": "20", "generator.task_rule": "swim", "generator.block_size_bytes": "67108864",
		"generator.bytes_per_reduce": "268435456", "generator.arrivals": "trace", "generator.mean_gap_s": "20",
		"generator.duration.map_startup_s": "2", "generator.duration.map_rate_bytes_per_s": "4194304",
		"generator.duration.reduce_startup_s": "3", "generator.duration.reduce_rate_bytes_per_s": "5242880",
		"generator.duration.task_skew_sigma": "0", "generator.duration.shuffle_skew_sigma": "0.1",
		"generator.duration.map_memory_bytes": "1073741824", "generator.duration.reduce_memory_bytes": "2147483648",
		"generator.swim_partition_bytes": "57303500",
	} {
		if got := tr.Params[k]; got != v {
			t.Errorf("%s = %q; want %q", k, got, v)
		}
	}
	if tr.Jobs[0].MapMemoryBytes != 1<<30 || tr.Jobs[0].ReduceMemoryBytes != 2<<30 {
		t.Errorf("memory %d/%d", tr.Jobs[0].MapMemoryBytes, tr.Jobs[0].ReduceMemoryBytes)
	}
}

// TestGenerateSWIMFile samples a made-up SWIM file.
func TestGenerateSWIMFile(t *testing.T) {
	dir := t.TempDir()
	tsv := writeSWIMFile(t, dir)
	path := filepath.Join(dir, "t.arrow")
	if _, _, err := bench(t, "generate", "--swim", tsv, "--samples", "3", "--window", "600", "--out", path); err != nil {
		t.Fatal(err)
	}
	tr, err := traces.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Params["generator.source"] != "mine-FB-2010.tsv" || tr.Params["generator.original_nodes"] != "3000" ||
		tr.Params["generator.sampler.samples"] != "3" || len(tr.Jobs) != 180 {
		t.Errorf("%d jobs, params %v", len(tr.Jobs), tr.Params)
	}
}

// writeSWIMFile writes a made-up FB-2010 SWIM file of 300 jobs, 10 s
// apart, into dir and returns its path.
func writeSWIMFile(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	for i := range 300 {
		fmt.Fprintf(&b, "job%d\t%d\t10\t%d\t%d\t77\n", i, 10*i, 1000000*i, 5000*i)
	}
	tsv := filepath.Join(dir, "mine-FB-2010.tsv")
	if err := os.WriteFile(tsv, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return tsv
}

// TestGenerateWhole takes a made-up SWIM file whole: every job, at its own
// submit time, streamed to the file.
func TestGenerateWhole(t *testing.T) {
	dir := t.TempDir()
	tsv := writeSWIMFile(t, dir)
	path := filepath.Join(dir, "t.arrow")
	out, _, err := bench(t, "generate", "--swim", tsv, "--whole", "--nodes", "3000", "--out", path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out, "wrote "+path+": 300 jobs, ") {
		t.Errorf("generate printed %q", out)
	}
	tr, err := traces.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Jobs) != 300 || tr.Jobs[299].Submit != 2990 || tr.Params["generator.scale"] != "1" {
		t.Errorf("%d jobs, last submit %v, params %v", len(tr.Jobs), tr.Jobs[len(tr.Jobs)-1].Submit, tr.Params)
	}
	if _, _, err := bench(t, "generate", "--swim", tsv, "--whole", "--samples", "2", "--out", path); err == nil ||
		!strings.Contains(err.Error(), "--samples: a --whole file is not sampled") {
		t.Errorf("--whole --samples 2: %v", err)
	}
	if _, _, err := bench(t, "generate", "--profile", "fb2009", "--whole", "--out", path); err == nil ||
		!strings.Contains(err.Error(), "--whole: applies only with --swim") {
		t.Errorf("--profile --whole: %v", err)
	}
}

// TestGenerateErrors: one line, naming the flag or file and what was
// expected.
func TestGenerateErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.tsv")
	if err := os.WriteFile(bad, []byte("job0\t1\t1\t10\t20\t30\njob1\t2\t1\tten\t20\t30\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "o.arrow")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--profile", "fb2009"}, "--out: missing"},
		{[]string{"--out", out}, "--profile: no workload"},
		{[]string{"--profile", "fb1999", "--out", out}, `--profile: unknown profile "fb1999"; want fb2009 or fb2010`},
		{[]string{"--profile", "fb2009", "--swim", bad, "--out", out}, "--swim: give --profile or --swim, not both"},
		{[]string{"--profile", "fb2009", "--task-rule", "fast", "--out", out}, `--task-rule: unknown task rule "fast"; want natural or swim`},
		{[]string{"--profile", "fb2009", "--arrivals", "poisson", "--out", out}, `--arrivals: unknown arrival process "poisson"`},
		{[]string{"--profile", "fb2009", "--nodes", "0", "--out", out}, "--nodes: 0; want 1 or more"},
		{[]string{"--profile", "fb2009", "--nodes", "-3", "--out", out}, "--nodes: -3; want 1 to 1000000"},
		{[]string{"--profile", "fb2009", "--block-size", "12x", "--out", out}, `--block-size: "12x" is not a byte count`},
		{[]string{"--profile", "fb2009", "--block-size", "1000", "--out", out}, "--block-size: 1000 bytes; want at least 1048576"},
		{[]string{"--profile", "fb2009", "--map-rate", "0", "--out", out}, "--map-rate: 0; want a finite rate > 0 bytes/s"},
		{[]string{"--profile", "fb2009", "--task-skew", "-1", "--out", out}, "--task-skew: -1; want σ in [0, 3]"},
		{[]string{"--profile", "fb2009", "--samples", "4", "--out", out}, "--samples: applies only with --swim"},
		{[]string{"--profile", "fb2009", "--mean-gap", "0", "--out", out}, "--mean-gap: 0 s; want a mean > 0 s"},
		{[]string{"--swim", filepath.Join(dir, "none.tsv"), "--out", out}, "none.tsv: no such file"},
		{[]string{"--swim", bad, "--original-nodes", "600", "--out", out}, bad + `:2: column 4 (map_input_bytes): "ten" is not a non-negative integer byte count`},
		{[]string{"--swim", bad + "x", "--out", out}, "no such file"},
		{[]string{"--profile", "fb2009", "--out", out, "extra"}, `unexpected argument "extra"`},
	} {
		_, _, err := bench(t, append([]string{"generate"}, c.args...)...)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%v: error %v; want one line containing %q", c.args, err, c.want)
		}
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Error("a failed run left an output file")
	}
}

// TestHelpListsEveryFlag: --help shows every flag with its default, or
// says it is required; a boolean that is off by default shows none.
func TestHelpListsEveryFlag(t *testing.T) {
	out, _, err := bench(t, "generate", "--help")
	if err != nil {
		t.Fatal(err)
	}
	entries := flagEntries(out)
	for _, f := range generateCommand().Flags {
		name := f.Names()[0]
		entry := ""
		for _, e := range entries {
			if strings.HasPrefix(e, "--"+name+" ") || strings.HasPrefix(e, "--"+name+",") {
				entry = e
			}
		}
		if b, ok := f.(*cli.BoolFlag); ok && !b.Value {
			if entry == "" || strings.Contains(entry, "(default: ") {
				t.Errorf("--help shows --%s, off by default, without its line or with a default:\n%s", name, entry)
			}
			continue
		}
		if entry == "" || !strings.Contains(entry, "(default: ") && !strings.Contains(entry, "(required)") {
			t.Errorf("--help has no line with --%s and its default:\n%s", name, entry)
		}
	}
	for _, unit := range []string{"in nodes", "in seconds", "in MiB/s", "in bytes"} {
		if !strings.Contains(out, unit) {
			t.Errorf("--help never says %q", unit)
		}
	}
}

func TestParseBytes(t *testing.T) {
	for s, want := range map[string]int64{"0": 0, "134217728": 128 << 20, "128MiB": 128 << 20, "128M": 128 << 20, "1 GiB": 1 << 30, "2T": 2 << 40, "512B": 512} {
		if got, err := parseBytes(s); err != nil || got != want {
			t.Errorf("parseBytes(%q) = %d, %v; want %d", s, got, err, want)
		}
	}
	for _, s := range []string{"", "-1", "1.5GiB", "12x", "9999999TiB"} {
		if _, err := parseBytes(s); err == nil {
			t.Errorf("parseBytes(%q) accepted", s)
		}
	}
}
