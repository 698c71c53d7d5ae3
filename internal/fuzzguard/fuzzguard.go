// Package fuzzguard bounds the time of one fuzz input, so that a reader
// that hangs on some input fails the fuzz run (with that input saved
// under testdata/fuzz) instead of stalling it: Go's fuzzing engine has no
// timeout of its own per input.
package fuzzguard

import (
	"testing"
	"time"
)

// Limit is how long one input may take. Every reader fuzzed here reads
// a small input in microseconds to milliseconds; seconds mean a hang.
const Limit = 10 * time.Second

// Within runs f and fails t if f has not returned within Limit. A panic
// in f is re-raised on t's goroutine, so the fuzzer records it as usual.
func Within(t testing.TB, f func()) {
	t.Helper()
	within(t, Limit, f)
}

func within(t testing.TB, limit time.Duration, f func()) {
	t.Helper()
	done := make(chan any, 1)
	go func() {
		defer func() { done <- recover() }()
		f()
	}()
	select {
	case p := <-done:
		if p != nil {
			panic(p)
		}
	case <-time.After(limit):
		t.Fatalf("no result after %v: the reader hangs on this input", limit)
	}
}
