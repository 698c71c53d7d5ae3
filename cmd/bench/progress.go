package main

import (
	"fmt"
	"io"
	"os"
	"time"
)

// progress prints "cmd: message (N s)" lines on stderr, at most every two
// seconds and only once a run has lasted two seconds.
type progress struct {
	w     io.Writer
	cmd   string
	start time.Time
	last  time.Time
}

const progressInterval = 2 * time.Second

func newProgress(w io.Writer, cmd string) *progress {
	if w == nil {
		w = os.Stderr
	}
	now := time.Now()
	return &progress{w: w, cmd: cmd, start: now, last: now}
}

func (p *progress) say(format string, args ...any) {
	now := time.Now()
	if now.Sub(p.last) < progressInterval {
		return
	}
	p.last = now
	fmt.Fprintf(p.w, "%s: %s (%.0f s)\n", p.cmd, fmt.Sprintf(format, args...), now.Sub(p.start).Seconds())
}

// done reports the total time of a long run.
func (p *progress) done() {
	if d := time.Since(p.start); d >= progressInterval {
		fmt.Fprintf(p.w, "%s: done in %.1f s\n", p.cmd, d.Seconds())
	}
}

// jobs reports jobs done so far; it fits the engines' Progress callbacks.
func (p *progress) jobs(done, total int) { p.say("%d/%d jobs", done, total) }
