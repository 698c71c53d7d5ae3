package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestInspectErrors(t *testing.T) {
	dir := t.TempDir()
	junk := filepath.Join(dir, "junk.arrow")
	if err := os.WriteFile(junk, []byte("not arrow"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, "inspect: want one trace FILE, got 0 arguments"},
		{[]string{"a", "b"}, "got 2 arguments"},
		{[]string{filepath.Join(dir, "none.arrow")}, "none.arrow: no such file"},
		{[]string{junk}, junk + ": not a sojourn trace"},
	} {
		_, _, err := bench(t, append([]string{"inspect"}, c.args...)...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("inspect %v: error %v; want %q", c.args, err, c.want)
		}
	}
}
