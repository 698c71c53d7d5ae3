package main

import (
	"os"
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
