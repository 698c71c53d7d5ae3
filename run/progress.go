package run

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
)

// Progress draws a progress bar of the replays of a run (an experiment,
// a sweep) on a terminal, or prints a line every few seconds to a file or
// pipe. It shows nothing for a run that takes less than a second. A nil
// *Progress reports nothing.
type Progress struct {
	w     io.Writer
	tty   bool
	mu    sync.Mutex
	name  string
	done  int
	all   int
	t0    time.Time
	last  time.Time
	shown bool
	drawn int // done at the last draw
}

// NewProgress reports to w; bars are redrawn in place when w is a
// terminal.
func NewProgress(w io.Writer) *Progress {
	p := &Progress{w: w}
	if f, ok := w.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			p.tty = true
		}
	}
	return p
}

const (
	progressDelay = time.Second // quiet for shorter runs
	ttyRedraw     = 100 * time.Millisecond
	lineEvery     = 3 * time.Second // when not on a terminal
)

// Start begins a run of total replays.
func (p *Progress) Start(name string, total int) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.name, p.done, p.all, p.t0, p.last, p.shown = name, 0, total, time.Now(), time.Time{}, false
}

// Step records one finished replay.
func (p *Progress) Step() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done++
	now := time.Now()
	if now.Sub(p.t0) < progressDelay {
		return
	}
	if every := map[bool]time.Duration{true: ttyRedraw, false: lineEvery}[p.tty]; now.Sub(p.last) < every {
		return
	}
	p.last = now
	p.draw(now)
}

// Finish ends the run's bar.
func (p *Progress) Finish() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.shown {
		if p.drawn != p.done {
			p.draw(time.Now())
		}
		if p.tty {
			fmt.Fprintln(p.w)
		}
	}
}

// Say prints a line (between runs).
func (p *Progress) Say(format string, args ...any) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprintf(p.w, format+"\n", args...)
}

func (p *Progress) draw(now time.Time) {
	const width = 30
	filled := width * p.done / max(1, p.all)
	bar := strings.Repeat("#", filled) + strings.Repeat("-", width-filled)
	line := fmt.Sprintf("%-8s [%s] %d/%d replays, %.0f s", p.name, bar, p.done, p.all, now.Sub(p.t0).Seconds())
	if p.tty {
		fmt.Fprintf(p.w, "\r%s", line)
	} else {
		fmt.Fprintln(p.w, line)
	}
	p.shown, p.drawn = true, p.done
}
