package schedulers

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRegistry(t *testing.T) {
	for _, want := range []string{"fair", "fifo", "fifo-minimal", "hfsp"} {
		if _, err := Lookup(want); err != nil {
			t.Errorf("policy %q not registered: %v", want, err)
		}
	}
	_, err := New("srtf", nil)
	if !errors.Is(err, ErrUnknownPolicy) || !strings.Contains(err.Error(), "hfsp") {
		t.Errorf("unknown policy error %v should wrap ErrUnknownPolicy and list the names", err)
	}
	seen := map[string]bool{}
	names := Names()
	for i, n := range names {
		if seen[n] {
			t.Errorf("policy %q listed twice", n)
		}
		seen[n] = true
		if i > 0 && names[i-1] >= n {
			t.Errorf("policies not in name order: %q before %q", names[i-1], n)
		}
	}
	if _, err := New("hfsp", map[string]string{"aplha": "0.5"}); err == nil || !strings.Contains(err.Error(), "aplha") {
		t.Errorf("misspelt option accepted or not named: %v", err)
	}
	if _, err := New("hfsp", map[string]string{"alpha": "lots"}); err == nil || !strings.Contains(err.Error(), "hfsp.alpha") {
		t.Errorf("bad value accepted or not named: %v", err)
	}
	for _, p := range Policies() {
		for _, o := range p.Options {
			if o.Usage == "" {
				t.Errorf("%s.%s has no usage text", p.Name, o.Name)
			}
		}
		s, err := New(p.Name, nil)
		if err != nil {
			t.Errorf("%s does not build with its defaults: %v", p.Name, err)
			continue
		}
		if s.Name() != p.Name {
			t.Errorf("policy %q builds a scheduler that calls itself %q", p.Name, s.Name())
		}
	}
}

func TestReadConfig(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.conf")
	os.WriteFile(good, []byte("# HFSP with kills\nhfsp.preemption = kill\nhfsp.alpha=0.3 # error\n\nfair.locality-delay = 0\n"), 0o644)
	cfg, err := ReadConfig(good)
	if err != nil {
		t.Fatal(err)
	}
	if cfg["hfsp"]["preemption"] != "kill" || cfg["hfsp"]["alpha"] != "0.3" || cfg["fair"]["locality-delay"] != "0" {
		t.Fatalf("parsed %v", cfg)
	}
	for _, c := range []struct{ text, want string }{
		{"hfsp.preemption kill\n", "bad.conf:1"},
		{"\nhfsp.nosuch = 1\n", "bad.conf:2: hfsp has no option"},
		{"nosuch.alpha = 1\n", "unknown scheduler"},
		{"alpha = 1\n", "not policy.option"},
	} {
		bad := filepath.Join(dir, "bad.conf")
		os.WriteFile(bad, []byte(c.text), 0o644)
		if _, err := ReadConfig(bad); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want one containing %q", c.text, err, c.want)
		}
	}
}
