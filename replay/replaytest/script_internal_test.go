package replaytest

import (
	"slices"
	"strings"
	"testing"
)

func TestParseDurations(t *testing.T) {
	got, err := parseDurations("2x30,10,0x5,1.5")
	if err != nil || !slices.Equal(got, []float64{30, 30, 10, 1.5}) {
		t.Errorf("parseDurations: %v, %v", got, err)
	}
	for _, bad := range []string{"", "x", "2x", "-1x3", "ax3", "3y"} {
		if _, err := parseDurations(bad); err == nil {
			t.Errorf("parseDurations(%q) accepted", bad)
		}
	}
}

// TestScriptErrors: a script's mistakes are errors that name the key.
func TestScriptErrors(t *testing.T) {
	sc := &scenario{options: map[string]string{}}
	for _, c := range []struct{ line, want string }{
		{"cluster nodes=two", "cluster nodes"},
		{"cluster racks=2", `no key "racks"`},
		{"job maps=2", "submit=SECONDS comes first"},
		{"job submit=0 maps=2 colour=red", `no key "colour"`},
		{"job submit=0 priority=URGENT", "job priority"},
		{"job submit=0 maps=1 shuffle=lots", "job shuffle"},
		{"tick", `unknown command "tick"`},
	} {
		cmd, args, err := parseCommand(c.line)
		if err == nil {
			err = sc.apply(cmd, args)
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want one containing %q", c.line, err, c.want)
		}
	}
	if _, _, err := parseCommand("job submit"); err == nil {
		t.Error("an argument without = accepted")
	}
	if err := sc.apply("job", []arg{{"submit", "0"}, {"maps", "2x1"}}); err != nil || len(sc.jobs) != 1 {
		t.Fatalf("job: %v, %d jobs", err, len(sc.jobs))
	}
	if _, err := sc.run(t, []arg{{"policy", "nosuch"}}, map[string]Builder{"a": nil, "b": nil}); err == nil ||
		!strings.Contains(err.Error(), "one of a, b") {
		t.Errorf("unknown policy: %v", err)
	}
	if _, err := sc.run(t, []arg{{"policy", "a"}, {"log", "all"}}, map[string]Builder{"a": nil}); err == nil {
		t.Error("log=all accepted")
	}
}
