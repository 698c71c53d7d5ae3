package main

import (
	"os"
	"strings"
	"testing"
)

// readmeVersusMarker precedes the README's bench versus example; the
// fenced block after it is the command's output, abridged: "…" lines
// stand for lines left out.
const readmeVersusMarker = "<!-- versus example: bin/bench versus --baseline fair --candidate hfsp --workload fb2009, abridged; TestREADMEVersusExample checks it -->"

// TestREADMEVersusExample: every line of the README's bench versus example
// but "…" is a line the command prints, in the same order, so the
// figures on the README's first screen cannot drift from the code's.
func TestREADMEVersusExample(t *testing.T) {
	if testing.Short() {
		t.Skip("replays 40 FB2009 workloads, about 5 s")
	}
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Skipf("no README.md: %v", err)
	}
	readme := string(data)
	i := strings.Index(readme, readmeVersusMarker)
	if i < 0 {
		t.Fatalf("README.md lacks the marker %q", readmeVersusMarker)
	}
	block := readme[i+len(readmeVersusMarker):]
	open := strings.Index(block, "```\n")
	if open < 0 {
		t.Fatal("README.md: no fenced block after the versus marker")
	}
	block = block[open+4:]
	end := strings.Index(block, "```")
	if end < 0 {
		t.Fatal("README.md: the versus example's block is not closed")
	}
	want := strings.Split(strings.TrimRight(block[:end], "\n"), "\n")

	out, _, err := bench(t, "versus", "--baseline", "fair", "--candidate", "hfsp", "--workload", "fb2009", "--out", t.TempDir()+"/kept")
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Split(out, "\n")
	k := 0
	for _, line := range want {
		if strings.TrimSpace(line) == "…" {
			continue
		}
		for k < len(got) && got[k] != line {
			k++
		}
		if k == len(got) {
			t.Fatalf("README.md's versus example shows %q, which bin/bench versus --baseline fair --candidate hfsp --workload fb2009 does not print there; its output:\n%s", line, out)
		}
		k++
	}
}
