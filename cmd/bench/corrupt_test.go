package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCorruptTrace: the byte flips of issue 15, which made the Arrow
// library allocate until the process died (a buffer length, a schema
// vector length) or recurse through the schema, are refused with one
// line by inspect, replay and the results reader. The offsets are those
// of a 10-job fb2009 trace of seed 1 when the issue was filed; should the
// format move them, the flips still corrupt the file somewhere, and the
// test still asserts one clean error or a clean read.
func TestCorruptTrace(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "t.arrow")
	if _, _, err := bench(t, "generate", "--profile", "fb2009", "--jobs", "10", "--out", good); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []struct {
		off int
		val byte
	}{{3372, 0x9f}, {21566, 0x34}, {21181, 0x01}} {
		if f.off >= len(data) {
			continue
		}
		b := append([]byte(nil), data...)
		b[f.off] = f.val
		bad := filepath.Join(dir, "bad.arrow")
		if err := os.WriteFile(bad, b, 0o644); err != nil {
			t.Fatal(err)
		}
		for _, args := range [][]string{{"inspect", bad}, {"replay", "--trace", bad}} {
			_, _, err := bench(t, args...)
			if err == nil {
				continue // a flip may land on a value that stays valid
			}
			if msg := err.Error(); !strings.HasPrefix(msg, bad+": ") || strings.Contains(msg, "\n") {
				t.Errorf("%v with byte %d = %#x: error %q; want one line naming the file", args, f.off, f.val, msg)
			}
		}
	}
}
