package fuzzguard

import (
	"fmt"
	"testing"
	"time"
)

// recorder is a testing.TB that records Fatalf instead of stopping.
type recorder struct {
	testing.TB
	msg string
}

func (r *recorder) Helper() {}
func (r *recorder) Fatalf(format string, args ...any) {
	r.msg = fmt.Sprintf(format, args...)
}

// TestWithin: a function that hangs fails the test after the limit; one
// that returns does not.
func TestWithin(t *testing.T) {
	r := &recorder{TB: t}
	within(r, 50*time.Millisecond, func() { time.Sleep(time.Hour) })
	if r.msg == "" {
		t.Fatal("a hanging function did not fail the test")
	}
	r = &recorder{TB: t}
	within(r, time.Second, func() {})
	if r.msg != "" {
		t.Fatalf("a function that returned failed the test: %s", r.msg)
	}
}

// TestWithinPanics: a panic reaches the caller's goroutine, where the
// fuzzer records it.
func TestWithinPanics(t *testing.T) {
	defer func() {
		if p := recover(); p != "boom" {
			t.Fatalf("recovered %v, want boom", p)
		}
	}()
	Within(t, func() { panic("boom") })
}
