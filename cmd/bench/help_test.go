package main

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// helpMaxLines bounds a command's --help: one screenful or two, the
// policies' options and the import formats' columns being elsewhere
// (bench policies -v POLICY, bench import FORMAT --columns).
const helpMaxLines = 140

// TestHelpFitsTerminal walks every command's --help, the policies' option
// lists and the import formats' column tables: no line is wider than 80
// columns, no help is longer than helpMaxLines, and every default is shown
// one way, once per flag and unquoted.
func TestHelpFitsTerminal(t *testing.T) {
	runs := [][]string{{"--help"}, {"help"}}
	for _, c := range newApp().Commands {
		runs = append(runs, []string{c.Name, "--help"})
	}
	runs = append(runs, []string{"policies", "-v"})
	for _, f := range importFormats {
		runs = append(runs, []string{"import", f, "--columns"})
	}
	for _, args := range runs {
		out, _, err := bench(t, args...)
		if err != nil {
			t.Errorf("bench %s: %v", strings.Join(args, " "), err)
			continue
		}
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		if args[len(args)-1] == "--help" && len(lines) > helpMaxLines {
			t.Errorf("bench %s: %d lines, want at most %d", strings.Join(args, " "), len(lines), helpMaxLines)
		}
		for i, l := range lines {
			if n := utf8.RuneCountInString(l); n > helpWidth {
				t.Errorf("bench %s: line %d is %d columns wide:\n%s", strings.Join(args, " "), i+1, n, l)
			}
			if strings.Contains(l, `(default: "`) || strings.Count(l, "(default:") > 1 {
				t.Errorf("bench %s: line %d shows a default another way:\n%s", strings.Join(args, " "), i+1, l)
			}
		}
		for _, entry := range flagEntries(out) {
			if strings.Count(entry, "(default:") > 1 {
				t.Errorf("bench %s: two defaults in one flag's help:\n%s", strings.Join(args, " "), entry)
			}
		}
	}
}

// flagEntries splits the OPTIONS of a help into one string per flag, its
// continuation lines joined.
func flagEntries(help string) []string {
	var out []string
	for _, l := range strings.Split(help, "\n") {
		trimmed := strings.TrimLeft(l, " ")
		switch {
		case strings.HasPrefix(trimmed, "-") && len(l)-len(trimmed) == 3:
			out = append(out, trimmed)
		case len(out) > 0 && trimmed != "" && len(l)-len(trimmed) > 3:
			out[len(out)-1] += " " + trimmed
		}
	}
	return out
}

// TestPolicyOptionsInPoliciesHelp: replay and versus keep the policies'
// options out of their help, which points to bench policies -v POLICY;
// that lists one policy's options with their defaults, and still parses
// them.
func TestPolicyOptionsInPoliciesHelp(t *testing.T) {
	for _, cmd := range []string{"replay", "versus"} {
		out, _, err := bench(t, cmd, "--help")
		out = strings.Join(strings.Fields(out), " ")
		if err != nil || strings.Contains(out, "--hfsp.alpha value") || !strings.Contains(out, "bench policies -v POLICY") {
			t.Errorf("bench %s --help (%v) lists policy options or does not say where they are:\n%s", cmd, err, out)
		}
	}
	out, _, err := bench(t, "policies", "-v", "hfsp")
	if err != nil || !strings.HasPrefix(out, "hfsp: ") || !strings.Contains(out, "--hfsp.alpha") ||
		!strings.Contains(out, "(default: 0)") || strings.Contains(out, "fair:") {
		t.Errorf("bench policies -v hfsp (%v):\n%s", err, out)
	}
	if _, _, err := bench(t, "policies", "-v", "nosuch"); err == nil || !strings.Contains(err.Error(), "nosuch") {
		t.Errorf("bench policies -v nosuch: %v, want an error naming it", err)
	}
}

// TestVersionFlagIsLong: -v is no command's version flag: bench -v is an
// unknown flag, and bench policies -v means verbose.
func TestVersionFlagIsLong(t *testing.T) {
	if _, _, err := bench(t, "-v"); err == nil {
		t.Error("bench -v succeeded; -v is not the version flag")
	}
	out, _, err := bench(t, "policies", "-v")
	if err != nil || !strings.Contains(out, "hfsp: ") {
		t.Errorf("bench policies -v (%v):\n%s", err, out)
	}
}
