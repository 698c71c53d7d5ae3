package main

import (
	"os"
	"path/filepath"
	"testing"
)

// A CPU profile that cannot be written whole (a full disk: /dev/full) is
// an error, not an exit status 0 with an empty profile.
func TestCPUProfileOnAFullDisk(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full on this system")
	}
	trace := smallTrace(t, t.TempDir())
	wantOneLine(t, []string{"replay", "--trace", trace, "--cpuprofile", "/dev/full"}, "--cpuprofile: /dev/full: write /dev/full: no space left on device")
}

// So is a heap profile that cannot be written whole.
func TestMemProfileOnAFullDisk(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full on this system")
	}
	trace := smallTrace(t, t.TempDir())
	wantOneLine(t, []string{"replay", "--trace", trace, "--memprofile", "/dev/full"}, "--memprofile: /dev/full: write /dev/full: no space left on device")
}

// A heap profile is a whole gzip-compressed profile, even of a replay
// shorter than the interval at which the live heap is checked.
func TestMemProfileIsWritten(t *testing.T) {
	dir := t.TempDir()
	trace, prof := smallTrace(t, dir), filepath.Join(dir, "mem.prof")
	if _, stderr, code := benchProc(t, "replay", "--trace", trace, "--memprofile", prof); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	b, err := os.ReadFile(prof)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) < 64 || b[0] != 0x1f || b[1] != 0x8b {
		t.Fatalf("profile of %d bytes, not gzip: % x", len(b), b[:min(len(b), 8)])
	}
}
