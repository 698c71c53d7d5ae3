package experiments

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// The Makefile's EXPERIMENTS, which make clean removes from RESULTS, are
// the experiments' names.
func TestMakefileListsEveryExperiment(t *testing.T) {
	data, err := os.ReadFile("../../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^EXPERIMENTS := (.*)$`).FindSubmatch(data)
	if m == nil {
		t.Fatal("Makefile: no EXPERIMENTS := line")
	}
	if got, want := strings.Join(strings.Fields(string(m[1])), " "), strings.Join(Names(), " "); got != want {
		t.Errorf("Makefile: EXPERIMENTS := %s, want %s", got, want)
	}
}
