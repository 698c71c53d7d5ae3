package main

import (
	"fmt"
	"io"
	"time"
)

// progressBar draws a one-line progressBar bar on stderr for runs that last
// longer than a couple of seconds; quick runs print nothing.
type progressBar struct {
	w       io.Writer
	label   string
	start   time.Time
	last    time.Time
	drawn   bool
	enabled bool
}

func newProgressBar(w io.Writer, label string) *progressBar {
	return &progressBar{w: w, label: label, start: time.Now(), enabled: true}
}

func (p *progressBar) update(done, total int) {
	now := time.Now()
	if !p.enabled || now.Sub(p.start) < 2*time.Second || now.Sub(p.last) < 200*time.Millisecond {
		return
	}
	p.last = now
	const width = 30
	fill := width * done / max(total, 1)
	bar := make([]byte, width)
	for i := range bar {
		bar[i] = '.'
		if i < fill {
			bar[i] = '#'
		}
	}
	fmt.Fprintf(p.w, "\r%s [%s] %d/%d %.0fs", p.label, bar, done, total, now.Sub(p.start).Seconds())
	p.drawn = true
}

func (p *progressBar) done() {
	if p.drawn {
		fmt.Fprintln(p.w)
	}
	p.drawn = false
}
