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
// but "…" is a line the command prints, in the same order, and so is every
// line of docs/versus.md's full example, so the figures cannot drift from
// the code's.
func TestREADMEVersusExample(t *testing.T) {
	if testing.Short() {
		t.Skip("replays 40 FB2009 workloads, about 5 s")
	}
	out, _, err := bench(t, "versus", "--baseline", "fair", "--candidate", "hfsp", "--workload", "fb2009", "--out", t.TempDir()+"/kept")
	if err != nil {
		t.Fatal(err)
	}
	for _, ex := range []struct{ file, marker string }{
		{"../../README.md", readmeVersusMarker},
		{"../../docs/versus.md", "$ bin/bench versus --baseline fair --candidate hfsp --seeds 1-20 --workload fb2009"},
	} {
		data, err := os.ReadFile(ex.file)
		if err != nil {
			t.Skipf("no %s: %v", ex.file, err)
		}
		doc := string(data)
		i := strings.Index(doc, ex.marker)
		if i < 0 {
			t.Fatalf("%s lacks %q", ex.file, ex.marker)
		}
		block := doc[i+len(ex.marker):]
		if open := strings.Index(block, "```\n"); ex.file == "../../README.md" && open >= 0 {
			block = block[open+4:]
		} else {
			block = block[strings.Index(block, "\n")+1:] // past the command line
		}
		end := strings.Index(block, "```")
		if end < 0 {
			t.Fatalf("%s: the versus example's block is not closed", ex.file)
		}
		got := strings.Split(out, "\n")
		k := 0
		for _, line := range strings.Split(strings.TrimRight(block[:end], "\n"), "\n") {
			if strings.TrimSpace(line) == "…" {
				continue
			}
			for k < len(got) && got[k] != line {
				k++
			}
			if k == len(got) {
				t.Fatalf("%s's versus example shows %q, which bin/bench versus --baseline fair --candidate hfsp --workload fb2009 does not print there; its output:\n%s", ex.file, line, out)
			}
			k++
		}
	}
}
