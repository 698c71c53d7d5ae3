package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestVersus: bench versus replays two policies on a trace over two seeds,
// says which resampling it used and gives a verdict per row; reading its
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
	for _, want := range []string{"seeds resampled", "small, 2 seeds, 40 jobs per policy", "mean sojourn", "p95 sojourn", "mean slowdown"} {
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
	} {
		if _, _, err := bench(t, c.args...); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: error %v, want %q", c.args, err, c.want)
		}
	}
}
