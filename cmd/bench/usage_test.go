package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestUsageErrors: a usage error is one line on stderr naming the flag,
// with where to find help, and exit status 1; the help is not printed.
func TestUsageErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"replay"}, "bench: replay: required flag --trace missing; see bench replay --help"},
		{[]string{"replay", "--trace"}, "bench: replay: flag needs an argument: --trace; see bench replay --help"},
		{[]string{"replay", "--trace", "x", "--nodes", "many"}, `bench: replay: invalid value "many" for flag --nodes: parse error; see bench replay --help`},
		{[]string{"replay", "--trace", "x", "--bogus"}, "bench: replay: flag provided but not defined: --bogus; see bench replay --help"},
		{[]string{"replay", "--trace", "x", "--scheduler", "hfsp", "--fair.preemption"}, "bench: --fair.preemption: an option of fair, which is not selected (hfsp)"},
		{[]string{"replay", "--trace", "x", "--scheduler", "hfsp", "--exec", "sjf=python3 p.py"}, `bench: --exec sjf=python3 p.py: the name: "sjf" is a built-in policy's name; choose another`},
		{[]string{"replay", "--trace", "x", "--scheduler", "hfsp", "--exec.args", "size=tasks"}, "bench: --exec.args: an option of exec, which is not selected (hfsp)"},
		{[]string{"replay", "--trace", "x", "--scheduler", "fair", "--fair.preemption", "true"}, `bench: replay: unexpected argument "true": a boolean flag takes its value after '=' (--fair.preemption=true), or alone for true`},
		{[]string{"versus", "--candidate", "hfsp"}, "bench: versus: required flag --baseline missing; see bench versus --help"},
		{[]string{"nonsense"}, `bench: unknown command "nonsense"; see bench --help`},
	} {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			cmd := exec.Command(os.Args[0], c.args...)
			cmd.Env = append(os.Environ(), "BENCH_TEST_MAIN=1")
			var stderr strings.Builder
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			ee, ok := err.(*exec.ExitError)
			if !ok || ee.ExitCode() != 1 {
				t.Fatalf("exit %v, want status 1", err)
			}
			if got := strings.TrimSpace(stderr.String()); got != c.want || len(out) != 0 {
				t.Errorf("stderr %q (stdout %d bytes), want %q alone", got, len(out), c.want)
			}
		})
	}
}

// TestBooleanPolicyOptions: a boolean option is a real boolean flag, and
// --NAME alone means true.
func TestBooleanPolicyOptions(t *testing.T) {
	dir := t.TempDir()
	trace := filepath.Join(dir, "fb2009.arrow")
	if _, _, err := bench(t, "generate", "--profile", "fb2009", "--seed", "1", "--jobs", "20", "-o", trace); err != nil {
		t.Fatal(err)
	}
	on, _, err := bench(t, "replay", "--trace", trace, "--scheduler", "fair", "--fair.assign-multiple=false")
	if err != nil {
		t.Fatal(err)
	}
	def, _, err := bench(t, "replay", "--trace", trace, "--scheduler", "fair", "--fair.assign-multiple")
	if err != nil {
		t.Fatal(err)
	}
	mean := func(s string) string {
		for _, l := range strings.Split(s, "\n") {
			if strings.HasPrefix(l, "mean sojourn") {
				return l
			}
		}
		return ""
	}
	if mean(on) == mean(def) {
		t.Errorf("--fair.assign-multiple=false changed nothing: %s", mean(on))
	}
}

func TestVersion(t *testing.T) {
	out, _, err := bench(t, "--version")
	if err != nil || !strings.HasPrefix(out, "bench version ") {
		t.Errorf("bench --version: %q, %v", out, err)
	}
}
