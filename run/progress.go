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
// pipe, with the time elapsed and an estimate of the time left. It shows
// nothing for a run that takes less than a second, and from the first
// second on it shows the run even while no replay has finished yet. A nil
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
	drawn int           // done at the last draw
	width int           // length of the line drawn last
	stop  chan struct{} // ends the ticker of the running run
	wg    sync.WaitGroup
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
	if p.stop != nil { // a run that was never finished
		close(p.stop)
	}
	p.name, p.done, p.all, p.t0, p.last, p.shown = name, 0, total, time.Now(), time.Time{}, false
	p.stop = make(chan struct{})
	p.mu.Unlock()
	p.wg.Add(1)
	go p.tick(p.stop)
}

// tick redraws while the run goes on, so that a run whose first replays
// are long still shows from its first second.
func (p *Progress) tick(stop chan struct{}) {
	defer p.wg.Done()
	t := time.NewTicker(ttyRedraw)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case now := <-t.C:
			p.mu.Lock()
			p.maybeDraw(now)
			p.mu.Unlock()
		}
	}
}

// maybeDraw draws once the run has lasted progressDelay, at most every
// redraw interval; p.mu is held.
func (p *Progress) maybeDraw(now time.Time) {
	if now.Sub(p.t0) < progressDelay {
		return
	}
	if every := map[bool]time.Duration{true: ttyRedraw, false: lineEvery}[p.tty]; now.Sub(p.last) < every {
		return
	}
	p.last = now
	p.draw(now)
}

// Step records one finished replay.
func (p *Progress) Step() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done++
	p.maybeDraw(time.Now())
}

// Finish ends the run's bar.
func (p *Progress) Finish() {
	if p == nil {
		return
	}
	p.mu.Lock()
	if p.stop != nil {
		close(p.stop)
		p.stop = nil
	}
	p.mu.Unlock()
	p.wg.Wait()
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
	elapsed := now.Sub(p.t0).Seconds()
	eta := "ETA –"
	switch {
	case p.done >= p.all:
		eta = "done"
	case p.done > 0:
		eta = fmt.Sprintf("ETA %.0f s", elapsed/float64(p.done)*float64(p.all-p.done))
	}
	line := fmt.Sprintf("%-8s [%s] %d/%d replays, %.0f s, %s", p.name, bar, p.done, p.all, elapsed, eta)
	if p.tty {
		fmt.Fprintf(p.w, "\r%-*s", p.width, line) // spaces cover a longer line drawn before
		p.width = len(line)
	} else {
		fmt.Fprintln(p.w, line)
	}
	p.shown, p.drawn = true, p.done
}
