package main

import (
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"sojourn/schedulers"
	"sojourn/traces"
)

// noInputSWF is a hand-written SWF log of five rigid jobs. SWF carries no
// input data, so its maps read no block: their locality cannot matter.
const noInputSWF = `; Version: 2.2
; MaxProcs: 64
1 0 -1 600 16 -1 -1 16 900 -1 1 1 -1 -1 -1 -1 -1 -1
2 5 -1 300 4 -1 -1 4 400 -1 1 2 -1 -1 -1 -1 -1 -1
3 5 -1 900 32 -1 -1 32 1200 -1 1 1 -1 -1 -1 -1 -1 -1
4 20 -1 60 2 -1 -1 2 100 -1 1 3 -1 -1 -1 -1 -1 -1
5 30 -1 1200 8 -1 -1 8 1500 -1 1 2 -1 -1 -1 -1 -1 -1
`

var meanSojournRow = regexp.MustCompile(`(?m)^mean sojourn\s+([0-9.]+) s`)

// TestRigidNote: a policy that schedules a rigid job's maps one by one
// says so on stderr; easy, which starts them together, does not.
func TestRigidNote(t *testing.T) {
	dir := t.TempDir()
	trace := filepath.Join(dir, "log.arrow")
	if _, _, err := bench(t, "import", "swf", write(t, dir, "log.swf", noInputSWF), "--out", trace); err != nil {
		t.Fatal(err)
	}
	for policy, want := range map[string]bool{"fifo": true, "easy": false} {
		_, stderr, err := bench(t, "replay", "--trace", trace, "--scheduler", policy, "--nodes", "20")
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(stderr, "5 rigid jobs"); got != want {
			t.Errorf("%s: stderr %q; want a note on rigid jobs: %v", policy, stderr, want)
		}
	}
}

// TestNoPhantomLocality: on an imported SWF log (no input bytes) every
// policy's mean sojourn is the same with the default locality factors as
// with both set to 1, and the summary shows no node-local fraction. Before
// maps without input had no locality, off-rack maps ran twice as long.
func TestNoPhantomLocality(t *testing.T) {
	dir := t.TempDir()
	trace := filepath.Join(dir, "log.arrow")
	if _, _, err := bench(t, "import", "swf", write(t, dir, "log.swf", noInputSWF), "--out", trace); err != nil {
		t.Fatal(err)
	}
	tr, err := traces.Read(trace)
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range tr.Jobs {
		if !j.Rigid {
			t.Errorf("SWF job %d imported as not rigid", j.ID)
		}
	}
	out, _, err := bench(t, "inspect", trace)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "no input data") {
		t.Errorf("inspect does not say the trace has no input data:\n%s", out)
	}
	mean := func(policy string, extra ...string) (float64, string) {
		args := append([]string{"replay", "--trace", trace, "--scheduler", policy, "--nodes", "20"}, extra...)
		if strings.HasPrefix(policy, "yarn-") {
			args = append(args, "--model", "yarn")
		}
		out, _, err := bench(t, args...)
		if err != nil {
			t.Fatalf("%s: %v", policy, err)
		}
		m := meanSojournRow.FindStringSubmatch(out)
		if m == nil {
			t.Fatalf("%s: no mean sojourn in\n%s", policy, out)
		}
		v, _ := strconv.ParseFloat(m[1], 64)
		return v, out
	}
	for _, p := range schedulers.Names() {
		if p == "exec" {
			continue
		}
		t.Run(p, func(t *testing.T) {
			def, out := mean(p)
			flat, _ := mean(p, "--rack-local-factor", "1", "--off-rack-factor", "1")
			if d := def/flat - 1; d > 0.005 || d < -0.005 {
				t.Errorf("mean sojourn %.1f s with the default locality factors, %.1f s with both at 1: %+.1f%%", def, flat, 100*d)
			}
			if !strings.Contains(out, "n/a (no map reads input data)") {
				t.Errorf("the summary shows a node-local fraction for a trace without input data:\n%s", out)
			}
		})
	}
}

// TestPoliciesSayWhichGang: bench policies -v marks the policies that
// start a rigid job's maps together, and only those.
func TestPoliciesSayWhichGang(t *testing.T) {
	out, _, err := bench(t, "policies", "-v")
	if err != nil {
		t.Fatal(err)
	}
	var gangs []string
	policy := ""
	for _, line := range strings.Split(out, "\n") {
		if name, _, ok := strings.Cut(line, ": "); ok && !strings.HasPrefix(line, " ") {
			policy = name
		}
		if strings.Contains(line, "starts a rigid job's maps together") {
			gangs = append(gangs, policy)
		}
	}
	if len(gangs) != 1 || gangs[0] != "easy" {
		t.Errorf("policies marked as starting rigid jobs together: %v, want [easy]", gangs)
	}
}
