package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// outPath matches an output flag of a bench command line and its value.
var outPath = regexp.MustCompile(`(?:^|\s)(?:--out|-o|--results|--reports)[ =]([^\s]+)`)

// TestDocsWriteUnderOut: every bench command the README and the docs show
// writes under out/ (which git ignores), so that following them leaves the
// checkout clean and later builds are not stamped +dirty. Placeholders
// (DIR, FILE, PATH, …) and paths outside the checkout (/tmp/…) are fine.
func TestDocsWriteUnderOut(t *testing.T) {
	files := []string{"../../README.md", "../../clients/python/README.md"}
	docs, _ := filepath.Glob("../../docs/*.md")
	files = append(files, docs...)
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(data), "\n") {
			if !strings.Contains(line, "bench ") {
				continue
			}
			cmd := line[strings.Index(line, "bench "):]
			for _, m := range outPath.FindAllStringSubmatch(cmd, -1) {
				p := strings.Trim(m[1], "`'\"")
				if strings.HasPrefix(p, "out/") || strings.HasPrefix(p, "$(OUT)") || strings.HasPrefix(p, "/") ||
					strings.HasPrefix(p, "$") || p == strings.ToUpper(p) || strings.HasPrefix(p, "<") {
					continue
				}
				t.Errorf("%s:%d: %q writes %s, inside the checkout but outside out/", filepath.Base(f), i+1, strings.TrimSpace(cmd), p)
			}
		}
	}
}
